#!/usr/bin/env bash
# Measures the Gibbs sweep as a ratio to a C floor of the same algorithm.
#
# The floor (floor.c, kept outside this repository, by default in
# ../shared/bench/ beside the checkout; see the README there) does the memory
# traffic and arithmetic of one GRRN sweep in C with -O3. This script builds
# it with gcc, builds the bnmf test binary, then runs the floor and
# BenchmarkSweep alternately at one worker (GOMAXPROCS=1 for Go, HP=1 for the
# floor, which backs its large arrays with huge pages as the project does)
# for R rounds, and prints per shape and model the median over the rounds of
# the per-round ratio ours / floor, its range, and the absolute times (the
# medians over the rounds of the floor's median_ms and of the benchmark's
# ns/op), with the date, machine and CPU.
#
# That floor implements GRRN only. GRRN's ratio is to it; every other
# model's is its time over the GRRN floor, labelled so. A second table
# gives each model's ratio to a floor of its own, in scripts/floor/ in
# this repository: priors.c does the sweep of each entry-wise prior (GEE,
# GTT, GTTN, GRRN, GEEA, GEG, GGGU, GLL, GLLI, GL21, GVnG, GVG) and NMF's
# multiplicative updates in C with the prior's own draws, rowwise.c that
# of the row-wise samplers (GGG, GGGA, GGGW: each line drawn as a block
# from its multivariate normal conditional) and poisson.c that of the
# Poisson ones (PGG, PGGG: the split of the counts and the Gamma draws);
# each round runs the floor once per model beside the benchmark. A model
# of the benchmark without one would be named below that table.
#
# Each row ends with its target and whether the median, as printed, is at
# or under it: GRRN over the GRRN floor at most 1.15x on the 100K and 1M
# shapes and 1.05x on the 25M shape; every other model at most 1.25x its
# own floor, all at K = 50 ("-" where a row has no target, and at any
# other K).
#
# The machine's speed drifts between runs, the ratio of interleaved runs much
# less; that is why the sides alternate (floor first in odd rounds, the
# benchmark first in even ones) and the ratio is taken within each round.
#
# Usage: scripts/floor-ratio.sh [flags]   (see --help)
#        scripts/floor-ratio.sh --summarize LOG   (re-print a kept log)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"

usage() {
	cat <<'EOF'
Usage: scripts/floor-ratio.sh [flags]

Builds ../shared/bench/floor.c (the C floor of a GRRN sweep), the C
floors of each sampler's own sweep in scripts/floor/ (priors.c: the
entry-wise priors and NMF; rowwise.c: GGG, GGGA, GGGW; poisson.c: PGG,
PGGG) and the bnmf test binary, runs the floors and BenchmarkSweep
interleaved at one worker for R rounds, and prints per shape and model the
median of the per-round ratios ours / floor, their range, and the absolute
times: first against the GRRN floor, then each model against its own.

Flags:
  --floor PATH       floor source (default: ../shared/bench/floor.c relative
                     to the repository root; also $BNMF_FLOOR_SRC)
  --rounds R         interleaved rounds (default 5)
  --models LIST      comma-separated models of BenchmarkSweep, or "all"
                     (default GRRN); in the first table every model is
                     over the GRRN floor, in the second over its own
  --own-floor DIR    the directory of the per-model floor sources
                     (priors.c, rowwise.c, poisson.c and floor.h; default
                     scripts/floor; a file in it names it too);
                     --own-floor none skips them
  --shapes LIST      comma-separated among ml100k, ml1m, ml25m (default
                     ml100k,ml1m)
  --25m              also the MovieLens 25M shape (GRRN only, K = 50;
                     needs about 2 GB and a minute or more per round)
  --k K              rank (default 50)
  --keep-log PATH    keep the raw log of every run (to re-print with
                     --summarize)
  --summarize LOG    print the summary of a kept log and exit
  -h, --help         this text

