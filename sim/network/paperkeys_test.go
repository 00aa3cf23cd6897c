package network

import (
	"fmt"
	"testing"

	"github.com/flitsim/flitsim/router"
	"github.com/flitsim/flitsim/topology"
	"github.com/flitsim/flitsim/traffic"
)

// paperBase is the Safaei set-up (configs/validation/safaei-*) shrunk to a
// 4x4 torus: one-cycle router, V = 2, 2-flit buffers, one ejection VC,
// adaptive routing without escape channels, scouting K = 1, Poisson.
func paperBase() Config {
	return Config{
		Topology:    topology.Spec{Kind: topology.Torus, K: 4, N: 2, Bidirectional: true},
		Routing:     RoutingAdaptive,
		Router:      router.Config{VCs: 2, BufferDepth: 2, Switching: router.Scouting, ScoutingDistance: 1},
		LinkLatency: 1, CreditDelay: 1, InjectionLatency: 0, EjectionLatency: 0, EjectionVCs: 1,
		Pattern: traffic.PatternSpec{Name: "uniform"}, Process: "poisson", Rate: 0.03,
		Length: LengthSpec{Flits: 16}, Seed: 1, Debug: true,
	}
}

// TestPaperEngineKeysMatter: every engine field the Safaei configs set
// changes the run when it changes (configs.TestPaperConfigKeysAreRead
// checks that the files reach these fields). An engine that ignored one of
// them, as it could ignore EjectionVCs, would deliver the same messages at
// the same cycles.
func TestPaperEngineKeysMatter(t *testing.T) {
	const cycles = 3000
	trace := func(c Config) string {
		out := deliveries(t, c, cycles)
		if len(out) < 200 {
			t.Fatalf("only %d deliveries in %d cycles", len(out), cycles)
		}
		return fmt.Sprint(out)
	}
	base := trace(paperBase())
	withEscape := func(c *Config) { c.Router.VCs, c.EscapeVCs, c.EjectionVCs = 4, 2, 1 }
	cases := []struct {
		key    string
		before func(*Config) // the base of this case, if not paperBase
		change func(*Config)
	}{
		{"network.link_latency", nil, func(c *Config) { c.LinkLatency = 2 }},
		{"network.credit_delay", nil, func(c *Config) { c.CreditDelay = 2 }},
		{"network.injection_latency", nil, func(c *Config) { c.InjectionLatency = 1 }},
		{"network.ejection_latency", nil, func(c *Config) { c.EjectionLatency = 1 }},
		{"network.ejection_vcs", nil, func(c *Config) { c.EjectionVCs = 2 }},
		{"router.vcs", nil, func(c *Config) { c.Router.VCs = 3 }},
		{"router.buffer_depth", nil, func(c *Config) { c.Router.BufferDepth = 3 }},
		{"router.escape_vcs", withEscape, func(c *Config) { c.EscapeVCs = 0 }},
		{"routing", nil, func(c *Config) { c.Routing = RoutingDimensionOrder }},
		{"switching.technique", nil, func(c *Config) { c.Router.Switching, c.Router.ScoutingDistance = router.Wormhole, 0 }},
		{"switching.scouting_distance", nil, func(c *Config) { c.Router.ScoutingDistance = 3 }},
		{"traffic.pattern", nil, func(c *Config) { c.Pattern = traffic.PatternSpec{Name: "transpose"} }},
		{"traffic.process", nil, func(c *Config) { c.Process = "bernoulli" }},
		{"traffic.length", nil, func(c *Config) { c.Length.Flits = 17 }},
		{"sweep.rates", nil, func(c *Config) { c.Rate = 0.031 }},
		{"seed", nil, func(c *Config) { c.Seed = 2 }},
	}
	for _, tc := range cases {
		t.Run(tc.key, func(t *testing.T) {
			c := paperBase()
			before := base
			if tc.before != nil {
				tc.before(&c)
				before = trace(c)
			}
			tc.change(&c)
			if trace(c) == before {
				t.Fatalf("%s changed and the run did not: the engine ignores it", tc.key)
			}
		})
	}
}
