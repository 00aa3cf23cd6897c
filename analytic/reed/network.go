package reed

import (
	"math"

	"github.com/flitsim/flitsim/analytic"
)

// Variant selects between the corrected form of a formula that Reed (1983)
// prints wrongly (the zero value, Corrected) and the form as printed
// (Printed), kept so that the harness can show both (docs/models.md#numerics, docs/errata.md).
type Variant int

const (
	// Corrected is the form derived in docs/models.md#reed (SEED-FIX); the default.
	Corrected Variant = iota
	// Printed is the formula exactly as printed in the report (errata E1–E3, docs/errata.md#e1 to #e3).
	Printed
)

// String returns "corrected" or "printed".
func (v Variant) String() string {
	switch v {
	case Corrected:
		return "corrected"
	case Printed:
		return "printed"
	}
	return "Variant(?)"
}

func (v Variant) valid() bool { return v == Corrected || v == Printed }

// Duplex says how a bidirectional link maps onto queueing devices
// (docs/models.md#reed-inputs, docs/models.md#reed-simulator item 4).
type Duplex int

const (
	// HalfDuplex is Reed's reading, the default: one device per link, shared
	// by both directions (ring: Numlinks = K, so V_CL = (K+1)/(4K) uniform).
	HalfDuplex Duplex = iota
	// FullDuplex gives each direction of a link its own device (ring:
	// Numlinks = 2K, V_CL = LV/(2K)), as in a simulator with one channel per
	// direction.
	FullDuplex
)

// String returns "half-duplex" or "full-duplex".
func (d Duplex) String() string {
	switch d {
	case HalfDuplex:
		return "half-duplex"
	case FullDuplex:
		return "full-duplex"
	}
	return "Duplex(?)"
}

// maxNodes bounds K so that counts stay exact in int and float64.
const maxNodes = 1 << 30

// Profile is the distance profile of a symmetric network (Reed 1983, Table I
// notation): K nodes, Reach(l) nodes exactly l links from any node, l_max the
// diameter, and the number of link devices Numlinks for each Duplex reading.
// Symmetric means every node sees the same Reach; the routing distributions
// and visit ratios of this package rely on it (docs/models.md#reed-domain).
//
// A Profile is immutable; build it with NewProfile or one of Ring, Bus,
// Torus, Hypercube.
type Profile struct {
	name  string
	k     int
	reach []int  // reach[l], l = 0..lmax; reach[0] = 1 (the node itself)
	links [2]int // Numlinks under HalfDuplex, FullDuplex
}

// NewProfile builds the profile of a symmetric network of k >= 2 nodes from
// reach(l), the number of nodes exactly l >= 1 links away, and its link-device
// counts under each Duplex reading. reach is called for l = 1, 2, ... until
// the counts add up to k-1 (l never exceeds k-1); a negative count, a total
// other than k-1 or a link count < 1 is refused with analytic.ErrDomain.
func NewProfile(name string, k int, reach func(l int) int, halfDuplexLinks, fullDuplexLinks int) (Profile, error) {
	const model = "reed.NewProfile"
	if k < 2 || k > maxNodes {
		return Profile{}, analytic.Domain(model, "K = %d outside [2, 2^30]", k)
	}
	if halfDuplexLinks < 1 || fullDuplexLinks < 1 {
		return Profile{}, analytic.Domain(model, "Numlinks = %d (half), %d (full), want >= 1", halfDuplexLinks, fullDuplexLinks)
	}
	r := []int{1}
	total := 0
	for l := 1; total < k-1; l++ {
		if l > k-1 {
			return Profile{}, analytic.Domain(model, "sum of Reach(l) over l = 1..K-1 is %d, want K-1 = %d", total, k-1)
		}
		n := reach(l)
		if n < 0 {
			return Profile{}, analytic.Domain(model, "Reach(%d) = %d < 0", l, n)
		}
		r = append(r, n)
		total += n
	}
	if total != k-1 {
		return Profile{}, analytic.Domain(model, "sum of Reach(l) = %d, want K-1 = %d", total, k-1)
	}
	// Trim trailing zeros so that reach[lmax] > 0.
	for len(r) > 1 && r[len(r)-1] == 0 {
		r = r[:len(r)-1]
	}
	return Profile{name: name, k: k, reach: r, links: [2]int{halfDuplexLinks, fullDuplexLinks}}, nil
}

// Name returns the profile's description, e.g. "ring(15)".
func (p Profile) Name() string { return p.name }

// K returns the number of nodes.
func (p Profile) K() int { return p.k }

// LMax returns the diameter l_max, the largest l with Reach(l) > 0.
func (p Profile) LMax() int { return len(p.reach) - 1 }

// Reach returns the number of nodes exactly l links from a node: 1 at l = 0,
// 0 for l < 0 or l > l_max.
func (p Profile) Reach(l int) int {
	if l < 0 || l >= len(p.reach) {
		return 0
	}
	return p.reach[l]
}

// LocSize returns the number of other nodes within radius L
// (Reed 1983, sphere of locality):
//
//	LocSize(L) = sum_{l=1}^{L} Reach(l)
func (p Profile) LocSize(radius int) int {
	s := 0
	for l := 1; l <= radius && l < len(p.reach); l++ {
		s += p.reach[l]
	}
	return s
}

