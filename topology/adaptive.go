package topology

import (
	"fmt"
	"math/bits"
)

// fullyAdaptive implements NewFullyAdaptive.
type fullyAdaptive struct {
	cubeRouting
	deadlockFree bool
}

// NewFullyAdaptive returns minimal fully adaptive routing on t without
// escape channels: Route admits every productive port (every differing
// dimension; in an even bidirectional torus both directions when the offset
// is exactly K/2), all with class 0, so a header may take any free VC of any
// productive channel (Safaei et al., seed 004 §3.1; docs/models.md#safaei-simulator item 3).
// Classes() = 1.
//
// This is the configuration the scouting paper simulates. Its
// channel-dependency graph has a cycle as soon as a packet can make two hops
// (around a ring, or by turns between dimensions), so DeadlockFree() is
// true only for networks of diameter 1 and for the one-dimensional mesh; a
// flit-level run of it can deadlock, which the network's run control detects
// and reports. NewDuato adds escape channels that make it deadlock-free.
func NewFullyAdaptive(t *Topology) Routing {
	c := newCubeRouting(t)
	c.classes = 1
	return &fullyAdaptive{cubeRouting: c, deadlockFree: adaptiveAcyclic(t)}
}

// adaptiveAcyclic reports whether class-0 minimal adaptive routing has an
// acyclic dependency graph on t: only when no packet makes two hops, or on
// a line (a one-dimensional mesh, where + and − channels never meet).
func adaptiveAcyclic(t *Topology) bool {
	return t.Diameter() <= 1 || t.Kind() == Mesh && t.Dims() == 1
}

func (r *fullyAdaptive) Name() string       { return "adaptive" }
func (r *fullyAdaptive) Classes() int       { return 1 }
func (r *fullyAdaptive) Minimal() bool      { return true }
func (r *fullyAdaptive) DeadlockFree() bool { return r.deadlockFree }

func (r *fullyAdaptive) Route(cur, dest int, buf []Candidate) []Candidate {
	return r.productive(cur, dest, 0, false, buf)
}

// EscapeRouting is a routing function R built, after Duato (1993, 1995),
// from adaptive classes and a routing subfunction R1 on escape classes:
// classes 0..EscapeClasses()-1 are escape classes, the others adaptive.
// Its whole channel-dependency graph may be cyclic (so DeadlockFree() may
// be false); it is deadlock-free for wormhole switching when R1 is connected
// and the extended channel-dependency graph of R1 is acyclic, which
// CheckEscape verifies.
type EscapeRouting interface {
	Routing
	// EscapeClasses returns the number of escape classes (>= 1); they are
	// the lowest class numbers.
	EscapeClasses() int
	// Escape appends the candidates of the escape subfunction R1 at cur for
	// dest: a subset of Route(cur, dest), all in escape classes (at the
	// destination the single local candidate {LocalPort(), 0}). It does not
	// allocate under the same condition as Route.
	Escape(cur, dest int, buf []Candidate) []Candidate
}

// duato implements NewDuato.
type duato struct {
	cubeRouting
	dor          dimensionOrder
	escape       int // escape classes
	deadlockFree bool
}

// NewDuato returns Duato's fully adaptive minimal routing on t: every
// productive port with the adaptive class, plus the dimension-order port
// with its escape class. On rings and tori the escape classes are the two
// dateline classes of dimension-order routing (EscapeClasses() = 2, the
// adaptive class is 2, Classes() = 3); elsewhere one escape class
// (EscapeClasses() = 1, adaptive class 1, Classes() = 2). Route lists the
// adaptive candidates first and the escape candidate last; a router should
// prefer a free adaptive VC and fall back to the escape VC.
//
// The escape subnetwork is dimension-order routing, connected and acyclic
// (Dally & Seitz 1987); a packet that leaves an escape channel of dimension
// d has resolved every dimension below d and only moves on in dimensions
// >= d, so the indirect dependencies through adaptive channels keep the
// escape order and the extended dependency graph is acyclic too (Duato
// 1995, Theorem 1) — CheckEscape verifies it exhaustively. DeadlockFree()
// reports the Dally–Seitz property of the whole graph, which the adaptive
// class breaks wherever NewFullyAdaptive does.
func NewDuato(t *Topology) EscapeRouting {
	c := newCubeRouting(t)
	esc := c.classes // 2 dateline classes on rings and tori, else 1
	d := &duato{cubeRouting: c, dor: dimensionOrder{c, TiesPlus}, escape: esc, deadlockFree: adaptiveAcyclic(t)}
	d.classes = esc + 1
	return d
}

