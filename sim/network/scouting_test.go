package network

import (
	"fmt"
	"testing"

	"github.com/flitsim/flitsim/router"
	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/topology"
	"github.com/flitsim/flitsim/traffic"
)

// oneCycle is the router of the scouting paper's simulator (docs/models.md#safaei-simulator):
// one flit per link per cycle, no pipeline stage delays, links and credits
// one cycle, no injection or ejection latency.
func oneCycle(vcs, depth int) pipeline {
	return pipeline{"one-cycle", router.Arch{VCs: vcs, BufferDepth: depth}, 1, 1, 0, 0}
}

func scouting(p pipeline, k int) pipeline {
	p.name = fmt.Sprintf("%s-K%d", p.name, k)
	p.router.Switching = router.Scouting
	p.router.ScoutingDistance = k
	return p
}

// TestScoutingZeroLoadLatencyIsExact sends one message at a time through an
// empty network with scouting switching, from two sources to every
// destination, adaptively and in dimension order, and asserts the latency
// equals Config.ZeroLoadLatency (the recurrence documented in
// router/scouting.go) and the data crossed exactly the minimal number of
// links. For the one-cycle router it also pins the closed form
//
//	D + M + 2 min(K, D) - 1
//
// (= D + M + (2K-1) for K <= D: the minimum network latency of seed 004
// Eq. (11)).
func TestScoutingZeroLoadLatencyIsExact(t *testing.T) {
	specs := []topology.Spec{
		{Kind: topology.Torus, K: 4, N: 2, Bidirectional: true},
		{Kind: topology.Mesh, K: 4, N: 2},
		{Kind: topology.Ring, K: 7, N: 1, Bidirectional: true},
		{Kind: topology.Hypercube, K: 2, N: 4},
	}
	pipes := []pipeline{oneCycle(2, 4), pipelines[1], pipelines[2]}
	for _, spec := range specs {
		for _, base := range pipes {
			for _, k := range []int{1, 2, 3, 6} {
				for _, routing := range []string{RoutingAdaptive, RoutingDimensionOrder} {
					p := scouting(base, k)
					t.Run(fmt.Sprintf("%v-%dx%d-%s-%s", spec.Kind, spec.K, spec.N, p.name, routing), func(t *testing.T) {
						cfg := idleConfig(spec, p)
						cfg.Routing = routing
						n, err := New(cfg)
						if err != nil {
							t.Fatal(err)
						}
						checkZeroLoad(t, n, 300, func(h, flits int, latency sim.Cycle) {
							if base.name != "one-cycle" {
								return
							}
							if closed := sim.Cycle(h + flits + 2*min(k, h) - 1); latency != closed {
								t.Fatalf("%d hops, %d flits: latency %d, closed form D + M + 2 min(K, D) - 1 = %d", h, flits, latency, closed)
							}
						})
					})
				}
			}
		}
	}
}

// TestScoutingK0IsWormhole: scouting with K = 0 is wormhole switching, the
// same code path: on the same seed it delivers the same messages at the same
// cycles as adaptive wormhole.
func TestScoutingK0IsWormhole(t *testing.T) {
	trace := func(sw router.Switching) string {
		cfg := idleConfig(topology.Spec{Kind: topology.Torus, K: 4, N: 2, Bidirectional: true}, oneCycle(2, 2))
		cfg.Router.Switching = sw
		cfg.Routing = RoutingAdaptive
		cfg.Rate, cfg.Process, cfg.Seed = 0.02, "poisson", 5
		cfg.Length = LengthSpec{Flits: 8}
		out := deliveries(t, cfg, 4000)
		if len(out) < 100 {
			t.Fatalf("%v: only %d deliveries", sw, len(out))
		}
		return fmt.Sprint(out)
	}
	if trace(router.Wormhole) != trace(router.Scouting) {
		t.Fatal("scouting with K = 0 differs from wormhole on the same seed")
	}
}

