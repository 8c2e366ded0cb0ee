package sparse

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestNewMatrixRejects(t *testing.T) {
	tests := []struct {
		name       string
		rows, cols int
		entries    []Entry
		want       string
		nonFinite  bool
	}{
		{"no rows", 0, 3, nil, "dimensions 0 x 3", false},
		{"outside", 2, 2, []Entry{{Row: 2, Col: 0, Value: 1}}, "entry 0 at (2, 0) is outside", false},
		{"negative index", 2, 2, []Entry{{Row: 0, Col: -1, Value: 1}}, "entry 0 at (0, -1) is outside", false},
		{"NaN", 2, 2, []Entry{{Row: 0, Col: 0, Value: 1}, {Row: 1, Col: 1, Value: math.NaN()}}, "entry 1 at (1, 1) has non-finite value NaN", true},
		{"Inf", 2, 2, []Entry{{Row: 0, Col: 1, Value: math.Inf(-1)}}, "non-finite value -Inf", true},
		{"duplicate", 2, 2, []Entry{{Row: 1, Col: 0, Value: 1}, {Row: 0, Col: 0, Value: 2}, {Row: 1, Col: 0, Value: 3}}, "entries 0 and 2 both give (1, 0)", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewMatrix(tt.rows, tt.cols, tt.entries)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one containing %q", err, tt.want)
			}
			if got := errors.Is(err, ErrNonFinite); got != tt.nonFinite {
				t.Errorf("errors.Is(err, ErrNonFinite) = %v, want %v", got, tt.nonFinite)
			}
		})
	}
}

// TestStorage builds the 3 x 3 matrix
//
//	. 2 .
//	4 . 5
//	. 6 7
//
// from entries out of order and checks both storages by hand.
func TestStorage(t *testing.T) {
	m, err := NewMatrix(3, 3, []Entry{
		{Row: 2, Col: 2, Value: 7}, {Row: 0, Col: 1, Value: 2}, {Row: 1, Col: 2, Value: 5},
		{Row: 2, Col: 1, Value: 6}, {Row: 1, Col: 0, Value: 4},
	})
	if err != nil {
		t.Fatal(err)
	}
	start, cols, vals := m.RowStorage()
	if !slices.Equal(start, []int{0, 1, 3, 5}) || !slices.Equal(cols, []int32{1, 0, 2, 1, 2}) || !slices.Equal(vals, []float64{2, 4, 5, 6, 7}) {
		t.Errorf("row storage %v %v %v", start, cols, vals)
	}
	cstart, rows, pos := m.ColStorage()
	if !slices.Equal(cstart, []int{0, 1, 3, 5}) || !slices.Equal(rows, []int32{1, 0, 2, 1, 2}) || !slices.Equal(pos, []int32{1, 0, 3, 2, 4}) {
		t.Errorf("column storage %v %v %v", cstart, rows, pos)
	}
	if _, v := m.Col(2); !slices.Equal(v, []float64{5, 7}) {
		t.Errorf("column 2 values %v, want [5 7]", v)
	}
	if e := m.EntryAt(3); e != (Entry{Row: 2, Col: 1, Value: 6}) {
		t.Errorf("EntryAt(3) = %v", e)
	}
	if got, want := m.Mean(), 24.0/5; got != want {
		t.Errorf("Mean = %v, want %v", got, want)
	}
	w := m.WithValues([]float64{-1, -2, -3, -4, -5})
	if _, v := w.Col(2); !slices.Equal(v, []float64{-3, -5}) {
		t.Errorf("WithValues: column 2 values %v, want [-3 -5]", v)
	}
	if _, v := m.Col(2); !slices.Equal(v, []float64{5, 7}) {
		t.Errorf("WithValues changed the original: column 2 values %v", v)
	}
	if got := w.Entries(); got[1] != (Entry{Row: 1, Col: 0, Value: -2}) {
		t.Errorf("WithValues entries %v", got)
	}
}
