package topology

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// routingFactories are the routing functions the conformance suite runs on
// every network of suiteSpecs.
var routingFactories = []struct {
	name string
	make func(*Topology) Routing
}{
	{"dor", NewDimensionOrder},
	{"random-minimal", NewRandomMinimal},
}

// assertVerdict checks the verdict against the routing function's claims
// and, when there is a cycle, that it is a cycle of DependencyGraph.
func assertVerdict(t *testing.T, top *Topology, r Routing, v Verdict) {
	t.Helper()
	if v.Problem != "" {
		t.Errorf("problem: %s", v.Problem)
	}
	if !v.ReachesAll {
		t.Errorf("does not reach every destination")
	}
	if v.Minimal != r.Minimal() {
		t.Errorf("claims Minimal = %v, verdict %v", r.Minimal(), v.Minimal)
	}
	if v.DeadlockFree != r.DeadlockFree() {
		t.Errorf("claims DeadlockFree = %v, verdict %v (cycle %v)", r.DeadlockFree(), v.DeadlockFree, v.Cycle)
	}
	if v.DeadlockFree != (v.Cycle == nil) {
		t.Errorf("DeadlockFree = %v with cycle %v", v.DeadlockFree, v.Cycle)
	}
	if v.Cycle != nil {
		assertCycle(t, top, r, v.Cycle)
	}
}

// assertCycle checks that cycle is a closed walk of the dependency graph.
func assertCycle(t *testing.T, top *Topology, r Routing, cycle []VC) {
	t.Helper()
	g := DependencyGraph(top, r)
	for i, u := range cycle {
		w := cycle[(i+1)%len(cycle)]
		uid := u.Channel*r.Classes() + u.Class
		wid := int32(w.Channel*r.Classes() + w.Class)
		if _, ok := slices.BinarySearch(g[uid], wid); !ok {
			t.Fatalf("cycle step %v -> %v is not an edge of the dependency graph", u, w)
		}
		if top.Channel(u.Channel).Dst != top.Channel(w.Channel).Src {
			t.Fatalf("cycle step %v -> %v does not continue at the same router", u, w)
		}
	}
}

func TestConformance(t *testing.T) {
	for _, s := range suiteSpecs {
		top := mustNew(t, s)
		for _, f := range routingFactories {
			r := f.make(top)
			t.Run(top.String()+"/"+f.name, func(t *testing.T) {
				wantClasses := 1
				if s.Kind == Ring || s.Kind == Torus {
					wantClasses = 2
				}
				if r.Classes() != wantClasses || r.Name() != f.name {
					t.Errorf("%s: Classes = %d, want %d", r.Name(), r.Classes(), wantClasses)
				}
				// DOR is deadlock-free everywhere; random minimal only in
				// one dimension (turns between dimensions close cycles).
				if wantDF := f.name == "dor" || top.Dims() == 1; r.DeadlockFree() != wantDF {
					t.Errorf("claims DeadlockFree = %v, want %v", r.DeadlockFree(), wantDF)
				}
				assertVerdict(t, top, r, Check(top, r))
				assertNoAlloc(t, top, r)
			})
		}
	}
}

// assertNoAlloc checks Route does not allocate with a buffer of capacity
// NetPorts()+1, for every (cur, dest) pair of small networks.
func assertNoAlloc(t *testing.T, top *Topology, r Routing) {
	t.Helper()
	assertRouteNoAlloc(t, top, "Route", r.Route)
}

// assertRouteNoAlloc checks that route (Route, or Escape of an
// EscapeRouting: both are per-hop calls on the simulator's hot path) does
// not allocate with a buffer of capacity NetPorts()+1, for every
// (cur, dest) pair.
func assertRouteNoAlloc(t *testing.T, top *Topology, name string, route func(cur, dest int, buf []Candidate) []Candidate) {
	t.Helper()
	buf := make([]Candidate, 0, top.NetPorts()+1)
	allocs := testing.AllocsPerRun(3, func() {
		for cur := 0; cur < top.Nodes(); cur++ {
			for dest := 0; dest < top.Nodes(); dest++ {
				buf = route(cur, dest, buf[:0])
			}
		}
	})
	if allocs != 0 {
		t.Errorf("%s allocates: %v allocations per sweep", name, allocs)
	}
}

