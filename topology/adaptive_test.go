package topology

import (
	"strings"
	"testing"
)

// TestAdaptiveConformance runs the routing suite (Check: minimal, reaches
// every destination, claims hold; Route, and Duato's Escape,
// allocation-free) on fully adaptive and Duato routing over every network
// of suiteSpecs, and Duato's escape condition (CheckEscape) on the Duato
// function.
func TestAdaptiveConformance(t *testing.T) {
	for _, s := range suiteSpecs {
		top := mustNew(t, s)
		dateline := s.Kind == Ring || s.Kind == Torus
		t.Run(top.String()+"/adaptive", func(t *testing.T) {
			r := NewFullyAdaptive(top)
			if r.Classes() != 1 || r.Name() != "adaptive" {
				t.Errorf("Classes = %d, name %q", r.Classes(), r.Name())
			}
			assertVerdict(t, top, r, Check(top, r))
			assertNoAlloc(t, top, r)
			assertAllProductive(t, top, r, 0)
		})
		t.Run(top.String()+"/duato", func(t *testing.T) {
			r := NewDuato(top)
			wantEsc := 1
			if dateline {
				wantEsc = 2
			}
			if r.EscapeClasses() != wantEsc || r.Classes() != wantEsc+1 {
				t.Errorf("EscapeClasses = %d, Classes = %d; want %d, %d", r.EscapeClasses(), r.Classes(), wantEsc, wantEsc+1)
			}
			assertVerdict(t, top, r, Check(top, r))
			assertNoAlloc(t, top, r)
			assertRouteNoAlloc(t, top, "Escape", r.Escape)
			assertAllProductive(t, top, r, wantEsc)
			ev := CheckEscape(top, r)
			if !ev.DeadlockFree() || !ev.EscapeAcyclic || ev.Problem != "" {
				t.Errorf("escape verdict %+v", ev)
			}
		})
	}
}

// assertAllProductive: the adaptive class candidates at (cur, dest) are
// exactly the productive ports (those whose channel reduces Distance by
// one), each once.
func assertAllProductive(t *testing.T, top *Topology, r Routing, class int) {
	t.Helper()
	buf := make([]Candidate, 0, top.NetPorts()+1)
	for cur := 0; cur < top.Nodes(); cur++ {
		for dest := 0; dest < top.Nodes(); dest++ {
			if cur == dest {
				continue
			}
			buf = r.Route(cur, dest, buf[:0])
			seen := make(map[int]bool)
			for _, c := range buf {
				if c.Class == class {
					if seen[c.Port] {
						t.Fatalf("%d->%d: port %d twice in class %d", cur, dest, c.Port, class)
					}
					seen[c.Port] = true
				}
			}
			h := top.Distance(cur, dest)
			for p := 0; p < top.NetPorts(); p++ {
				ch := top.Out(cur, p)
				productive := ch >= 0 && top.Distance(top.Channel(ch).Dst, dest) == h-1
				if productive != seen[p] {
					t.Fatalf("%d->%d: port %d productive %v, admitted %v (%v)", cur, dest, p, productive, seen[p], buf)
				}
			}
		}
	}
}

// TestAdaptiveWithoutEscapeIsCyclic pins the configuration of the scouting
// paper (docs/models.md#safaei-simulator): fully adaptive routing without escape channels on
// the 8x8 bidirectional torus has a cyclic channel-dependency graph, while
// the escape subnetwork of Duato's routing on the same torus (and on a
// mesh) is acyclic, also with the indirect dependencies.
func TestAdaptiveWithoutEscapeIsCyclic(t *testing.T) {
	for _, s := range []Spec{
		{Kind: Torus, K: 8, N: 2, Bidirectional: true},
		{Kind: Torus, K: 16, N: 2, Bidirectional: true},
		{Kind: Mesh, K: 4, N: 2},
	} {
		top := mustNew(t, s)
		v := Check(top, NewFullyAdaptive(top))
		if v.DeadlockFree || len(v.Cycle) == 0 {
			t.Fatalf("%v: adaptive without escape: DeadlockFree %v, cycle %v", top, v.DeadlockFree, v.Cycle)
		}
		t.Logf("%v adaptive: a dependency cycle of %d VCs: %s", top, len(v.Cycle), formatCycle(top, v.Cycle))
		d := NewDuato(top)
		if full := Check(top, d); full.DeadlockFree {
			t.Errorf("%v: Duato's whole graph reported acyclic; its adaptive class should close cycles", top)
		}
		if ev := CheckEscape(top, d); !ev.DeadlockFree() {
			t.Errorf("%v: Duato escape verdict %+v", top, ev)
		}
	}
}

// badEscape is Duato's routing with the dateline classes of the escape
// subfunction merged into class 0: its escape rings close on themselves.
type badEscape struct{ EscapeRouting }

func (b badEscape) Route(cur, dest int, buf []Candidate) []Candidate {
	n := len(buf)
	buf = b.EscapeRouting.Route(cur, dest, buf)
	for i := n; i < len(buf); i++ {
		if buf[i].Class == 1 {
			buf[i].Class = 0
		}
	}
	return buf
}

func (b badEscape) Escape(cur, dest int, buf []Candidate) []Candidate {
	n := len(buf)
	buf = b.EscapeRouting.Escape(cur, dest, buf)
	for i := n; i < len(buf); i++ {
		buf[i].Class = 0
	}
	return buf
}

// TestCheckEscapeFindsCycles: an escape subfunction without dateline
// classes on a torus has a cyclic escape graph, and CheckEscape returns a
// cycle whose consecutive VCs meet at a router.
func TestCheckEscapeFindsCycles(t *testing.T) {
	top := mustNew(t, Spec{Kind: Torus, K: 5, N: 2, Bidirectional: true})
	ev := CheckEscape(top, badEscape{NewDuato(top)})
	if ev.DeadlockFree() || ev.EscapeAcyclic || len(ev.Cycle) == 0 || !strings.Contains(ev.Problem, "cycle") {
		t.Fatalf("verdict %+v, want a cycle", ev)
	}
	for i, u := range ev.Cycle {
		w := ev.Cycle[(i+1)%len(ev.Cycle)]
		if top.Channel(u.Channel).Dst != top.Channel(w.Channel).Src {
			t.Fatalf("cycle step %v -> %v does not continue at the same router", u, w)
		}
	}
}

// BenchmarkDuatoRoute8x8 measures one Duato decision (adaptive candidates
// and the dimension-order escape) on the bidirectional 8x8 torus of the
// scouting paper, averaged over all (cur, dest) pairs; it must not
// allocate.
func BenchmarkDuatoRoute8x8(b *testing.B) {
	benchRoute(b, mustNew(b, Spec{Kind: Torus, K: 8, N: 2, Bidirectional: true}), NewDuato)
}
