#!/usr/bin/env bash
# Starts a local S3-compatible server for the tests (moto's server from PyPI:
# it keeps S3's conditional writes, If-None-Match and If-Match, which the
# run's lease needs, and with authentication on it refuses unknown keys),
# makes a bucket and a user with a key, and writes the environment the tests
# and `jungle` read to the file named by $1:
#
#   scripts/s3_server.sh /tmp/s3.env && . /tmp/s3.env
#   cargo test -p jungle-store        # the S3 contract and bad-input tests
#   kill "$JUNGLE_S3_PID"             # when done
#
# Needs python3; installs into target/s3-venv (once). Port: $JUNGLE_S3_PORT
# or 9000.
set -euo pipefail
cd "$(dirname "$0")/.."
env_file="${1:?usage: scripts/s3_server.sh ENV_FILE}"
port="${JUNGLE_S3_PORT:-9000}"
venv="target/s3-venv"
# (Re)made when missing or broken, e.g. after target/ was moved: a venv's
# scripts name their interpreter by absolute path.
if ! "$venv/bin/python" -c "import moto, boto3" 2>/dev/null; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet 'moto[server]==5.2.5' 'boto3>=1.35'
fi
if python3 -c "import socket, sys; socket.create_connection(('127.0.0.1', $port), 1)" 2>/dev/null; then
    echo "scripts/s3_server.sh: port $port is already in use (another S3 server still running?); stop it or set JUNGLE_S3_PORT" >&2
    exit 1
fi
log="target/s3-server.log"
# Four requests without credentials make the bucket, the user, its policy
# and its key; every request after them must be signed with that key.
INITIAL_NO_AUTH_ACTION_COUNT=4 nohup "$venv/bin/python" -m moto.server -H 127.0.0.1 -p "$port" > "$log" 2>&1 &
pid=$!
up=no
for _ in $(seq 150); do
    if "$venv/bin/python" -c "import socket; socket.create_connection(('127.0.0.1', $port), 1)" 2>/dev/null; then
        up=yes
        break
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
        break
    fi
    sleep 0.2
done
if [ "$up" != yes ]; then
    echo "error: the S3 server did not start on 127.0.0.1:$port; its log ($log):" >&2
    cat "$log" >&2
    kill "$pid" 2>/dev/null || true
    exit 1
fi
"$venv/bin/python" - "$port" "$pid" > "$env_file" <<'PY'
import json, sys
import boto3
port, pid = sys.argv[1], sys.argv[2]
endpoint = f"http://127.0.0.1:{port}"
anon = dict(endpoint_url=endpoint, aws_access_key_id="setup", aws_secret_access_key="setup", region_name="us-east-1")
boto3.client("s3", **anon).create_bucket(Bucket="jungle-test")
iam = boto3.client("iam", **anon)
iam.create_user(UserName="jungle")
iam.put_user_policy(UserName="jungle", PolicyName="s3", PolicyDocument=json.dumps(
    {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}))
key = iam.create_access_key(UserName="jungle")["AccessKey"]
print(f"export AWS_ENDPOINT_URL={endpoint}")
print("export AWS_REGION=us-east-1")
print(f"export AWS_ACCESS_KEY_ID={key['AccessKeyId']}")
print(f"export AWS_SECRET_ACCESS_KEY={key['SecretAccessKey']}")
print("export JUNGLE_TEST_S3_URL=s3://jungle-test/contract")
print(f"export JUNGLE_S3_PID={pid}")
PY
echo "S3 server on http://127.0.0.1:$port (pid $pid, log $log); environment in $env_file"
