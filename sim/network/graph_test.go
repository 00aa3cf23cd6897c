package network

import (
	"context"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/router"
	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/topology/graph"
	"github.com/flitsim/flitsim/traffic"
)

func mustGraph(g *graph.Network, err error) *graph.Network {
	if err != nil {
		panic(err)
	}
	return g
}

// graphNets are the small graph networks every graph test runs, with
// each of their routing functions.
func graphNets(t testing.TB) []*graph.Network {
	df, err := graph.NewDragonfly(graph.DragonflySpec{P: 2})
	ff, err2 := graph.NewFlatFly(graph.FlatFlySpec{K: 3, N: 2})
	ft, err3 := graph.NewFatTree(graph.FatTreeSpec{K: 2, N: 3})
	cm, err4 := graph.NewCMesh(graph.CMeshSpec{K: 3, N: 2, C: 2})
	gf, err5 := graph.Parse(strings.NewReader("router a b c d\nlink a b\nlink b c 3\nlink c d\nlink d a 2\nterminal a 2\nterminal b\nterminal c\nterminal d 2\n"), "ring4.net")
	return []*graph.Network{mustGraph(df, err), mustGraph(ff, err2), mustGraph(ft, err3), mustGraph(cm, err4), mustGraph(gf, err5)}
}

// TestGraphZeroLoadLatency sends one message at a time between every pair
// of terminals of every graph network, with every routing function and
// pipeline, and checks that it arrives at its destination and that its
// latency is the zero-load latency of the path its hops and channel
// latencies make (Config.Debug checks the sink):
//
//	T0 = InjectionLatency + (hops+1)*HopDelay + sum of channel latencies + EjectionLatency + M - 1
func TestGraphZeroLoadLatency(t *testing.T) {
	for _, g := range graphNets(t) {
		for _, rt := range graph.RoutingNames(g) {
			for _, p := range pipelines[:3] {
				cfg := Config{Graph: g, Routing: rt, Router: p.router, CreditDelay: p.credit,
					InjectionLatency: p.inject, EjectionLatency: p.eje, Length: LengthSpec{Flits: 4}, Debug: true}
				cfg.Router.VCs = 4
				n, err := New(cfg)
				if err != nil {
					t.Fatalf("%v %s: %v", g, rt, err)
				}
				var got []Delivery
				n.OnDeliver(func(d Delivery) { got = append(got, d) })
				for src := 0; src < g.Nodes(); src++ {
					for dst := 0; dst < g.Nodes(); dst++ {
						if src == dst {
							continue
						}
						got = got[:0]
						n.Offer(src, dst, 4)
						for k := 0; k < 400 && len(got) == 0; k++ {
							n.Step()
						}
						if len(got) != 1 || got[0].Dst != dst {
							t.Fatalf("%v %s %s: message %d->%d: deliveries %+v", g, rt, p.name, src, dst, got)
						}
						d := got[0]
						if rt == graph.RouteShortestPath || rt == graph.RouteMinimal && g.FlatFly() != nil || g.CMesh() != nil || g.FatTree() != nil {
							if d.Hops != g.Distance(src, dst) {
								t.Fatalf("%v %s: %d->%d took %d hops, distance %d", g, rt, src, dst, d.Hops, g.Distance(src, dst))
							}
						}
						if g.Kind() == "graph" {
							continue // the channel latencies along the path differ: checked by TestGraphLongLink
						}
						rc := cfg.Router
						want := p.inject + (d.Hops+1)*rc.HopDelay() + d.Hops + p.eje + 3
						if int(d.Latency) != want {
							t.Fatalf("%v %s %s: %d->%d latency %d over %d hops, want %d", g, rt, p.name, src, dst, d.Latency, d.Hops, want)
						}
					}
				}
			}
		}
	}
}

// TestGraphLongLink: a message over a graph file's 5-cycle link takes 4
// cycles more than over a 1-cycle one.
func TestGraphLongLink(t *testing.T) {
	g := mustGraph(graph.Parse(strings.NewReader("router a b c\nlink a b 5\nlink b c\nterminal a\nterminal b\nterminal c\n"), "line.net"))
	n, err := New(Config{Graph: g, Router: router.Arch{VCs: 2, BufferDepth: 4}, Length: LengthSpec{Flits: 1}, Debug: true})
	if err != nil {
		t.Fatal(err)
	}
	var lat []int
	n.OnDeliver(func(d Delivery) { lat = append(lat, int(d.Latency)) })
	for _, pair := range [][2]int{{0, 1}, {1, 2}} {
		n.Offer(pair[0], pair[1], 1)
		for k := 0; k < 50; k++ {
			n.Step()
		}
	}
	if len(lat) != 2 || lat[0]-lat[1] != 4 {
		t.Fatalf("latencies %v, want the 5-cycle link 4 cycles slower", lat)
	}
}

