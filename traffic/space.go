package traffic

import (
	"errors"
	"fmt"
)

// Space is what traffic needs to know about the network: how many nodes
// there are, how far apart two of them are, and, for the permutations, how
// node ids map to coordinates. A *topology.Topology satisfies it
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
// built: tables take O(N^2) memory (4 bytes per ordered pair).
const maxTableNodes = 1 << 14

// shells groups, for every source, the other nodes by their distance from
// it. Row src of order lists the N-1 other nodes sorted by distance (ties by
// id); the nodes at distance l from src are
//
//	order[src*(N-1)+start[src*(D+2)+l] : src*(N-1)+start[src*(D+2)+l+1]]
//
// for 1 <= l <= D, D the diameter (the largest distance of any pair). ecc
// holds each source's eccentricity (its largest distance to another node).
type shells struct {
	n     int
	diam  int
	order []int32
	start []int32
	ecc   []int32
}

// newShells measures every ordered pair with space.Distance and sorts each
// source's row by a counting sort on distance.
func newShells(what string, space Space) (*shells, error) {
	n := space.Nodes()
	if n < 2 {
		return nil, invalid(what, "needs at least 2 nodes, space has %d", n)
	}
	if n > maxTableNodes {
		return nil, invalid(what, "per-source distance tables need O(N^2) memory; N = %d exceeds %d", n, maxTableNodes)
	}
	dist := make([]int32, n*n)
	diam := 0
	for a := 0; a < n; a++ {
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
			dist[a*n+b] = int32(d)
			diam = max(diam, d)
		}
	}
	s := &shells{
		n:     n,
		diam:  diam,
		order: make([]int32, n*(n-1)),
		start: make([]int32, n*(diam+2)),
		ecc:   make([]int32, n),
	}
	count := make([]int32, diam+2)
	for a := 0; a < n; a++ {
		clear(count)
		for b := 0; b < n; b++ {
			if b != a {
				count[dist[a*n+b]]++
			}
		}
		st := s.start[a*(diam+2) : (a+1)*(diam+2)]
		st[1] = 0
		for l := 1; l <= diam; l++ {
			st[l+1] = st[l] + count[l]
			if count[l] > 0 {
				s.ecc[a] = int32(l)
			}
		}
		next := count // reuse as the fill cursor of each shell
		for l := 1; l <= diam; l++ {
			next[l] = st[l]
		}
		row := s.order[a*(n-1) : (a+1)*(n-1)]
		for b := 0; b < n; b++ {
			if b == a {
				continue
			}
			l := dist[a*n+b]
			row[next[l]] = int32(b)
			next[l]++
		}
	}
	return s, nil
}

// row returns src's other nodes sorted by distance.
func (s *shells) row(src int) []int32 { return s.order[src*(s.n-1) : (src+1)*(s.n-1)] }

// bounds returns the start offsets of src's shells: the nodes at distance l
// are row(src)[st[l]:st[l+1]], 1 <= l <= diam.
func (s *shells) bounds(src int) []int32 { return s.start[src*(s.diam+2) : (src+1)*(s.diam+2)] }

// within returns how many nodes lie at distance 1..l from src.
func (s *shells) within(src, l int) int {
	if l > s.diam {
		l = s.diam
	}
	return int(s.bounds(src)[l+1])
}

// isPow2 reports whether n is a positive power of two.
func isPow2(n int) bool { return n > 0 && n&(n-1) == 0 }
