package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bnmf-lab/bnmf/internal/synthetic"
)

// TestLargeRun measures a whole bnmf run cell at the MovieLens 25M shape
// (162,541 x 59,047, 25,000,095 ratings): it writes a 25M-line triplet
// file, then runs one GRRN cell at K = 50 holding out 10% of the entries
// (3 sweeps, so the time goes to loading, preparing and the sweeps
// themselves), and reports the time to load and check the data, the
// seconds per sweep and the process's peak resident memory. It needs
// about 5 GB of memory and a few minutes, so it runs only with
// BNMF_LARGE=1:
//
//	BNMF_LARGE=1 go test ./cmd/bnmf -run TestLargeRun -v -timeout 30m
//
// Its limits are the targets of this machine (2 cores): loading at most
// 30 s and peak memory at most 4 GiB.
func TestLargeRun(t *testing.T) {
	if os.Getenv("BNMF_LARGE") != "1" {
		t.Skip("set BNMF_LARGE=1 to run the 25M-shape measurement")
	}
	dir := t.TempDir()
	data := filepath.Join(dir, "ratings.csv")
	start := time.Now()
	if err := writeLargeTriplets(data); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s in %v", data, time.Since(start).Round(time.Second))
	cfg := filepath.Join(dir, "large.yaml")
	src := "kind: noise\ndataset: {path: " + data + ", format: triplets}\nmodels: [{name: GRRN}]\nranks: [50]\n" +
		"noise_ratios: [0]\nrepeats: 1\nsweeps: 3\nburn_in: 1\n"
	if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	// As main does, so that the memory measured is the command's.
	defer setGCPercent(os.Getenv)()
	t.Setenv("JOB_COMPLETION_INDEX", "")
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	var stdout, stderr bytes.Buffer
	start = time.Now()
	err := runRun(context.Background(), []string{"--progress", "1s", "--out", filepath.Join(dir, "out"), cfg}, &stdout, &stderr)
	total := time.Since(start)
	t.Logf("bnmf run: %v\n%s", total.Round(time.Second), stderr.String())
	if err != nil {
		t.Fatal(err)
	}
	peak, err := peakRSS()
	if err != nil {
		t.Fatal(err)
	}
	rec, err := os.ReadFile(filepath.Join(dir, "out", "records", "GRRN-k50-r0.json"))
	if err != nil {
		t.Fatal(err)
	}
	perSweep := jsonNumber(string(rec), `"seconds_per_sweep":`)
	wall := jsonNumber(string(rec), `"wall_seconds":`)
	loading := total.Seconds() - wall
	t.Logf("loading and checking the data: %.1f s; cell: %.1f s (%.2f s per sweep); peak resident memory %.2f GiB",
		loading, wall, perSweep, float64(peak)/(1<<30))
	if loading > 30 {
		t.Errorf("loading and checking took %.1f s, above the 30 s target", loading)
	}
	if peak > 4<<30 {
		t.Errorf("peak resident memory %.2f GiB is above the 4 GiB target", float64(peak)/(1<<30))
	}
}

// writeLargeTriplets writes a triplet file with the MovieLens 25M shape:
// the entries of synthetic.ML25M, with 1-based row and column ids.
func writeLargeTriplets(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	buf := make([]byte, 0, 32)
	for e := range synthetic.ML25M() {
		buf = strconv.AppendInt(buf[:0], int64(e.Row+1), 10)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(e.Col+1), 10)
		buf = append(buf, ',', byte('0'+int(e.Value)), '\n')
		if _, err := w.Write(buf); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// peakRSS returns this process's peak resident set size (VmHWM).
func peakRSS() (int64, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb int64
			if _, err := fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), &kb); err != nil {
				return 0, err
			}
			return kb << 10, nil
		}
	}
	return 0, fmt.Errorf("no VmHWM in /proc/self/status")
}

// jsonNumber returns the number that follows key in a JSON text, or 0.
func jsonNumber(s, key string) float64 {
	i := strings.Index(s, key)
	if i < 0 {
		return 0
	}
	rest := s[i+len(key):]
	end := strings.IndexAny(rest, ",}")
	v, _ := strconv.ParseFloat(strings.TrimSpace(rest[:end]), 64)
	return v
}