// TestScoutingBacktrackAndRetry is a hand-built scenario on a 4x4 mesh with
// one VC per channel. A 400-flit message from router 1 = (1,0) to 9 = (1,2)
// holds the channel 1 -> 5. Then a message from 0 = (0,0) to 5 = (1,1) is
// offered: its header may go +x to router 1 or +y to router 4. When it goes
// to 1, every productive VC there (only 1 -> 5) is busy, so it must send a
// negative acknowledgement back to 0, which releases 0 -> 1 and routes the
// header again, now via 4; the message is delivered over 2 links long before
// the blocker's tail. Over several seeds both first choices occur.
func TestScoutingBacktrackAndRetry(t *testing.T) {
	sawBacktrack := 0
	for seed := uint64(1); seed <= 12; seed++ {
		cfg := idleConfig(topology.Spec{Kind: topology.Mesh, K: 4, N: 2}, scouting(oneCycle(1, 2), 2))
		cfg.Routing, cfg.Seed = RoutingAdaptive, seed
		n, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var ev []ScoutEvent
		var got []Delivery
		n.OnScout(func(e ScoutEvent) { ev = append(ev, e) })
		n.OnDeliver(func(d Delivery) { got = append(got, d) })
		n.Offer(1, 9, 400)
		for c := 0; c < 10; c++ {
			n.Step()
		}
		ev = ev[:0]
		n.Offer(0, 5, 4)
		for c := 0; c < 60 && len(got) == 0; c++ {
			n.Step()
		}
		if len(got) != 1 || got[0].Src != 0 || got[0].Hops != 2 {
			t.Fatalf("seed %d: deliveries %+v, want the 0 -> 5 message over 2 links; events %+v", seed, got, ev)
		}
		first := ev[0]
		if first.Kind != router.ProbeForward || first.Router != 0 {
			t.Fatalf("seed %d: first event %+v, want the header leaving router 0", seed, first)
		}
		if first.Port != 0 { // went +y to router 4: no reason to backtrack
			for _, e := range ev {
				if e.Kind == router.ProbeBack {
					t.Fatalf("seed %d: backtrack %+v on a free path", seed, e)
				}
			}
			continue
		}
		// +x to router 1: a negative acknowledgement from router 1 through
		// input port 0 (the channel 0 -> 1), then a retry from router 0 on
		// port 2 (+y), not on the port it came back from.
		sawBacktrack++
		var kinds []string
		back, retry := -1, -1
		for k, e := range ev {
			kinds = append(kinds, fmt.Sprintf("%d:%v@r%d/p%d", e.Cycle, e.Kind, e.Router, e.Port))
			switch {
			case back < 0 && e.Kind == router.ProbeBack:
				if e.Router != 1 || e.Port != 0 || e.Probe.Pos != 0 || e.Probe.HW != 1 {
					t.Fatalf("seed %d: negative acknowledgement %+v, want router 1 -> 0 through port 0 (Pos 0, HW 1)", seed, e)
				}
				back = k
			case back >= 0 && retry < 0 && e.Kind == router.ProbeForward:
				if e.Router != 0 || e.Port != 2 {
					t.Fatalf("seed %d: retry %+v, want router 0 on port 2 (+y)", seed, e)
				}
				retry = k
			}
		}
		if back < 0 || retry < 0 {
			t.Fatalf("seed %d: events %v: want a negative acknowledgement and a retry", seed, kinds)
		}
		t.Logf("seed %d: %v; latency %d", seed, kinds, got[0].Latency)
	}
	if sawBacktrack == 0 {
		t.Fatal("no seed sent the header into the blocked router; the scenario tests nothing")
	}
}

