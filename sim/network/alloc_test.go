package network

import (
	"context"
	"testing"

	"github.com/flitsim/flitsim/router"
	"github.com/flitsim/flitsim/router/alloc"
	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/topology"
	"github.com/flitsim/flitsim/traffic"
)

// TestNamedAllocators runs a 4x4 torus at a moderate load with every
// allocator of package router/alloc for VC and switch allocation (each
// router on its own path), with flit conservation checked every cycle:
// every run reaches steady state, and the latency stays within 10% of the
// built-in allocators' (the allocators differ in fairness, not in what a
// lightly loaded network can carry).
func TestNamedAllocators(t *testing.T) {
	run := func(va, sw string) float64 {
		cfg := Config{
			Topology: topology.Spec{Kind: topology.Torus, K: 4, N: 2, Bidirectional: true},
			Router:   router.Arch{VCs: 2, BufferDepth: 4, VCAllocator: va, SwitchAllocator: sw, AllocIterations: 2},
			Pattern:  traffic.PatternSpec{Name: traffic.Uniform},
			Rate:     0.08, Length: LengthSpec{Flits: 4}, Seed: 3, Debug: true,
			Run: sim.RunControl{Period: 500, Warmup: 2000, MinMeasure: 8000, MaxCycles: 10000, TargetRelCI: -1},
		}
		n, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if va != "" && n.plane != nil {
			t.Fatalf("%s/%s: the routers share a plane", va, sw)
		}
		res, err := n.Run(context.Background())
		if err != nil || res.Status != "ok" {
			t.Fatalf("%s/%s: %v, status %s (%s)", va, sw, err, res.Status, res.Reason)
		}
		return res.Latency
	}
	base := run("", "")
	for _, name := range alloc.Names {
		if l := run(name, name); l < 0.9*base || l > 1.1*base {
			t.Errorf("%s: latency %.2f, built-in allocators %.2f", name, l, base)
		}
	}
	if _, err := New(Config{Topology: topology.Spec{Kind: topology.Mesh, K: 3, N: 2}, Router: router.Arch{VCs: 2, BufferDepth: 4, SwitchAllocator: "pim"}}); err == nil {
		t.Error("an unknown allocator was accepted")
	}
}
