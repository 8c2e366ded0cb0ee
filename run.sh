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

usage() {
  cat <<'USAGE'
Usage: ./run.sh [CONFIG...]

Builds bin/bnmf, runs the studies the YAML configs describe (default:
configs/quick.yaml, a synthetic demo of under a minute) and renders each
study's report (STUDY_DIR/README.md, figures/ and tables/). Running the
same config again resumes it. MovieLens configs read the data directory
$BNMF_DATA_DIR (default ./data; bin/bnmf data fetch movielens-100k).

Extra flags for "bnmf run" go in BNMF_RUN_FLAGS, for example
BNMF_RUN_FLAGS="--workers 4 --repeats 3"; see bin/bnmf run --help.
USAGE
}

for arg in "$@"; do
  case "$arg" in
  -h | -help | --help)
    usage
    exit 0
    ;;
  -*)
    echo "run.sh: unknown flag $arg (flags for bnmf run go in BNMF_RUN_FLAGS)" >&2
    usage >&2
    exit 2
    ;;
  esac
done

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
