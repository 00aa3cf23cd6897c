package topology

import (
	"fmt"
	"math/bits"
)

// Candidate is one admissible output of a routing decision: the output
// port and the virtual-channel class the packet must use on it.
type Candidate struct {
	Port  int // output port, 0..NetPorts()-1, or LocalPort() to eject
	Class int // VC class, 0..Classes()-1
}

// Routing is a routing function R(cur, dest) -> set of (port, class).
// Implementations are immutable and safe for concurrent use; Route depends
// only on (cur, dest), so Check can verify it exhaustively.
type Routing interface {
	// Name identifies the function, e.g. "dor" or "random-minimal".
	Name() string
	// Classes returns the number of VC classes the function uses; the
	// router must provide at least that many VCs per port (a multiple of
	// it, split evenly, when it has more).
	Classes() int
	// Minimal reports whether every admitted hop reduces Distance to the
	// destination by exactly one.
	Minimal() bool
	// DeadlockFree reports whether the channel-dependency graph over
	// (channel, class) is acyclic (Dally–Seitz), the claim Check verifies.
	DeadlockFree() bool
	// Route appends to buf the admissible outputs for a packet at router
	// cur bound for dest and returns the extended slice; at cur == dest it
	// appends the single candidate {LocalPort(), 0}. It does not allocate
	// when cap(buf)-len(buf) >= NetPorts()+1 (callers pass buf[:0]). It
	// panics if cur or dest is not a router id.
	Route(cur, dest int, buf []Candidate) []Candidate
}

// datelineClass returns the Dally–Seitz dateline VC class of the hop that
// leaves coordinate c towards target coordinate b, moving in direction dir
// along a ring dimension (docs/models.md#dg-r; Dally & Seitz 1987):
//
//	dir = +1: class 0 if c < b, class 1 if c > b
//	dir = -1: class 0 if c > b, class 1 if c < b
//
// Going +, class 0 is never used on the wraparound channel K-1 -> 0 and
// class 1 never on the channel 0 -> 1 (mirror images going -), so each
// class alone is acyclic around the ring, and a packet only ever moves
// from class 1 to class 0.
func datelineClass(c, b int32, dir int8) int {
	if (dir > 0) == (c < b) {
		return 0
	}
	return 1
}

// cubeRouting holds what the routing functions on a Topology share.
type cubeRouting struct {
	coords  []int32
	n       int32
	k       int32
	lgK     uint // log2 k when k is a power of two (digit), else 0
	local   int
	kind    Kind
	bidir   bool
	classes int
}

func newCubeRouting(t *Topology) cubeRouting {
	c := cubeRouting{
		coords:  t.coords,
		n:       int32(t.n),
		k:       int32(t.k),
		local:   t.LocalPort(),
		kind:    t.spec.Kind,
		bidir:   t.spec.Bidirectional,
		classes: 1,
	}
	if c.kind == Ring || c.kind == Torus {
		c.classes = 2
	}
	if k := uint(t.k); k >= 2 && k&(k-1) == 0 {
		c.lgK = uint(bits.TrailingZeros(k))
	}
	return c
}

// coord returns the coordinate of node x in dimension d: digit d of x in
// base k, by shift and mask when k is a power of two (at 2^20 routers the
// table's line is a cache miss per lookup, issue 20), else from the
// topology's table.
func (c *cubeRouting) coord(x, d int) int32 {
	if c.lgK != 0 {
		return int32(x>>(uint(d)*c.lgK)) & (c.k - 1)
	}
	return c.coords[x*int(c.n)+d]
}

// Ties is how dimension-order routing on a bidirectional ring or torus of
// even radix K breaks the tie between the two directions when a packet's
// offset in a dimension is exactly K/2.
type Ties uint8

const (
	// TiesBalanced admits both directions at a tie; the router draws one
	// at random (router.Router takes one of several candidates uniformly).
	// The tie arises only at the first hop in the dimension (one hop
	// later the offset is K/2-1 one way round), so the draw is one per
	// packet and dimension, and each direction carries half of those
	// packets: BookSim 2's dim_order_torus (routefunc.cpp,
	// dor_next_torus: RandomInt(1) at dist2 == 0). The default.
	TiesBalanced Ties = iota
	// TiesPlus always takes the + direction at a tie, so the + channels
	// carry the tied packets of every dimension: flitsim's behaviour
	// before 2026-11. Under uniform traffic on a k = 4 ring it loads the
	// + channels three times as much as the - channels (offsets 1 and 2
	// go +, 3 goes -), where TiesBalanced loads both alike: saturation
	// moves by a factor 1.5.
	TiesPlus
)

var tiesNames = [...]string{"balanced", "plus"}

func (t Ties) String() string {
	if int(t) < len(tiesNames) {
		return tiesNames[t]
	}
	return "Ties(?)"
}

// ParseTies returns the Ties named s ("balanced" or "plus"; "" is
// balanced).
func ParseTies(s string) (Ties, error) {
	if s == "" {
		return TiesBalanced, nil
	}
	for i, n := range tiesNames {
		if n == s {
			return Ties(i), nil
		}
	}
	return 0, fmt.Errorf("unknown tie break %q (want balanced or plus)", s)
}

// dimensionOrder implements NewDimensionOrder.
type dimensionOrder struct {
	cubeRouting
	ties Ties
}

