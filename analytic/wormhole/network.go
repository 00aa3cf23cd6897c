package wormhole

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/flitsim/flitsim/analytic"
)

// Class is one equivalence class of network virtual channels of the
// DG-R model (docs/models.md#dg-r): the VC of class VC (0 or 1, Dally–Seitz
// dateline) on the + channel of dimension Dim leaving coordinate Coord.
// Every class has k^(n-1) identical physical instances.
type Class struct {
	Dim, Coord, VC int
	// Rate is the message arrival rate of one instance per unit of the
	// per-node generation rate lambda (messages/cycle per message/node/cycle).
	Rate float64
}

// String formats the class as "(dim i, coord c, vc s)".
func (c Class) String() string { return fmt.Sprintf("(dim %d, coord %d, vc %d)", c.Dim, c.Coord, c.VC) }

// edge is one class-to-class transition of the class graph.
type edge struct {
	to int     // index into Network.classes, or Network.ej for ejection
	p  float64 // P(x -> to), class level
	// own is the flow from x into `to` per unit lambda, rate_x P(x -> to)
	// (ExcludeOwnFlow; see setOwnFlows).
	own float64
}

// Network is the channel-class graph of a unidirectional k-ary n-cube
// under e-cube routing (dimensions resolved n-1 first, 0 last) with
// Dally–Seitz dateline VC classes, for one destination distribution. It is
// immutable once built and safe for concurrent use.
//
// Classes are stored in an order in which every class comes after all
// classes it can lead to, so service times are computed in one forward
// pass (the class graph is acyclic).
type Network struct {
	k, n    int
	nodes   int
	dbar    float64
	classes []Class
	next    [][]edge // next[x]: transitions out of class x
	inj     []edge   // transitions out of the injection channel
	ej      int      // index of the ejection pseudo-class (= len(classes))
}

// K returns the radix k.
func (nw *Network) K() int { return nw.k }

// Dims returns the number of dimensions n.
func (nw *Network) Dims() int { return nw.n }

// Dbar returns the mean number of network hops of a message.
func (nw *Network) Dbar() float64 { return nw.dbar }

// Classes returns a copy of the channel classes in computation order.
func (nw *Network) Classes() []Class { return append([]Class(nil), nw.classes...) }

// classIndex maps (dim, coord, vc) to the class index: per dimension
// 2(k-1) classes, VC 0 at coordinates k-2..0 first, then VC 1 at
// coordinates k-1..1, dimensions in increasing order. This is a reverse
// topological order: (i,c,0) -> (i,c+1,0); (i,c,1) -> (i,c+1,1) or, at
// c = k-1, (i,0,0); leaving dimension i leads to dimensions < i.
func classIndex(k, dim, coord, vc int) int {
	base := dim * 2 * (k - 1)
	if vc == 0 {
		return base + (k - 2 - coord)
	}
	return base + (k - 1) + (k - 1 - coord)
}

func newEmpty(k, n int) *Network {
	nc := 2 * (k - 1) * n
	nw := &Network{k: k, n: n, nodes: ipow(k, n), classes: make([]Class, nc), next: make([][]edge, nc), ej: nc}
	for i := 0; i < n; i++ {
		for c := 0; c <= k-2; c++ {
			nw.classes[classIndex(k, i, c, 0)] = Class{Dim: i, Coord: c, VC: 0}
		}
		for c := 1; c <= k-1; c++ {
			nw.classes[classIndex(k, i, c, 1)] = Class{Dim: i, Coord: c, VC: 1}
		}
	}
	return nw
}

func ipow(k, n int) int {
	p := 1
	for ; n > 0; n-- {
		p *= k
	}
	return p
}

func checkCube(model string, k, n int) error {
	if k < 2 || n < 1 {
		return analytic.Domain(model, "k = %d, n = %d: need k >= 2, n >= 1", k, n)
	}
	if float64(n)*math.Log2(float64(k)) > 24 {
		return analytic.Domain(model, "k^n = %d^%d above 2^24 nodes", k, n)
	}
	return nil
}

