#!/bin/bash
# Submits a run's trainer and WORKERS workers (default 16):
#   STORE_URL=s3://my-bucket/jungle RUN=main WORKERS=16 deploy/slurm/submit.sh
set -euo pipefail
here=$(dirname "$0")
: "${STORE_URL:?set STORE_URL}"
export STORE_URL RUN=${RUN:-main}
sbatch --export=ALL "$here/trainer.sbatch"
sbatch --export=ALL --array=0-$((${WORKERS:-16} - 1)) "$here/workers.sbatch"