// NewDimensionOrder returns dimension-order (e-cube) routing on t with
// balanced ties: NewDimensionOrderTies(t, TiesBalanced).
func NewDimensionOrder(t *Topology) Routing {
	return NewDimensionOrderTies(t, TiesBalanced)
}

// NewDimensionOrderTies returns dimension-order (e-cube) routing on t: the
// lowest unresolved dimension first; in a bidirectional ring or torus the
// shorter direction, and at an offset of exactly K/2 both directions
// (TiesBalanced: the router draws one) or + (TiesPlus); on rings and tori
// the dateline classes of datelineClass (Classes() = 2), elsewhere class 0
// (Classes() = 1). It is minimal and deadlock-free on every supported
// topology (Dally & Seitz 1987; a tie adds the other direction's ring,
// whose dateline classes keep it acyclic, and nothing between dimensions).
// Callers that need a single candidate (sim/closed) take the first, +.
func NewDimensionOrderTies(t *Topology, ties Ties) Routing {
	return &dimensionOrder{newCubeRouting(t), ties}
}

func (r *dimensionOrder) Name() string       { return "dor" }
func (r *dimensionOrder) Classes() int       { return r.classes }
func (r *dimensionOrder) Minimal() bool      { return true }
func (r *dimensionOrder) DeadlockFree() bool { return true }

func (r *dimensionOrder) Route(cur, dest int, buf []Candidate) []Candidate {
	if cur == dest {
		return append(buf, Candidate{Port: r.local})
	}
	if r.kind == Hypercube {
		return append(buf, Candidate{Port: bits.TrailingZeros(uint(cur ^ dest))})
	}
	for d := range int(r.n) {
		c, b := r.coord(cur, d), r.coord(dest, d)
		if c == b {
			continue
		}
		switch {
		case r.kind == Mesh:
			if b > c {
				return append(buf, Candidate{Port: 2 * d})
			}
			return append(buf, Candidate{Port: 2*d + 1})
		case !r.bidir:
			return append(buf, Candidate{Port: d, Class: datelineClass(c, b, +1)})
		default:
			o := b - c
			if o < 0 {
				o += r.k
			}
			if 2*o < r.k || 2*o == r.k && r.ties == TiesPlus {
				return append(buf, Candidate{Port: 2 * d, Class: datelineClass(c, b, +1)})
			}
			if 2*o == r.k {
				buf = append(buf, Candidate{Port: 2 * d, Class: datelineClass(c, b, +1)})
			}
			return append(buf, Candidate{Port: 2*d + 1, Class: datelineClass(c, b, -1)})
		}
	}
	panic("topology: distinct routers with equal coordinates")
}

// randomMinimal implements NewRandomMinimal.
type randomMinimal struct {
	cubeRouting
	deadlockFree bool
}

// NewRandomMinimal returns random minimal routing on t: Route admits every
// productive port (every differing dimension; in an even bidirectional
// torus both directions when the offset is exactly K/2), and the router
// picks one uniformly at random. On rings and tori each candidate carries
// the dateline class of its dimension (Classes() = 2); that breaks the
// cycles within a ring but not the cycles formed by turns between
// dimensions, so DeadlockFree() is true only for one-dimensional networks.
func NewRandomMinimal(t *Topology) Routing {
	return &randomMinimal{cubeRouting: newCubeRouting(t), deadlockFree: t.n == 1}
}

func (r *randomMinimal) Name() string       { return "random-minimal" }
func (r *randomMinimal) Classes() int       { return r.classes }
func (r *randomMinimal) Minimal() bool      { return true }
func (r *randomMinimal) DeadlockFree() bool { return r.deadlockFree }

func (r *randomMinimal) Route(cur, dest int, buf []Candidate) []Candidate {
	return r.productive(cur, dest, 0, true, buf)
}

// productive appends every productive port from cur towards dest, or the
// local port (class 0) at the destination. Every candidate gets class, or,
// with dateline set, the dateline class of its dimension on a ring or torus
// (datelineClass; random minimal routing's classes).
func (c *cubeRouting) productive(cur, dest, class int, dateline bool, buf []Candidate) []Candidate {
	if cur == dest {
		return append(buf, Candidate{Port: c.local})
	}
	if c.kind == Hypercube {
		for x := uint(cur ^ dest); x != 0; x &= x - 1 {
			buf = append(buf, Candidate{Port: bits.TrailingZeros(x), Class: class})
		}
		return buf
	}
	for d := range int(c.n) {
		a, b := c.coord(cur, d), c.coord(dest, d)
		if a == b {
			continue
		}
		plus, minus := class, class
		if dateline {
			plus, minus = datelineClass(a, b, +1), datelineClass(a, b, -1)
		}
		switch {
		case c.kind == Mesh:
			if b > a {
				buf = append(buf, Candidate{Port: 2 * d, Class: class})
			} else {
				buf = append(buf, Candidate{Port: 2*d + 1, Class: class})
			}
		case !c.bidir:
			buf = append(buf, Candidate{Port: d, Class: plus})
		default:
			o := b - a
			if o < 0 {
				o += c.k
			}
			if 2*o <= c.k {
				buf = append(buf, Candidate{Port: 2 * d, Class: plus})
			}
			if 2*o >= c.k {
				buf = append(buf, Candidate{Port: 2*d + 1, Class: minus})
			}
		}
	}
	return buf
}
