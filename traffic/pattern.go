package traffic

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
)

// Pattern decides where a message goes: the destination node of a message
// generated at a source node.
//
// Dest draws from the caller's stream (the engine gives each node its own
// PurposeTrafficDest stream), never from the global source, and does not
// allocate. Probabilities writes the exact distribution Dest samples from,
// so models and tests can use the same definition. Both panic if src is
// not a node id; Probabilities panics unless len(p) == Nodes().
type Pattern interface {
	Name() string
	Dest(src int, r *rand.Rand) int
	// Probabilities writes the exact destination distribution of src into p
	// (len(p) == Nodes()): p[j] is the probability that a message from src
	// goes to node j.
	Probabilities(src int, p []float64)
}

// Pattern names accepted in PatternSpec.Name.
const (
	Uniform       = "uniform"
	Locality      = "locality"
	Decay         = "decay"
	Transpose     = "transpose"
	BitComplement = "bit-complement"
	BitReverse    = "bit-reverse"
	Shuffle       = "shuffle"
	Tornado       = "tornado"
	Neighbour     = "neighbour"
	Hotspot       = "hotspot"
	// RandomPermutation is a uniformly random derangement drawn once from
	// PatternSpec.Seed: every source sends to its own fixed destination.
	RandomPermutation = "random-permutation"
	// Halo is the nearest-neighbour halo exchange: uniform among the nodes
	// one hop away.
	Halo = "halo"
	// GroupShift sends every node to the node in the same place of the
	// next group (Space implementing GroupSize): the dragonfly's worst case.
	GroupShift = "group-shift"
	// WorstCase is the worst-case permutation of the network's routing,
	// given as PatternSpec.Table (package topology/worstcase computes it;
	// sim/network fills it in).
	WorstCase = "worst-case"
)

// PatternNames lists the accepted pattern names in a fixed order.
var PatternNames = []string{Uniform, Locality, Decay, Transpose, BitComplement, BitReverse, Shuffle, Tornado, Neighbour, Hotspot, RandomPermutation, Halo, GroupShift, WorstCase}

// PatternSpec configures a Pattern. It is a plain value: the zero value is
// the uniform pattern, and each pattern reads only its own fields; a field
// set for a pattern that does not read it is reported as an error (it is
// almost always a configuration mistake).
type PatternSpec struct {
	Name        string  // one of PatternNames; "" means "uniform"
	IncludeSelf bool    // uniform: let a node send to itself (default: excluded)
	Radius      int     // locality: radius L of the sphere, in hops
	Phi         float64 // locality: probability of staying inside the sphere
	Decay       float64 // decay: ratio d in (0,1]; d = 1 is the uniform-in-distance limit
	HotNodes    []int   // hotspot: the hot destinations (distinct node ids)
	HotFraction float64 // hotspot: fraction of messages sent to a hot node, uniformly among them
	// Seed is the seed of random-permutation's draw (the engine derives it
	// from the run's root seed, so each replication draws its own).
	Seed uint64
	// Table is worst-case's permutation: node s sends to Table[s].
	Table []int
}

// NewPattern builds the pattern s names over space. It returns an error
// wrapping ErrInvalid, saying why, for an unknown name, parameters outside a
// definition's domain, or a space the pattern cannot be defined on (for
// example bit-reverse on a node count that is not a power of two). Fields
// set that the pattern does not read are reported together; otherwise the
// first violated condition is reported.
//
// Locality and decay precompute, for every source, the other nodes grouped
// by distance: N^2 calls of space.Distance and O(N^2) memory (4 bytes per
// ordered pair; N is limited to 8192). The permutations precompute a
// destination table.
func NewPattern(s PatternSpec, space Space) (Pattern, error) {
	name := s.Name
	if name == "" {
		name = Uniform
	}
	if err := unusedFields(name, s); err != nil {
		return nil, err
	}
	switch name {
	case Uniform:
		n := space.Nodes()
		if n < 2 && !s.IncludeSelf {
			return nil, invalid(name, "needs at least 2 nodes (or IncludeSelf), space has %d", n)
		}
		if n < 1 {
			return nil, invalid(name, "space has no nodes")
		}
		return &uniform{n: n, self: s.IncludeSelf}, nil
	case Locality:
		return newLocality(s, space)
	case Decay:
		return newDecay(s, space)
	case Transpose, BitComplement, BitReverse, Shuffle, Tornado, Neighbour:
		return newPermutation(name, space)
	case Hotspot:
		return newHotspot(s, space)
	case RandomPermutation:
		return newRandomPermutation(s, space)
	case Halo:
		return newHalo(space)
	case GroupShift:
		return newGroupShift(space)
	case WorstCase:
		return newTable(name, s.Table, space)
	}
	return nil, invalid("pattern", "unknown name %q (want one of %s)", s.Name, strings.Join(PatternNames, ", "))
}

