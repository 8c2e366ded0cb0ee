package experiments

import "testing"

// TestHashBurnInNone checks that a config with burn_in: 0 no longer has
// the hash that builds before the fix of bnmf's double resolution of
// settings gave it (those builds ran it with a burn-in of four fifths of
// the sweeps), and that the same config with burn_in: 1 keeps its hash.
func TestHashBurnInNone(t *testing.T) {
	hash := func(burnIn string) string {
		t.Helper()
		src := "name: b\nkind: sparsity\ndataset: {name: synthetic}\nmodels: [{name: GRRN}]\nranks: [2]\nfractions: [0.95]\nrepeats: 1\nsweeps: 20\nburn_in: " + burnIn + "\n"
		cfg, err := ParseConfig("b.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		h, err := cfg.Hash()
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	// Both computed by the build before the fix.
	const before0 = "b90a4f4d37732186509151f70adb30d8c74c776397dc202caa6030ce7ade6d93"
	const before1 = "df310b90805663842ec84006a9102477bbd95a78fd3f44ccea4e5cbcb0036140"
	if h := hash("0"); h == before0 {
		t.Errorf("burn_in: 0 keeps the hash %.12s that wrongly run records carry", h)
	}
	if h := hash("1"); h != before1 {
		t.Errorf("burn_in: 1 hashes to %.12s, was %.12s", h, before1)
	}
}
