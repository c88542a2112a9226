#!/usr/bin/env python3
"""Checks deploy/kubernetes/jungle.yaml offline, as CI does.

Usage: python3 scripts/check_k8s.py [FILE]

Validates every resource against Kubernetes' schemas with
kubernetes-validate (strict: an unknown field is an error), then checks
what a real cluster would otherwise get wrong: workloads are Jobs whose
pods restart only on failure (a finished run completes instead of
restarting into CrashLoopBackOff), images are pulled only when absent and
not tagged `latest` (which Kubernetes always pulls), the trainer keeps a
fixed host name (its store lease), the training config comes from a
ConfigMap and is passed with --config, and a gs:// key file is mounted
from a Secret. Needs kubernetes-validate and PyYAML (pip install
kubernetes-validate).
"""

import subprocess
import sys

import yaml


def fail(message):
    print(f"check_k8s: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "deploy/kubernetes/jungle.yaml"
    validate = [sys.executable, "-m", "kubernetes_validate", "--strict", "--quiet", path]
    if subprocess.run(validate).returncode != 0:
        fail(f"{path}: does not validate against the Kubernetes schemas")
    with open(path) as f:
        docs = [d for d in yaml.safe_load_all(f) if d]
    by_kind = {}
    for d in docs:
        by_kind.setdefault(d["kind"], {})[d["metadata"]["name"]] = d
    workloads = {k: v for k, v in by_kind.items() if k in ("Deployment", "StatefulSet", "DaemonSet")}
    if workloads:
        fail(f"workloads that restart finished pods: {sorted(workloads)}; use Jobs")
    jobs = by_kind.get("Job", {})
    for name in ("jungle-trainer", "jungle-worker"):
        if name not in jobs:
            fail(f"no Job {name}")
    for name, job in jobs.items():
        pod = job["spec"]["template"]["spec"]
        if pod.get("restartPolicy") not in ("OnFailure", "Never"):
            fail(f"Job {name}: restartPolicy {pod.get('restartPolicy')!r}, expected OnFailure or Never")
        for c in pod["containers"]:
            image = c["image"]
            if ":" not in image or image.endswith(":latest"):
                fail(f"Job {name}: image {image!r} is (implicitly) :latest, which Kubernetes always pulls")
            if c.get("imagePullPolicy") not in ("IfNotPresent", "Never"):
                fail(f"Job {name}: imagePullPolicy {c.get('imagePullPolicy')!r}, expected IfNotPresent")
            mounts = {m["name"]: m["mountPath"] for m in c.get("volumeMounts", [])}
            if mounts.get("gcs-key") != "/secrets/gcs":
                fail(f"Job {name}: no gs:// key file mounted at /secrets/gcs")
    trainer = jobs["jungle-trainer"]["spec"]["template"]["spec"]
    if not trainer.get("hostname"):
        fail("the trainer's pod has no fixed hostname: a rescheduled pod would wait out its own lease")
    args = trainer["containers"][0]["args"]
    if "--config" not in args:
        fail("the trainer gets no --config")
    config = args[args.index("--config") + 1]
    mounted = {v["name"]: v for v in trainer.get("volumes", [])}
    cm_name = mounted.get("config", {}).get("configMap", {}).get("name")
    if cm_name not in by_kind.get("ConfigMap", {}) or "config.toml" not in by_kind["ConfigMap"][cm_name]["data"]:
        fail(f"--config {config}: no ConfigMap with config.toml mounted as `config`")
    run = by_kind["ConfigMap"].get("jungle-run", {}).get("data", {})
    if run.get("GOOGLE_SERVICE_ACCOUNT") != "/secrets/gcs/key.json":
        fail("GOOGLE_SERVICE_ACCOUNT does not name the mounted key file")
    print(f"check_k8s: OK: {path}: {len(docs)} resources validate; Jobs, pull policy, host name, config, key file")


if __name__ == "__main__":
    main()