Without gcc it prints why and exits 0 ("skipped"); without the GRRN floor
at its default place it says so and measures against the own floors only.
Run it on a quiet machine: the sides must share it.
EOF
}

floor_src="${BNMF_FLOOR_SRC:-}"
own_dir="$root/scripts/floor"
rounds=5
models=GRRN
shapes=ml100k,ml1m
with25m=0
k=50
keep_log=""
summarize=""
# The command as given, for the log's meta lines.
command_line="scripts/floor-ratio.sh${*:+ $*}"

while [[ $# -gt 0 ]]; do
	case "$1" in
	-h | -help | --help)
		usage
		exit 0
		;;
	--floor) floor_src="${2:?--floor needs a path}"; shift 2 ;;
	--own-floor) own_dir="${2:?--own-floor needs a directory or none}"; shift 2 ;;
	--rounds) rounds="${2:?--rounds needs a number}"; shift 2 ;;
	--models) models="${2:?--models needs a list}"; shift 2 ;;
	--shapes) shapes="${2:?--shapes needs a list}"; shift 2 ;;
	--25m) with25m=1; shift ;;
	--k) k="${2:?--k needs a number}"; shift 2 ;;
	--keep-log) keep_log="${2:?--keep-log needs a path}"; shift 2 ;;
	--summarize) summarize="${2:?--summarize needs a log}"; shift 2 ;;
	*)
		echo "floor-ratio.sh: unknown argument $1; see scripts/floor-ratio.sh --help" >&2
		exit 2
		;;
	esac
done