// TestScoutingConservesMessagesUnderBacktracking offers a burst of messages
// from every node of a 4x4 torus at once (far beyond saturation), with
// scouting (K = 3) over adaptive routing with Duato escape channels, and the
// per-cycle flit conservation check on: every message is delivered exactly
// once, headers did backtrack, and the routers' link counts hold the
// flit-hops the messages made.
func TestScoutingConservesMessagesUnderBacktracking(t *testing.T) {
	for _, k := range []int{1, 3} {
		cfg := idleConfig(topology.Spec{Kind: topology.Torus, K: 4, N: 2, Bidirectional: true}, scouting(oneCycle(4, 2), k))
		cfg.Routing, cfg.EscapeVCs, cfg.Seed = RoutingAdaptive, 2, 9
		n, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		type pair struct{ src, dst int }
		want := map[pair]int{}
		got := map[pair]int{}
		var linkFlits int64 // what the deliveries crossed: every flit of a message takes its links
		n.OnDeliver(func(d Delivery) {
			got[pair{d.Src, d.Dst}]++
			linkFlits += int64(d.Flits * d.Hops)
		})
		backs := 0
		n.OnScout(func(e ScoutEvent) {
			if e.Kind == router.ProbeBack {
				backs++
			}
		})
		rng := sim.NewStream(9, sim.PurposeTrafficDest, 0)
		nodes := n.Topology().Nodes()
		total := 0
		for round := 0; round < 30; round++ {
			for src := 0; src < nodes; src++ {
				dst := rng.IntN(nodes - 1)
				if dst >= src {
					dst++
				}
				n.Offer(src, dst, 1+rng.IntN(12))
				want[pair{src, dst}]++
				total++
			}
			n.Step()
		}
		for c := 0; c < 200000 && n.InFlight()+int64(n.Backlog()) > 0; c++ {
			n.Step()
		}
		if n.InFlight() != 0 || n.Backlog() != 0 {
			t.Fatalf("K=%d: %d flits in flight, %d messages queued after the drain", k, n.InFlight(), n.Backlog())
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("K=%d: delivered %v, offered %v", k, got, want)
		}
		if backs == 0 {
			t.Fatalf("K=%d: no header backtracked under a %d-message burst", k, total)
		}
		// The routers' link counts hold what crossed, not what headers
		// reserved and gave back (Router.LinkFlits counts per packet).
		if h := n.FlitHops(); h != linkFlits {
			t.Fatalf("K=%d: the routers counted %d flit-hops, the deliveries crossed %d", k, h, linkFlits)
		}
		t.Logf("K=%d: %d messages delivered once each, %d backtracks, drained at cycle %d", k, total, backs, n.Now())
	}
}

// TestAdaptiveWithoutEscapeDeadlocks: fully adaptive wormhole without escape
// channels on an 8x8 torus with one VC per channel (the scouting paper's
// V = 1, K = 0 point, docs/models.md#safaei-simulator item 5), at three times the model's
// saturation rate, deadlocks (its dependency graph is cyclic): the run
// stops with sim.StatusDeadlock and names the blocked channels instead of
// hanging. With Duato's escape channels (2 escape + 1 adaptive VC) the same
// load saturates without deadlock. (On a 4x4 torus, where no minimal path
// is longer than 2 hops per dimension, the same configuration ran 200 000
// cycles without deadlocking.)
func TestAdaptiveWithoutEscapeDeadlocks(t *testing.T) {
	cfg := Config{
		Topology: topology.Spec{Kind: topology.Torus, K: 8, N: 2, Bidirectional: true},
		Routing:  RoutingAdaptive,
		Router:   router.Arch{VCs: 1, BufferDepth: 1},
		Pattern:  traffic.PatternSpec{Name: "uniform"}, Process: "poisson", Rate: 0.03,
		Length: LengthSpec{Flits: 32}, Seed: 1, Run: quickRun(200000),
	}
	cfg.Run.BacklogLimit = 1e9
	cfg.Run.DeadlockCycles = 500
	res := mustRun(t, cfg)
	if res.Status != sim.StatusDeadlock || len(res.Blocked) == 0 {
		t.Fatalf("status %s, %d blocked (%s), want deadlock", res.Status, len(res.Blocked), res.Reason)
	}
	t.Logf("V=1 adaptive: deadlock at cycle %d: %s", res.DeadlockCycle, res.Reason)

	cfg.Router.VCs, cfg.EscapeVCs = 3, 2
	res = mustRun(t, cfg)
	if res.Status == sim.StatusDeadlock {
		t.Fatalf("Duato escape channels deadlocked: %s", res.Reason)
	}
	t.Logf("V=3 with 2 escape VCs: status %s after %d cycles (%s)", res.Status, res.Cycles, res.Reason)
}

