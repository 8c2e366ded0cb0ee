package experiments

import "testing"

func TestParseShard(t *testing.T) {
	tests := []struct {
		in      string
		want    Shard
		wantErr bool
	}{
		{"0/3", Shard{0, 3}, false},
		{"2/3", Shard{2, 3}, false},
		{"3/3", Shard{}, true},
		{"-1/3", Shard{}, true},
		{"1", Shard{}, true},
		{"a/b", Shard{}, true},
		{"0/1", Shard{0, 1}, false},
		{"0/0", Shard{}, true},
		{"1/0", Shard{}, true},
		{"3/2", Shard{}, true},
		{"-1/2", Shard{}, true},
		{"0/-2", Shard{}, true},
		{"+1/2", Shard{}, true},
		{" 1/2", Shard{}, true},
		{"1/2/3", Shard{}, true},
		{"/2", Shard{}, true},
	}
	for _, tt := range tests {
		got, err := ParseShard(tt.in)
		if (err != nil) != tt.wantErr || (err == nil && got != tt.want) {
			t.Errorf("ParseShard(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestShardsPartitionCells(t *testing.T) {
	const n = 3
	counts := make([]int, 10)
	for s := range n {
		sh := Shard{Index: s, Count: n}
		for i := range counts {
			if sh.Has(i) {
				counts[i]++
			}
		}
	}
	for i, c := range counts {
		if c != 1 {
			t.Errorf("cell %d is in %d shards, want 1", i, c)
		}
	}
	if !(Shard{}).Has(7) {
		t.Error("the zero Shard leaves out a cell")
	}
}

func TestShardFromEnv(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		count   int
		want    Shard
		source  string
		wantErr bool
	}{
		{"none", nil, 0, Shard{}, "", false},
		{"kubernetes", map[string]string{"JOB_COMPLETION_INDEX": "2"}, 4, Shard{2, 4}, "JOB_COMPLETION_INDEX", false},
		{"kubernetes without count", map[string]string{"JOB_COMPLETION_INDEX": "2"}, 0, Shard{}, "JOB_COMPLETION_INDEX", true},
		{"kubernetes out of range", map[string]string{"JOB_COMPLETION_INDEX": "4"}, 4, Shard{}, "JOB_COMPLETION_INDEX", true},
		// Slurm's array size is never the count: --shards gives it.
		{"slurm", slurmEnv("3", "0", "7", "8"), 8, Shard{3, 8}, "SLURM_ARRAY_TASK_ID", false},
		{"slurm without shards", slurmEnv("3", "0", "7", "8"), 0, Shard{}, "SLURM_ARRAY_TASK_ID", true},
		// --array=0 resubmitted alone must not become shard 0 of 1.
		{"slurm task 0 alone", slurmEnv("0", "0", "0", "1"), 0, Shard{}, "SLURM_ARRAY_TASK_ID", true},
		{"slurm task 0 alone with shards", slurmEnv("0", "0", "0", "1"), 8, Shard{0, 8}, "SLURM_ARRAY_TASK_ID", false},
		// --array=3,7 resubmitted: task 7 keeps index 7.
		{"slurm resubmitted two with shards", slurmEnv("7", "3", "7", "2"), 8, Shard{7, 8}, "SLURM_ARRAY_TASK_ID", false},
		// --array=1-8 with --shards 8: task 8 is out of range.
		{"slurm numbered from 1", slurmEnv("8", "1", "8", "8"), 8, Shard{}, "SLURM_ARRAY_TASK_ID", true},
		{"slurm garbage", map[string]string{"SLURM_ARRAY_TASK_ID": "x"}, 0, Shard{}, "SLURM_ARRAY_TASK_ID", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, source, err := ShardFromEnv(func(k string) string { return tt.env[k] }, tt.count)
			if (err != nil) != tt.wantErr || got != tt.want || source != tt.source {
				t.Errorf("got %v from %q, error %v; want %v from %q, error %v", got, source, err, tt.want, tt.source, tt.wantErr)
			}
		})
	}
}

// slurmEnv is the environment of one task of a Slurm job array.
func slurmEnv(id, lo, hi, count string) map[string]string {
	return map[string]string{
		"SLURM_ARRAY_TASK_ID":    id,
		"SLURM_ARRAY_TASK_MIN":   lo,
		"SLURM_ARRAY_TASK_MAX":   hi,
		"SLURM_ARRAY_TASK_COUNT": count,
	}
}