# summarize LOG prints the table of a raw log. The log has one record per
# line: "meta key=value..." lines, then per run either
#   round=R side=floor shape=S <the floor's output line>
#   round=R side=own shape=S <an own floor's output line, with model=M>
#   round=R side=ours shape=S <a benchmark result line>
summarize_log() {
	awk '
	function median(a, n,    i, j, t, b) {
		for (i = 1; i <= n; i++) b[i] = a[i]
		for (i = 2; i <= n; i++) {
			t = b[i]
			for (j = i - 1; j >= 1 && b[j] > t; j--) b[j + 1] = b[j]
			b[j + 1] = t
		}
		if (n % 2) return b[(n + 1) / 2]
		return (b[n / 2] + b[n / 2 + 1]) / 2
	}
	# met says whether a median ratio, as printed (two decimals), is at or
	# under its target; "-" where the row has none.
	function met(r, tgt) {
		if (tgt == "-") return "-"
		return sprintf("%.2f", r) + 0 <= tgt + 0 ? "yes" : "no"
	}
	function field(key,    i) {
		for (i = 1; i <= NF; i++) if (index($i, key "=") == 1) return substr($i, length(key) + 2)
		return ""
	}
	$1 == "meta" { sub(/^meta /, ""); meta[++nmeta] = $0; next }
	{
		round = field("round"); side = field("side"); shape = field("shape")
		if (round == "" || side == "" || shape == "") next
		if (side == "floor") {
			ms = field("median_ms")
			if (ms == "") { printf "floor-ratio.sh: no median_ms in: %s\n", $0 > "/dev/stderr"; bad = 1; next }
			floor[shape, round] = ms + 0
			floorcpu[shape, round] = field("cpu_median_ms") + 0
			if (!((shape) in seenshape)) { seenshape[shape] = 1; shapeorder[++nshape] = shape }
			next
		}
		if (side == "own") {
			ms = field("median_ms"); model = field("model")
			if (ms == "" || model == "") { printf "floor-ratio.sh: no model or median_ms in: %s\n", $0 > "/dev/stderr"; bad = 1; next }
			own[shape, model, round] = ms + 0
			hasown = 1; ownmodel[model] = 1
			owncpu[shape, model, round] = field("cpu_median_ms") + 0
			if (!((shape) in seenshape)) { seenshape[shape] = 1; shapeorder[++nshape] = shape }
			next
		}
		# A benchmark line: name, iterations, then value-unit pairs.
		name = ""; nsop = ""; cpuns = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^Benchmark/) name = $i
			if ($i == "ns/op" && i > 1) nsop = $(i - 1)
			if ($i == "cpu-ns/op" && i > 1) cpuns = $(i - 1)
		}
		if (name == "" || nsop == "") next
		sub(/-[0-9]+$/, "", name)              # the -GOMAXPROCS suffix, if any
		n = split(name, part, "/")
		if (part[1] == "BenchmarkSweep25M") { model = "GRRN"; kk = "50" }
		else if (n >= 4) { model = part[2]; kk = part[4]; sub(/^K=/, "", kk) }
		else next
		key = shape SUBSEP model
		if (!(key in seenmodel)) {
			seenmodel[key] = 1; kof[key] = kk
			# GRRN, the model the floor implements, first.
			if (model == "GRRN") {
				for (i = ++nmodels[shape]; i > 1; i--) models[shape, i] = models[shape, i - 1]
				models[shape, 1] = model
			} else models[shape, ++nmodels[shape]] = model
		}
		ours[shape, model, round] = nsop / 1e6
		if (cpuns != "") ourscpu[shape, model, round] = cpuns / 1e6
		if (round + 0 > maxround) maxround = round + 0
	}
	END {
		for (i = 1; i <= nmeta; i++) print meta[i]
		print ""
		header = "| shape | K | model | measure | ratio (median) | range | ours ms | floor ms | CPU-time ratio | rounds | target | met |\n|---|---:|---|---|---:|---|---:|---:|---:|---:|---:|---|"
		nfloorrows = 0
		for (s = 1; s <= nshape; s++) {
			shape = shapeorder[s]
			for (m = 1; m <= nmodels[shape]; m++) {
				model = models[shape, m]
				n = 0; nc = 0
				for (r = 1; r <= maxround; r++) {
					if (!((shape, model, r) in ours) || !((shape, r) in floor)) continue
					n++
					ratio[n] = ours[shape, model, r] / floor[shape, r]
					o[n] = ours[shape, model, r]; f[n] = floor[shape, r]
					if (((shape, model, r) in ourscpu) && floorcpu[shape, r] > 0) cratio[++nc] = ourscpu[shape, model, r] / floorcpu[shape, r]
				}
				if (n == 0) continue
				anygrrn = 1
				lo = ratio[1]; hi = ratio[1]
				for (i = 2; i <= n; i++) { if (ratio[i] < lo) lo = ratio[i]; if (ratio[i] > hi) hi = ratio[i] }
				measure = model == "GRRN" ? "GRRN / its floor" : model " / GRRN floor"
				cr = nc == n ? sprintf("%.2f", median(cratio, nc)) : "-"
				# The targets: GRRN at K = 50 at most 1.15x the GRRN
				# floor on the 100K and 1M shapes, 1.05x on the 25M
				# shape; the other models have theirs over their own
				# floors (the second table).
				tgt = model != "GRRN" || kof[shape SUBSEP model] != 50 ? "-" : (shape == "ml25m" ? "1.05" : "1.15")
				if (nfloorrows++ == 0) print header
				printf "| %s | %s | %s | %s | %.2f | %.2f-%.2f | %.1f | %.1f | %s | %d | %s | %s |\n", shape, kof[shape SUBSEP model], model, measure, median(ratio, n), lo, hi, median(o, n), median(f, n), cr, n, tgt, met(median(ratio, n), tgt)
			}
		}
		# Each model over its own floor (scripts/floor/priors.c).
		nownrows = 0; nmissing = 0
		for (s = 1; s <= nshape; s++) {
			shape = shapeorder[s]
			for (m = 1; m <= nmodels[shape]; m++) {
				model = models[shape, m]
				n = 0; nc = 0
				for (r = 1; r <= maxround; r++) {
					if (!((shape, model, r) in ours) || !((shape, model, r) in own)) continue
					n++
					ratio[n] = ours[shape, model, r] / own[shape, model, r]
					o[n] = ours[shape, model, r]; f[n] = own[shape, model, r]
					if (((shape, model, r) in ourscpu) && owncpu[shape, model, r] > 0) cratio[++nc] = ourscpu[shape, model, r] / owncpu[shape, model, r]
				}
				if (n == 0) {
					if (hasown && !(model in ownmodel) && !(model in missing)) { missing[model] = 1; missorder[++nmissing] = model }
					continue
				}
				if (nownrows++ == 0) {
					if (nfloorrows > 0) print ""
					print "| shape | K | model | ours / its own floor (median) | range | ours ms | own floor ms | CPU-time ratio | rounds | target | met |"
					print "|---|---:|---|---:|---|---:|---:|---:|---:|---:|---|"
				}
				lo = ratio[1]; hi = ratio[1]
				for (i = 2; i <= n; i++) { if (ratio[i] < lo) lo = ratio[i]; if (ratio[i] > hi) hi = ratio[i] }
				cr = nc == n ? sprintf("%.2f", median(cratio, nc)) : "-"
				# Every sampler but GRRN (whose target is over the GRRN
				# floor) at most 1.25x its own floor, at K = 50.
				tgt = model == "GRRN" || kof[shape SUBSEP model] != 50 ? "-" : "1.25"
				printf "| %s | %s | %s | %.2f | %.2f-%.2f | %.1f | %.1f | %s | %d | %s | %s |\n", shape, kof[shape SUBSEP model], model, median(ratio, n), lo, hi, median(o, n), median(f, n), cr, n, tgt, met(median(ratio, n), tgt)
			}
		}
		if (nmissing > 0) {
			line = "no floor of their own:"
			for (i = 1; i <= nmissing; i++) line = line " " missorder[i]
			print ""
			print line
		}
		exit bad
	}' "$1"
}

