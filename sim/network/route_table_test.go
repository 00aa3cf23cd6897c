package network

import (
	"slices"
	"testing"

	"github.com/flitsim/flitsim/router"
	"github.com/flitsim/flitsim/topology"
)

// TestRouteTable checks the tabulated routing: dimension order on an 8x8
// torus, with balanced ties (two candidates at an offset of 4) and with
// ties going +, is tabulated and answers every (router, destination) pair
// as the function does; random minimal (more candidates) and a network
// beyond maxRouteTable nodes are not tabulated.
func TestRouteTable(t *testing.T) {
	adapt := func(r topology.Routing) router.RouteFunc {
		var tbuf []topology.Candidate
		return func(cur, dest int, out []router.Candidate) []router.Candidate {
			tbuf = r.Route(cur, dest, tbuf[:0])
			for _, c := range tbuf {
				out = append(out, router.Candidate{Port: c.Port, Class: c.Class})
			}
			return out
		}
	}
	torus, err := topology.New(topology.Spec{Kind: topology.Torus, K: 8, N: 2, Bidirectional: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, ties := range []topology.Ties{topology.TiesBalanced, topology.TiesPlus} {
		dor := adapt(topology.NewDimensionOrderTies(torus, ties))
		table := routeTable(torus.Nodes(), dor)
		if table == nil {
			t.Fatalf("ties %v: dimension-order routing on an 8x8 torus was not tabulated", ties)
		}
		classes, two := 0, 0
		for cur := 0; cur < torus.Nodes(); cur++ {
			for dest := 0; dest < torus.Nodes(); dest++ {
				want := dor(cur, dest, nil)
				got := tableRoute(table[cur*torus.Nodes()+dest], nil)
				if !slices.Equal(got, want) {
					t.Fatalf("ties %v: table(%d, %d) = %+v, routing function %+v", ties, cur, dest, got, want)
				}
				classes |= 1 << want[0].Class
				if len(got) == 2 {
					two++
				}
			}
		}
		if classes != 3 {
			t.Fatalf("classes used: mask %b, want both dateline classes", classes)
		}
		// balanced: pairs with an offset of exactly 4 in the first unresolved
		// dimension: dimension 0 (8 rows of 8 pairs each, per router 8) plus
		// dimension 1 with dimension 0 resolved (1*1*... = 1 per router).
		if wantTwo := map[topology.Ties]int{topology.TiesBalanced: 64 * (8 + 1), topology.TiesPlus: 0}[ties]; two != wantTwo {
			t.Fatalf("ties %v: %d entries with two candidates, want %d", ties, two, wantTwo)
		}
	}
	if tb := routeTable(torus.Nodes(), adapt(topology.NewRandomMinimal(torus))); tb != nil {
		t.Fatal("random minimal routing (several candidates) was tabulated")
	}
	big, err := topology.New(topology.Spec{Kind: topology.Torus, K: 17, N: 2, Bidirectional: true})
	if err != nil {
		t.Fatal(err)
	}
	if tb := routeTable(big.Nodes(), adapt(topology.NewDimensionOrder(big))); tb != nil {
		t.Fatalf("a %d-node network was tabulated, beyond maxRouteTable = %d", big.Nodes(), maxRouteTable)
	}
}