// TestRoutePins pins individual decisions: the direction tie rule, the
// dateline classes and the dimension order.
func TestRoutePins(t *testing.T) {
	torus := mustNew(t, Spec{Kind: Torus, K: 8, N: 2, Bidirectional: true})
	uni := mustNew(t, Spec{Kind: Torus, K: 4, N: 2})
	mesh := mustNew(t, Spec{Kind: Mesh, K: 4, N: 2})
	cube := mustNew(t, Spec{Kind: Hypercube, N: 4})
	node := func(top *Topology, c ...int) int { return top.Node(c) }
	cases := []struct {
		name      string
		top       *Topology
		r         Routing
		cur, dest int
		want      []Candidate
	}{
		// offset exactly K/2 = 4: balanced DOR (the default) and random
		// minimal admit both directions, DOR with TiesPlus only +; the
		// tie is only at the first hop of the dimension.
		{"tie", torus, NewDimensionOrder(torus), node(torus, 0, 0), node(torus, 4, 0), []Candidate{{0, 0}, {1, 1}}},
		{"tie/plus", torus, NewDimensionOrderTies(torus, TiesPlus), node(torus, 0, 0), node(torus, 4, 0), []Candidate{{0, 0}}},
		{"tie/next", torus, NewDimensionOrder(torus), node(torus, 1, 0), node(torus, 4, 0), []Candidate{{0, 0}}},
		{"tie/dim1", torus, NewDimensionOrder(torus), node(torus, 4, 6), node(torus, 4, 2), []Candidate{{2, 1}, {3, 0}}},
		{"tie/rm", torus, NewRandomMinimal(torus), node(torus, 0, 0), node(torus, 4, 0), []Candidate{{0, 0}, {1, 1}}},
		// offset 5 > 4: − direction from c = 0 to b = 5, c < b: class 1.
		{"minus-wraps", torus, NewDimensionOrder(torus), node(torus, 0, 0), node(torus, 5, 0), []Candidate{{1, 1}}},
		// 6 -> 1 going + (offset 3) crosses the dateline: class 1.
		{"plus-wraps", torus, NewDimensionOrder(torus), node(torus, 6, 3), node(torus, 1, 5), []Candidate{{0, 1}}},
		// 2 -> 5 going +, no wrap: class 0; dimension 0 before 1.
		{"plus", torus, NewDimensionOrder(torus), node(torus, 2, 3), node(torus, 5, 0), []Candidate{{0, 0}}},
		// 5 -> 3 going − (offset 6): class 0 (c > b).
		{"minus", torus, NewDimensionOrder(torus), node(torus, 5, 3), node(torus, 3, 0), []Candidate{{1, 0}}},
		// dimension 0 resolved: dimension 1, 3 -> 0 going − (offset 5), class 0.
		{"dim1", torus, NewDimensionOrder(torus), node(torus, 3, 3), node(torus, 3, 0), []Candidate{{3, 0}}},
		{"rm-2d", torus, NewRandomMinimal(torus), node(torus, 5, 3), node(torus, 3, 0), []Candidate{{1, 0}, {3, 0}}},
		{"eject", torus, NewDimensionOrder(torus), 9, 9, []Candidate{{4, 0}}},
		// unidirectional: port d, + only; 3 -> 1 wraps (class 1).
		{"uni", uni, NewDimensionOrder(uni), node(uni, 3, 0), node(uni, 1, 2), []Candidate{{0, 1}}},
		{"uni/rm", uni, NewRandomMinimal(uni), node(uni, 3, 0), node(uni, 1, 2), []Candidate{{0, 1}, {1, 0}}},
		{"mesh", mesh, NewDimensionOrder(mesh), node(mesh, 3, 0), node(mesh, 1, 2), []Candidate{{1, 0}}},
		{"mesh/rm", mesh, NewRandomMinimal(mesh), node(mesh, 3, 0), node(mesh, 1, 2), []Candidate{{1, 0}, {2, 0}}},
		{"cube", cube, NewDimensionOrder(cube), 0b0110, 0b1011, []Candidate{{0, 0}}},
		{"cube/rm", cube, NewRandomMinimal(cube), 0b0110, 0b1011, []Candidate{{0, 0}, {2, 0}, {3, 0}}},
		{"cube/eject", cube, NewRandomMinimal(cube), 5, 5, []Candidate{{4, 0}}},
	}
	for _, c := range cases {
		got := c.r.Route(c.cur, c.dest, nil)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %s Route(%d, %d) = %v, want %v", c.name, c.r.Name(), c.cur, c.dest, got, c.want)
		}
	}
}

