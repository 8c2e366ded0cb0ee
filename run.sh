#!/usr/bin/env bash
# Builds bnmf, runs the studies that the given configs describe (default:
# configs/quick.yaml, a synthetic demo) and renders the report of each.
# Needs only Go; MovieLens configs need the data, which is downloaded into
# $BNMF_DATA_DIR (default ./data) when it is not there.
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
configs/quick.yaml, a synthetic demo) and renders each study's report
(STUDY_DIR/README.md, figures/ and tables/). From a fresh clone with an
empty Go build cache, the demo took 52 s on two busy cores: about 49 s
compiling, 3 s running and rendering; once built, 3 s. Running the
same config again resumes it. MovieLens configs read the data directory
$BNMF_DATA_DIR (default ./data); a dataset missing there is downloaded
first (bin/bnmf data fetch, checked against its official digest or
counts), and without a network the run stops saying how to get it.
The CCLE configs on integer-cast values (configs/blio-ccle-*-integer*)
first write their triplets to data/blio-integer/ with python3
(scripts/brouwer-lio-integer-triplets.py) when they are missing.

Extra flags for "bnmf run" go in BNMF_RUN_FLAGS, for example
BNMF_RUN_FLAGS="--workers 4 --repeats 3"; see bin/bnmf run --help.
Ctrl-C or SIGTERM stops the run within a sweep, keeping finished cells.
The exit status is bnmf run's: 3 when some cells failed (the reports
are rendered all the same), 4 when another running bnmf holds cells
that were not stored yet (no reports), 130 or 143 after SIGINT or
SIGTERM.
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

# The CCLE studies on the values as Brouwer & Lio's experiments read them
# (configs/blio-ccle-*-integer*.yaml) read triplets files derived from the
# CCLE matrices under data/blio-integer/, which are never committed:
# write them first when a config needs them and they are missing.
integer_dir=data/blio-integer
for config in "$@"; do
  grep -q "path: $integer_dir/" "$config" 2>/dev/null || continue
  [ -f "$integer_dir/ccle-ic50.tsv" ] && [ -f "$integer_dir/ccle-ec50.tsv" ] && break
  if ! command -v python3 >/dev/null 2>&1; then
    echo "run.sh: $config reads $integer_dir/, which scripts/brouwer-lio-integer-triplets.py writes; it needs python3, which is not installed" >&2
    exit 1
  fi
  bin/bnmf data fetch ccle-ic50 ccle-ec50 >&2
  python3 scripts/brouwer-lio-integer-triplets.py "${BNMF_DATA_DIR:-data}/bmf-priors" "$integer_dir" >&2
  break
done

# bnmf run prints the output directory of each study it completes. It
# runs in the background so that a SIGTERM sent to this script (by kill,
# timeout or a scheduler) reaches it: bnmf then stops within a sweep and
# keeps every finished cell, as on Ctrl-C, which the terminal sends to
# both. Its exit status is 3 when it finished but some cells failed; the
# reports are rendered then too, and this script exits 3 after them.
dirs_file=$(mktemp)
trap 'rm -f "$dirs_file"' EXIT
# shellcheck disable=SC2086 # BNMF_RUN_FLAGS is split into flags on purpose
# --fetch downloads a MovieLens dataset that a config needs and the data
# directory lacks, checked against its official digest or counts.
bin/bnmf run --fetch ${BNMF_RUN_FLAGS:-} "$@" >"$dirs_file" &
bnmf_pid=$!
trap 'kill -TERM "$bnmf_pid" 2>/dev/null || true' TERM
# Ctrl-C reaches bnmf from the terminal; this script waits for it to stop.
trap ':' INT
# A trapped signal ends "wait" early; wait again until bnmf has exited.
status=0
wait "$bnmf_pid" || status=$?
while kill -0 "$bnmf_pid" 2>/dev/null; do
  status=0
  wait "$bnmf_pid" || status=$?
done
if [ "$status" -ne 0 ] && [ "$status" -ne 3 ]; then
  exit "$status"
fi

while IFS= read -r dir; do
  [ -n "$dir" ] || continue
  bin/bnmf report "$dir"
  echo "Report: $dir/README.md" >&2
done <"$dirs_file"
exit "$status"
