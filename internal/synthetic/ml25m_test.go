package synthetic

import "testing"

// TestML25M checks the shape: the number of entries, every row's count
// (the floor or ceiling of the average), distinct columns within a row,
// indices in range and values 1 to 5.
func TestML25M(t *testing.T) {
	if testing.Short() {
		t.Skip("25M entries")
	}
	count, row := 0, -1
	var seen map[int]bool
	perRow := 0
	check := func() {
		if row >= 0 && perRow != ML25MObserved/ML25MRows && perRow != ML25MObserved/ML25MRows+1 {
			t.Fatalf("row %d has %d entries", row, perRow)
		}
	}
	for e := range ML25M() {
		if e.Row != row {
			check()
			if e.Row != row+1 {
				t.Fatalf("entry %d is in row %d after row %d", count, e.Row, row)
			}
			row, perRow, seen = e.Row, 0, map[int]bool{}
		}
		if e.Col < 0 || e.Col >= ML25MCols || seen[e.Col] || e.Value < 1 || e.Value > 5 || e.Value != float64(int(e.Value)) {
			t.Fatalf("entry %d: %+v (column seen before in the row: %v)", count, e, seen[e.Col])
		}
		seen[e.Col] = true
		perRow++
		count++
	}
	check()
	if count != ML25MObserved || row != ML25MRows-1 {
		t.Fatalf("%d entries in %d rows, want %d in %d", count, row+1, ML25MObserved, ML25MRows)
	}
}
