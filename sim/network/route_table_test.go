package network

import (
	"testing"

	"github.com/flitsim/flitsim/router"
	"github.com/flitsim/flitsim/topology"
)

// TestRouteTable checks the tabulated routing: dimension order on an 8x8
// torus is tabulated and answers every (router, destination) pair as the
// function does; random minimal (several candidates) and a network beyond
// maxRouteTable nodes are not tabulated.
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
	dor := adapt(topology.NewDimensionOrder(torus))
	table := routeTable(torus.Nodes(), dor)
	if table == nil {
		t.Fatal("dimension-order routing on an 8x8 torus was not tabulated")
	}
	classes := 0
	for cur := 0; cur < torus.Nodes(); cur++ {
		for dest := 0; dest < torus.Nodes(); dest++ {
			want := dor(cur, dest, nil)[0]
			e := table[cur*torus.Nodes()+dest]
			if got := (router.Candidate{Port: int(e >> 8), Class: int(e & 0xff)}); got != want {
				t.Fatalf("table(%d, %d) = %+v, routing function %+v", cur, dest, got, want)
			}
			classes |= 1 << want.Class
		}
	}
	if classes != 3 {
		t.Fatalf("classes used: mask %b, want both dateline classes", classes)
	}
	if routeTable(torus.Nodes(), adapt(topology.NewRandomMinimal(torus))) != nil {
		t.Fatal("random minimal routing (several candidates) was tabulated")
	}
	big, err := topology.New(topology.Spec{Kind: topology.Torus, K: 17, N: 2, Bidirectional: true})
	if err != nil {
		t.Fatal(err)
	}
	if routeTable(big.Nodes(), adapt(topology.NewDimensionOrder(big))) != nil {
		t.Fatalf("a %d-node network was tabulated, beyond maxRouteTable = %d", big.Nodes(), maxRouteTable)
	}
}
