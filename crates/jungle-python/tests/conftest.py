"""Shared paths of the tests: the repository and the `jungle` binary the
native module is compared with."""

import os
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def repo() -> pathlib.Path:
    return REPO


@pytest.fixture(scope="session")
def jungle() -> str:
    """The `jungle` binary: $JUNGLE, else target/release/jungle (built by
    `cargo build --release`)."""
    path = os.environ.get("JUNGLE", str(REPO / "target" / "release" / "jungle"))
    assert os.access(path, os.X_OK), f"no jungle binary at {path}: build it (cargo build --release) or set JUNGLE"
    return path


@pytest.fixture(scope="session")
def shipped() -> pathlib.Path:
    """The shipped network's folder (checkpoint and export)."""
    return REPO / "networks" / "default"
