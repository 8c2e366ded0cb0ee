#!/usr/bin/env bash
# End-to-end test of docs/cluster.md against a real Slurm. It brings up a
# single-node cluster on this host and runs a small study
# (scripts/slurm-e2e.yaml, 40 cells of well under a second each)
#   1. as the job array of "Slurm job array", every task writing into one
#      shared output directory;
#   1b. resubmitting task 3 alone after removing one of its records, which
#      must run just that cell and keep the first run's log;
#   2. in one process outside Slurm;
#   3. as the array of "Separate directories", each task writing its own
#      directory, merged by a job that depends on the array;
# and checks that 1 and 3 give records equal to 2's in everything but
# wall times. It prints a summary ending in PASS or FAIL (exit status 1).
#
# It needs root: it installs slurm-wlm, munge (and python3, for the
# comparison) with apt-get when they are missing, writes a slurm.conf,
# and starts munged (unless one is already running), slurmctld and slurmd.
# On exit, also after a failure or Ctrl-C, it cancels its jobs, stops the
# daemons it started and removes the slurm.conf it wrote; the packages stay
# installed, and the work directory (job scripts, logs, results) is kept
# for inspection until the next run replaces it. It is not part of
# ./test.sh.
#
# The job scripts are not written here: each is read from docs/cluster.md
# (the first ```bash block after a given heading) and only its sizes are
# scaled down (array 0-3, --shards 4, one CPU, minutes instead of a day)
# and its config replaced by scripts/slurm-e2e.yaml, so that what passes
# is what the document tells people to submit.
#
# Usage: scripts/slurm-e2e.sh
# Environment:
#   SLURM_CONF        the slurm.conf to write and use (default
#                     /etc/slurm/slurm.conf); one not written by this
#                     script is never overwritten
#   BNMF_E2E_DIR      where state, logs and results go (default
#                     /tmp/bnmf-slurm-e2e; emptied at the start)
#   BNMF_E2E_TIMEOUT  seconds to wait for each job array (default 300)
set -euo pipefail

usage() {
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
}
case "${1:-}" in
-h | -help | --help)
  usage
  exit 0
  ;;
"") ;;
*)
  echo "slurm-e2e.sh: takes no arguments, got $1; see scripts/slurm-e2e.sh --help" >&2
  exit 2
  ;;
esac

repo=$(cd "$(dirname "$0")/.." && pwd)
export SLURM_CONF=${SLURM_CONF:-/etc/slurm/slurm.conf}
top=${BNMF_E2E_DIR:-/tmp/bnmf-slurm-e2e}
timeout=${BNMF_E2E_TIMEOUT:-300}
state=$top/state # Slurm's spool, state, pid and log files
work=$top/work   # stands for the repository root on a shared file system
marker="# Written by bnmf scripts/slurm-e2e.sh; removed when it exits."

log() { printf '[%s] %s\n' "$(date +%T)" "$*"; }
die() {
  printf 'slurm-e2e: %s\n' "$*" >&2
  exit 1
}
# now prints the time in seconds; since T prints the seconds since T.
now() { printf '%s' "${EPOCHREALTIME/,/.}"; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

if [ "$(id -u)" -ne 0 ]; then
  die "must run as root: it installs slurm-wlm and munge with apt-get, and starts munged, slurmctld and slurmd (try: sudo $0)"
fi
case $timeout in
'' | *[!0-9]*) die "BNMF_E2E_TIMEOUT=$timeout is not a number of seconds" ;;
esac
command -v go >/dev/null || die "go not found: ./build.sh needs it to build bin/bnmf"

# --- Cleanup --------------------------------------------------------------
# Everything started is recorded here, so that the trap stops exactly that
# and nothing else: daemons by their process id, jobs by their job id.
daemon_pids=()  # in start order; stopped in reverse
daemon_names=()
job_ids=()
wrote_conf=""