if [[ -n "$summarize" ]]; then
	summarize_log "$summarize"
	exit 0
fi

[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "floor-ratio.sh: --rounds must be a positive integer, got $rounds" >&2; exit 2; }
[[ "$k" =~ ^[1-9][0-9]*$ ]] || { echo "floor-ratio.sh: --k must be a positive integer, got $k" >&2; exit 2; }

if [[ -z "$floor_src" ]]; then
	floor_src="$root/../shared/bench/floor.c"
	if [[ ! -f "$floor_src" ]]; then
		echo "floor-ratio.sh: no GRRN floor at $floor_src (give one with --floor PATH); measuring against the own floors only" >&2
		floor_src=""
	fi
elif [[ ! -f "$floor_src" ]]; then
	echo "floor-ratio.sh: no floor source at $floor_src" >&2
	exit 2
fi
if [[ "$own_dir" == none ]]; then
	own_dir=""
else
	if [[ -f "$own_dir" ]]; then
		own_dir="$(dirname "$own_dir")"
	fi
	if [[ ! -f "$own_dir/priors.c" || ! -f "$own_dir/floor.h" ]]; then
		echo "floor-ratio.sh: no own-floor sources (priors.c, floor.h) in $own_dir (--own-floor none to go without)" >&2
		exit 2
	fi
	own_dir="$(cd "$own_dir" && pwd)"
fi
if [[ -z "$floor_src" && -z "$own_dir" ]]; then
	echo "floor-ratio.sh: skipped: no floor to measure against"
	exit 0
fi
if ! command -v gcc >/dev/null 2>&1; then
	echo "floor-ratio.sh: skipped: gcc not found, cannot build the floors"
	exit 0
fi