// unusedFields reports every field of s that pattern name does not read but
// that is set.
func unusedFields(name string, s PatternSpec) error {
	var errs []error
	check := func(set bool, field string, readers ...string) {
		if !set {
			return
		}
		for _, r := range readers {
			if r == name {
				return
			}
		}
		errs = append(errs, invalid(name, "field %s is set but only %s read(s) it", field, strings.Join(readers, ", ")))
	}
	check(s.IncludeSelf, "IncludeSelf", Uniform)
	check(s.Radius != 0, "Radius", Locality)
	check(s.Phi != 0, "Phi", Locality)
	check(s.Decay != 0, "Decay", Decay)
	check(len(s.HotNodes) != 0, "HotNodes", Hotspot)
	check(s.HotFraction != 0, "HotFraction", Hotspot)
	check(s.Seed != 0, "Seed", RandomPermutation)
	check(len(s.Table) != 0, "Table", WorstCase)
	return errors.Join(errs...)
}

// checkLen panics unless len(p) == n: a wrong length is a programming error.
func checkLen(p []float64, n int) {
	if len(p) != n {
		panic("traffic: Probabilities: len(p) must equal the number of nodes")
	}
}

// uniform sends to a node chosen uniformly among the N-1 others (or among
// all N with IncludeSelf). Reed (1983), "Uniform Message Routing":
//
//	Pr{dest = j} = 1/(N-1),  j != src
type uniform struct {
	n    int
	self bool
}

func (u *uniform) Name() string { return Uniform }

func (u *uniform) Dest(src int, r *rand.Rand) int {
	if u.self {
		return r.IntN(u.n)
	}
	return skipSrc(r.IntN(u.n-1), src)
}

// skipSrc maps a draw d uniform on 0..N-2 to a node uniform among the N-1
// nodes other than src: the uniform pattern's destination, and the hotspot
// pattern's when it does not pick a hot node. It takes the draw rather than
// the stream so that it stays small enough to inline on the Dest path.
func skipSrc(d, src int) int {
	if d >= src {
		d++
	}
	return d
}

func (u *uniform) Probabilities(src int, p []float64) {
	checkLen(p, u.n)
	if u.self {
		for j := range p {
			p[j] = 1 / float64(u.n)
		}
		return
	}
	for j := range p {
		p[j] = 1 / float64(u.n-1)
	}
	p[src] = 0
}

// locality is Reed's sphere of locality, seed 000 "Sphere of Locality
// Message Routing" and docs/models.md#reed-routing: with probability phi the destination
// is uniform among the LocSize(L) nodes at distance 1..L from the source,
// otherwise uniform among the N - LocSize(L) - 1 nodes farther than L:
//
//	Phi(l) = phi * Reach(l) / LocSize(L)               1 <= l <= L
//	Phi(l) = (1-phi) * Reach(l) / (N - LocSize(L) - 1)  L < l <= l_max
//
// Reach and LocSize are counted from each source, so the definition also
// holds on spaces that are not vertex-symmetric (a mesh).
type locality struct {
	sh     *shells
	radius int
	phi    float64
}

func newLocality(s PatternSpec, space Space) (Pattern, error) {
	const name = Locality
	if !(s.Phi >= 0 && s.Phi <= 1) {
		return nil, invalid(name, "Phi = %v outside [0, 1]", s.Phi)
	}
	if s.Radius < 1 {
		return nil, invalid(name, "Radius L = %d, want L >= 1", s.Radius)
	}
	sh, err := newShells(name, space)
	if err != nil {
		return nil, err
	}
	if s.Radius > sh.diam {
		return nil, invalid(name, "Radius L = %d exceeds the diameter %d", s.Radius, sh.diam)
	}
	if s.Phi < 1 {
		// The outside set must be non-empty at every source (Reed's domain
		// 1 <= L < l_max; on a non-symmetric space, L below every
		// source's eccentricity).
		for src := 0; src < sh.n; src++ {
			if sh.within(src, s.Radius) == sh.n-1 {
				if int(sh.ecc[src]) == sh.diam {
					return nil, invalid(name, "Radius L = %d equals the diameter: no node lies outside the sphere, so Phi must be 1 (got %v)", s.Radius, s.Phi)
				}
				return nil, invalid(name, "Radius L = %d reaches every node from source %d (eccentricity %d): no node lies outside its sphere, so Phi must be 1 (got %v)", s.Radius, src, sh.ecc[src], s.Phi)
			}
		}
	}
	return &locality{sh: sh, radius: s.Radius, phi: s.Phi}, nil
}

func (l *locality) Name() string { return Locality }

