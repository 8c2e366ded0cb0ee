package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bnmf-lab/bnmf/experiments"
)

// TestRunHeldCellsExit checks that a run whose cell another host holds
// with a live claim, and which therefore neither ran nor stored it, names
// the cell and exits with exitCellsHeld, not 0.
func TestRunHeldCellsExit(t *testing.T) {
	cfgPath := runTestConfig(t, "1")
	cfg, err := experiments.LoadConfig(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	p, err := experiments.Prepare(cfg, experiments.PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "study")
	key := p.Manifest.Cells[1].Key()
	claim, err := json.Marshal(map[string]any{"host": "node-7.example.org", "pid": 31337, "start": time.Now().UTC()})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(out, experiments.ClaimsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, experiments.ClaimsDir, key+".claim"), claim, 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err = run(context.Background(), []string{"run", "--out", out, cfgPath}, &stdout, &stderr)
	if got := exitCode(err, nil); got != exitCellsHeld {
		t.Errorf("exit status %d (error %v), want %d", got, err, exitCellsHeld)
	}
	held := key + " (host node-7.example.org, pid 31337)"
	if err == nil || !strings.Contains(err.Error(), "1 of 4 cells are held") || !strings.Contains(err.Error(), held) {
		t.Errorf("error %v, want it to name %s", err, held)
	}
	if !strings.Contains(stderr.String(), held) {
		t.Errorf("standard error %q does not name the held cell", stderr.String())
	}
}
