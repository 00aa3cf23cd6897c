package topology

import (
	"fmt"
	"math/bits"
	"strings"
)

// VC names a virtual-channel class on a physical channel: the vertex of
// the channel-dependency graph. Its dense id is Channel*Classes + Class.
type VC struct {
	Channel, Class int
}

// Verdict is the result of Check: what the routing function does, found
// by exploring every path it admits, independently of what it claims.
type Verdict struct {
	// Minimal: every admitted hop reduces Distance to the destination by
	// exactly one (so every path is a shortest path, at most Diameter hops).
	Minimal bool
	// ReachesAll: from every source, every admitted path reaches every
	// destination and ejects there: each candidate names an existing
	// channel and a class below Classes(), no router other than the
	// destination is a dead end, no path loops, and at the destination
	// Route returns exactly {LocalPort, 0}.
	ReachesAll bool
	// DeadlockFree: the channel-dependency graph over (channel, class) is
	// acyclic, which for wormhole and virtual cut-through switching is
	// sufficient for freedom from deadlock (Dally & Seitz 1987; Duato
	// 1993 for why it is not necessary for adaptive functions).
	DeadlockFree bool
	// Cycle is one dependency cycle when DeadlockFree is false: Cycle[i]
	// may wait for Cycle[i+1], and the last for the first.
	Cycle []VC
	// Problem describes the first defect found, or a claim (Minimal,
	// DeadlockFree) the routing function makes that the verdict refutes;
	// empty when the function is correct and its claims hold.
	Problem string
}

// cdg is the channel-dependency graph as, per VC, a bit set over the
// (output port, class) pairs of the router the VC's channel enters.
type cdg struct {
	t       *Topology
	classes int
	words   int      // uint64 words per VC
	mask    []uint64 // [vc*words + j/64] bit j = port*classes + class
}

// next returns the first successor bit >= j of vc, or -1.
func (g *cdg) next(vc, j int) int {
	return nextBit(g.mask[vc*g.words:(vc+1)*g.words], j)
}

// nextBit returns the index of the first set bit >= j of the bit set row
// (bit i in row[i/64]), or -1 if there is none.
func nextBit(row []uint64, j int) int {
	for w := j >> 6; w < len(row); w++ {
		x := row[w]
		if w == j>>6 {
			x &= ^uint64(0) << (j & 63)
		}
		if x != 0 {
			return w<<6 + bits.TrailingZeros64(x)
		}
	}
	return -1
}

// target returns the VC id that successor bit j of vc names.
func (g *cdg) target(vc, j int) int {
	q := int(g.t.chDst[vc/g.classes])
	port, class := j/g.classes, j%g.classes
	return int(g.t.out[q*g.t.ports+port])*g.classes + class
}

// Check verifies r on t exhaustively: for every destination it evaluates
// Route at every router (every router is a possible source, so this covers
// every path r admits from every source), checks each step against the
// channel table, checks that every hop is productive where r claims to be
// minimal and that no admitted path loops, and builds the channel
// dependency graph over (channel, class): an edge from the VC a packet
// arrives on to every VC it may leave on. It then searches that graph for
// a cycle (iterative depth-first search).
//
// Cost: O(N^2 d) Route calls and O(N^2 d^2) dependency updates for N
// routers of degree d (about a second for 4096 routers); memory is
// O(N d + channels*classes*d*classes/64 words). Check is meant for a
// configuration loader and for tests, not for a hot path.
func Check(t *Topology, r Routing) Verdict {
	g, v := analyse(t, r)
	if g == nil {
		return v
	}
	cycle := g.findCycle()
	v.DeadlockFree = cycle == nil
	if cycle != nil {
		v.Cycle = cycle
		if r.DeadlockFree() && v.Problem == "" {
			v.Problem = fmt.Sprintf("%s claims deadlock freedom but the channel-dependency graph of %v has a cycle: %s",
				r.Name(), t, formatCycle(t, cycle))
		}
	}
	return v
}

