package experiments

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard selects a deterministic share of a study's cells, so that N
// processes on N machines can run one study between them: shard I of N
// runs the cells whose index in the canonical order (Config.Cells) is I
// modulo N. Canonical order puts the models innermost, so every shard gets
// a mix of models and ranks. The zero Shard means all cells.
type Shard struct {
	Index int // 0-based, less than Count
	Count int // 0 or 1 means unsharded
}

// ParseShard parses "I/N", two unsigned decimal integers with
// 0 <= I < N: "0/0", "3/2", "-1/2" and "+1/2" are errors.
func ParseShard(s string) (Shard, error) {
	i, n, ok := strings.Cut(s, "/")
	if !ok || !isDecimal(i) || !isDecimal(n) {
		return Shard{}, fmt.Errorf("shard %q: want I/N with integers 0 <= I < N, such as 0/4", s)
	}
	index, err1 := strconv.Atoi(i)
	count, err2 := strconv.Atoi(n)
	if err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("shard %q: want I/N with integers 0 <= I < N, such as 0/4", s)
	}
	if count < 1 {
		return Shard{}, fmt.Errorf("shard %q: the number of shards N must be at least 1", s)
	}
	sh := Shard{Index: index, Count: count}
	return sh, sh.validate()
}

// isDecimal reports whether s is a non-empty string of ASCII digits.
func isDecimal(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func (s Shard) validate() error {
	if s.Count < 0 || s.Index < 0 || (s.Count > 0 && s.Index >= s.Count) || (s.Count == 0 && s.Index != 0) {
		return fmt.Errorf("shard %d/%d: want 0 <= I < N", s.Index, s.Count)
	}
	return nil
}

// String returns "I/N", or "all" for the zero Shard.
func (s Shard) String() string {
	if s.Count <= 1 {
		return "all"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Has reports whether the cell at index i of the canonical order belongs to
// the shard.
func (s Shard) Has(i int) bool { return s.Count <= 1 || i%s.Count == s.Index }

// ShardFromEnv picks the shard from the environment of a cluster job
// array, looked up with getenv (os.Getenv in the CLI):
//
//   - Kubernetes indexed Jobs set JOB_COMPLETION_INDEX; the count must come
//     from count (the CLI's --shards), as the Job's completions.
//   - Slurm job arrays set SLURM_ARRAY_TASK_ID, the index, taken as it
//     stands; the count must come from count (--shards) here too. The
//     array's own size cannot serve: a resubmitted part of an array
//     (--array=3, or --array=0 alone) looks like a whole array of one
//     task, which would then run every cell. Number the tasks 0 to N-1.
//
// It returns the zero Shard and an empty source when neither is set, and
// otherwise names the variable it used.
func ShardFromEnv(getenv func(string) string, count int) (sh Shard, source string, err error) {
	atoi := func(name string) (int, error) {
		v, err := strconv.Atoi(getenv(name))
		if err != nil {
			return 0, fmt.Errorf("%s=%q is not an integer", name, getenv(name))
		}
		return v, nil
	}
	switch {
	case getenv("JOB_COMPLETION_INDEX") != "":
		source = "JOB_COMPLETION_INDEX"
		if sh.Index, err = atoi(source); err != nil {
			return Shard{}, source, err
		}
	case getenv("SLURM_ARRAY_TASK_ID") != "":
		source = "SLURM_ARRAY_TASK_ID"
		if sh.Index, err = atoi(source); err != nil {
			return Shard{}, source, err
		}
	default:
		return Shard{}, "", nil
	}
	if count == 0 {
		return Shard{}, source, fmt.Errorf("%s is set but the number of shards is not: give --shards N or --shard I/N", source)
	}
	sh.Count = count
	if err := sh.validate(); err != nil {
		return Shard{}, source, fmt.Errorf("%s: %w", source, err)
	}
	return sh, source, nil
}