func TestAdaptiveConfigErrors(t *testing.T) {
	good := idleConfig(topology.Spec{Kind: topology.Torus, K: 4, N: 2, Bidirectional: true}, oneCycle(6, 2))
	good.Routing, good.EscapeVCs = RoutingAdaptive, 2
	expectRefused(t, good, map[string]func(*Config){
		"escape without adaptive":   func(c *Config) { c.Routing = RoutingDimensionOrder },
		"odd escape on a torus":     func(c *Config) { c.EscapeVCs = 3 },
		"no adaptive VC left":       func(c *Config) { c.EscapeVCs = 6 },
		"escape with one VC":        func(c *Config) { c.Router.VCs, c.EscapeVCs = 1, 2 },
		"negative escape":           func(c *Config) { c.EscapeVCs = -2 },
		"negative scouting":         func(c *Config) { c.Router.Switching, c.Router.ScoutingDistance = router.Scouting, -1 },
		"distance without scouting": func(c *Config) { c.Router.ScoutingDistance = 2 },
	})
	v1 := good
	v1.Router.VCs, v1.EscapeVCs = 1, 0 // the paper's V = 1: adaptive without escape is allowed
	if _, err := New(v1); err != nil {
		t.Fatalf("V = 1 adaptive without escape refused: %v", err)
	}
}

// meanZeroLoad is the zero-load latency averaged over uniform destinations
// (self excluded) from router 0 of a vertex-symmetric network.
func meanZeroLoad(t *testing.T, cfg Config, flits int) float64 {
	t.Helper()
	topo, err := topology.New(cfg.Topology)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0
	for d := 1; d < topo.Nodes(); d++ {
		sum += cfg.ZeroLoadLatency(topo.Distance(0, d), flits)
	}
	return float64(sum) / float64(topo.Nodes()-1)
}

// TestScoutingLowLoadLatency: at near-zero load the mean latency of
// scouting over adaptive routing equals the documented zero-load latency
// averaged over uniform destinations, mean of D + M + 2 min(K, D) - 1 for
// the one-cycle router (within the CI below and CI + 0.5% above, as
// TestLowLoadLatencyIsZeroLoadLatency); the set-up time is the mean
// distance (the header crosses one link per cycle), no header backtracks,
// and the VC occupancy is a distribution with Vbar in [1, V] and a channel
// busy at least as often as it carries a flit.
func TestScoutingLowLoadLatency(t *testing.T) {
	for _, k := range []int{0, 1, 3} {
		cfg := idleConfig(topology.Spec{Kind: topology.Torus, K: 4, N: 2, Bidirectional: true}, scouting(oneCycle(2, 2), k))
		cfg.Routing, cfg.Debug = RoutingAdaptive, false
		cfg.Rate, cfg.Process, cfg.Seed = 0.0002, "poisson", 3 // at 0.001 contention adds ~0.1 cycle, scouting or not
		cfg.Length = LengthSpec{Flits: 8}
		cfg.Run = quickRun(4000000)
		cfg.Run.TargetRelCI = 0.003
		res := mustRun(t, cfg)
		if res.Status != sim.StatusOK {
			t.Fatalf("K=%d: status %s (%s)", k, res.Status, res.Reason)
		}
		t0 := meanZeroLoad(t, cfg, 8)
		dbar := 2 * 16.0 / 15 // 4x4 torus: 2 (k/4) N/(N-1)
		t.Logf("K=%d: latency %.3f ± %.3f (T0 %.3f), set-up %.3f (Dbar %.3f), backtracks %.4f, P_v %.4f, Vbar %.4f, %d messages",
			k, res.Latency, res.LatencyCI95, t0, res.SetupTime, dbar, res.Backtracks, res.VCOccupancy, res.VCMultiplexing, res.Messages)
		if res.Latency < t0-res.LatencyCI95 || res.Latency > t0+res.LatencyCI95+0.005*t0 {
			t.Errorf("K=%d: latency %.3f ± %.3f, want T0 = %.3f", k, res.Latency, res.LatencyCI95, t0)
		}
		if res.SetupTime < dbar-0.05 || res.SetupTime > dbar*1.02 {
			t.Errorf("K=%d: set-up time %.3f, want about Dbar = %.3f", k, res.SetupTime, dbar)
		}
		if res.Backtracks > 0.01 {
			t.Errorf("K=%d: %.4f backtracks per message at near-zero load", k, res.Backtracks)
		}
		assertOccupancy(t, res, 2)
	}
}

