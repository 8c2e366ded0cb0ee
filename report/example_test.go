package report_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/bnmf-lab/bnmf/experiments"
	"github.com/bnmf-lab/bnmf/report"
)

// exampleStudy returns a small sparsity study held in memory: two models at
// one rank and fraction, three repeats, one of which failed.
func exampleStudy() *experiments.Study {
	m := experiments.Manifest{
		Study: "demo", Kind: experiments.KindSparsity, ConfigHash: "abc", Dataset: "movielens-100k",
		Models: []string{"GEE", "GRRN"}, Ranks: []int{20}, Fractions: []float64{0.97}, Repeats: 3,
	}
	st := &experiments.Study{Dir: "results/demo", Manifest: m}
	mse := map[string][]float64{"GEE": {1.20, 1.18, 1.16}, "GRRN": {1.03, 1.01, 0}}
	for _, model := range m.Models {
		for r := range m.Repeats {
			c := experiments.Cell{Model: model, Rank: 20, Fraction: 0.97, Repeat: r}
			m.Cells = append(m.Cells, c)
			rec := experiments.Record{Version: 1, Study: "demo", Kind: m.Kind, ConfigHash: "abc", Cell: c}
			rec.Metrics.TestMSE = mse[model][r]
			if model == "GRRN" && r == 2 {
				rec.Error = "interrupted"
			}
			st.Records = append(st.Records, rec)
		}
	}
	st.Manifest.Cells = m.Cells
	return st
}

func ExampleSummarise() {
	sum := report.Summarise([]*experiments.Study{exampleStudy()})
	for _, g := range sum.Studies[0].Groups {
		fmt.Printf("%s: held-out MSE %.3f ± %.3f, n = %d of %d, %q\n",
			g.Key, g.TestMSE.Mean, g.TestMSE.SE, g.TestMSE.N, g.Expected, g.Warnings)
	}
	// Output:
	// GEE, K = 20, fraction unobserved 0.97: held-out MSE 1.180 ± 0.012, n = 3 of 3, []
	// GRRN, K = 20, fraction unobserved 0.97: held-out MSE 1.020 ± 0.010, n = 2 of 3, ["repeat 2 failed: interrupted"]
}

func ExampleWriteHeldOutTable() {
	sum := report.Summarise([]*experiments.Study{exampleStudy()})
	if err := report.WriteHeldOutTable(os.Stdout, sum.Studies[0], 0.97, report.Paper()); err != nil {
		fmt.Println(err)
	}
	// Output:
	// | K      |           GEE | GEE (paper) |                         GRRN | GRRN (paper) |
	// |:-------|--------------:|------------:|-----------------------------:|-------------:|
	// | K = 20 | 1.180 ± 0.012 |        1.18 | **1.020 ± 0.010** (n=2/3) †1 |         1.02 |
	//
	// - †1: warnings stated once, with the settings they affect, under this study's Warnings
}

func ExampleSparsityFigure() {
	sum := report.Summarise([]*experiments.Study{exampleStudy()})
	fig, err := report.SparsityFigure(sum.Studies[0], sum.Palette)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range fig.Panels {
		fmt.Println(p.Plot.Title.Text)
		for _, s := range p.Series {
			fmt.Printf("  %s: %d plotters\n", s.Model, len(s.Plotters))
		}
	}
	w, h := fig.Size()
	fmt.Printf("%.0f x %.0f pixels\n", w.Dots(report.FigureDPI), h.Dots(report.FigureDPI))
	// Output:
	// K = 20, n = 2–3 of 3
	//   GEE: 2 plotters
	//   GRRN: 2 plotters
	// 384 x 394 pixels
}

func ExamplePaper() {
	p := report.Paper()
	v, _ := p.HeldOutMSE("movielens-100k", 0.98, "GEE", 50)
	d, _ := p.Dataset("movielens-1m")
	fmt.Println(v, d.Rows, d.Cols, d.Observed)
	// Output: 236750.39 6040 3503 999917
}

func ExampleWrite() {
	root, err := os.MkdirTemp("", "results")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(root)
	st := exampleStudy()
	st.Dir = filepath.Join(root, "demo")
	written, err := report.Write(root, []*experiments.Study{st}, report.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, path := range written {
		rel, err := filepath.Rel(root, path)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(filepath.ToSlash(rel))
	}
	// Output:
	// demo/figures/fig5-sparsity.png
	// demo/tables/table2-0.97.md
	// demo/tables/sparsity.md
	// demo/tables/timing.md
	// demo/cells.csv
	// README.md
}
