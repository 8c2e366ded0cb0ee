package report

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/bnmf-lab/bnmf/experiments"
)

// Options adjust Write. The zero value is ready to use.
type Options struct {
	// Ratings, if not nil, loads a dataset's rating distribution for
	// Fig. 3; without it the README says Fig. 3 was not drawn.
	Ratings RatingsFunc
}

// Write renders the report of studies: for each study, its figures (PNG)
// in a figures/ subdirectory of the study's directory, its tables
// (Markdown) in tables/, and its cells as cells.csv; Fig. 3 for each
// dataset in root/figures; then root/README.md, which embeds all of them
// with relative links and says, per study, what was run and what it shows. Study directories are expected under root.
// The same studies always give the same bytes. It returns the paths
// written, in the order written.
func Write(root string, studies []*experiments.Study, opts Options) ([]string, error) {
	sum := Summarise(studies)
	paper := Paper()
	var written []string
	var readme bytes.Buffer
	if err := writeReadmeHead(&readme, sum, paper); err != nil {
		return nil, err
	}
	figs, err := writeRatings(&readme, root, sum, opts.Ratings, paper)
	written = append(written, figs...)
	if err != nil {
		return written, err
	}
	for _, s := range sum.Studies {
		out, err := writeStudy(s, sum.Palette, paper)
		written = append(written, out.written...)
		if err != nil {
			return written, err
		}
		if err := out.section(&readme, root); err != nil {
			return written, err
		}
	}
	path := filepath.Join(root, "README.md")
	if err := writeFile(path, readme.Bytes()); err != nil {
		return written, err
	}
	return append(written, path), nil
}

// studyOutput is what was rendered for one study.
type studyOutput struct {
	s       *StudySummary
	paper   PaperValues
	figure  string // path of the figure, "" if not drawn
	caption string // the figure's title, or why it was not drawn
	tables  []tableDoc
	csv     string
	written []string
}

// tableDoc is one table with its heading and caption.
type tableDoc struct {
	heading, caption string
	body             []byte
}

// markdown returns the table as a Markdown section.
func (t tableDoc) markdown() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "### %s\n\n%s\n\n", t.heading, t.caption)
	b.Write(t.body)
	return b.Bytes()
}

// writeStudy renders one study's figure, tables and CSV into its
// directory.
func writeStudy(s *StudySummary, pal Palette, paper PaperValues) (*studyOutput, error) {
	dir := s.Study.Dir
	out := &studyOutput{s: s, paper: paper}
	for _, sub := range []string{"figures", "tables"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return out, fmt.Errorf("report: %w", err)
		}
	}
	build, name := figureFor(s.Kind())
	if build != nil {
		f, err := build(s, pal)
		switch {
		case errors.Is(err, ErrNoData):
			out.caption = "not drawn: no cell has finished successfully yet"
		case err != nil:
			return out, err
		default:
			path := filepath.Join(dir, "figures", name)
			if err := f.Save(path); err != nil {
				return out, err
			}
			out.figure, out.caption = path, f.Title
			out.written = append(out.written, path)
		}
	}
	tables, err := studyTables(s, paper)
	if err != nil {
		return out, err
	}
	for i, t := range tables {
		path := filepath.Join(dir, "tables", t.file)
		if err := writeFile(path, tables[i].doc.markdown()); err != nil {
			return out, err
		}
		out.tables = append(out.tables, t.doc)
		out.written = append(out.written, path)
	}
	var csvBuf bytes.Buffer
	if err := WriteCSV(&csvBuf, s.Study); err != nil {
		return out, err
	}
	out.csv = filepath.Join(dir, "cells.csv")
	if err := writeFile(out.csv, csvBuf.Bytes()); err != nil {
		return out, err
	}
	out.written = append(out.written, out.csv)
	return out, nil
}

// figureFor returns the figure constructor and file name of a study kind.
func figureFor(kind string) (func(*StudySummary, Palette) (*Figure, error), string) {
	switch kind {
	case experiments.KindConvergence:
		return ConvergenceFigure, "fig2-convergence.png"
	case experiments.KindSparsity:
		return SparsityFigure, "fig5-sparsity.png"
	case experiments.KindNoise:
		return NoiseFigure, "fig4-noise.png"
	}
	return nil, ""
}

// relLink returns path relative to root with forward slashes, for a
// Markdown link; angle brackets protect spaces.
func relLink(root, path string) string {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		rel = path
	}
	rel = filepath.ToSlash(rel)
	if strings.ContainsAny(rel, " ()") {
		return "<" + rel + ">"
	}
	return rel
}

// section writes the study's part of the README.
func (o *studyOutput) section(b *bytes.Buffer, root string) error {
	s := o.s
	fmt.Fprintf(b, "## %s: %s on %s\n\n", s.Name(), s.Kind(), s.Study.Manifest.Dataset)
	fmt.Fprintf(b, "%s\n\n%s\n\n", whatWasRun(s), whatItShows(s, o.paper))
	switch {
	case o.figure != "":
		fmt.Fprintf(b, "![%s](%s)\n\n", o.caption, relLink(root, o.figure))
	case o.caption != "":
		fmt.Fprintf(b, "The figure is %s.\n\n", o.caption)
	}
	for _, t := range o.tables {
		b.Write(t.markdown())
		b.WriteString("\n")
	}
	fmt.Fprintf(b, "All cells as tidy CSV: [%s](%s).\n\n", filepath.ToSlash(filepath.Base(o.csv)), relLink(root, o.csv))
	b.WriteString("### Warnings\n\n")
	if err := WriteWarnings(b, s); err != nil {
		return err
	}
	b.WriteString("\n")
	return nil
}

// writeReadmeHead writes the README's title, introduction and Table 1.
func writeReadmeHead(b *bytes.Buffer, sum *Summary, paper PaperValues) error {
	b.WriteString("# Results\n\n")
	b.WriteString("Generated by `bnmf report` from the stored records alone; do not edit by hand, rerun the report instead. ")
	fmt.Fprintf(b, "The paper's published values, printed beside ours, are from %s\n\n", paper.Citation)
	b.WriteString("Numbers are mean ± standard error over repeats unless said otherwise. ")
	b.WriteString("\"(n=3/10)\" marks a setting with fewer usable repeats than configured, and † a setting with warnings, listed under its table and in each study's Warnings section.\n\n")
	if len(sum.Studies) == 0 {
		b.WriteString("No studies were found.\n")
		return nil
	}
	b.WriteString("## Data description (Table 1)\n\n")
	b.WriteString("Sizes after cleaning, as recorded in each study's manifest, beside the paper's Table 1.\n\n")
	if err := WriteDataTable(b, sum, paper); err != nil {
		return err
	}
	b.WriteString("\n")
	return nil
}