// assertOccupancy checks the measured P_v is a distribution over 0..V,
// Vbar lies in [1, V], and the mean channel utilisation (flits per cycle)
// is at most the fraction of cycles with a VC reserved.
func assertOccupancy(t *testing.T, res Result, v int) {
	t.Helper()
	if len(res.VCOccupancy) != v+1 {
		t.Fatalf("VCOccupancy has %d entries, want %d", len(res.VCOccupancy), v+1)
	}
	sum := 0.0
	for _, p := range res.VCOccupancy {
		if p < 0 {
			t.Fatalf("negative P_v in %v", res.VCOccupancy)
		}
		sum += p
	}
	if sum < 1-1e-9 || sum > 1+1e-9 {
		t.Fatalf("P_v %v sums to %v", res.VCOccupancy, sum)
	}
	if res.VCMultiplexing < 1 || res.VCMultiplexing > float64(v) {
		t.Fatalf("Vbar = %v outside [1, %d]", res.VCMultiplexing, v)
	}
	if busy := 1 - res.VCOccupancy[0]; res.MeanChannelUtil > busy+1e-9 {
		t.Fatalf("channels carry a flit %.4f of the cycles but have a VC reserved only %.4f", res.MeanChannelUtil, busy)
	}
}

// TestScoutingUnderLoad: scouting over Duato routing at a moderate load
// still obeys Little's law and the occupancy identities, and headers
// backtrack.
func TestScoutingUnderLoad(t *testing.T) {
	cfg := idleConfig(topology.Spec{Kind: topology.Torus, K: 4, N: 2, Bidirectional: true}, scouting(oneCycle(4, 2), 2))
	cfg.Routing, cfg.EscapeVCs, cfg.Debug = RoutingAdaptive, 2, false
	cfg.Rate, cfg.Process, cfg.Seed = 0.05, "poisson", 4
	cfg.Length = LengthSpec{Flits: 8}
	cfg.Run = quickRun(300000)
	res := mustRun(t, cfg)
	if res.Status != sim.StatusOK {
		t.Fatalf("status %s (%s)", res.Status, res.Reason)
	}
	lambda := res.AcceptedMessages * 16
	want := lambda * res.Latency
	tol := lambda*res.LatencyCI95 + 0.01*want
	t.Logf("latency %.2f ± %.2f, set-up %.3f, backtracks %.4f, P_v %.4f, Vbar %.3f; L = %.3f, lambda W = %.3f",
		res.Latency, res.LatencyCI95, res.SetupTime, res.Backtracks, res.VCOccupancy, res.VCMultiplexing, res.MeanInSystem, want)
	if d := res.MeanInSystem - want; d > tol || d < -tol {
		t.Errorf("Little's law: L = %.3f, lambda*W = %.3f (tolerance %.3f)", res.MeanInSystem, want, tol)
	}
	if res.Backtracks <= 0 {
		t.Errorf("no backtracks at %.2f flits/node/cycle", res.Offered)
	}
	assertOccupancy(t, res, 4)
}

