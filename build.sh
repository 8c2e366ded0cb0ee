#!/usr/bin/env bash
# Builds bin/bnmf, stamping it with the source revision that every record
# it writes will name. Needs only Go; git is used when present.
#
# Go would mark a build from a checkout "modified" whenever any file is
# untracked, so a build during a run, with new result files beside the
# source, would be stamped dirty. The revision is therefore passed
# explicitly (-X main.buildRevision), with "+dirty" when a tracked file
# outside results/ differs from it, when an untracked file could be
# compiled in (*.go, go.mod, go.sum, or any file in a package directory,
# which go:embed may read), or when git cannot tell. Outside git, Go's own
# stamp is used (-buildvcs=auto overrides a GOFLAGS=-buildvcs=false).
#
# Usage: ./build.sh [OUTPUT]   (default bin/bnmf)
set -euo pipefail
cd "$(dirname "$0")"

case "${1:-}" in
-h | -help | --help)
  echo "Usage: ./build.sh [OUTPUT]"
  echo
  echo "Builds bin/bnmf (or OUTPUT), stamped with the git revision every record"
  echo "it writes will name (+dirty when the source differs from it)."
  exit 0
  ;;
-*)
  echo "build.sh: unknown flag $1; see ./build.sh --help" >&2
  exit 2
  ;;
esac
if [ "$#" -gt 1 ]; then
  echo "build.sh: want at most one OUTPUT, got $#; see ./build.sh --help" >&2
  exit 2
fi
out=${1:-bin/bnmf}
mkdir -p "$(dirname "$out")"
ldflags=""
if rev=$(git rev-parse HEAD 2>/dev/null); then
  dirty=""
  if ! changed=$(git status --porcelain --untracked-files=no -- . ':(exclude)results') ||
     ! untracked=$(git ls-files --others --exclude-standard -- '*.go' go.mod go.sum \
                     bnmf cmd dataset experiments internal regression report); then
    dirty=1
  elif [ -n "$changed" ] || [ -n "$untracked" ]; then
    dirty=1
  fi
  if [ -n "$dirty" ]; then
    rev="$rev+dirty"
  fi
  ldflags="-X main.buildRevision=$rev"
fi
go build -buildvcs=auto -ldflags "$ldflags" -o "$out" ./cmd/bnmf
