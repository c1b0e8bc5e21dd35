package optima

import (
	"math"
	"math/rand/v2"
	"slices"
)

// median returns the geometric median of pts (the point minimizing the
// sum of Euclidean distances) and that sum: a point of pts where its
// optimality condition holds (the unit vectors to the others sum to at
// most 1 in norm), else Weiszfeld's iteration from the centroid, which
// then never meets a point of pts.
func median(pts [][2]float64) ([2]float64, float64) {
	cost := func(m [2]float64) float64 {
		var s float64
		for _, p := range pts {
			s += math.Hypot(m[0]-p[0], m[1]-p[1])
		}
		return s
	}
	for k, c := range pts {
		var gx, gy float64
		for j, p := range pts {
			if j == k {
				continue
			}
			r := math.Hypot(c[0]-p[0], c[1]-p[1])
			if r == 0 {
				continue
			}
			gx += (c[0] - p[0]) / r
			gy += (c[1] - p[1]) / r
		}
		if math.Hypot(gx, gy) <= 1 {
			return c, cost(c)
		}
	}
	var m [2]float64
	for _, p := range pts {
		m[0] += p[0] / float64(len(pts))
		m[1] += p[1] / float64(len(pts))
	}
	for range 100000 {
		var nx, ny, w float64
		for _, p := range pts {
			r := math.Hypot(m[0]-p[0], m[1]-p[1])
			nx += p[0] / r
			ny += p[1] / r
			w += 1 / r
		}
		next := [2]float64{nx / w, ny / w}
		if math.Hypot(next[0]-m[0], next[1]-m[1]) < 1e-13 {
			m = next
			break
		}
		m = next
	}
	return m, cost(m)
}

// partitionCost is the sum over the k clusters of label of the distances
// to their geometric medians, and the medians (an empty cluster: +Inf).
func partitionCost(cust [][2]float64, label []int, k int) (float64, [][2]float64) {
	var total float64
	meds := make([][2]float64, k)
	for c := range k {
		var pts [][2]float64
		for j, l := range label {
			if l == c {
				pts = append(pts, cust[j])
			}
		}
		if len(pts) == 0 {
			return math.Inf(1), nil
		}
		m, s := median(pts)
		meds[c], total = m, total+s
	}
	return total, meds
}

// lloyd alternates assignment to the nearest median and the clusters'
// geometric medians from depots until the assignment stops changing.
func lloyd(cust [][2]float64, depots [][2]float64) ([]int, float64, [][2]float64) {
	k := len(depots)
	label := make([]int, len(cust))
	cost := math.Inf(1)
	for it := 0; ; it++ {
		changed := it == 0
		for j, c := range cust {
			best, bd := 0, math.Inf(1)
			for i, d := range depots {
				if r := math.Hypot(c[0]-d[0], c[1]-d[1]); r < bd {
					best, bd = i, r
				}
			}
			if label[j] != best {
				label[j], changed = best, true
			}
		}
		if !changed || it > 1000 {
			return label, cost, depots
		}
		c, meds := partitionCost(cust, label, k)
		if math.IsInf(c, 1) {
			return label, c, depots
		}
		cost, depots = c, meds
	}
}

// improve moves single customers between clusters while that lowers the
// partition's cost (each cluster re-centred on its geometric median).
func improve(cust [][2]float64, label []int, k int) ([]int, float64, [][2]float64) {
	label = slices.Clone(label)
	cost, meds := partitionCost(cust, label, k)
	for moved := true; moved; {
		moved = false
		for j := range cust {
			for c := range k {
				if c == label[j] {
					continue
				}
				old := label[j]
				label[j] = c
				if nc, nm := partitionCost(cust, label, k); nc < cost-1e-9 {
					cost, meds, moved = nc, nm, true
				} else {
					label[j] = old
				}
			}
		}
	}
	return label, cost, meds
}

// KMedians returns the best k medians of cust found from starts random
// starts (k distinct customers, from rand.New(rand.NewPCG(seed, 0))),
// each alternated to a fixed point, the best then improved by
// single-customer moves; the sum of the customers' distances to their
// nearest median; and how many starts reached that sum to within tol.
func KMedians(cust [][2]float64, k, starts int, seed uint64, tol float64) ([][2]float64, float64, int) {
	rng := rand.New(rand.NewPCG(seed, 0))
	bestCost := math.Inf(1)
	var bestLabel []int
	costs := make([]float64, starts)
	for s := range starts {
		perm := rng.Perm(len(cust))
		dep := make([][2]float64, k)
		for i := range dep {
			dep[i] = cust[perm[i]]
		}
		label, c, _ := lloyd(cust, dep)
		costs[s] = c
		if c < bestCost {
			bestCost, bestLabel = c, label
		}
	}
	_, cost, meds := improve(cust, bestLabel, k)
	hits := 0
	for _, c := range costs {
		if c <= cost+tol {
			hits++
		}
	}
	return meds, cost, hits
}