// TestScoutingStepDoesNotAllocate: in steady state a cycle of scouting over
// adaptive routing with escape channels allocates nothing.
func TestScoutingStepDoesNotAllocate(t *testing.T) {
	cfg := idleConfig(topology.Spec{Kind: topology.Torus, K: 4, N: 2, Bidirectional: true}, scouting(oneCycle(4, 2), 3))
	cfg.Routing, cfg.EscapeVCs, cfg.Debug = RoutingAdaptive, 2, false
	cfg.Rate, cfg.Process = 0.04, "poisson"
	n, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	n.stats.on = true
	n.stats.observe = func(float64) {}
	for c := 0; c < 20000; c++ {
		n.Step()
	}
	if a := testing.AllocsPerRun(2000, n.Step); a != 0 {
		t.Fatalf("Step allocates %v times per cycle", a)
	}
}

// TestDuatoReallocation: minimal adaptive routing with one dimension-order
// escape VC on an 8x8 mesh (topology.CheckEscape: deadlock-free), 8-flit
// VC buffers, far beyond saturation. A header may take an adaptive VC only
// when the VC has room for its whole packet, or is empty when the packet is
// longer than the buffer (router.vcNeeds); escape VCs are taken as soon as
// the previous tail has left. Broken on purpose (docs/booksim.md): with no
// rule on the adaptive VCs the 4-flit case deadlocked at cycle 5 471 (no
// flit moved for 5 000 cycles with 3 528 flits in flight) and the 16-flit
// case at cycle 7 000; with the empty-buffer rule on the escape VCs only,
// the 4-flit case at cycle 5 690. (Room for half the buffer instead of an
// empty VC for packets longer than the buffer did not deadlock here.) The
// sticky case keeps a packet that entered an escape VC on escape VCs
// (router.Arch.StickyEscape, BookSim 2's min_adapt): it deadlocked at
// every load while such a packet could not take the ejection port, which
// the router offered only to adaptive selection.
func TestDuatoReallocation(t *testing.T) {
	for _, tc := range []struct {
		name          string
		flits, buffer int
		rate          float64 // flits/node/cycle
		sticky        bool
	}{
		{"4-flit packets (room for the whole packet)", 4, 8, 0.25, false},
		{"16-flit packets (an empty VC)", 16, 8, 0.3, false},
		{"sticky escape", 4, 8, 0.25, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := Config{
				Topology: topology.Spec{Kind: topology.Mesh, K: 8, N: 2},
				Routing:  RoutingAdaptive, EscapeVCs: 1,
				Router:  router.Arch{VCs: 2, BufferDepth: tc.buffer, StickyEscape: tc.sticky},
				Pattern: traffic.PatternSpec{Name: "uniform", IncludeSelf: true}, Process: "bernoulli", Rate: tc.rate,
				Length: LengthSpec{Flits: tc.flits}, Seed: 1,
				Run: sim.RunControl{Period: 500, Warmup: 2000, MinMeasure: 20000, MaxCycles: 30000, TargetRelCI: 0.0001,
					BacklogLimit: 1e9, DeadlockCycles: 5000},
			}
			res := mustRun(t, cfg)
			if res.Status == sim.StatusDeadlock {
				t.Fatalf("Duato escape routing deadlocked: %s", res.Reason)
			}
			t.Logf("status %s, accepted %.3f flits/node/cycle: %s", res.Status, res.Accepted, res.Reason)
		})
	}
}
