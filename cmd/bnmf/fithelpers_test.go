package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/bnmf-lab/bnmf/internal/npy"
	"github.com/bnmf-lab/bnmf/posterior"
)

// planted is a low-rank nonnegative matrix W Z observed with noise on a
// random pattern, written as a triplets file with string ids.
type planted struct {
	m, n, k  int
	w, z     *mat.Dense // M x K and K x N
	rowIDs   []string   // by planted row
	colIDs   []string
	path     string
	observed int
}

// rowID and colID name planted rows and columns as a user's file might:
// strings that do not sort in the planted order.
func rowID(i int) string { return fmt.Sprintf("user-%c%d", 'a'+rune(i*7%26), i) }
func colID(j int) string { return fmt.Sprintf("item %d", 1000-j*3) }

// newPlanted draws W and Z entrywise from Gamma(2, 2) (mean 1), so that
// W Z has entries of about K, observes each entry with probability
// density and adds N(0, noise^2), and writes the triplets to a file in
// dir, in a random order, scaled by scale.
func newPlanted(t *testing.T, dir string, m, n, k int, density, noise, scale float64, seed uint64) *planted {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 99))
	gamma2 := func() float64 { return (rng.ExpFloat64() + rng.ExpFloat64()) / 2 }
	p := &planted{m: m, n: n, k: k, w: mat.NewDense(m, k, nil), z: mat.NewDense(k, n, nil)}
	for i := range m {
		for f := range k {
			p.w.Set(i, f, gamma2())
		}
		p.rowIDs = append(p.rowIDs, rowID(i))
	}
	for f := range k {
		for j := range n {
			p.z.Set(f, j, gamma2())
		}
	}
	for j := range n {
		p.colIDs = append(p.colIDs, colID(j))
	}
	var truth mat.Dense
	truth.Mul(p.w, p.z)
	var lines []string
	for i := range m {
		for j := range n {
			// Every row and column keeps at least one entry.
			if rng.Float64() < density || i == j%m || j == i%n {
				v := math.Max(0, truth.At(i, j)+noise*rng.NormFloat64()) * scale
				lines = append(lines, fmt.Sprintf("%s,%s,%s", p.rowIDs[i], p.colIDs[j], strconv.FormatFloat(v, 'g', -1, 64)))
			}
		}
	}
	rng.Shuffle(len(lines), func(a, b int) { lines[a], lines[b] = lines[b], lines[a] })
	p.observed = len(lines)
	p.path = filepath.Join(dir, fmt.Sprintf("planted-%d-x%g.csv", seed, scale))
	src := "user,item,rating\n" + strings.Join(lines, "\n") + "\n"
	if err := os.WriteFile(p.path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// fitCLI runs bnmf fit with args and fails the test on an error.
func fitCLI(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	if err := run(context.Background(), append([]string{"fit"}, args...), &out, &errOut); err != nil {
		t.Fatalf("bnmf fit %s: %v\nstderr:\n%s", strings.Join(args, " "), err, errOut.String())
	}
	return out.String(), errOut.String()
}

// readNpy reads a float64 .npy file and checks its shape.
func readNpy(t *testing.T, path string, shape ...int) []float64 {
	t.Helper()
	f, h := openNpy(t, path)
	if h.Major != 1 || h.Minor != 0 || h.Descr != "<f8" || h.FortranOrder || !slices.Equal(h.Shape, shape) {
		t.Fatalf("%s: header %+v, want version 1.0, '<f8', C order, shape %v", filepath.Base(path), h, shape)
	}
	if _, err := f.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	_, data, err := npy.Read[float64](f)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// openNpy opens the .npy file at path, closed when the test ends, and
// reads its header.
func openNpy(t *testing.T, path string) (*os.File, npy.Header) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	h, err := npy.ReadHeader(f)
	if err != nil {
		t.Fatal(err)
	}
	return f, h
}

// readFactorCSV reads a factor CSV: its ids and values (row-major).
func readFactorCSV(t *testing.T, path, idName string, k int) (ids []string, values []float64) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{idName}
	for j := range k {
		want = append(want, fmt.Sprintf("factor_%d", j+1))
	}
	if !slices.Equal(recs[0], want) {
		t.Fatalf("%s: header %v, want %v", filepath.Base(path), recs[0], want)
	}
	for _, rec := range recs[1:] {
		ids = append(ids, rec[0])
		for _, s := range rec[1:] {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			values = append(values, x)
		}
	}
	return ids, values
}

// projectionResidual returns the largest relative residual, over the
// columns of truth, of their least-squares projection onto the column
// space of basis: 0 when the spaces agree.
func projectionResidual(t *testing.T, basis, truth *mat.Dense) float64 {
	t.Helper()
	var qr mat.QR
	qr.Factorize(basis)
	_, k := basis.Dims()
	var q mat.Dense
	qr.QTo(&q)
	rows, _ := q.Dims()
	qk := q.Slice(0, rows, 0, k)
	var coef, proj, res mat.Dense
	coef.Mul(qk.T(), truth)
	proj.Mul(qk, &coef)
	res.Sub(truth, &proj)
	worst := 0.0
	_, c := truth.Dims()
	for j := range c {
		worst = math.Max(worst, mat.Norm(res.ColView(j), 2)/mat.Norm(truth.ColView(j), 2))
	}
	return worst
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(mustRead(t, path)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", filepath.Base(path), err)
	}
}

// dimsOf returns the shape in the header of the .npy file at path.
func dimsOf(t *testing.T, path string) []int {
	t.Helper()
	_, h := openNpy(t, path)
	return h.Shape
}

// mustJSON returns v as JSON.
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// mustReadModel reads the model file that bnmf fit wrote into dir.
func mustReadModel(t *testing.T, dir string) *posterior.Model {
	t.Helper()
	m, err := posterior.Read(filepath.Join(dir, posterior.FileName))
	if err != nil {
		t.Fatal(err)
	}
	return m
}
