package traffic

import (
	"slices"
	"testing"

	"github.com/flitsim/flitsim/sim"
)

// TestHaloNeighbours pins H(src), the set halo sends to, against the
// coordinate definition: c ± e_i (mod k) on tori (the upstream neighbour
// included on a unidirectional torus), the existing c ± e_i on a mesh, the
// one-bit flips on a hypercube.
func TestHaloNeighbours(t *testing.T) {
	cases := []struct {
		space Space
		src   int
		want  []int
	}{
		{cube{k: 8, n: 2, wrap: true}, 0, []int{1, 7, 8, 56}},
		{cube{k: 8, n: 2, wrap: true}, 27, []int{19, 26, 28, 35}},
		{cube{k: 5, n: 2}, 0, []int{1, 5}},                    // corner
		{cube{k: 5, n: 2}, 2, []int{1, 3, 7}},                 // edge
		{cube{k: 5, n: 2}, 12, []int{7, 11, 13, 17}},          // interior
		{cube{k: 2, n: 4, wrap: true}, 5, []int{1, 4, 7, 13}}, // 0101 -> flip each bit
		{cube{k: 6, n: 1, wrap: true, uni: true}, 0, []int{1, 5}},
		{ring15, 14, []int{0, 13}},
	}
	for _, c := range cases {
		p := mustPattern(t, PatternSpec{Name: Halo}, c.space)
		pr := make([]float64, c.space.Nodes())
		p.Probabilities(c.src, pr)
		var got []int
		for j, q := range pr {
			if q != 0 {
				got = append(got, j)
				if q != 1/float64(len(c.want)) {
					t.Errorf("%v src %d: p[%d] = %v, want 1/%d", c.space, c.src, j, q, len(c.want))
				}
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%v src %d: halo sends to %v, want %v", c.space, c.src, got, c.want)
		}
	}
}

// TestRandomPermutation: for every seed the pattern is a bijection without
// a fixed point, deterministic in the seed; over seeds the destination of
// a source is uniform on the N-1 other nodes (chi-square, p > 0.001), and
// the permutations differ from seed to seed.
func TestRandomPermutation(t *testing.T) {
	space := cube{k: 4, n: 2, wrap: true}
	n := space.Nodes()
	seeds := 40000
	if testing.Short() {
		seeds = 16000
	}
	srcs := []int{0, 5, 15}
	counts := make([][]int, len(srcs))
	for i := range counts {
		counts[i] = make([]int, n)
	}
	distinct := map[[16]int]bool{}
	for seed := 1; seed <= seeds; seed++ {
		p := mustPattern(t, PatternSpec{Name: RandomPermutation, Seed: sim.DeriveSeed(99, sim.PurposeTrafficDest, uint64(seed))}, space)
		var img [16]int
		hit := make([]bool, n)
		for s := 0; s < n; s++ {
			d := p.Dest(s, nil)
			if d == s || hit[d] {
				t.Fatalf("seed %d: Dest(%d) = %d is a fixed point or hit twice", seed, s, d)
			}
			hit[d] = true
			img[s] = d
		}
		if seed <= 200 {
			distinct[img] = true
		}
		for i, s := range srcs {
			counts[i][p.Dest(s, nil)]++
		}
	}
	if len(distinct) < 199 {
		t.Errorf("only %d distinct permutations in 200 seeds", len(distinct))
	}
	again := mustPattern(t, PatternSpec{Name: RandomPermutation, Seed: 7}, space)
	first := mustPattern(t, PatternSpec{Name: RandomPermutation, Seed: 7}, space)
	for s := 0; s < n; s++ {
		if again.Dest(s, nil) != first.Dest(s, nil) {
			t.Fatalf("seed 7 gives two different permutations")
		}
	}
	pr := make([]float64, n)
	for i, s := range srcs {
		for j := range pr {
			pr[j] = 1 / float64(n-1)
		}
		pr[s] = 0
		pval, df := goodnessOfFit(t, counts[i], pr, seeds)
		t.Logf("random-permutation src %d over %d seeds: chi-square df %d, p = %.3f", s, seeds, df, pval)
		if pval <= 0.001 {
			t.Errorf("src %d: destination over seeds is not uniform on the other nodes (df %d, p = %.2g)", s, df, pval)
		}
	}
}
