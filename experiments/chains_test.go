package experiments

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestChainsKeepOneChainRecords checks that chains: 1 is the default (same
// hash, same records), and that chain 0 of a three-chain study is the
// one-chain study's cell exactly: its metrics and trace, so that stored
// one-chain records stay valid as chain 0.
func TestChainsKeepOneChainRecords(t *testing.T) {
	one := tinyPlan(t, "models: [{name: GRRN}, {name: NMF}]\n")
	explicit := tinyPlan(t, "models: [{name: GRRN}, {name: NMF}]\nchains: 1\n")
	three := tinyPlan(t, "models: [{name: GRRN}, {name: NMF}]\nchains: 3\n")
	if one.Manifest.ConfigHash != explicit.Manifest.ConfigHash {
		t.Error("chains: 1 changed the config hash")
	}
	if one.Manifest.ConfigHash == three.Manifest.ConfigHash {
		t.Error("chains: 3 kept the config hash")
	}
	base := records(t, run(t, one, RunOptions{Workers: 2}))
	sameRecords(t, records(t, run(t, explicit, RunOptions{Workers: 2})), base)

	st, err := LoadStudy(run(t, three, RunOptions{Workers: 2}))
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Records) != len(base) {
		t.Fatalf("%d records with three chains, want %d", len(st.Records), len(base))
	}
	for _, r := range st.Records {
		var single Record
		if err := json.Unmarshal(base[r.Cell.Key()], &single); err != nil {
			t.Fatal(err)
		}
		if r.Chains != 3 || len(r.ChainMetrics) != 3 || len(r.ChainTraces) != 2 {
			t.Fatalf("%s: chains %d with %d metrics and %d more traces, want 3, 3 and 2", r.Cell.Key(), r.Chains, len(r.ChainMetrics), len(r.ChainTraces))
		}
		c0 := r.ChainMetrics[0]
		c0.SecondsPerSweep, single.Metrics.SecondsPerSweep = 0, 0
		if !reflect.DeepEqual(c0, single.Metrics) {
			t.Errorf("%s: chain 0's metrics %+v, the one-chain cell's %+v", r.Cell.Key(), c0, single.Metrics)
		}
		if !reflect.DeepEqual(r.Trace.TrainMSE, single.Trace.TrainMSE) || !reflect.DeepEqual(r.Trace.TestMSE, single.Trace.TestMSE) {
			t.Errorf("%s: chain 0's trace differs from the one-chain cell's", r.Cell.Key())
		}
		if r.Cell.Model == "GRRN" && reflect.DeepEqual(r.ChainTraces[0].TrainMSE, r.Trace.TrainMSE) {
			t.Errorf("%s: chains 0 and 1 have the same trace", r.Cell.Key())
		}
	}
}
