package traffic

import (
	"errors"
	"fmt"
)

// Space is what traffic needs to know about the network: how many nodes
// there are, how far apart two of them are, and, for the permutations, how
// node ids map to coordinates. topology's *Topology is meant to satisfy it
// structurally; traffic never imports topology.
//
// Node ids are dense, 0..Nodes()-1. For a k-ary n-cube (and a mesh, and a
// hypercube with k = 2) the id is the mixed-radix number of the coordinates,
// dimension 0 least significant:
//
//	id = sum_{i=0}^{n-1} c_i k^i,   0 <= c_i < k
//
// Distance must be the minimal hop count: 0 from a node to itself and at
// least 1 between distinct nodes. It need not be symmetric (a unidirectional
// ring is a valid Space).
type Space interface {
	Nodes() int
	Distance(a, b int) int // minimal hops from a to b
	Radix() int            // k of a k-ary n-cube (2 for a hypercube)
	Dims() int             // n; node id = sum c_i k^i, dimension 0 least significant
}

// ErrInvalid is wrapped by every error that NewPattern, NewBernoulli,
// NewPoisson, NewFixedLength and NewGeometricLength return for a
// configuration outside a definition's domain; test with errors.Is. The
// message says which condition failed.
var ErrInvalid = errors.New("invalid traffic configuration")

// invalid formats an error that wraps ErrInvalid.
func invalid(what, format string, args ...any) error {
	return fmt.Errorf("traffic: %s: %s: %w", what, fmt.Sprintf(format, args...), ErrInvalid)
}

// maxTableNodes bounds the networks for which per-source distance tables are
// built: the tables take about 4 N^2 bytes (256 MiB at the limit).
const maxTableNodes = 1 << 13

// shells groups, for every source, the other nodes by their distance from
// it. Row src of order lists the N-1 other nodes sorted by distance (ties by
// id). With st = bounds(src), the nodes at distance l from src are
// row(src)[st[l]:st[l+1]], 1 <= l <= ecc[src], the source's eccentricity
// (its largest distance to another node); diam is the largest eccentricity.
type shells struct {
	n     int
	diam  int
	order []int32 // N rows of N-1 node ids
	start []int32 // row src's shell offsets: start[first[src] : first[src]+ecc[src]+2]
	first []int32 // first[src] = where src's offsets begin in start
	ecc   []int32
}

// newShells measures every ordered pair with space.Distance (N^2 calls, one
// source row at a time) and sorts each row by a counting sort on distance.
func newShells(what string, space Space) (*shells, error) {
	n := space.Nodes()
	if n < 2 {
		return nil, invalid(what, "needs at least 2 nodes, space has %d", n)
	}
	if n > maxTableNodes {
		return nil, invalid(what, "per-source distance tables need about 4 N^2 bytes; N = %d exceeds the limit %d", n, maxTableNodes)
	}
	s := &shells{
		n:     n,
		order: make([]int32, n*(n-1)),
		first: make([]int32, n),
		ecc:   make([]int32, n),
	}
	dist := make([]int32, n)
	count := make([]int32, n+1)
	for a := 0; a < n; a++ {
		e := 0
		for b := 0; b < n; b++ {
			d := space.Distance(a, b)
			switch {
			case a == b && d != 0:
				return nil, invalid(what, "Distance(%d, %d) = %d, want 0", a, a, d)
			case a != b && d < 1:
				return nil, invalid(what, "Distance(%d, %d) = %d, want >= 1 between distinct nodes", a, b, d)
			case d >= n:
				return nil, invalid(what, "Distance(%d, %d) = %d is not a minimal hop count in a %d-node network", a, b, d, n)
			}
			dist[b] = int32(d)
			e = max(e, d)
		}
		s.ecc[a] = int32(e)
		s.diam = max(s.diam, e)
		clear(count[:e+2])
		for b := 0; b < n; b++ {
			if b != a {
				count[dist[b]]++
			}
		}
		s.first[a] = int32(len(s.start))
		s.start = append(s.start, 0, 0) // st[0] unused; st[1] = 0
		for l := 1; l <= e; l++ {
			s.start = append(s.start, s.start[len(s.start)-1]+count[l])
		}
		st := s.bounds(a)
		next := count // reuse as the fill cursor of each shell
		for l := 1; l <= e; l++ {
			next[l] = st[l]
		}
		row := s.row(a)
		for b := 0; b < n; b++ {
			if b == a {
				continue
			}
			l := dist[b]
			row[next[l]] = int32(b)
			next[l]++
		}
	}
	return s, nil
}

// row returns src's other nodes sorted by distance.
func (s *shells) row(src int) []int32 { return s.order[src*(s.n-1) : (src+1)*(s.n-1)] }

// bounds returns the shell offsets of src: the nodes at distance l are
// row(src)[st[l]:st[l+1]], 1 <= l <= ecc[src]; len(st) = ecc[src]+2.
func (s *shells) bounds(src int) []int32 {
	f := s.first[src]
	return s.start[f : f+s.ecc[src]+2]
}

// within returns how many nodes lie at distance 1..l from src.
func (s *shells) within(src, l int) int {
	if e := int(s.ecc[src]); l > e {
		l = e
	}
	return int(s.start[int(s.first[src])+l+1])
}

// isPow2 reports whether n is a positive power of two.
func isPow2(n int) bool { return n > 0 && n&(n-1) == 0 }
