package posterior

import "math"

// assignment solves the linear assignment problem for the n x n cost
// matrix cost (row-major): it returns the permutation p that minimises
// sum_i cost[i][p[i]], by the Hungarian method with potentials (Kuhn
// 1955, Munkres 1957; the O(n^3) form of Jonker and Volgenant's shortest
// augmenting paths). Ties go to the lower column, so the result is
// deterministic. It panics if len(cost) is not n*n.
func assignment(cost []float64, n int) []int {
	if len(cost) != n*n {
		panic("bnmf: assignment needs an n x n cost matrix")
	}
	// Rows and columns are numbered from 1; row 0 and column 0 are the
	// algorithm's sentinels.
	u := make([]float64, n+1) // row potentials
	v := make([]float64, n+1) // column potentials
	row := make([]int, n+1)   // row[j]: the row assigned to column j (0: none)
	way := make([]int, n+1)   // the previous column on the augmenting path
	minv := make([]float64, n+1)
	used := make([]bool, n+1)
	for i := 1; i <= n; i++ {
		row[0] = i
		j0 := 0
		for j := range minv {
			minv[j] = math.Inf(1)
			used[j] = false
		}
		for {
			used[j0] = true
			i0, delta, j1 := row[j0], math.Inf(1), 0
			for j := 1; j <= n; j++ {
				if used[j] {
					continue
				}
				if c := cost[(i0-1)*n+j-1] - u[i0] - v[j]; c < minv[j] {
					minv[j], way[j] = c, j0
				}
				if minv[j] < delta {
					delta, j1 = minv[j], j
				}
			}
			for j := 0; j <= n; j++ {
				if used[j] {
					u[row[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
			if row[j0] == 0 {
				break
			}
		}
		for j0 != 0 {
			j1 := way[j0]
			row[j0] = row[j1]
			j0 = j1
		}
	}
	p := make([]int, n)
	for j := 1; j <= n; j++ {
		p[row[j]-1] = j - 1
	}
	return p
}