// TestDatelineUnsplitChannels checks the property docs/models.md#dg-r relies
// on for the unidirectional k-ary n-cube: under DOR the channel K-1 -> 0
// only ever carries class 1 and the channel 0 -> 1 only class 0, and every
// other channel carries both.
func TestDatelineUnsplitChannels(t *testing.T) {
	top := mustNew(t, Spec{Kind: Torus, K: 5, N: 2})
	r := NewDimensionOrder(top)
	used := make([][2]bool, top.NumChannels())
	for src := 0; src < top.Nodes(); src++ {
		for dest := 0; dest < top.Nodes(); dest++ {
			for cur := src; cur != dest; {
				c := r.Route(cur, dest, nil)[0]
				ch := top.Out(cur, c.Port)
				used[ch][c.Class] = true
				cur = top.Channel(ch).Dst
			}
		}
	}
	for id, u := range used {
		ch := top.Channel(id)
		from := top.Coord(ch.Src, ch.Dim)
		want := [2]bool{true, true}
		switch from {
		case top.Radix() - 1:
			want = [2]bool{false, true}
		case 0:
			want = [2]bool{true, false}
		}
		if u != want {
			t.Errorf("channel %+v: classes used %v, want %v", ch, u, want)
		}
	}
}

// collapsed wraps a routing function and maps every class to 0: DOR on a
// ring or torus without its dateline classes.
type collapsed struct {
	Routing
	claim bool
}

func (c collapsed) Name() string       { return c.Routing.Name() + "-one-class" }
func (c collapsed) Classes() int       { return 1 }
func (c collapsed) DeadlockFree() bool { return c.claim }
func (c collapsed) Route(cur, dest int, buf []Candidate) []Candidate {
	n := len(buf)
	buf = c.Routing.Route(cur, dest, buf)
	for i := n; i < len(buf); i++ {
		buf[i].Class = 0
	}
	return buf
}

// TestCollapsedDatelineHasCycle shows the check can fail: DOR on rings
// and tori without the dateline classes has a dependency cycle around a
// ring whenever some packet takes two hops in one dimension (K >= 3
// unidirectional, K >= 4 bidirectional). The limit cases K = 2
// (unidirectional) and K = 3 (bidirectional) have none: a single hop per
// dimension creates no dependency within a ring.
func TestCollapsedDatelineHasCycle(t *testing.T) {
	for _, s := range suiteSpecs {
		if s.Kind != Ring && s.Kind != Torus {
			continue
		}
		top := mustNew(t, s)
		wantCycle := top.Radix() >= 4 || !top.Bidirectional() && top.Radix() >= 3
		r := collapsed{Routing: NewDimensionOrder(top), claim: !wantCycle}
		t.Run(top.String(), func(t *testing.T) {
			assertVerdict(t, top, r, Check(top, r))
			if wantCycle {
				// Claiming freedom must be reported as a problem.
				v := Check(top, collapsed{Routing: r.Routing, claim: true})
				if v.DeadlockFree || !strings.Contains(v.Problem, "cycle") {
					t.Errorf("false deadlock-freedom claim not reported: %+v", v)
				}
				// The cycle lies within one ring: one dimension, one direction.
				dim, dir := top.Channel(v.Cycle[0].Channel).Dim, top.Channel(v.Cycle[0].Channel).Dir
				for _, vc := range v.Cycle {
					if ch := top.Channel(vc.Channel); ch.Dim != dim || ch.Dir != dir {
						t.Errorf("cycle %v leaves the ring of dim %d dir %d", v.Cycle, dim, dir)
						break
					}
				}
			}
		})
	}
}

// fake is a routing function defined by a closure, for defect tests.
type fake struct {
	classes         int
	minimal, dlfree bool
	route           func(cur, dest int, buf []Candidate) []Candidate
	local           int
}