func (r *duato) Name() string       { return "duato" }
func (r *duato) Classes() int       { return r.classes }
func (r *duato) Minimal() bool      { return true }
func (r *duato) DeadlockFree() bool { return r.deadlockFree }
func (r *duato) EscapeClasses() int { return r.escape }

func (r *duato) Route(cur, dest int, buf []Candidate) []Candidate {
	if cur == dest {
		return append(buf, Candidate{Port: r.local})
	}
	buf = r.productive(cur, dest, r.escape, false, buf)
	return r.dor.Route(cur, dest, buf)
}

func (r *duato) Escape(cur, dest int, buf []Candidate) []Candidate {
	return r.dor.Route(cur, dest, buf)
}

// EscapeVerdict is the result of CheckEscape.
type EscapeVerdict struct {
	// Subfunction: at every (cur, dest) each escape candidate is a valid
	// candidate of Route in an escape class.
	Subfunction bool
	// Connected: from every router, following escape candidates alone
	// reaches every destination (within Nodes() hops) and ejects there.
	Connected bool
	// EscapeAcyclic: the channel-dependency graph of R1 alone (escape VC to
	// escape VC over one router) is acyclic.
	EscapeAcyclic bool
	// ExtendedAcyclic: the extended channel-dependency graph of R1 is
	// acyclic: besides the direct dependencies it has an edge from escape
	// VC u to escape VC w whenever a packet that holds u may reach w after
	// any number of hops on adaptive VCs (Duato 1995's indirect
	// dependencies). With Subfunction and Connected this is Duato's
	// sufficient condition for deadlock freedom of R under wormhole
	// switching.
	ExtendedAcyclic bool
	// Cycle is one cycle of the extended graph when ExtendedAcyclic is
	// false (of the direct graph when EscapeAcyclic is false): Cycle[i]
	// may wait for Cycle[i+1], the last for the first.
	Cycle []VC
	// Problem describes the first defect found, empty if none.
	Problem string
}

// DeadlockFree reports Duato's condition: R1 a connected subfunction with
// an acyclic extended channel-dependency graph.
func (v EscapeVerdict) DeadlockFree() bool {
	return v.Subfunction && v.Connected && v.ExtendedAcyclic
}

