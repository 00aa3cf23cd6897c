package network

import (
	"fmt"
	"testing"

	"github.com/flitsim/flitsim/topology"
	"github.com/flitsim/flitsim/topology/graph"
	"github.com/flitsim/flitsim/topology/multistage"
)

// benchConfig is the reference speed configuration (SpeedConfig).
func benchConfig(k int, flitsPerNodeCycle float64) Config { return SpeedConfig(k, flitsPerNodeCycle) }

// BenchmarkTorus measures simulated cycles per second (one op = one cycle)
// in steady state, with flit-hops/s and allocations per cycle.
func BenchmarkTorus(b *testing.B) {
	for _, c := range SpeedCases {
		b.Run(fmt.Sprintf("%dx%d-load%.1f", c.K, c.K, c.Load), func(b *testing.B) {
			n, err := New(benchConfig(c.K, c.Load))
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; i < 20000; i++ { // warm up: queues, pools and lines at steady-state size
				n.Step()
			}
			hops0 := n.FlitHops()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				n.Step()
			}
			b.StopTimer()
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(b.N)/sec, "cycles/s")
			b.ReportMetric(float64(n.FlitHops()-hops0)/sec, "flit-hops/s")
		})
	}
}

// BenchmarkDelta is the multistage counterpart of BenchmarkTorus: the
// n = 64, b = 4, z = 3 omega fabric, 2 VCs x 8 flits, 16-flit messages,
// uniform traffic at 0.3 flits per terminal per cycle; one op = one cycle.
func BenchmarkDelta(b *testing.B) {
	cfg := benchConfig(4, 0.3)
	cfg.Multistage = &multistage.Spec{Degree: 4, Stages: 3}
	n, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 20000; i++ {
		n.Step()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n.Step()
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "cycles/s")
}

// BenchmarkDragonfly measures the 1,056-terminal dragonfly (p = 4, a = 8,
// h = 4: 33 groups of 8 routers of 16 ports) at a moderate load, 0.3
// flits per terminal per cycle of uniform traffic, 4-flit messages, 3 VCs
// x 8 flits, the BookSim-like router of SpeedConfig; one op = one cycle.
// The routers have more ports than a router.Plane serves, so they step one
// by one. docs/speed.md records its figures.
func BenchmarkDragonfly(b *testing.B) {
	g, err := graph.NewDragonfly(graph.DragonflySpec{P: 4})
	if err != nil {
		b.Fatal(err)
	}
	for _, rt := range []string{graph.RouteMinimal, graph.RouteUGALLocal} {
		b.Run(rt, func(b *testing.B) {
			cfg := SpeedConfig(8, 0.3)
			cfg.Topology = topology.Spec{}
			cfg.Graph, cfg.Routing = g, rt
			cfg.Router.VCs = 3
			cfg.Rate, cfg.Length = 0.3/4, LengthSpec{Flits: 4}
			n, err := New(cfg)
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; i < 5000; i++ {
				n.Step()
			}
			hops0 := n.FlitHops()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				n.Step()
			}
			b.StopTimer()
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(b.N)/sec, "cycles/s")
			b.ReportMetric(float64(n.FlitHops()-hops0)/sec, "flit-hops/s")
		})
	}
}
