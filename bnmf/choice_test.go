package bnmf

import "testing"

// TestChoices checks each two-valued option's names both ways, the name
// of a value outside them, and the error for an unknown name.
func TestChoices(t *testing.T) {
	type choice interface {
		String() string
	}
	cases := []struct {
		values  []choice
		names   []string
		invalid choice
		bad     string
		parse   func(string) (string, error)
		err     string
	}{
		{[]choice{DrawEntries, DrawRows}, []string{"entries", "rows"}, LineDraw(3), "LineDraw(3)",
			func(s string) (string, error) {
				var d LineDraw
				err := d.UnmarshalText([]byte(s))
				return d.String(), err
			},
			`unknown line draw "columns"; want "entries" or "rows"`},
		{[]choice{EtaExact, EtaUpstream}, []string{"exact", "upstream"}, EtaDraw(-1), "EtaDraw(-1)",
			func(s string) (string, error) {
				var d EtaDraw
				err := d.UnmarshalText([]byte(s))
				return d.String(), err
			},
			`unknown eta draw "columns"; want "exact" or "upstream"`},
		{[]choice{HyperExact, HyperUpstream}, []string{"exact", "upstream"}, HyperDraw(2), "HyperDraw(2)",
			func(s string) (string, error) {
				var d HyperDraw
				err := d.UnmarshalText([]byte(s))
				return d.String(), err
			},
			`unknown hyperparameter draw "columns"; want "exact" or "upstream"`},
	}
	for _, tc := range cases {
		for i, v := range tc.values {
			if v.String() != tc.names[i] {
				t.Errorf("%v: name %q, want %q", v, v.String(), tc.names[i])
			}
			if got, err := tc.parse(tc.names[i]); err != nil || got != tc.names[i] {
				t.Errorf("parsing %q: %q, %v", tc.names[i], got, err)
			}
		}
		if tc.invalid.String() != tc.bad {
			t.Errorf("name of an invalid value %q, want %q", tc.invalid.String(), tc.bad)
		}
		if _, err := tc.parse("columns"); err == nil || err.Error() != tc.err {
			t.Errorf("parsing \"columns\": %v, want %s", err, tc.err)
		}
	}
}