// CheckEscape verifies Duato's condition for r on t exhaustively. For every
// destination it evaluates Route and Escape at every router, checks that
// R1 is a subfunction of R and connected, and accumulates over escape VCs
// (vertex id channel*EscapeClasses()+class):
//
//	direct(u)   = escape candidates at the router u enters
//	reach(q)    = Escape(q) ∪ ⋃ reach(q') over the adaptive hops q -> q'
//	extended(u) = reach(router u enters)
//
// (reach is computed from the destination outwards, which needs minimal
// adaptive hops: a non-minimal adaptive candidate is reported as a
// Problem). It then searches both graphs for a cycle.
//
// Cost: O(N^2 d) Route and Escape calls and O(N^2 d E/64) words of set
// union for N routers of degree d and E escape VCs; memory O(E^2/64 +
// N E/64) words. Meant for a configuration loader and tests.
func CheckEscape(t *Topology, r EscapeRouting) EscapeVerdict {
	v := EscapeVerdict{Subfunction: true, Connected: true}
	problem := func(format string, args ...any) {
		if v.Problem == "" {
			v.Problem = r.Name() + " on " + t.String() + ": " + fmt.Sprintf(format, args...)
		}
	}
	E, C := r.EscapeClasses(), r.Classes()
	if E < 1 || E > C {
		v.Subfunction, v.Connected = false, false
		problem("EscapeClasses() = %d with Classes() = %d", E, C)
		return v
	}
	N, P, local := t.nodes, t.netPorts, t.LocalPort()
	nEsc := len(t.chDst) * E
	words := (nEsc + 63) / 64
	direct := newBitGraph(nEsc)
	extended := newBitGraph(nEsc)
	reach := make([]uint64, N*words)  // per router: escape VCs reachable (see above)
	escSet := make([]uint64, N*words) // per router: its escape candidates
	order := make([]int32, N)
	dist := make([]int32, N)
	start := make([]int32, t.diameter+2)
	var route, esc []Candidate
	route = make([]Candidate, 0, P+1)
	esc = make([]Candidate, 0, P+1)
	escVC := func(cur int, c Candidate) int {
		ch := t.out[cur*t.ports+c.Port]
		if ch < 0 {
			return -1
		}
		return int(ch)*E + c.Class
	}
	for dest := 0; dest < N; dest++ {
		// Routers by increasing distance to dest, so reach(q') is complete
		// before any q with q -> q' (minimal hops) is processed.
		clear(start)
		for q := 0; q < N; q++ {
			dist[q] = int32(t.Distance(q, dest))
			start[dist[q]+1]++
		}
		for h := 1; h < len(start); h++ {
			start[h] += start[h-1]
		}
		for q := 0; q < N; q++ {
			order[start[dist[q]]] = int32(q)
			start[dist[q]]++
		}
		clear(reach)
		clear(escSet)
		for _, q32 := range order {
			q := int(q32)
			esc = r.Escape(q, dest, esc[:0])
			if q == dest {
				if len(esc) != 1 || esc[0] != (Candidate{Port: local}) {
					v.Connected = false
					problem("at the destination %d Escape returned %v, want [{%d 0}]", dest, esc, local)
				}
				continue
			}
			route = r.Route(q, dest, route[:0])
			if len(esc) == 0 {
				v.Connected = false
				problem("escape dead end at router %d for destination %d", q, dest)
			}
			row := reach[q*words : (q+1)*words]
			for _, c := range esc {
				if c.Port < 0 || c.Port >= P || c.Class < 0 || c.Class >= E || t.out[q*t.ports+c.Port] < 0 {
					v.Subfunction = false
					problem("router %d, destination %d: escape candidate %+v is not an escape channel", q, dest, c)
					continue
				}
				if !containsCandidate(route, c) {
					v.Subfunction = false
					problem("router %d, destination %d: escape candidate %+v is not among Route's %v", q, dest, c, route)
				}
				u := escVC(q, c)
				row[u>>6] |= 1 << (u & 63)
				escSet[q*words+u>>6] |= 1 << (u & 63)
				if t.Distance(int(t.chDst[u/E]), dest) >= t.Distance(q, dest) {
					v.Connected = false
					problem("router %d, destination %d: escape hop %s does not approach the destination", q, dest, t.describeChannel(u/E))
				}
			}
			for _, c := range route {
				if c.Class < E || c.Port < 0 || c.Port >= P {
					continue
				}
				ch := t.out[q*t.ports+c.Port]
				if ch < 0 {
					continue
				}
				q2 := int(t.chDst[ch])
				if t.Distance(q2, dest) != t.Distance(q, dest)-1 {
					problem("router %d, destination %d: adaptive hop %s is not minimal (CheckEscape needs minimal adaptive hops)", q, dest, t.describeChannel(int(ch)))
					continue
				}
				if q2 == dest {
					continue
				}
				for w, x := range reach[q2*words : (q2+1)*words] {
					row[w] |= x
				}
			}
		}
		// Edges out of every escape VC a packet for dest may hold.
		for q := 0; q < N; q++ {
			for w, x := range escSet[q*words : (q+1)*words] {
				for ; x != 0; x &= x - 1 {
					u := w<<6 + bits.TrailingZeros64(x)
					q2 := int(t.chDst[u/E])
					if q2 == dest {
						continue
					}
					direct.or(u, escSet[q2*words:(q2+1)*words])
					extended.or(u, reach[q2*words:(q2+1)*words])
				}
			}
		}
	}
	if c := direct.findCycle(); c != nil {
		v.Cycle = vcsOf(c, E)
		problem("the escape channel-dependency graph has a cycle: %s", formatCycle(t, v.Cycle))
	} else {
		v.EscapeAcyclic = true
	}
	if c := extended.findCycle(); c != nil {
		if v.Cycle == nil {
			v.Cycle = vcsOf(c, E)
			problem("the extended escape channel-dependency graph has a cycle: %s", formatCycle(t, v.Cycle))
		}
	} else {
		v.ExtendedAcyclic = true
	}
	// Connected needs no walk: every router other than the destination has
	// an escape candidate, and each escape hop approaches the destination.
	return v
}

func containsCandidate(cs []Candidate, c Candidate) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

// bitGraph is a directed graph over n vertices as adjacency bit sets.
type bitGraph struct {
	n, words int
	adj      []uint64
}

func newBitGraph(n int) *bitGraph {
	w := (n + 63) / 64
	return &bitGraph{n: n, words: w, adj: make([]uint64, n*w)}
}

func (g *bitGraph) or(u int, set []uint64) {
	row := g.adj[u*g.words : (u+1)*g.words]
	for i, x := range set {
		row[i] |= x
	}
}

// next returns the first successor >= j of u, or -1.
func (g *bitGraph) next(u, j int) int {
	return nextBit(g.adj[u*g.words:(u+1)*g.words], j)
}

// findCycle returns the vertices of one cycle, or nil if g is acyclic.
func (g *bitGraph) findCycle() []int {
	return findCycle(g.n, g.next, func(_, j int) int { return j })
}
