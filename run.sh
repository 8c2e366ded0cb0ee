#!/usr/bin/env bash
# Builds bnmf, runs the studies that the given configs describe (default:
# configs/quick.yaml, a synthetic demo of under a minute) and renders the
# report of each. Needs only Go; MovieLens configs need the data
# (bin/bnmf data fetch movielens-100k, or BNMF_DATA_DIR set).
#
# Usage: ./run.sh [CONFIG...]
# Extra flags for "bnmf run" can be passed in BNMF_RUN_FLAGS, such as
# BNMF_RUN_FLAGS="--workers 4".
set -euo pipefail

cd "$(dirname "$0")"

if ! command -v go >/dev/null 2>&1; then
  echo "run.sh: Go is not installed; see https://go.dev/doc/install" >&2
  exit 1
fi

if [ "$#" -eq 0 ]; then
  set -- configs/quick.yaml
fi

echo "Building bin/bnmf..." >&2
./build.sh bin/bnmf

# bnmf run prints the output directory of each study it completes.
# shellcheck disable=SC2086 # BNMF_RUN_FLAGS is split into flags on purpose
dirs=$(bin/bnmf run ${BNMF_RUN_FLAGS:-} "$@")

while IFS= read -r dir; do
  [ -n "$dir" ] || continue
  bin/bnmf report "$dir"
  echo "Report: $dir/README.md" >&2
done <<< "$dirs"