// DependencyGraph returns the channel-dependency graph of r on t: for
// every VC id u = channel*r.Classes() + class, edges[u] lists in
// increasing order the VC ids a packet holding u may request next. Invalid
// candidates (see Check) contribute no edges.
func DependencyGraph(t *Topology, r Routing) [][]int32 {
	g, _ := analyse(t, r)
	if g == nil {
		return nil
	}
	nvc := len(t.chDst) * g.classes
	edges := make([][]int32, nvc)
	for u := 0; u < nvc; u++ {
		for j := g.next(u, 0); j >= 0; j = g.next(u, j+1) {
			edges[u] = append(edges[u], int32(g.target(u, j)))
		}
	}
	return edges
}

// analyse runs the per-destination exploration of Check and returns the
// dependency graph and a verdict with Minimal, ReachesAll and Problem set.
func analyse(t *Topology, r Routing) (*cdg, Verdict) {
	v := Verdict{Minimal: true, ReachesAll: true}
	problem := func(format string, args ...any) {
		if v.Problem == "" {
			v.Problem = r.Name() + " on " + t.String() + ": " + fmt.Sprintf(format, args...)
		}
	}
	classes := r.Classes()
	if classes < 1 {
		v.ReachesAll = false
		problem("Classes() = %d, want >= 1", classes)
		return nil, v
	}
	N, P, local := t.nodes, t.netPorts, t.LocalPort()
	g := &cdg{t: t, classes: classes, words: (P*classes + 63) / 64}
	g.mask = make([]uint64, len(t.chDst)*classes*g.words)

	off := make([]int32, N+1)
	flat := make([]Candidate, 0, N*P)
	chans := make([]int32, 0, N*P) // channel of flat[i]
	scratch := make([]Candidate, 0, P+1)
	var indeg, queue []int32          // loop detection, allocated on first need
	cand := make([]uint64, N*g.words) // per router: its candidates for dest

	for dest := 0; dest < N; dest++ {
		flat, chans = flat[:0], chans[:0]
		productive := true
		for cur := 0; cur < N; cur++ {
			out := r.Route(cur, dest, scratch[:0])
			if cur == dest {
				if len(out) != 1 || out[0] != (Candidate{Port: local}) {
					v.ReachesAll = false
					problem("at the destination %d Route returned %v, want [{%d 0}]", dest, out, local)
				}
				off[cur+1] = int32(len(flat))
				continue
			}
			if len(out) == 0 {
				v.ReachesAll = false
				problem("dead end: no candidate at router %d for destination %d", cur, dest)
			}
			h := t.Distance(cur, dest)
			for _, c := range out {
				if c.Port < 0 || c.Port >= P || c.Class < 0 || c.Class >= classes {
					v.ReachesAll = false
					problem("router %d, destination %d: candidate %+v outside ports [0,%d) or classes [0,%d)",
						cur, dest, c, P, classes)
					continue
				}
				ch := t.out[cur*t.ports+c.Port]
				if ch < 0 {
					v.ReachesAll = false
					problem("router %d, destination %d: port %d has no channel", cur, dest, c.Port)
					continue
				}
				if t.Distance(int(t.chDst[ch]), dest) != h-1 {
					v.Minimal, productive = false, false
					if r.Minimal() {
						problem("claims minimal but the hop %s towards %d is not productive", t.describeChannel(int(ch)), dest)
					}
				}
				flat = append(flat, c)
				chans = append(chans, ch)
			}
			off[cur+1] = int32(len(flat))
		}

		// Loops: only possible when some hop is not productive (a
		// productive hop strictly decreases the distance). Kahn's
		// algorithm on the admitted next-hop graph of this destination.
		if !productive {
			if indeg == nil {
				indeg = make([]int32, N)
				queue = make([]int32, 0, N)
			}
			clear(indeg)
			for _, ch := range chans {
				indeg[t.chDst[ch]]++
			}
			queue = queue[:0]
			for u := 0; u < N; u++ {
				if indeg[u] == 0 {
					queue = append(queue, int32(u))
				}
			}
			for i := 0; i < len(queue); i++ {
				u := queue[i]
				for _, ch := range chans[off[u]:off[u+1]] {
					w := t.chDst[ch]
					if indeg[w]--; indeg[w] == 0 {
						queue = append(queue, w)
					}
				}
			}
			if len(queue) < N {
				v.ReachesAll = false
				problem("an admitted path towards %d loops (%d routers on or behind a cycle)", dest, N-len(queue))
			}
		}

		// Dependencies: a packet for dest that arrived at q on (ch, cls)
		// may request every candidate of Route(q, dest). Collect each
		// router's candidates for dest as a bit set once, then OR it into
		// every VC that enters the router.
		clear(cand)
		for q := 0; q < N; q++ {
			for _, c := range flat[off[q]:off[q+1]] {
				j := c.Port*classes + c.Class
				cand[q*g.words+j>>6] |= 1 << (j & 63)
			}
		}
		for i, ch := range chans {
			q := int(t.chDst[ch])
			if q == dest {
				continue
			}
			u := int(ch)*classes + flat[i].Class
			dst := g.mask[u*g.words : (u+1)*g.words]
			for w, x := range cand[q*g.words : (q+1)*g.words] {
				dst[w] |= x
			}
		}
	}
	return g, v
}

