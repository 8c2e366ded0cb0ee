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

// TestChoiceRefused checks that each model constructor refuses a value of
// a two-valued option outside its names, with an error that names the
// model, the field, the value and the allowed values.
func TestChoiceRefused(t *testing.T) {
	train, _, _ := planted(t, 6, 5, 2, 0.8, 0.3, 29)
	for _, tc := range []struct {
		name  string
		model Model
		want  string
	}{
		{"LineDraw", GEG{ZDraw: 2}, `bnmf: GEG.ZDraw is LineDraw(2); want DrawEntries ("entries") or DrawRows ("rows")`},
		{"EtaDraw", GLLI{EtaDraw: 7}, `bnmf: GLLI.EtaDraw is EtaDraw(7); want EtaExact ("exact") or EtaUpstream ("upstream")`},
		{"HyperDraw", GGGW{HyperDraw: -1}, `bnmf: GGGW.HyperDraw is HyperDraw(-1); want HyperExact ("exact") or HyperUpstream ("upstream")`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.model.newChain(train, 2)
			if err == nil {
				t.Fatalf("%#v was accepted", tc.model)
			}
			if err.Error() != tc.want {
				t.Errorf("error %q, want %q", err, tc.want)
			}
		})
	}
}
