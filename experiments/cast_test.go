package experiments

import (
	"fmt"
	"testing"
)

// TestCastInteger checks dataset.cast: the config of
// testdata/bad-poisson-fractions.yaml, refused because a Poisson model
// needs counts, prepares once its values are cast to integers (4.5 read
// as 4), and the cast enters the hash, so the records of the two configs
// never mix; without it the hash is what it was.
func TestCastInteger(t *testing.T) {
	const src = `kind: sparsity
dataset:
  path: testdata/fractional.tsv
  format: triplets
%s
models: [{name: PGG}]
ranks: [1]
fractions: [0.5]
repeats: 1
sweeps: 5
burn_in: 1
`
	plain, err := ParseConfig("plain.yaml", []byte(fmt.Sprintf(src, "")))
	if err != nil {
		t.Fatal(err)
	}
	cast, err := ParseConfig("cast.yaml", []byte(fmt.Sprintf(src, "  cast: integer")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Prepare(plain, PrepareOptions{}); err == nil {
		t.Error("fractions prepared for a Poisson model without the cast")
	}
	p, err := Prepare(cast, PrepareOptions{})
	if err != nil {
		t.Fatalf("with the cast: %v", err)
	}
	var sum float64
	for _, e := range p.data.Entries {
		sum += e.Value
	}
	if len(p.data.Entries) != 4 || sum != 10 {
		t.Errorf("cast data: %d entries summing to %v, want 4 summing to 3 + 4 + 1 + 2 = 10", len(p.data.Entries), sum)
	}
	hPlain, err := plain.Hash()
	if err != nil {
		t.Fatal(err)
	}
	hCast, err := cast.Hash()
	if err != nil {
		t.Fatal(err)
	}
	if hPlain == hCast {
		t.Error("the cast does not change the config's hash")
	}
}