// findCycle returns one cycle of the graph, or nil if it is acyclic.
func (g *cdg) findCycle() []VC {
	return vcsOf(findCycle(len(g.t.chDst)*g.classes, g.next, g.target), g.classes)
}

// vcsOf converts dense VC ids (channel*classes + class) to VCs; nil stays
// nil.
func vcsOf(ids []int, classes int) []VC {
	if ids == nil {
		return nil
	}
	out := make([]VC, len(ids))
	for i, id := range ids {
		out[i] = VC{Channel: id / classes, Class: id % classes}
	}
	return out
}

// FindCycle returns the vertices of one cycle of a directed graph on
// vertices 0..n-1, or nil if it is acyclic (see findCycle): the cycle
// search that Check and CheckEscape use, for other checkers (package
// topology/graph).
func FindCycle(n int, next, target func(u, j int) int) []int { return findCycle(n, next, target) }

// findCycle returns the vertices of one cycle of a graph on vertices
// 0..n-1, or nil if it is acyclic, by an iterative depth-first search (no
// recursion, so 4096-router networks with tens of thousands of VCs are
// fine). next(u, j) is the index of u's first edge at or after j (-1 when
// none); target(u, j) the vertex edge j of u leads to.
func findCycle(n int, next, target func(u, j int) int) []int {
	const (
		white = iota
		grey
		black
	)
	color := make([]uint8, n)
	type frame struct{ u, j int }
	var stack []frame
	for root := 0; root < n; root++ {
		if color[root] != white {
			continue
		}
		color[root] = grey
		stack = append(stack[:0], frame{root, 0})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			j := next(top.u, top.j)
			if j < 0 {
				color[top.u] = black
				stack = stack[:len(stack)-1]
				continue
			}
			top.j = j + 1
			w := target(top.u, j)
			switch color[w] {
			case white:
				color[w] = grey
				stack = append(stack, frame{w, 0})
			case grey: // back edge: w is on the stack
				i := len(stack) - 1
				for stack[i].u != w {
					i--
				}
				cycle := make([]int, 0, len(stack)-i)
				for _, f := range stack[i:] {
					cycle = append(cycle, f.u)
				}
				return cycle
			}
		}
	}
	return nil
}

func formatCycle(t *Topology, cycle []VC) string { return FormatCycle(cycle, t.describeChannel, 8) }

// FormatCycle names the VCs of a dependency cycle as "N VCs: a/c0 -> b/c1
// -> ...", each channel named by describe, and at most shown VCs listed:
// the one wording every deadlock check (this package's, topology/graph's)
// uses for the cycle it refuses.
func FormatCycle(cycle []VC, describe func(channel int) string, shown int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d VCs: ", len(cycle))
	for i, vc := range cycle {
		if i == shown {
			b.WriteString(" -> ...")
			break
		}
		if i > 0 {
			b.WriteString(" -> ")
		}
		fmt.Fprintf(&b, "%s/c%d", describe(vc.Channel), vc.Class)
	}
	return b.String()
}