# The models with a floor of their own, and the source of each.
own_models=(GEE GTT GTTN GRRN GEEA GEG GGGU GLL GLLI GL21 GVnG GVG NMF GGG GGGA GGGW PGG PGGG)
own_source() { # model: the floor source's name, without .c
	case "$1" in
	GGG | GGGA | GGGW) echo rowwise ;;
	PGG | PGGG) echo poisson ;;
	*) echo priors ;;
	esac
}
own_run=()
own_srcs=()
if [[ -n "$own_dir" ]]; then
	for m in "${own_models[@]}"; do
		if [[ "$models" == all || ",$models," == *",$m,"* ]]; then
			own_run+=("$m")
			src="$(own_source "$m")"
			if [[ " ${own_srcs[*]:-} " != *" $src "* ]]; then
				if [[ ! -f "$own_dir/$src.c" ]]; then
					echo "floor-ratio.sh: no own-floor source $own_dir/$src.c for $m" >&2
					exit 2
				fi
				own_srcs+=("$src")
			fi
		fi
	done
fi

# The shapes: name, the floor's arguments (M N nnz K sweeps mode gen exact),
# the benchmark pattern and its number of sweeps. Mode 0 is the full sweep
# with the hyperparameter draws, exact 1 recomputes the Z side's residuals as
# the project does; gen 1 places the 25M entries strided as
# internal/synthetic.ML25M does.
if [[ "$models" == all ]]; then
	model_re='.*'
else
	[[ "$models" =~ ^[A-Za-z0-9]+(,[A-Za-z0-9]+)*$ ]] || { echo "floor-ratio.sh: --models must be a comma-separated list of names, got $models" >&2; exit 2; }
	model_re="^(${models//,/|})\$"
fi
runs=()
IFS=, read -r -a shape_list <<<"$shapes"
for s in "${shape_list[@]}"; do
	case "$s" in
	ml100k) runs+=("ml100k;943 1473 99723 $k 20 0 0 1;BenchmarkSweep\$/$model_re/^ml100k\$/^K=$k\$;20x") ;;
	ml1m) runs+=("ml1m;6040 3503 999917 $k 10 0 0 1;BenchmarkSweep\$/$model_re/^ml1m\$/^K=$k\$;10x") ;;
	ml25m) with25m=1 ;;
	*) echo "floor-ratio.sh: unknown shape $s (ml100k, ml1m, ml25m)" >&2; exit 2 ;;
	esac
done
if [[ $with25m == 1 ]]; then
	runs+=("ml25m;162541 59047 25000095 50 2 0 1 1;BenchmarkSweep25M\$/^float64\$;2x")
fi

if [[ $with25m == 1 && $k != 50 ]]; then
	echo "floor-ratio.sh: the 25M benchmark (BenchmarkSweep25M) is at K = 50 only; drop --k or the 25M shape" >&2
	exit 2
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/floor-ratio.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
log="$tmp/log"

own_note="no own floors"
if [[ -n "$own_dir" ]]; then
	own_note="own floors ${own_srcs[*]:-none} in $own_dir"
fi
echo "building the floors (${floor_src:-no GRRN floor}; $own_note) and the test binary ..." >&2
if [[ -n "$floor_src" ]]; then
	gcc -O3 -march=native -ffast-math -o "$tmp/floor" "$floor_src" -lm
fi
for src in "${own_srcs[@]}"; do
	gcc -O3 -march=native -ffast-math -o "$tmp/own-$src" "$own_dir/$src.c" -lm
done
(cd "$root" && go test -c -o "$tmp/bnmf.test" ./bnmf)

cpu="$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)"
[[ -n "$cpu" ]] || cpu="$(sysctl -n machdep.cpu.brand_string 2>/dev/null || echo unknown)"
rev="$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [[ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]]; then
	rev="$rev+dirty"