// distanceSum returns A_L = sum_{l=1}^{L} l Reach(l) (docs/models.md#reed-routing, Eq. (2)).
func (p Profile) distanceSum(radius int) int {
	s := 0
	for l := 1; l <= radius && l < len(p.reach); l++ {
		s += l * p.reach[l]
	}
	return s
}

// uniformLV returns LV under uniform routing, sum_l l Reach(l) / (K - 1),
// with one division of two exact integers.
func (p Profile) uniformLV() float64 {
	return float64(p.distanceSum(p.LMax())) / float64(p.k-1)
}

// Numlinks returns the number of link devices of the queueing model under
// the given reading (docs/models.md#reed-inputs, docs/models.md#reed-simulator item 4).
func (p Profile) Numlinks(d Duplex) int {
	if d == FullDuplex {
		return p.links[1]
	}
	return p.links[0]
}

// ringReach returns the distance profile of a bidirectional ring of k >= 2
// nodes, reach[l] for l = 0..floor(k/2):
//
//	odd k:   Reach(l) = 2 for 1 <= l <= (k-1)/2
//	even k:  Reach(l) = 2 for 1 <= l < k/2,  Reach(k/2) = 1 (the antipode)
func ringReach(k int) []int {
	r := make([]int, k/2+1)
	r[0] = 1
	for l := 1; l <= k/2; l++ {
		r[l] = 2
	}
	if k%2 == 0 {
		r[k/2] = 1
	}
	return r
}

func fromSlice(r []int) func(int) int {
	return func(l int) int {
		if l < len(r) {
			return r[l]
		}
		return 0
	}
}

// Ring returns the profile of a bidirectional ring of k >= 3 nodes
// (Reed 1983, Reach(l, ring); even k adds the single antipode):
//
//	Reach(l) = 2, 1 <= l <= floor((k-1)/2);   Reach(k/2) = 1 for even k
//	l_max = floor(k/2);   Numlinks = k (half duplex, Reed), 2k (full duplex)
func Ring(k int) (Profile, error) {
	if k < 3 || k > maxNodes {
		return Profile{}, analytic.Domain("reed.Ring", "K = %d outside [3, 2^30]", k)
	}
	return NewProfile(ringName(k), k, fromSlice(ringReach(k)), k, 2*k)
}

// Bus returns the profile of k >= 2 nodes on one shared bus: every other
// node is one bus crossing away, so LV = 1 under every distribution, and the
// bus is a single device under both Duplex readings (Reed 1983, "single bus":
// V_CL^bus = 1):
//
//	Reach(1) = k - 1,  l_max = 1,  Numlinks = 1
func Bus(k int) (Profile, error) {
	if k < 2 || k > maxNodes {
		return Profile{}, analytic.Domain("reed.Bus", "K = %d outside [2, 2^30]", k)
	}
	return NewProfile(busName(k), k, func(l int) int {
		if l == 1 {
			return k - 1
		}
		return 0
	}, 1, 1)
}

// Torus returns the profile of the bidirectional k-ary n-cube (k >= 2,
// n >= 1, K = k^n nodes). The distance to a node is the sum of the ring
// distances in each dimension, so Reach is the n-fold convolution of the
// ring profile (reach[0] = 1):
//
//	Reach_n = Reach_ring(k) * ... * Reach_ring(k),   l_max = n floor(k/2)
//	Numlinks = n K (half duplex), 2 n K (full) for k >= 3;
//	           n K/2 and n K for k = 2 (a 2-node ring has one link)
func Torus(k, n int) (Profile, error) {
	const model = "reed.Torus"
	if k < 2 || n < 1 {
		return Profile{}, analytic.Domain(model, "k = %d, n = %d, want k >= 2, n >= 1", k, n)
	}
	if float64(n)*math.Log2(float64(k)) > 30 {
		return Profile{}, analytic.Domain(model, "K = %d^%d exceeds 2^30", k, n)
	}
	ring := []int{1, 1} // k = 2: one neighbour
	if k > 2 {
		ring = ringReach(k)
	}
	r := []int{1}
	nodes := 1
	for range n {
		next := make([]int, len(r)+len(ring)-1)
		for i, a := range r {
			for j, b := range ring {
				next[i+j] += a * b
			}
		}
		r = next
		nodes *= k
	}
	half := n * nodes
	if k == 2 {
		half = n * nodes / 2
	}
	return NewProfile(torusName(k, n), nodes, fromSlice(r), half, 2*half)
}

// Hypercube returns the profile of the binary n-cube, n in [1, 30], K = 2^n:
//
//	Reach(l) = C(n, l),  l_max = n,  Numlinks = n K/2 (half duplex), n K (full)
func Hypercube(n int) (Profile, error) {
	if n < 1 || n > 30 {
		return Profile{}, analytic.Domain("reed.Hypercube", "n = %d outside [1, 30]", n)
	}
	r := make([]int, n+1)
	r[0] = 1
	for l := 1; l <= n; l++ {
		r[l] = r[l-1] * (n - l + 1) / l
	}
	k := 1 << n
	return NewProfile(hypercubeName(n), k, fromSlice(r), n*k/2, n*k)
}