// NewUniform builds the class graph of a unidirectional k-ary n-cube
// (k >= 2; k = 2 is the binary n-cube) under uniform traffic over the other
// N-1 nodes, from the closed forms of docs/models.md#dg-r [RECON-M]:
//
//	lambda_{i,c,0} = lambda k^(n-1)/(N-1) (k-1-c)(k+c)/2     (c = 0..k-2)
//	lambda_{i,c,1} = lambda k^(n-1)/(N-1) c(c+1)/2            (c = 1..k-1)
//	Dbar           = n k^n (k-1) / (2(N-1))
//
// Transitions: on (i,c,s) the destination coordinate b has weight c+k-b
// (s = 0, b > c) or c-b (s = 1, b < c); the message continues on
// (i, c+1 mod k, [c+1 >= b]) unless c+1 = b mod k, when it leaves
// dimension i for dimension j < i with probability k^-(i-1-j) (1-1/k) or
// for the ejection channel with probability k^-i. Entering a dimension,
// (a, b) is uniform over the k(k-1) ordered pairs; injection enters
// dimension j with probability (k-1) k^j / (N-1).
func NewUniform(k, n int) (*Network, error) {
	if err := checkCube("wormhole.NewUniform", k, n); err != nil {
		return nil, err
	}
	nw := newEmpty(k, n)
	kf := float64(k)
	nm1 := float64(nw.nodes - 1)
	scale := float64(ipow(k, n-1)) / nm1
	nw.dbar = float64(n) * float64(nw.nodes) * (kf - 1) / (2 * nm1)

	// entry[j]: the first-class distribution of a message entering
	// dimension j, (a, b) uniform over the k(k-1) ordered pairs.
	entry := func(j int, pj float64, dst []edge) []edge {
		for a := 0; a < k; a++ {
			if a < k-1 {
				dst = append(dst, edge{to: classIndex(k, j, a, 0), p: pj * float64(k-1-a) / (kf * (kf - 1))})
			}
			if a > 0 {
				dst = append(dst, edge{to: classIndex(k, j, a, 1), p: pj * float64(a) / (kf * (kf - 1))})
			}
		}
		return dst
	}
	// leave returns the transitions of a message leaving dimension i
	// with probability pl.
	leave := func(i int, pl float64, dst []edge) []edge {
		for j := i - 1; j >= 0; j-- {
			pj := pl * math.Pow(kf, -float64(i-1-j)) * (1 - 1/kf)
			dst = entry(j, pj, dst)
		}
		return append(dst, edge{to: nw.ej, p: pl * math.Pow(kf, -float64(i))})
	}
	for x, cl := range nw.classes {
		i, c := cl.Dim, cl.Coord
		var out []edge
		if cl.VC == 0 {
			tot := float64((k-1-c)*(k+c)) / 2
			cl.Rate = scale * tot
			pExit := (kf - 1) / tot
			if c+1 <= k-2 && pExit < 1 {
				out = append(out, edge{to: classIndex(k, i, c+1, 0), p: 1 - pExit})
			}
			out = leave(i, pExit, out)
		} else {
			cl.Rate = scale * float64(c*(c+1)) / 2
			if c < k-1 {
				out = append(out, edge{to: classIndex(k, i, c+1, 1), p: 1})
			} else {
				pExit := 2 / kf
				if k > 2 {
					out = append(out, edge{to: classIndex(k, i, 0, 0), p: 1 - pExit})
				}
				out = leave(i, pExit, out)
			}
		}
		nw.classes[x] = cl
		nw.next[x] = out
	}
	for j := n - 1; j >= 0; j-- {
		nw.inj = entry(j, (kf-1)*float64(ipow(k, j))/nm1, nw.inj)
	}
	nw.setOwnFlows()
	return nw, nil
}

// setOwnFlows fills edge.own = rate_x P(x -> y), the class-level flow
// from x into y per unit lambda (docs/models.md#dg-r, ExcludeOwnFlow). This is
// the reading that reproduces the pinned saturation rates of docs/models.md#dg-pins
// (0.013441, 0.003095, 0.001364). Note that on a dimension change (and
// leaving the injection channel) one physical instance of x feeds only
// the instances of y whose coordinate in the new dimension matches its
// own, so the physical instance-to-instance flow there is k times this
// value; the pinned reading does not use that factor.
func (nw *Network) setOwnFlows() {
	for x := range nw.next {
		for e := range nw.next[x] {
			nw.next[x][e].own = nw.classes[x].Rate * nw.next[x][e].p
		}
	}
	for e := range nw.inj {
		nw.inj[e].own = nw.inj[e].p
	}
}

