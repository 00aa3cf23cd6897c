package traffic

import (
	"math"
	"math/bits"
	"math/rand/v2"
)

// permutation is a deterministic pattern: every source sends all its
// messages to one destination, dest[src], and dest is a permutation of the
// nodes. A source that the permutation maps to itself (a fixed point, such
// as the diagonal of transpose) sends to itself; the engine delivers such a
// message without entering the network (see the package documentation).
//
// With coordinates c_0..c_{n-1} of a k-ary n-cube (id = sum c_i k^i) and,
// for the bit permutations, the b = log2 N address bits a_{b-1}..a_0:
//
//	transpose       c_i -> c_{(i + n/2) mod n}          n even; 2-D: (x,y) -> (y,x)
//	bit-complement  a_i -> 1 - a_i                      N a power of two
//	bit-reverse     a_i -> a_{b-1-i}                    N a power of two
//	shuffle         a_i -> a_{(i-1) mod b}              rotate the address left by one bit
//	tornado         c_i -> (c_i + ceil(k/2) - 1) mod k  k >= 3
//	neighbour       c_i -> (c_i + 1) mod k              k >= 2
//
// These are the standard synthetic permutations of Dally and Towles,
// "Principles and Practices of Interconnection Networks" (2004), §3.2.
type permutation struct {
	name string
	dest []int32
}

func newPermutation(name string, space Space) (Pattern, error) {
	n := space.Nodes()
	if n < 2 {
		return nil, invalid(name, "needs at least 2 nodes, space has %d", n)
	}
	if n > math.MaxInt32 {
		return nil, invalid(name, "N = %d too large for a destination table", n)
	}
	p := &permutation{name: name, dest: make([]int32, n)}
	switch name {
	case BitComplement, BitReverse, Shuffle:
		if !isPow2(n) {
			return nil, invalid(name, "needs a power-of-two node count, space has %d", n)
		}
		b := bits.TrailingZeros(uint(n))
		mask := uint(n - 1)
		for s := 0; s < n; s++ {
			a := uint(s)
			var d uint
			switch name {
			case BitComplement:
				d = ^a & mask
			case BitReverse:
				d = bits.Reverse(a) >> (bits.UintSize - b)
			case Shuffle:
				d = (a<<1 | a>>(b-1)) & mask
			}
			p.dest[s] = int32(d)
		}
		return p, nil
	}

	// Coordinate permutations.
	k, dims := space.Radix(), space.Dims()
	if k < 2 || dims < 1 {
		return nil, invalid(name, "needs a k-ary n-cube with k >= 2 and n >= 1, space has k = %d, n = %d", k, dims)
	}
	total := 1
	for i := 0; i < dims; i++ {
		if total > n/k {
			total = n + 1 // overflow guard: k^n already exceeds N
			break
		}
		total *= k
	}
	if total != n {
		return nil, invalid(name, "node ids must be the coordinates of a k-ary n-cube, but k^n = %d^%d != N = %d", k, dims, n)
	}
	var shift int // added to every coordinate by tornado and neighbour
	switch name {
	case Transpose:
		if dims%2 != 0 {
			return nil, invalid(name, "needs an even number of dimensions, space has n = %d", dims)
		}
	case Tornado:
		if k < 3 {
			return nil, invalid(name, "needs k >= 3: with k = %d the shift ceil(k/2)-1 is 0 and every node would send to itself", k)
		}
		shift = (k+1)/2 - 1
	case Neighbour:
		shift = 1
	}
	c := make([]int, dims)
	for s := 0; s < n; s++ {
		x := s
		for i := range c {
			c[i] = x % k
			x /= k
		}
		d, w := 0, 1
		for i := range c {
			var ci int
			if name == Transpose {
				ci = c[(i+dims/2)%dims]
			} else {
				ci = (c[i] + shift) % k
			}
			d += ci * w
			w *= k
		}
		p.dest[s] = int32(d)
	}
	return p, nil
}

func (p *permutation) Name() string { return p.name }

func (p *permutation) Dest(src int, _ *rand.Rand) int { return int(p.dest[src]) }

func (p *permutation) Probabilities(src int, pr []float64) {
	checkLen(pr, len(p.dest))
	clear(pr)
	pr[p.dest[src]] = 1
}

// hotspot sends a fraction h = HotFraction of the messages to the hot nodes
// and the rest uniformly, in the manner of Pfister and Norton, "Hot spot
// contention and combining in multistage interconnection networks" (1985):
//
//	Pr{dest = j} = (1-h)/(N-1) + h/H_src   j hot,     j != src
//	Pr{dest = j} = (1-h)/(N-1)             j not hot, j != src
//
// where H_src is the number of hot nodes other than src (a hot node never
// picks itself as the hot destination). A source that is the only hot node
// (H_src = 0) sends uniformly: Pr{dest = j} = 1/(N-1).
type hotspot struct {
	n    int
	hot  []int32 // hot nodes, in the order given
	pos  []int32 // pos[j] = index of j in hot, or -1
	frac float64
}

