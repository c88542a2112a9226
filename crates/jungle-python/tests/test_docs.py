"""The guides' Python snippets run as written (from the repository's root,
where `networks/default` is)."""

import re

import pytest

GUIDES = ["docs/guide/python.md", "docs/guide/network.md"]


def snippets(text):
    return [block for block in re.findall(r"```python\n(.*?)```", text, re.S) if "jungle_zero" in block]


@pytest.mark.parametrize("guide", GUIDES)
def test_guide_snippets_run(guide, repo, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    blocks = snippets((repo / guide).read_text())
    assert blocks, f"{guide} has no jungle_zero snippet"
    for block in blocks:
        exec(compile(block, guide, "exec"), {})
    assert capsys.readouterr().out.strip()