// enumerate builds the class graph by walking the e-cube route of every
// (source, destination) pair, weight(src, dst) being the probability that
// a message generated at src is addressed to dst. Rates are per instance
// and per unit lambda; transitions are ratios of pair counts. Cost
// O(N^2 n k).
func enumerate(k, n int, weight func(src, dst int) float64) *Network {
	nw := newEmpty(k, n)
	nc := len(nw.classes)
	visits := make([]float64, nc)
	trans := make([]map[int]float64, nc)
	for x := range trans {
		trans[x] = map[int]float64{}
	}
	injT := map[int]float64{}
	var hops float64
	a := make([]int, n)
	b := make([]int, n)
	for src := 0; src < nw.nodes; src++ {
		for dst := 0; dst < nw.nodes; dst++ {
			w := weight(src, dst)
			if src == dst || w == 0 {
				continue
			}
			digits(src, k, a)
			digits(dst, k, b)
			prev := -1
			for i := n - 1; i >= 0; i-- {
				for c := a[i]; c != b[i]; c = (c + 1) % k {
					vc := 0
					if c > b[i] {
						vc = 1
					}
					x := classIndex(k, i, c, vc)
					visits[x] += w
					hops += w
					if prev < 0 {
						injT[x] += w
					} else {
						trans[prev][x] += w
					}
					prev = x
				}
			}
			trans[prev][nw.ej] += w
		}
	}
	inst := float64(ipow(k, n-1))
	for x := range nw.classes {
		nw.classes[x].Rate = visits[x] / inst
		nw.next[x] = sortedEdges(trans[x], visits[x])
	}
	nw.inj = sortedEdges(injT, float64(nw.nodes))
	nw.dbar = hops / float64(nw.nodes)
	nw.setOwnFlows()
	return nw
}

// sortedEdges turns a map of counts into edges in increasing target
// order (never iterate a map into a result).
func sortedEdges(m map[int]float64, total float64) []edge {
	out := make([]edge, 0, len(m))
	for to := 0; len(out) < len(m); to++ {
		if w, ok := m[to]; ok {
			out = append(out, edge{to: to, p: w / total})
		}
	}
	return out
}

func digits(v, k int, d []int) {
	for i := range d {
		d[i] = v % k
		v /= k
	}
}

// NewSpherical builds the class graph of the binary n-cube (k = 2) under
// spherically symmetric traffic: a message goes to distance h (Hamming
// distance, h = 1..n) with probability proportional to phi[h], uniformly
// over the C(n,h) nodes at that distance (Draper–Ghosh Section 5 as cited
// in seed 002; e.g. Reed's sphere-of-locality or decreasing-probability
// Phi(h)). len(phi) must be n+1; phi[0] is ignored; weights must be
// non-negative with a positive sum and are normalised here. Built by pair
// enumeration, O(4^n n).
func NewSpherical(n int, phi []float64) (*Network, error) {
	const model = "wormhole.NewSpherical"
	if err := checkCube(model, 2, n); err != nil {
		return nil, err
	}
	if n > 12 {
		return nil, analytic.Domain(model, "n = %d > 12 (pair enumeration is O(4^n n))", n)
	}
	if len(phi) != n+1 {
		return nil, analytic.Domain(model, "len(phi) = %d, want n+1 = %d", len(phi), n+1)
	}
	var sum float64
	for h := 1; h <= n; h++ {
		if !(phi[h] >= 0) || math.IsInf(phi[h], 0) {
			return nil, analytic.Domain(model, "phi[%d] = %g not in [0, inf)", h, phi[h])
		}
		sum += phi[h]
	}
	if !(sum > 0) {
		return nil, analytic.Domain(model, "sum of phi[1..n] = %g, want > 0", sum)
	}
	per := make([]float64, n+1)
	for h := 1; h <= n; h++ {
		per[h] = phi[h] / sum / binom(n, h)
	}
	return enumerate(2, n, func(src, dst int) float64 { return per[bits.OnesCount(uint(src^dst))] }), nil
}

func binom(n, h int) float64 {
	r := 1.0
	for i := 1; i <= h; i++ {
		r = r * float64(n-h+i) / float64(i)
	}
	return r
}
