package worstcase

import (
	"math"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/topology"
)

// loads returns the expected load of every channel under permutation
// perm with oblivious routing r: every path enumerated depth-first, its
// probability the product of 1/(number of candidates) along it.
func loads(t *topology.Topology, r topology.Routing, perm []int) []float64 {
	l := make([]float64, t.NumChannels())
	var walk func(cur, d int, p float64)
	walk = func(cur, d int, p float64) {
		if cur == d {
			return
		}
		cands := r.Route(cur, d, nil)
		for _, c := range cands {
			ch := t.Out(cur, c.Port)
			l[ch] += p / float64(len(cands))
			walk(t.Channel(ch).Dst, d, p/float64(len(cands)))
		}
	}
	for s, d := range perm {
		walk(s, d, 1)
	}
	return l
}

// permute calls fn with every permutation of 0..n-1 (Heap's algorithm).
func permute(n int, fn func([]int)) {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	c := make([]int, n)
	fn(p)
	for i := 0; i < n; {
		if c[i] < i {
			if i%2 == 0 {
				p[0], p[i] = p[i], p[0]
			} else {
				p[c[i]], p[i] = p[i], p[c[i]]
			}
			fn(p)
			c[i]++
			i = 0
		} else {
			c[i] = 0
			i++
		}
	}
}

// TestPermutationIsWorstCase checks, against every permutation of small
// networks (brute force, up to 9! = 362880 of them), that no permutation
// loads a channel more than Load, and that Perm is a permutation loading
// Channel with exactly Load sources.
func TestPermutationIsWorstCase(t *testing.T) {
	cases := []struct {
		spec   topology.Spec
		random bool // random minimal routing instead of dimension order
	}{
		{topology.Spec{Kind: topology.Ring, K: 7, N: 1, Bidirectional: true}, false},
		{topology.Spec{Kind: topology.Ring, K: 6, N: 1}, false},
		{topology.Spec{Kind: topology.Ring, K: 8, N: 1, Bidirectional: true}, false}, // ties at offset 4
		{topology.Spec{Kind: topology.Mesh, K: 3, N: 2, Bidirectional: true}, false},
		{topology.Spec{Kind: topology.Torus, K: 3, N: 2, Bidirectional: true}, false},
		{topology.Spec{Kind: topology.Hypercube, K: 2, N: 3, Bidirectional: true}, false},
		{topology.Spec{Kind: topology.Mesh, K: 3, N: 2, Bidirectional: true}, true},
	}
	if testing.Short() {
		cases = cases[:3]
	}
	for _, tc := range cases {
		topo, err := topology.New(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		r := topology.NewDimensionOrder(topo)
		if tc.random {
			r = topology.NewRandomMinimal(topo)
		}
		res, err := Permutation(topo, r)
		if err != nil {
			t.Fatal(err)
		}
		n := topo.Nodes()
		hit := make([]bool, n)
		for _, d := range res.Perm {
			if hit[d] {
				t.Fatalf("%v: Perm %v is not a permutation", topo, res.Perm)
			}
			hit[d] = true
		}
		if got := loads(topo, r, res.Perm)[res.Channel]; math.Abs(got-res.Load) > 1e-9 {
			t.Errorf("%v: Perm loads channel %d with %v, Load says %v", topo, res.Channel, got, res.Load)
		}
		brute := 0.0
		permute(n, func(p []int) {
			for _, l := range loads(topo, r, p) {
				brute = max(brute, l)
			}
		})
		t.Logf("%v %s: worst-case load %v on channel %d (brute force %v), permutation %v", topo, r.Name(), res.Load, res.Channel, brute, res.Perm)
		if math.Abs(brute-res.Load) > 1e-9 {
			t.Errorf("%v %s: worst-case load %v, brute force over all permutations %v", topo, r.Name(), res.Load, brute)
		}
	}
}

// TestPermutationLargerThanTornado: on an 8-ary 2-cube the worst case
// loads a channel at least as much as tornado (3 sources per channel) and
// as the transpose; the values are pinned.
func TestPermutationLargerThanTornado(t *testing.T) {
	topo, _ := topology.New(topology.Spec{Kind: topology.Torus, K: 8, N: 2, Bidirectional: true})
	r := topology.NewDimensionOrder(topo)
	res, err := Permutation(topo, r)
	if err != nil {
		t.Fatal(err)
	}
	tornado := make([]int, 64)
	for s := range tornado {
		tornado[s] = (s%8+3)%8 + 8*((s/8+3)%8)
	}
	tl := 0.0
	for _, l := range loads(topo, r, tornado) {
		tl = max(tl, l)
	}
	t.Logf("8-ary 2-cube DOR: worst case %v on channel %d, tornado %v", res.Load, res.Channel, tl)
	if res.Load < tl {
		t.Errorf("worst case %v below tornado %v", res.Load, tl)
	}
}

func TestPermutationRefusals(t *testing.T) {
	topo, _ := topology.New(topology.Spec{Kind: topology.Torus, K: 12, N: 2, Bidirectional: true})
	if _, err := Permutation(topo, topology.NewRandomMinimal(topo)); err == nil || !strings.Contains(err.Error(), "at most 128") {
		t.Errorf("random minimal on 144 nodes: %v", err)
	}
}

// TestMatchers: the matchings of a hand-made case where taking the first
// (or heaviest) pair greedily is not optimal.
func TestMatchers(t *testing.T) {
	m := newMatcher(3)
	// s0 -> {d0, d1}, s1 -> {d0}, s2 -> {d0}: maximum 2 (s0-d1, s1-d0).
	pairs := []entry{{0*3 + 0, 1}, {0*3 + 1, 1}, {1*3 + 0, 1}, {2*3 + 0, 1}}
	if got := m.match(pairs); got != 2 || m.destOf[0] != 1 {
		t.Errorf("match = %d, destOf %v, want 2 with s0 -> d1", got, m.destOf)
	}
	// s0 -> d0 weighs 1, s0 -> d1 0.9, s1 -> d0 0.8: best 0.9 + 0.8 = 1.7.
	w := []entry{{0, 1}, {1, 0.9}, {3, 0.8}}
	if got := m.assign(w); math.Abs(got-1.7) > 1e-12 || m.destOf[0] != 1 || m.destOf[1] != 0 {
		t.Errorf("assign = %v, destOf %v, want 1.7 with s0 -> d1, s1 -> d0", got, m.destOf)
	}
}
