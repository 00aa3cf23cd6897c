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
		Router:      router.Arch{VCs: 2, BufferDepth: 2, Switching: router.Scouting, ScoutingDistance: 1},
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
		{"network.injection_vcs", nil, func(c *Config) { c.InjectionVCs = 2 }},
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

// TestInjectionVCsInterleaveMessages: two 8-flit messages 0 -> 1 and
// 0 -> 4 (one hop each, different output ports) on a 4x4 torus, both
// offered in cycle 0, wormhole on the one-cycle router (a flit injected in
// cycle c of a one-hop message is delivered in c + 1).
//
// InjectionVCs = 1 (one message at a time): the first is injected in
// cycles 0..7 and delivered in 8 = D + M - 1; the second starts in 8 and
// is delivered in 16.
//
// InjectionVCs = 2 (seed 004's V-server source): both start at once and
// share the injection channel flit by flit, first at even cycles 0..14,
// second at odd cycles 1..15: delivered in 15 and 16; the second's head
// left the source in cycle 1 instead of 8.
func TestInjectionVCsInterleaveMessages(t *testing.T) {
	for _, tc := range []struct {
		inj  int
		want string
	}{{1, "[{8 0} {16 8}]"}, {2, "[{15 0} {16 1}]"}} {
		c := paperBase()
		c.Rate, c.InjectionVCs = 0, tc.inj
		c.Router.Switching, c.Router.ScoutingDistance = router.Wormhole, 0
		n, err := New(c)
		if err != nil {
			t.Fatal(err)
		}
		type li struct{ lat, inj int64 }
		var got []li
		n.OnDeliver(func(d Delivery) { got = append(got, li{int64(d.Latency), int64(d.Injected)}) })
		n.Offer(0, 1, 8)
		n.Offer(0, 4, 8)
		for k := 0; k < 40; k++ {
			n.Step()
		}
		if fmt.Sprint(got) != tc.want {
			t.Errorf("InjectionVCs %d: {latency injected} %v, want %s", tc.inj, got, tc.want)
		}
	}
	c := paperBase()
	c.InjectionVCs = 3
	if _, err := New(c); err == nil {
		t.Error("InjectionVCs 3 with 2 VCs accepted")
	}
}
