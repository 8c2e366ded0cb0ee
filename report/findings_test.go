package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/experiments"
)

func TestProvenance(t *testing.T) {
	made := func(module string, n int) []experiments.Record {
		recs := make([]experiments.Record, n)
		for i := range recs {
			recs[i].Versions = experiments.Versions{Go: "go1.26.8", Module: module}
		}
		return recs
	}
	const rev = "320c154fc8ecb125fe45884fe92de1477336c51d"
	tests := []struct {
		name string
		recs []experiments.Record
		want string
	}{
		{"none", nil, ""},
		{"one revision", made(rev, 3), "Every record was made by revision `320c154fc8ec`, with go1.26.8."},
		{"no revision", made("(devel)", 2), "Every record was made by a build without a recorded revision, with go1.26.8."},
		{"several", append(append(made("9275095207f2ce7fcba43d8ffa21a43fc9d50f2a+dirty", 1), made(rev, 1362)...), made("(devel)", 15)...),
			"The records were made by 3 builds, with go1.26.8: revision `320c154fc8ec` (1,362 records), " +
				"a build without a recorded revision (15 records), revision `9275095207f2+dirty` with uncommitted changes (1 record)."},
		{"one revision, two Go versions", append(made(rev, 2), withGo(made(rev, 1), "go1.25.0")...),
			"The records were made by 2 builds: revision `320c154fc8ec` and go1.26.8 (2 records), revision `320c154fc8ec` and go1.25.0 (1 record)."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := provenance(tt.recs); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// withGo sets the Go version of every record of recs.
func withGo(recs []experiments.Record, goVersion string) []experiments.Record {
	for i := range recs {
		recs[i].Versions.Go = goVersion
	}
	return recs
}

// TestSettingsRun checks the phrases for the settings a manifest does not
// hold: none for the defaults or a missing config, one per setting
// otherwise.
func TestSettingsRun(t *testing.T) {
	def := experiments.DefaultConfig()
	all := experiments.DefaultConfig()
	all.Chains, all.Sigma2Start, all.Standardize, all.Float32Factors = 4, "prior", true, true
	all.Dataset.Cast = experiments.CastInteger
	all.Models = []experiments.ModelConfig{
		{Name: "GEG", Hyperparameters: map[string]any{"z_draw": "rows", "lambda": 0.1}},
		{Name: "GLL", Hyperparameters: map[string]any{"draw": "entries"}},           // the default: not named
		{Name: "NMF", Hyperparameters: map[string]any{"objective": "i-divergence"}}, // not NMF's default objective
	}
	tests := []struct {
		name string
		cfg  *experiments.Config
		want []string
	}{
		{"no config", nil, nil},
		{"defaults", &def, nil},
		{"all", &all, []string{"4 chains per cell, pooled", "`sigma2_start: prior`", "`standardize: true`", "`float32_factors: true`",
			"`dataset.cast: integer` (every value truncated toward zero as it is read)", "`z_draw: rows` for GEG", "`objective: i-divergence` for NMF"}},
	}
	for _, tt := range tests {
		if got := settingsRun(tt.cfg); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestFindingsBestModelAndBaseline checks that a study whose best mean
// held-out MSE is a baseline's names the best model and the best
// baseline separately, and that the skill sentence's "model with the
// lowest mean" is the one named best among the models.
func TestFindingsBestModelAndBaseline(t *testing.T) {
	fx := sparsityFixture()
	fx.models = append(fx.models, "ColumnMean", "Bias")
	sum := Summarise([]*experiments.Study{fx.study(t, "s", "base")})
	text := sparsityFindings(sum.Studies[0], Paper())
	for _, want := range []string{
		"0.98, among the models is GRRN at K = ",
		"0.98, among the baselines is Bias at K = ",
		"Against the best baseline (Bias), the skill 1 − MSE/MSE of the baseline, paired by repeat, of the model with the lowest mean held-out MSE at that fraction is GRRN ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("findings lack %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "0.98, is ") {
		t.Errorf("findings name one best over models and baselines:\n%s", text)
	}
}
