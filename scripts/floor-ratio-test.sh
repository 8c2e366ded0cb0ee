#!/usr/bin/env bash
# Checks the summary of scripts/floor-ratio.sh on a made-up log
# (scripts/testdata/floor-ratio.log) whose numbers give the answers below by
# hand; it times nothing. Exit status 1 and a diff when the summary differs.
#
# 100K: floor medians 10, 20, 40 ms; GRRN 12, 22, 60 ms, so ratios 1.2,
# 1.1, 1.5 (median 1.20, range 1.10-1.50, medians 22 and 20 ms) and CPU-time
# ratios 11/10, 22/20, 26/20 (median 1.10); GEE 9, 16, 40 ms, over the GRRN
# floor 0.9, 0.8, 1.0 (median 0.90), CPU 0.9, 0.8, 1.0. Round 1 names carry
# a -GOMAXPROCS suffix, which must not show in the K column. GVG, in round 1
# only, 30 ms over 10 (3.00). 25M: two rounds, ratios 1.1 and 1.3, so the
# median is their mean, 1.20.
#
# Own floors (100K only): GRRN's 10, 20, 50 ms (CPU 10, 20, 20), so ratios
# 1.2, 1.1, 1.2 (median 1.20, range 1.10-1.20) and CPU-time ratios 1.1, 1.1,
# 1.3 (1.10); GEE's 6, 10, 20 ms (CPU 6, 10, 10), so ratios 1.5, 1.6, 2.0
# (median 1.60) and a median own floor of 10 ms: taken as numbers, not
# strings, which would sort "6.000" after "20.000". GVG has no own floor
# and is named as such; GRRN's missing own floor at 25M names nothing.
set -euo pipefail
cd "$(dirname "$0")"
want='date: 2026-01-02 03:04 UTC
machine: x86_64, test CPU, 2 CPUs

| shape | K | model | measure | ratio (median) | range | ours ms | floor ms | CPU-time ratio | rounds |
|---|---:|---|---|---:|---|---:|---:|---:|---:|
| ml100k | 50 | GRRN | GRRN / its floor | 1.20 | 1.10-1.50 | 22.0 | 20.0 | 1.10 | 3 |
| ml100k | 50 | GEE | GEE / GRRN floor | 0.90 | 0.80-1.00 | 16.0 | 20.0 | 0.90 | 3 |
| ml100k | 50 | GVG | GVG / GRRN floor | 3.00 | 3.00-3.00 | 30.0 | 10.0 | 3.00 | 1 |
| ml25m | 50 | GRRN | GRRN / its floor | 1.20 | 1.10-1.30 | 1200.0 | 1000.0 | 1.20 | 2 |

| shape | K | model | ours / its own floor (median) | range | ours ms | own floor ms | CPU-time ratio | rounds |
|---|---:|---|---:|---|---:|---:|---:|---:|
| ml100k | 50 | GRRN | 1.20 | 1.10-1.20 | 22.0 | 20.0 | 1.10 | 3 |
| ml100k | 50 | GEE | 1.60 | 1.50-2.00 | 16.0 | 10.0 | 1.60 | 3 |

no floor of their own: GVG'
got="$(./floor-ratio.sh --summarize testdata/floor-ratio.log)"
if [[ "$got" != "$want" ]]; then
	echo "floor-ratio-test.sh: FAIL, the summary differs (< want, > got):"
	diff <(echo "$want") <(echo "$got") || true
	exit 1
fi
echo "floor-ratio-test.sh: ok"