cleanup() {
  local rc=$? i pid n
  trap - EXIT INT TERM
  if [ "${#job_ids[@]}" -gt 0 ] && command -v scancel >/dev/null; then
    scancel "${job_ids[@]}" 2>/dev/null || true
    # Let slurmd end the jobs' processes before it is stopped itself.
    for _ in 1 2 3 4 5 6 7 8 9 10; do
      [ -z "$(squeue -h -j "$(IFS=,; echo "${job_ids[*]}")" 2>/dev/null)" ] && break
      sleep 1
    done
  fi
  for ((i = ${#daemon_pids[@]} - 1; i >= 0; i--)); do
    pid=${daemon_pids[i]}
    kill "$pid" 2>/dev/null || continue
    for ((n = 0; n < 50; n++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.2
    done
    if kill -0 "$pid" 2>/dev/null; then
      kill -KILL "$pid" 2>/dev/null || true
    fi
    log "stopped ${daemon_names[i]} (pid $pid)"
  done
  if [ -n "$wrote_conf" ]; then
    rm -f "$SLURM_CONF"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- Packages ---------------------------------------------------------------
missing=()
for tool in slurmctld:slurmctld slurmd:slurmd sbatch:slurm-client munged:munge python3:python3; do
  command -v "${tool%%:*}" >/dev/null || missing+=("${tool#*:}")
done
if [ "${#missing[@]}" -gt 0 ]; then
  # slurm-wlm is the metapackage of slurmctld, slurmd and slurm-client;
  # its recommendations (plugins for HDF5, InfluxDB, ...) are not needed.
  pkgs=(slurm-wlm munge)
  for p in "${missing[@]}"; do
    [ "$p" = python3 ] && pkgs+=(python3)
  done
  log "installing ${pkgs[*]} (missing: ${missing[*]})"
  apt-get update -q -o DPkg::Lock::Timeout=300
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=300 --no-install-recommends "${pkgs[@]}"
fi
version=$(slurmd -V) # "slurm-wlm 22.05.8" on Debian 12; needs no slurm.conf, unlike sbatch -V
log "using $version, config $SLURM_CONF"

# --- Leftovers of an earlier run; refusing a cluster that is not ours -------
# A run that was killed outright (SIGKILL) leaves its daemons running with
# their pid files in $state: stop those. Any other slurmctld or slurmd
# belongs to someone else, so refuse rather than disturb it; another
# munged is simply used.
for name in slurmd slurmctld munged; do
  pidfile=$state/$name.pid
  if [ -s "$pidfile" ]; then
    pid=$(<"$pidfile")
    if [ "$(ps -o comm= -p "$pid" 2>/dev/null)" = "$name" ]; then
      log "stopping $name (pid $pid) left by an earlier run"
      kill "$pid" 2>/dev/null || true
      for ((n = 0; n < 50; n++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.2
      done
    fi
  fi
  if [ "$name" != munged ] && others=$(pgrep -x "$name"); then
    die "a $name not started by this script is running (pid $(echo "$others" | tr '\n' ' ')); stop it first"
  fi
done
if [ -e "$SLURM_CONF" ] && [ "$(head -n 1 "$SLURM_CONF")" != "$marker" ]; then
  die "$SLURM_CONF exists and was not written by this script; set SLURM_CONF to another path, such as $top/slurm.conf"
fi
rm -rf "$state" "$work"
mkdir -p "$state/ctld" "$state/d" "$work/bin" "$work/configs"

# --- munge --------------------------------------------------------------------
# Slurm authenticates every message with munge. Use a munged that already
# answers; otherwise make a key if there is none and start one.
if munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
  log "munged is already running; using it"
else
  key=/etc/munge/munge.key
  if [ ! -s "$key" ]; then
    log "creating $key"
    install -d -o munge -g munge -m 0700 /etc/munge
    mungekey --create --keyfile="$key"
    chown munge:munge "$key"
    chmod 0600 "$key"
  fi
  # Under systemd this directory comes from tmpfiles.d.
  install -d -o munge -g munge -m 0755 /run/munge
  setpriv --reuid=munge --regid=munge --init-groups /usr/sbin/munged --foreground \
    >"$state/munged.out" 2>&1 &
  daemon_pids+=("$!")
  daemon_names+=(munged)
  echo "$!" >"$state/munged.pid"
  for ((n = 0; ; n++)); do
    munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1 && break
    [ "$n" -lt 50 ] || die "munged did not answer within 10 s; see $state/munged.out and /var/log/munge/munged.log"
    sleep 0.2
  done
  log "started munged (pid ${daemon_pids[-1]})"
fi

# --- slurm.conf -----------------------------------------------------------------
# One node, this host, with the CPUs and memory slurmd itself detects.
# Nothing needs cgroups (process tracking by /proc, no task binding), and
# there is no accounting database: finished jobs are read back from
# slurmctld (kept MinJobAge seconds) and from a job completion log.
host=$(hostname -s)
node=$(slurmd -C | head -n 1) # NodeName=... CPUs=... RealMemory=...
case $node in
"NodeName=$host "*) ;;
*) die "slurmd -C describes '$node', not this host $host" ;;
esac
# Every daemon talks over the loopback interface only.
mkdir -p "$(dirname "$SLURM_CONF")"
cat >"$SLURM_CONF" <<EOF
$marker
ClusterName=bnmf-e2e
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/d
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
MinJobAge=600
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/filetxt
JobCompLoc=$state/jobcomp.log
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
wrote_conf=1
log "wrote $SLURM_CONF: $node"

# --- Daemons ----------------------------------------------------------------------
# In the foreground (-D) as children of this script, so that their process
# ids are known exactly and the trap can stop them.
slurmctld -D >"$state/slurmctld.out" 2>&1 &
daemon_pids+=("$!")
daemon_names+=(slurmctld)
for ((n = 0; ; n++)); do
  scontrol ping 2>/dev/null | grep -q 'is UP' && break
  [ "$n" -lt 50 ] || die "slurmctld did not answer within 10 s; see $state/slurmctld.log"
  sleep 0.2
done
log "started slurmctld (pid ${daemon_pids[-1]})"
slurmd -D >"$state/slurmd.out" 2>&1 &
daemon_pids+=("$!")
daemon_names+=(slurmd)
log "started slurmd (pid ${daemon_pids[-1]})"
for ((n = 0; ; n++)); do
  st=$(sinfo -h -n "$host" -o %T 2>/dev/null || true)
  [ "$st" = idle ] && break
  [ "$n" -lt 60 ] || die "node $host is '$st', not idle, after 30 s; see $state/slurmd.log and: scontrol show node $host"
  sleep 0.5
done
log "node $host is idle"

# --- The study ------------------------------------------------------------------------
# $work stands for the repository root on a shared file system: the job
# scripts name bin/bnmf and configs/ relative to it, as the document says.
log "building bin/bnmf"
"$repo/build.sh" "$work/bin/bnmf"
cp "$repo/scripts/slurm-e2e.yaml" "$work/configs/slurm-e2e.yaml"

# doc_block HEADING LANG OUT: writes to OUT the first ```LANG block after
# the line HEADING of docs/cluster.md, with the changes listed in $scale
# (pairs of exact text and its replacement). Each text must occur exactly
# once in the block, so that a change to the document is noticed here.
doc_block() {
  local heading=$1 lang=$2 out=$3 text i from to
  text=$(awk -v h="$heading" -v fence="\`\`\`$lang" '
    $0 == h { found = 1; next }
    found && !inside && $0 == fence { inside = 1; next }
    inside && /^```$/ { exit }
    inside { print }' "$repo/docs/cluster.md")
  [ -n "$text" ] || die "docs/cluster.md has no \`\`\`$lang block after the heading '$heading'"
  for ((i = 0; i < ${#scale[@]}; i += 2)); do
    from=${scale[i]} to=${scale[i + 1]}
    case $text in
    *"$from"*"$from"*) die "docs/cluster.md, '$heading': '$from' occurs more than once; update scripts/slurm-e2e.sh" ;;
    *"$from"*) text=${text/"$from"/"$to"} ;;
    *) die "docs/cluster.md, '$heading': '$from' not found; update scripts/slurm-e2e.sh" ;;
    esac
  done
  printf '%s\n' "$text" >"$out"
}

# submit NAME FILE: runs the submission commands in FILE (from the
# document) in $work and prints the job IDs that sbatch reported, in order.
submit() {
  local out
  out=$(bash -euo pipefail "$2") || die "$1: the submission commands failed: $out"
  printf '%s\n' "$out" | sed -n 's/^Submitted batch job \([0-9]*\).*/\1/p'
}

# wait_jobs NAME ID...: waits until the jobs have left the queue, printing
# the queue when it changes; cancels them and fails after $timeout s.
wait_jobs() {
  local name=$1 ids start q last=""
  shift
  ids=$(IFS=,; echo "$*")
  start=$(now)
  while :; do
    q=$(squeue -h -j "$ids" -o '%i %T %M %R' 2>/dev/null || true)
    [ -z "$q" ] && break
    if [ "$q" != "$last" ]; then
      log "$name: squeue:"
      printf '%s\n' "$q" | sed 's/^/    /'
      last=$q
    fi
    if awk -v s="$(since "$start")" -v t="$timeout" 'BEGIN { exit !(s > t) }'; then
      scancel "$@" || true
      die "$name: jobs $ids still queued after $timeout s; cancelled them"
    fi
    sleep 1
  done
}

# check_job NAME ID WANT: prints each task of job ID as slurmctld still
# knows it and fails unless all WANT tasks COMPLETED with exit code 0.
check_job() {
  local name=$1 id=$2 want=$3 lines ok
  lines=$(scontrol -o show job "$id" | tr ' ' '\n' |
    awk -F= '$1 == "JobId" { if (row) print row; row = "" }
      $1 ~ /^(JobId|ArrayTaskId|JobState|ExitCode|RunTime|NodeList)$/ { row = row " " $0 }
      END { if (row) print row }')
  log "$name: scontrol show job $id:"
  printf '%s\n' "$lines" | sed 's/^ */    /'
  ok=$(printf '%s\n' "$lines" | grep -c 'JobState=COMPLETED ExitCode=0:0' || true)
  [ "$ok" -eq "$want" ] || die "$name: $ok of $want tasks of job $id completed with exit code 0; logs in $work/logs"
}

# same_records A B: checks that study directories A and B hold the same
# manifest and, for every cell of it, a successful record equal in all but
# wall times (wall_seconds, metrics.seconds_per_sweep, trace.seconds):
# seeds, settings, every metric and every trace value, compared exactly.
# (bnmf verify reruns cells of one store rather than comparing two, and
# bnmf merge keeps the first of two records of a cell without comparing.)
same_records() {
  python3 - "$1" "$2" <<'PY'
import gzip, json, os, sys

def load(d):
    with open(os.path.join(d, "manifest.json")) as f:
        manifest = json.load(f)
    recs = []
    rd = os.path.join(d, "records")
    if os.path.isdir(rd):
        for name in sorted(os.listdir(rd)):
            if name.endswith(".json") and not name.startswith("."):
                with open(os.path.join(rd, name)) as f:
                    recs.append(json.load(f))
    gz = os.path.join(d, "records.jsonl.gz")
    if os.path.exists(gz):
        with gzip.open(gz, "rt") as f:
            recs += [json.loads(line) for line in f if line.strip()]
    byCell = {}
    for r in recs:
        r.pop("wall_seconds", None)
        r["metrics"].pop("seconds_per_sweep", None)
        r["trace"].pop("seconds", None)
        byCell.setdefault(json.dumps(r["cell"], sort_keys=True), []).append(r)
    return manifest, byCell

a, b = sys.argv[1], sys.argv[2]
(ma, ra), (mb, rb) = load(a), load(b)
bad = []
if ma != mb:
    bad.append("the manifests differ")
cells = [json.dumps(c, sort_keys=True) for c in ma["cells"]]
for c in cells:
    x, y = ra.get(c, []), rb.get(c, [])
    if len(x) != 1 or len(y) != 1:
        bad.append(f"cell {c}: {len(x)} record(s) in {a}, {len(y)} in {b}")
    elif x[0].get("error") or y[0].get("error"):
        bad.append(f"cell {c} failed: {x[0].get('error') or y[0].get('error')}")
    elif x[0] != y[0]:
        parts = sorted(k for k in set(x[0]) | set(y[0]) if x[0].get(k) != y[0].get(k))
        bad.append(f"cell {c} differs in {', '.join(parts)}")
extra = (set(ra) | set(rb)) - set(cells)
if extra:
    bad.append(f"{len(extra)} record(s) of cells not in the manifest")
for line in bad[:10]:
    print("    " + line)
if bad:
    print(f"    {len(bad)} problem(s)")
    sys.exit(1)
print(f"    {len(cells)} of {len(cells)} cells equal (seeds, settings, metrics, traces)")
PY
}

cd "$work"

# Every job script of the document gets these sizes: four tasks of one
# core for a few seconds each instead of sixteen of eight cores for a day.
common=(
  "--array=0-15" "--array=0-3"
  "--cpus-per-task=8" "--cpus-per-task=1"
  "--mem=8G" "--mem=256M"
  "--time=24:00:00" "--time=00:10:00"
  "/shared/bnmf-data" "$work/data"
  "--shards 16" "--shards 4"
  "configs/ml1m-sparsity.yaml" "configs/slurm-e2e.yaml"
)

# 1. A shared file system: every task of the array writes into the
#    config's output directory, results/slurm-e2e. The document's own
#    submission commands (mkdir -p logs; sbatch sparsity.sbatch) submit it.
scale=("${common[@]}" "--job-name=bnmf-ml1m-sparsity" "--job-name=bnmf-e2e-shared")
doc_block "## Slurm job array" bash sparsity.sbatch
scale=()
doc_block "## Slurm job array" sh submit-shared.sh
start=$(now)
shared_id=$(submit shared submit-shared.sh)
[ -n "$shared_id" ] || die "shared: sbatch reported no job ID"
job_ids+=("$shared_id")
log "shared: submitted sparsity.sbatch as job $shared_id"
wait_jobs shared "$shared_id"
shared_wall=$(since "$start")
check_job shared "$shared_id" 4
log "shared: the array took $shared_wall s from submission to the last task's end"
grep -h 'running shard\|ran [0-9]* cells' logs/bnmf-e2e-shared-"$shared_id"-* | sed 's/^/    /'

# 1b. Resubmitting one task, as the document says: remove one record of
#     shard 3 (the cell at position 3 of the manifest), submit
#     --array=3 alone, and expect that task to run just that cell, with
#     the first task's log kept beside the new one.
lost=$(python3 - results/slurm-e2e <<'PY'
import json, os, sys
d = sys.argv[1]
cell = json.load(open(os.path.join(d, "manifest.json")))["cells"][3]
for name in sorted(os.listdir(os.path.join(d, "records"))):
    path = os.path.join(d, "records", name)
    if name.endswith(".json") and json.load(open(path))["cell"] == cell:
        os.remove(path)
        print(name)
PY
)
[ -n "$lost" ] || die "resubmit: found no record of the cell at position 3"
start=$(now)
resub_id=$(sbatch --parsable --array=3 sparsity.sbatch)
resub_id=${resub_id%%;*}
job_ids+=("$resub_id")
log "resubmit: removed records/$lost; submitted sbatch --array=3 sparsity.sbatch as job $resub_id"
wait_jobs resubmit "$resub_id"
resub_wall=$(since "$start")
check_job resubmit "$resub_id" 1
resub_log=logs/bnmf-e2e-shared-$resub_id-3.out
sed 's/^/    /' "$resub_log"
if ! grep -q '^running shard 3/4 ' "$resub_log" || ! grep -q 'ran 1 cells.*10 of 10 stored' "$resub_log"; then
  die "resubmit: $resub_log does not show shard 3/4 running the 1 missing cell"
fi
if ! grep -q 'ran 10 cells' logs/bnmf-e2e-shared-"$shared_id"-3.out; then
  die "resubmit: the first log of task 3 was lost"
fi

# 2. The same config in one process, outside Slurm.
start=$(now)
env -u SLURM_ARRAY_TASK_ID -u JOB_COMPLETION_INDEX \
  bin/bnmf run --workers 1 --progress 1h --out single/slurm-e2e configs/slurm-e2e.yaml >/dev/null 2>"$work/single.log"
single_wall=$(since "$start")
cells=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["cells"]))' single/slurm-e2e/manifest.json)
log "single: ran $cells cells in one process in $single_wall s"

log "compare: results/slurm-e2e (array, shared directory) with single/slurm-e2e"
shared_ok=PASS
same_records results/slurm-e2e single/slurm-e2e || shared_ok=FAIL

# 3. Separate directories: each task writes its own, and a job that
#    depends on the whole array merges them; again submitted by the
#    document's own commands.
scale=("${common[@]}" "--job-name=bnmf-ml1m-sparsity" "--job-name=bnmf-e2e-shards"
  "--out \"shards/ml1m-sparsity-" "--out \"shards/slurm-e2e-")
doc_block "### Separate directories" bash sparsity-shards.sbatch
scale=(
  "--job-name=bnmf-ml1m-sparsity-merge" "--job-name=bnmf-e2e-merge"
  "results/ml1m-sparsity " "results/slurm-e2e-merged "
  "shards/ml1m-sparsity-*" "shards/slurm-e2e-*"
)
doc_block "### Separate directories" sh submit-shards.sh
# The array's job ID, which the document keeps in a variable, is printed
# too; the merge job's ID is what sbatch reports.
# shellcheck disable=SC2016 # $array is expanded by the submission script
echo 'echo "Submitted batch job ${array%%;*} (the array)"' >>submit-shards.sh
start=$(now)
mapfile -t ids < <(submit shards submit-shards.sh)
[ "${#ids[@]}" -eq 2 ] || die "shards: expected the IDs of the merge job and the array, got '${ids[*]}'"
merge_id=${ids[0]} shards_id=${ids[1]}
job_ids+=("$shards_id" "$merge_id")
log "shards: submitted sparsity-shards.sbatch as job $shards_id and the merge as job $merge_id"
wait_jobs shards "$shards_id" "$merge_id"
shards_wall=$(since "$start")
check_job shards "$shards_id" 4
check_job merge "$merge_id" 1
log "shards: the array and the merge took $shards_wall s"
sed 's/^/    /' logs/bnmf-e2e-merge-"$merge_id".out
log "compare: results/slurm-e2e-merged (array, merged) with single/slurm-e2e"
shards_ok=PASS
same_records results/slurm-e2e-merged single/slurm-e2e || shards_ok=FAIL

# --- Summary ------------------------------------------------------------------------------
echo
echo "slurm-e2e summary ($version, node $node)"
printf '  %-54s %5s s  %s\n' \
  "array of 4, shared directory (job $shared_id)" "$shared_wall" "$shared_ok" \
  "task 3 resubmitted, 1 cell missing (job $resub_id)" "$resub_wall" "PASS" \
  "array of 4, own directories + merge (jobs $shards_id, $merge_id)" "$shards_wall" "$shards_ok" \
  "one process, --workers 1" "$single_wall" "-"
echo "  $cells cells of scripts/slurm-e2e.yaml; logs and results in $work"
if [ "$shared_ok" = PASS ] && [ "$shards_ok" = PASS ]; then
  echo "PASS"
else
  echo "FAIL"
  exit 1
fi