fi
{
	echo "meta date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "meta machine: $(uname -m), $cpu, $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') CPUs"
	echo "meta build: $rev, $(go version | awk '{ print $3 }'), $(gcc -dumpfullversion 2>/dev/null || gcc -dumpversion) -O3 -march=native -ffast-math"
	echo "meta runs: $rounds interleaved rounds, one worker (GOMAXPROCS=1; floor HP=1), ratio = ours ns/op / floor median_ms per round (CPU-time ratio: cpu-ns/op / cpu_median_ms)"
	own_list=""
	for src in "${own_srcs[@]}"; do
		own_list="$own_list${own_list:+, }${own_dir#"$root"/}/$src.c"
	done
	echo "meta floors: ${floor_src:+GRRN floor $(basename "$floor_src")}${floor_src:+${own_dir:+; }}${own_dir:+own floors ${own_list:-none} for ${own_run[*]:-none}}"
	echo "meta command: $command_line (rounds $rounds, models $models, shapes $shapes, K = $k$([[ $with25m == 1 ]] && echo ', with 25M'))"
} >"$log"

run_floor() { # round shape args
	local out args
	read -r -a args <<<"$3"
	if ! out="$(HP=1 "$tmp/floor" "${args[@]}")"; then
		echo "floor-ratio.sh: the floor failed (floor ${args[*]}); its output was:" >&2
		echo "$out" >&2
		exit 1
	fi
	echo "round=$1 side=floor shape=$2 $out" >>"$log"
	echo "  round $1 $2 floor: $(sed -n 's/.* \(median_ms=[0-9.]*\).*/\1/p' <<<"$out")" >&2
}
run_own() { # round shape args: each model's own floor, on the shape's M N nnz K sweeps
	local out args m src
	read -r -a args <<<"$3"
	for m in "${own_run[@]}"; do
		src="$(own_source "$m")"
		if ! out="$(HP=1 "$tmp/own-$src" "$m" "${args[@]:0:5}")"; then
			echo "floor-ratio.sh: the own floor failed ($src $m ${args[*]:0:5}); its output was:" >&2
			echo "$out" >&2
			exit 1
		fi
		echo "round=$1 side=own shape=$2 $out" >>"$log"
		echo "  round $1 $2 own floor $m: $(sed -n 's/.* \(median_ms=[0-9.]*\).*/\1/p' <<<"$out")" >&2
	done
}
run_floors() { # round shape args: the GRRN floor, then the own floors
	if [[ -n "$floor_src" ]]; then
		run_floor "$@"
	fi
	if [[ "$2" != ml25m ]]; then
		run_own "$@"
	fi
}
run_ours() { # round shape pattern benchtime
	local out line n=0
	if ! out="$(cd "$root/bnmf" && GOMAXPROCS=1 "$tmp/bnmf.test" -test.run '^$' -test.bench "$3" -test.benchtime "$4")"; then
		echo "floor-ratio.sh: the benchmark failed ($3); its output was:" >&2
		echo "$out" >&2
		exit 1
	fi
	while IFS= read -r line; do
		if [[ "$line" == Benchmark*ns/op* ]]; then
			echo "round=$1 side=ours shape=$2 $line" >>"$log"
			echo "  round $1 $2 ours: $(awk '{ print $1, $3, $4 }' <<<"$line")" >&2
			n=$((n + 1))
		fi
	done <<<"$out"
	if [[ $n == 0 ]]; then
		echo "floor-ratio.sh: the benchmark pattern $3 matched nothing; output was:" >&2
		echo "$out" >&2
		exit 1
	fi
}

for ((r = 1; r <= rounds; r++)); do
	for run in "${runs[@]}"; do
		IFS=';' read -r shape fargs pattern benchtime <<<"$run"
		if ((r % 2)); then
			run_floors "$r" "$shape" "$fargs"
			run_ours "$r" "$shape" "$pattern" "$benchtime"
		else
			run_ours "$r" "$shape" "$pattern" "$benchtime"
			run_floors "$r" "$shape" "$fargs"
		fi
	done
done

if [[ -n "$keep_log" ]]; then
	cp "$log" "$keep_log"
fi
summarize_log "$log"
