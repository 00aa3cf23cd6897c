package topology

import (
	"fmt"
	"math/bits"
)

// dimDistance returns the minimal number of hops along one dimension from
// coordinate c to coordinate b.
func (t *Topology) dimDistance(c, b int) int {
	switch {
	case t.spec.Kind == Mesh || t.spec.Kind == Hypercube:
		if b >= c {
			return b - c
		}
		return c - b
	case t.spec.Bidirectional:
		o := b - c
		if o < 0 {
			o += t.k
		}
		return min(o, t.k-o)
	default:
		o := b - c
		if o < 0 {
			o += t.k
		}
		return o
	}
}

// Distance returns the minimal number of hops from router a to router b:
// the sum over dimensions of the per-dimension distance
//
//	bidirectional ring/torus: min((b_i - a_i) mod K, (a_i - b_i) mod K)
//	unidirectional ring/torus: (b_i - a_i) mod K      (not symmetric)
//	mesh:                      |b_i - a_i|
//	hypercube:                 [a_i != b_i]           (Hamming distance)
func (t *Topology) Distance(a, b int) int {
	if t.spec.Kind == Hypercube {
		return bits.OnesCount(uint(a ^ b))
	}
	ca := t.coords[a*t.n : a*t.n+t.n]
	cb := t.coords[b*t.n : b*t.n+t.n]
	h := 0
	for d := range ca {
		h += t.dimDistance(int(ca[d]), int(cb[d]))
	}
	return h
}

// Diameter returns the largest minimal distance between two routers:
//
//	bidirectional torus/ring:  N floor(K/2)
//	unidirectional torus/ring: N (K-1)
//	mesh:                      N (K-1)
//	hypercube:                 N
func (t *Topology) Diameter() int { return t.diameter }

// buildReach computes reach[l], the number of routers exactly l hops from
// router 0, by convolving the per-dimension distance counts from
// coordinate 0 (the distance is a sum of independent per-dimension terms).
func (t *Topology) buildReach() {
	per := make([]int, 0, t.k)
	for b := 0; b < t.k; b++ {
		h := t.dimDistance(0, b)
		for len(per) <= h {
			per = append(per, 0)
		}
		per[h]++
	}
	reach := []int{1}
	for d := 0; d < t.n; d++ {
		next := make([]int, len(reach)+len(per)-1)
		for i, x := range reach {
			if x == 0 {
				continue
			}
			for j, y := range per {
				next[i+j] += x * y
			}
		}
		reach = next
	}
	t.reach = reach
	t.diameter = len(reach) - 1
}

// Reach returns the number of routers exactly l hops from router 0 (0 for
// l < 0 or l > Diameter()); Reach(0) = 1. Rings, tori and hypercubes are
// vertex-symmetric, so this is the count from any router. A mesh is not:
// there router 0 is a corner, and Reach gives the corner's counts (for
// distances averaged over all pairs use MeanDistance).
//
// This is Reed (1983)'s Reach(l), from which the uniform routing
// distribution is Phi(l) = Reach(l)/(Nodes()-1) (docs/models.md#reed-routing).
func (t *Topology) Reach(l int) int {
	if l < 0 || l >= len(t.reach) {
		return 0
	}
	return t.reach[l]
}

// MeanDistance returns the exact mean minimal distance over all ordered
// pairs of routers, with (includeSelf) or without the N pairs (a, a). By
// linearity over dimensions it is N times the per-dimension mean over all
// K^2 coordinate pairs m1, enumerated exactly, with
//
//	mean(includeSelf)  = N m1
//	mean(!includeSelf) = N m1 K^N / (K^N - 1)
//
// which gives the closed forms (self excluded):
//
//	bidirectional ring, odd K:   (K+1)/4                  Reed 1983, LV_uniform (docs/models.md#reed-routing)
//	bidirectional ring, even K:  K^2 / (4(K-1))
//	unidirectional k-ary n-cube: n (k-1)/2 * k^n/(k^n-1)  Draper–Ghosh Dbar (docs/models.md#dg-r)
//	bidirectional torus, even k: n (k/4) k^n/(k^n-1)      Safaei et al. Eq. (2) k/4 per dimension, self included
//	bidirectional torus, odd k:  n (k^2-1)/(4k) k^n/(k^n-1)
//	mesh:                        n (k^2-1)/(3k) k^n/(k^n-1)
//	binary n-cube:               n 2^(n-1) / (2^n-1)      Jacquet–Mühlethaler docs/models.md#jacquet-distance, d = n/(2(1-2^-n))
//
// The forms without a citation follow from the same enumeration.
// For a mesh this is the all-pairs mean, not the mean from router 0.
func (t *Topology) MeanDistance(includeSelf bool) float64 {
	// sum over ordered coordinate pairs (c, b) of dimDistance(c, b),
	// counted by offset: K pairs per offset for a torus; for a mesh
	// 2(K-h) pairs at distance h >= 1. Fits int64 for K <= 2^20.
	var sum int64
	if t.spec.Kind == Mesh || t.spec.Kind == Hypercube {
		for h := 1; h < t.k; h++ {
			sum += 2 * int64(t.k-h) * int64(h)
		}
	} else {
		for b := 0; b < t.k; b++ {
			sum += int64(t.k) * int64(t.dimDistance(0, b))
		}
	}
	m1 := float64(sum) / (float64(t.k) * float64(t.k))
	mean := float64(t.n) * m1
	if !includeSelf {
		nodes := float64(t.nodes)
		mean *= nodes / (nodes - 1)
	}
	return mean
}

// describeChannel formats channel id for diagnostics.
func (t *Topology) describeChannel(id int) string {
	c := t.Channel(id)
	sign := "+"
	if c.Dir < 0 {
		sign = "-"
	}
	return fmt.Sprintf("ch%d(%d->%d %sd%d)", id, c.Src, c.Dst, sign, c.Dim)
}