func (f fake) Name() string       { return "fake" }
func (f fake) Classes() int       { return f.classes }
func (f fake) Minimal() bool      { return f.minimal }
func (f fake) DeadlockFree() bool { return f.dlfree }
func (f fake) Route(cur, dest int, buf []Candidate) []Candidate {
	if cur == dest {
		return append(buf, Candidate{Port: f.local})
	}
	return f.route(cur, dest, buf)
}

// TestCheckFindsDefects feeds Check broken routing functions and checks
// each defect is found and named.
func TestCheckFindsDefects(t *testing.T) {
	ring := mustNew(t, Spec{Kind: Ring, K: 8, Bidirectional: true})
	mesh := mustNew(t, Spec{Kind: Mesh, K: 4, N: 2})
	dor := NewDimensionOrder(ring)
	cases := []struct {
		name                           string
		top                            *Topology
		r                              Routing
		minimal, reaches, deadlockFree bool
		problem                        string
	}{
		{"ping-pong loops", ring, fake{classes: 1, local: 2, route: func(cur, dest int, buf []Candidate) []Candidate {
			return append(buf, Candidate{Port: cur % 2}) // even: +, odd: −
		}}, false, false, false, "loops"},
		{"dead end", ring, fake{classes: 2, minimal: true, dlfree: true, local: 2, route: func(cur, dest int, buf []Candidate) []Candidate {
			if cur == 3 {
				return buf
			}
			return dor.Route(cur, dest, buf)
		}}, true, false, true, "dead end"},
		{"off the mesh edge", mesh, fake{classes: 1, minimal: false, local: 4, route: func(cur, dest int, buf []Candidate) []Candidate {
			return append(buf, Candidate{Port: 0})
		}}, false, false, true, "has no channel"},
		{"class out of range", ring, fake{classes: 1, minimal: true, dlfree: true, local: 2, route: dor.Route}, true, false, true, "classes [0,1)"},
		{"port out of range", ring, fake{classes: 2, minimal: true, dlfree: true, local: 2, route: func(cur, dest int, buf []Candidate) []Candidate {
			return append(buf, Candidate{Port: 7})
		}}, true, false, true, "outside ports"},
		{"ejects early", ring, fake{classes: 2, minimal: true, dlfree: true, local: 2, route: func(cur, dest int, buf []Candidate) []Candidate {
			return append(buf, Candidate{Port: 2})
		}}, true, false, true, "outside ports"},
		{"claims minimal, always +", ring, fake{classes: 2, minimal: true, dlfree: true, local: 2, route: func(cur, dest int, buf []Candidate) []Candidate {
			return append(buf, Candidate{Port: 0, Class: datelineClass(int32(cur), int32(dest), +1)})
		}}, false, true, true, "not productive"},
		{"honest non-minimal, always +", ring, fake{classes: 2, dlfree: true, local: 2, route: func(cur, dest int, buf []Candidate) []Candidate {
			return append(buf, Candidate{Port: 0, Class: datelineClass(int32(cur), int32(dest), +1)})
		}}, false, true, true, ""},
		{"bad Classes", ring, fake{classes: 0, local: 2, route: dor.Route}, true, false, false, "Classes() = 0"},
	}
	for _, c := range cases {
		v := Check(c.top, c.r)
		if c.problem == "" {
			if v.Problem != "" {
				t.Errorf("%s: unexpected problem %q", c.name, v.Problem)
			}
		} else if !strings.Contains(v.Problem, c.problem) {
			t.Errorf("%s: problem %q, want it to mention %q", c.name, v.Problem, c.problem)
		}
		if c.problem == "Classes() = 0" {
			continue // nothing explored
		}
		if v.Minimal != c.minimal || v.ReachesAll != c.reaches || v.DeadlockFree != c.deadlockFree {
			t.Errorf("%s: verdict minimal %v reaches %v deadlock-free %v, want %v %v %v (%s)",
				c.name, v.Minimal, v.ReachesAll, v.DeadlockFree, c.minimal, c.reaches, c.deadlockFree, v.Problem)
		}
	}
}