func (l *locality) Dest(src int, r *rand.Rand) int {
	row := l.sh.row(src)
	in := l.sh.within(src, l.radius)
	if r.Float64() < l.phi {
		return int(row[r.IntN(in)])
	}
	return int(row[in+r.IntN(len(row)-in)])
}

func (l *locality) Probabilities(src int, p []float64) {
	checkLen(p, l.sh.n)
	clear(p)
	row := l.sh.row(src)
	in := l.sh.within(src, l.radius)
	out := len(row) - in
	for i, j := range row {
		if i < in {
			p[j] = l.phi / float64(in)
		} else {
			p[j] = (1 - l.phi) / float64(out)
		}
	}
}

// decay is Reed's decreasing-probability routing, seed 000 "Decreasing
// Probability Message Routing", with the corrected normalisation of
// docs/models.md#reed-routing (erratum E2, docs/errata.md#e2): the distance l is drawn with
//
//	Phi(l) = (1-d) d^(l-1) / (1 - d^l_max),   1 <= l <= l_max,  0 < d < 1
//	Phi(l) = 1 / l_max                                            d = 1
//
// and the destination is uniform among the Reach(l) nodes at distance l.
// The report prints Phi(l) = (d-1) d^l / (d^l_max - 1), which sums to d,
// not 1. l_max is the source's eccentricity (the diameter on a symmetric
// network). The cumulative distribution used for sampling is the closed
// form
//
//	Pr{distance <= l} = (1 - d^l) / (1 - d^l_max)
type decay struct {
	sh  *shells
	d   float64
	cdf [][]float64 // cdf[e][l-1] = Pr{distance <= l} for eccentricity e
}

// decayUniformTol is how close to 1 d must be to use the d = 1 limit
// (docs/models.md#reed-routing: |d-1| < 1e-9).
const decayUniformTol = 1e-9

func newDecay(s PatternSpec, space Space) (Pattern, error) {
	const name = Decay
	if !(s.Decay > 0 && s.Decay <= 1) {
		return nil, invalid(name, "Decay d = %v outside (0, 1]", s.Decay)
	}
	sh, err := newShells(name, space)
	if err != nil {
		return nil, err
	}
	for src := 0; src < sh.n; src++ {
		st := sh.bounds(src)
		for l := 1; l <= int(sh.ecc[src]); l++ {
			if st[l+1] == st[l] {
				return nil, invalid(name, "no node at distance %d from source %d (eccentricity %d): Phi(%d) would have nowhere to go", l, src, sh.ecc[src], l)
			}
		}
	}
	p := &decay{sh: sh, d: s.Decay, cdf: make([][]float64, sh.diam+1)}
	for _, e := range sh.ecc {
		if p.cdf[e] != nil {
			continue
		}
		c := make([]float64, e)
		for l := 1; l <= int(e); l++ {
			c[l-1] = p.cumulative(l, int(e))
		}
		c[e-1] = 1
		p.cdf[e] = c
	}
	return p, nil
}

// cumulative returns Pr{distance <= l} for eccentricity lmax.
func (p *decay) cumulative(l, lmax int) float64 {
	if math.Abs(p.d-1) < decayUniformTol {
		return float64(l) / float64(lmax)
	}
	ld := math.Log(p.d)
	return math.Expm1(float64(l)*ld) / math.Expm1(float64(lmax)*ld)
}

// phi returns Phi(l) for eccentricity lmax.
func (p *decay) phi(l, lmax int) float64 {
	if math.Abs(p.d-1) < decayUniformTol {
		return 1 / float64(lmax)
	}
	return (1 - p.d) * math.Pow(p.d, float64(l-1)) / -math.Expm1(float64(lmax)*math.Log(p.d))
}

func (p *decay) Name() string { return Decay }

func (p *decay) Dest(src int, r *rand.Rand) int {
	c := p.cdf[p.sh.ecc[src]]
	u := r.Float64()
	// Smallest l with u < cdf(l); c[len(c)-1] == 1 > u ends the search.
	lo, hi := 0, len(c)-1
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if u < c[mid] {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	l := lo + 1
	st := p.sh.bounds(src)
	a, b := int(st[l]), int(st[l+1])
	return int(p.sh.row(src)[a+r.IntN(b-a)])
}

func (p *decay) Probabilities(src int, pr []float64) {
	checkLen(pr, p.sh.n)
	clear(pr)
	e := int(p.sh.ecc[src])
	st := p.sh.bounds(src)
	row := p.sh.row(src)
	for l := 1; l <= e; l++ {
		shell := row[st[l]:st[l+1]]
		q := p.phi(l, e) / float64(len(shell))
		for _, j := range shell {
			pr[j] = q
		}
	}
}