// TestGraphRefusesCycle: shortest-path routing on a ring of six with
// router.vcs = 1 cannot be made deadlock-free by hop-indexed classes; the
// network is refused naming a cycle. With 3 VCs (the diameter) it builds.
func TestGraphRefusesCycle(t *testing.T) {
	g := mustGraph(graph.Parse(strings.NewReader("router a b c d e f\nlink a b\nlink b c\nlink c d\nlink d e\nlink e f\nlink f a\nterminal a\nterminal b\nterminal c\nterminal d\nterminal e\nterminal f\n"), "ring6.net"))
	_, err := New(Config{Graph: g, Router: router.Arch{VCs: 1, BufferDepth: 4}, Length: LengthSpec{Flits: 1}})
	if err == nil || !strings.Contains(err.Error(), "cycle") || !strings.Contains(err.Error(), "->") {
		t.Fatalf("1 VC: error %v, want a refusal naming the cycle", err)
	}
	if _, err := New(Config{Graph: g, Router: router.Arch{VCs: 3, BufferDepth: 4}, Length: LengthSpec{Flits: 1}}); err != nil {
		t.Fatalf("3 VCs: %v", err)
	}
}

// TestGraphRunDeterministicAndAllocationFree runs a dragonfly under UGAL
// at a moderate load twice with one seed (identical results), then checks
// that stepping it allocates nothing.
func TestGraphRunDeterministicAndAllocationFree(t *testing.T) {
	g := mustGraph(graph.NewDragonfly(graph.DragonflySpec{P: 2}))
	rts := []string{graph.RouteUGALLocal, graph.RouteUGALGlobal, graph.RouteValiant}
	if testing.Short() {
		rts = rts[1:2]
	}
	for _, rt := range rts {
		cfg := Config{Graph: g, Routing: rt, Router: router.Arch{VCs: 3, BufferDepth: 8},
			Rate: 0.05, Length: LengthSpec{Flits: 4}, Seed: 7}
		cfg.Run.MaxCycles = 200000
		cfg.Run.TargetRelCI = 0.05
		if testing.Short() {
			cfg.Run.Period, cfg.Run.MaxWarmup, cfg.Run.MinMeasure = 500, 5000, 5000
			cfg.Run.TargetRelCI = 0.1
		}
		run := func() Result {
			n, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			res, err := n.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		a, b := run(), run()
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: two runs with one seed differ", rt)
		}
		if a.Status != sim.StatusOK || math.Abs(a.Accepted-0.2) > 0.02 {
			t.Fatalf("%s: status %v, accepted %g flits/node/cycle, want ok and 0.2", rt, a.Status, a.Accepted)
		}
		n, _ := New(cfg)
		for range 2000 {
			n.Step()
		}
		if allocs := testing.AllocsPerRun(200, n.Step); allocs != 0 {
			t.Errorf("%s: %g allocations per cycle", rt, allocs)
		}
	}
}

// TestGraphGroupShiftSaturates: under the group shift, minimal routing on
// a dragonfly p=2 a=4 h=2 saturates near its channel-load bound 1/(p a) =
// 0.125 flits/cycle/terminal, while Valiant carries 0.3 (bound 9/16).
func TestGraphGroupShiftSaturates(t *testing.T) {
	if testing.Short() {
		t.Skip("saturation runs")
	}
	g := mustGraph(graph.NewDragonfly(graph.DragonflySpec{P: 2}))
	for _, tc := range []struct {
		routing string
		rate    float64 // flits/node/cycle offered
		ok      bool
	}{{graph.RouteMinimal, 0.1, true}, {graph.RouteMinimal, 0.2, false}, {graph.RouteValiant, 0.3, true}} {
		cfg := Config{Graph: g, Routing: tc.routing, Router: router.Arch{VCs: 3, BufferDepth: 8},
			Pattern: traffic.PatternSpec{Name: traffic.GroupShift}, Rate: tc.rate / 4, Length: LengthSpec{Flits: 4}, Seed: 3}
		cfg.Run.MaxCycles = 100000
		n, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		res, _ := n.Run(context.Background())
		if (res.Status == sim.StatusOK) != tc.ok {
			t.Errorf("%s at %g: status %v (%s), accepted %g", tc.routing, tc.rate, res.Status, res.Reason, res.Accepted)
		}
	}
}