// TestDestinationContract: Route must return exactly {LocalPort, 0} at
// the destination.
func TestDestinationContract(t *testing.T) {
	ring := mustNew(t, Spec{Kind: Ring, K: 5, Bidirectional: true})
	dor := NewDimensionOrder(ring)
	bad := fake{classes: 2, minimal: true, dlfree: true, local: 1, route: dor.Route}
	v := Check(ring, bad) // local port 1 is a network port: wrong ejection
	if v.ReachesAll || !strings.Contains(v.Problem, "at the destination") {
		t.Errorf("wrong ejection not reported: %+v", v)
	}
}

// TestCheckLarge runs the check at 4096 routers, the size the brief asks
// the iterative cycle search to handle.
func TestCheckLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("4096-router exhaustive checks take a few seconds")
	}
	for _, s := range []Spec{
		{Kind: Torus, K: 64, N: 2, Bidirectional: true},
		{Kind: Torus, K: 4096, N: 1},
		{Kind: Hypercube, N: 12},
		{Kind: Mesh, K: 16, N: 3},
	} {
		top := mustNew(t, s)
		for _, f := range routingFactories {
			r := f.make(top)
			start := time.Now()
			v := Check(top, r)
			t.Logf("%v %s: %+v in %v", top, r.Name(), Verdict{Minimal: v.Minimal, ReachesAll: v.ReachesAll, DeadlockFree: v.DeadlockFree}, time.Since(start).Round(time.Millisecond))
			assertVerdict(t, top, r, v)
		}
		// Without the dateline classes the long rings have a cycle of at
		// least K VCs around one ring.
		if s.Kind == Torus {
			v := Check(top, collapsed{Routing: NewDimensionOrder(top)})
			if v.DeadlockFree || len(v.Cycle) < top.Radix() {
				t.Errorf("%v collapsed: deadlock-free %v, cycle length %d", top, v.DeadlockFree, len(v.Cycle))
			}
		}
	}
}

// BenchmarkDORRoute16x16 measures one DOR decision on a bidirectional
// 16x16 torus, averaged over all (cur, dest) pairs; it must not allocate.
func BenchmarkDORRoute16x16(b *testing.B) {
	benchRoute(b, mustNew(b, Spec{Kind: Torus, K: 16, N: 2, Bidirectional: true}), NewDimensionOrder)
}

// benchRoute measures one Route call of the routing function newRouting
// builds on top, cycling through every (cur, dest) pair so that the mean
// covers them all, with allocations reported.
func benchRoute[R Routing](b *testing.B, top *Topology, newRouting func(*Topology) R) {
	r := newRouting(top)
	buf := make([]Candidate, 0, top.NetPorts()+1)
	n := top.Nodes()
	b.ReportAllocs()
	cur, dest := 0, 0
	for b.Loop() {
		buf = r.Route(cur, dest, buf[:0])
		if dest++; dest == n {
			dest = 0
			if cur++; cur == n {
				cur = 0
			}
		}
	}
	_ = buf
}

// TestCoordMatchesTable checks the routing's arithmetic coordinates (shift
// and mask for a power-of-two radix) against the topology's table, node by
// node and dimension by dimension, for power-of-two and other radices.
func TestCoordMatchesTable(t *testing.T) {
	for _, c := range []struct {
		kind Kind
		k, n int
	}{{Mesh, 2, 3}, {Torus, 4, 3}, {Torus, 5, 2}, {Mesh, 8, 2}, {Torus, 16, 3}, {Torus, 3, 4}} {
		topo, err := New(Spec{Kind: c.kind, K: c.k, N: c.n, Bidirectional: true})
		if err != nil {
			t.Fatal(err)
		}
		cr := newCubeRouting(topo)
		if want := c.k&(c.k-1) == 0; (cr.lgK != 0) != want {
			t.Errorf("k=%d: lgK %d", c.k, cr.lgK)
		}
		for x := 0; x < topo.Nodes(); x++ {
			for d := 0; d < c.n; d++ {
				if got, want := cr.coord(x, d), topo.coords[x*c.n+d]; got != want {
					t.Fatalf("%d-ary %d-cube: coord(%d, %d) = %d, table %d", c.k, c.n, x, d, got, want)
				}
			}
		}
	}
}