func newHotspot(s PatternSpec, space Space) (Pattern, error) {
	const name = Hotspot
	n := space.Nodes()
	if n < 2 {
		return nil, invalid(name, "needs at least 2 nodes, space has %d", n)
	}
	if !(s.HotFraction >= 0 && s.HotFraction <= 1) {
		return nil, invalid(name, "HotFraction = %v outside [0, 1]", s.HotFraction)
	}
	if len(s.HotNodes) == 0 {
		return nil, invalid(name, "HotNodes is empty")
	}
	p := &hotspot{n: n, hot: make([]int32, len(s.HotNodes)), pos: make([]int32, n), frac: s.HotFraction}
	for j := range p.pos {
		p.pos[j] = -1
	}
	for i, j := range s.HotNodes {
		if j < 0 || j >= n {
			return nil, invalid(name, "HotNodes[%d] = %d is not a node id (0..%d)", i, j, n-1)
		}
		if p.pos[j] >= 0 {
			return nil, invalid(name, "HotNodes lists node %d twice", j)
		}
		p.pos[j] = int32(i)
		p.hot[i] = int32(j)
	}
	return p, nil
}

func (p *hotspot) Name() string { return Hotspot }

func (p *hotspot) Dest(src int, r *rand.Rand) int {
	if r.Float64() < p.frac {
		m, self := len(p.hot), int(p.pos[src])
		if self >= 0 {
			m--
		}
		if m > 0 {
			i := r.IntN(m)
			if self >= 0 && i >= self {
				i++
			}
			return int(p.hot[i])
		}
	}
	return skipSrc(r.IntN(p.n-1), src)
}

func (p *hotspot) Probabilities(src int, pr []float64) {
	checkLen(pr, p.n)
	m := len(p.hot)
	if p.pos[src] >= 0 {
		m--
	}
	h := p.frac
	if m == 0 {
		h = 0
	}
	for j := range pr {
		pr[j] = (1 - h) / float64(p.n-1)
	}
	if m > 0 {
		for _, j := range p.hot {
			pr[j] += h / float64(m)
		}
	}
	pr[src] = 0
}

// newRandomPermutation draws the random-permutation pattern: a permutation
// of the nodes chosen uniformly at random among the derangements (the
// permutations without a fixed point, so no node sends to itself) from the
// stream seeded by s.Seed, once, when the pattern is built. Every source
// then sends all its messages to its image, as for the other permutations.
// Over seeds, the image of a source is uniform on the N-1 other nodes: the
// derangements are invariant under conjugation by any permutation fixing
// the source, which acts transitively on the other nodes. Drawn by
// Fisher-Yates shuffles rejected until one has no fixed point (e tries on
// average), the draw is uniform over derangements.
func newRandomPermutation(s PatternSpec, space Space) (Pattern, error) {
	const name = RandomPermutation
	n := space.Nodes()
	if n < 2 {
		return nil, invalid(name, "needs at least 2 nodes, space has %d", n)
	}
	if n > math.MaxInt32 {
		return nil, invalid(name, "N = %d too large for a destination table", n)
	}
	r := rand.New(rand.NewPCG(s.Seed, s.Seed^0x9e3779b97f4a7c15))
	p := &permutation{name: name, dest: make([]int32, n)}
	for {
		for i := range p.dest {
			p.dest[i] = int32(i)
		}
		r.Shuffle(n, func(i, j int) { p.dest[i], p.dest[j] = p.dest[j], p.dest[i] })
		fixed := false
		for i, d := range p.dest {
			if int(d) == i {
				fixed = true
				break
			}
		}
		if !fixed {
			return p, nil
		}
	}
}

// newTable builds a permutation pattern from an explicit table (node s
// sends to table[s]): the worst-case permutation, which only the caller
// that knows the routing can compute. The table must be a permutation of
// the space's nodes.
func newTable(name string, table []int, space Space) (Pattern, error) {
	n := space.Nodes()
	if len(table) != n {
		return nil, invalid(name, "needs its permutation table of %d nodes (the engine computes it from the routing), got %d entries", n, len(table))
	}
	p := &permutation{name: name, dest: make([]int32, n)}
	hit := make([]bool, n)
	for s, d := range table {
		if d < 0 || d >= n || hit[d] {
			return nil, invalid(name, "table[%d] = %d: the table is not a permutation of 0..%d", s, d, n-1)
		}
		hit[d] = true
		p.dest[s] = int32(d)
	}
	return p, nil
}
