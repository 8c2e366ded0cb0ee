package dataset

import (
	"fmt"
	"strings"

	"github.com/bnmf-lab/bnmf/sparse"
)

// Coverage says which rows and columns a training set must reach: each of
// them keeps at least one training entry, so that its factors are learned
// from data and not from the prior alone. The zero value is
// CoverageColumns, the rule of the published reference code the paper
// follows.
type Coverage int

// The coverage rules.
const (
	CoverageColumns Coverage = iota // every column keeps a training entry
	CoverageNone                    // no constraint
	CoverageRows                    // every row keeps a training entry
	CoverageBoth                    // every row and every column keeps one
)

// coverageNames returns the names of the rules, indexed by Coverage.
func coverageNames() [4]string {
	return [...]string{
		CoverageColumns: "columns",
		CoverageNone:    "none",
		CoverageRows:    "rows",
		CoverageBoth:    "both",
	}
}

// ParseCoverage returns the Coverage called s: "none", "columns", "rows" or
// "both". The empty string means the default, CoverageColumns.
func ParseCoverage(s string) (Coverage, error) {
	if s == "" {
		return CoverageColumns, nil
	}
	for c, name := range coverageNames() {
		if s == name {
			return Coverage(c), nil
		}
	}
	return 0, fmt.Errorf("unknown coverage %q; want one of none, columns, rows, both", s)
}

// String returns the name of c, as ParseCoverage accepts it.
func (c Coverage) String() string {
	if !c.valid() {
		return fmt.Sprintf("Coverage(%d)", int(c))
	}
	return coverageNames()[c]
}

func (c Coverage) valid() bool { return c >= 0 && int(c) < len(coverageNames()) }
func (c Coverage) rows() bool  { return c == CoverageRows || c == CoverageBoth }
func (c Coverage) cols() bool  { return c == CoverageColumns || c == CoverageBoth }

// checkCoverage returns an error if c is invalid or some row or column
// that c must reach has no observed entry at all.
func checkCoverage(r *Ratings, c Coverage) error {
	if !c.valid() {
		return fmt.Errorf("dataset %s: invalid coverage %d", r.Name, int(c))
	}
	rowSeen := make([]bool, r.Rows)
	colSeen := make([]bool, r.Cols)
	for _, e := range r.Entries {
		rowSeen[e.Row], colSeen[e.Col] = true, true
	}
	if err := allSeen(r.Name, "row", rowSeen, r.RowIDs, c.rows()); err != nil {
		return err
	}
	return allSeen(r.Name, "column", colSeen, r.ColIDs, c.cols())
}

func allSeen(name, what string, seen []bool, ids []string, need bool) error {
	if !need {
		return nil
	}
	var empty []string
	for i, s := range seen {
		if !s {
			id := fmt.Sprint(i)
			if i < len(ids) {
				id = ids[i]
			}
			empty = append(empty, id)
		}
	}
	if len(empty) == 0 {
		return nil
	}
	if len(empty) > 5 {
		empty = append(empty[:5], "...")
	}
	return fmt.Errorf("dataset %s: coverage of every %s is impossible: %s(s) %s have no observed entries",
		name, what, what, strings.Join(empty, ", "))
}

// minimumCover returns the indices of a smallest set of entries that
// reaches every row and/or column that c requires, preferring entries
// early in order (a permutation of the entry indices). checkCoverage must
// have succeeded.
func minimumCover(r *Ratings, order []int, c Coverage) []int {
	var cover []int
	switch c {
	case CoverageNone:
	case CoverageColumns, CoverageRows:
		seen := make([]bool, max(r.Rows, r.Cols))
		for _, t := range order {
			line := r.Entries[t].Col
			if c == CoverageRows {
				line = r.Entries[t].Row
			}
			if !seen[line] {
				seen[line] = true
				cover = append(cover, t)
			}
		}
	case CoverageBoth:
		cover = edgeCover(r.Rows, r.Cols, r.Entries, order)
	}
	return cover
}

// edgeCover returns a minimum edge cover of the bipartite graph whose
// vertices are the rows and columns and whose edges are the entries: a
// maximum matching (Hopcroft and Karp 1973, "An n^5/2 algorithm for
// maximum matchings in bipartite graphs") plus, for every vertex it leaves
// unmatched, that vertex's first edge in order. Its size is
// rows + cols - (size of the matching) (Gallai 1959). Every row and column
// must have an edge.
func edgeCover(rows, cols int, entries []sparse.Entry, order []int) []int {
	// Adjacency of each row, edges in the given order.
	start := make([]int, rows+1)
	for _, e := range entries {
		start[e.Row+1]++
	}
	for i := range rows {
		start[i+1] += start[i]
	}
	adj := make([]int, len(entries))
	next := append([]int(nil), start[:rows]...)
	for _, t := range order {
		i := entries[t].Row
		adj[next[i]] = t
		next[i]++
	}

	hk := matcher{entries: entries, start: start, adj: adj,
		rowMatch: make([]int, rows), colMatch: make([]int, cols), dist: make([]int, rows)}
	for i := range hk.rowMatch {
		hk.rowMatch[i] = -1
	}
	for j := range hk.colMatch {
		hk.colMatch[j] = -1
	}
	for hk.bfs() {
		for i := range rows {
			if hk.rowMatch[i] < 0 {
				hk.dfs(i)
			}
		}
	}

	var cover []int
	colDone := make([]bool, cols)
	for i := range rows {
		if t := hk.rowMatch[i]; t >= 0 {
			cover = append(cover, t)
			colDone[entries[t].Col] = true
		}
	}
	rowDone := make([]bool, rows)
	for i := range rows {
		rowDone[i] = hk.rowMatch[i] >= 0
	}
	for _, t := range order {
		e := entries[t]
		if !rowDone[e.Row] {
			rowDone[e.Row] = true
			cover = append(cover, t)
			colDone[e.Col] = true
		} else if !colDone[e.Col] {
			colDone[e.Col] = true
			cover = append(cover, t)
		}
	}
	return cover
}

// matcher holds the state of the Hopcroft-Karp algorithm. rowMatch holds
// the matched entry of each row, colMatch the matched row of each column,
// -1 when unmatched.
type matcher struct {
	entries            []sparse.Entry
	start, adj         []int
	rowMatch, colMatch []int
	dist               []int
}

const unreached = -1

// bfs layers the rows by alternating-path distance from the free rows and
// reports whether an augmenting path exists.
func (h *matcher) bfs() bool {
	queue := make([]int, 0, len(h.rowMatch))
	for i, t := range h.rowMatch {
		h.dist[i] = unreached
		if t < 0 {
			h.dist[i] = 0
			queue = append(queue, i)
		}
	}
	found := false
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, t := range h.adj[h.start[i]:h.start[i+1]] {
			i2 := h.colMatch[h.entries[t].Col]
			if i2 < 0 {
				found = true
			} else if h.dist[i2] == unreached {
				h.dist[i2] = h.dist[i] + 1
				queue = append(queue, i2)
			}
		}
	}
	return found
}

// dfs looks for an augmenting path from row i along the layers and flips
// it.
func (h *matcher) dfs(i int) bool {
	for _, t := range h.adj[h.start[i]:h.start[i+1]] {
		j := h.entries[t].Col
		i2 := h.colMatch[j]
		if i2 < 0 || (h.dist[i2] == h.dist[i]+1 && h.dfs(i2)) {
			h.rowMatch[i] = t
			h.colMatch[j] = i
			return true
		}
	}
	h.dist[i] = unreached
	return false
}
