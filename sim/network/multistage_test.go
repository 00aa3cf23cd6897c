package network

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/flitsim/flitsim/router"
	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/topology/multistage"
	"github.com/flitsim/flitsim/traffic"
)

// deltaSpecs are the small delta networks every multistage test runs: the
// issue's b = 2, z = 3 and b = 4, z = 2, in each wiring.
var deltaSpecs = func() []multistage.Spec {
	var out []multistage.Spec
	for _, w := range []multistage.Wiring{multistage.Omega, multistage.Butterfly, multistage.Baseline} {
		out = append(out, multistage.Spec{Degree: 2, Stages: 3, Wiring: w}, multistage.Spec{Degree: 4, Stages: 2, Wiring: w})
	}
	return out
}()

func deltaName(sp multistage.Spec) string {
	return fmt.Sprintf("%v-b%d-z%d", sp.Wiring, sp.Degree, sp.Stages)
}

func deltaConfig(sp multistage.Spec, p pipeline) Config {
	s := sp
	return Config{
		Multistage: &s, Router: p.router,
		LinkLatency: p.link, CreditDelay: p.credit, InjectionLatency: p.inject, EjectionLatency: p.eje,
		Pattern: traffic.PatternSpec{Name: "uniform", IncludeSelf: true}, Length: LengthSpec{Flits: 5}, Debug: true,
	}
}

// deltaZeroLoad is the zero-load latency of the multistage mapping derived
// independently of Config.ZeroLoadLatency: the head enters the first-stage
// buffer InjectionLatency cycles after leaving the NIC, spends HopDelay in
// each of the z switches (store-and-forward: max(Rd+VAd, M-1) instead of
// Rd+VAd, the wait for the tail), crosses z-1 inter-stage links of
// LinkLatency and the exit link of EjectionLatency, and the tail follows
// M-1 cycles behind:
//
//	T0 = InjectionLatency + z*HopDelay + (z-1)*LinkLatency + EjectionLatency + M - 1
func deltaZeroLoad(c Config, z, flits int) int {
	rc := c.Router
	hop := rc.HopDelay()
	if rc.Switching == router.StoreAndForward {
		front := rc.RoutingDelay + rc.VCAllocDelay
		hop += max(front, flits-1) - front
	}
	return c.InjectionLatency + z*hop + (z-1)*max(c.LinkLatency, 1) + c.EjectionLatency + flits - 1
}

// TestMultistageZeroLoadLatencyIsExact sends one message at a time through
// an empty delta network, for every (source, destination) pair (self
// included: it crosses the z stages too), every wiring and every pipeline,
// and asserts latency = network latency = T0 of deltaZeroLoad =
// Config.ZeroLoadLatency(z, M), hops = z, and (Config.Debug) that the flit
// left the last stage on the channel of the right sink.
func TestMultistageZeroLoadLatencyIsExact(t *testing.T) {
	for _, sp := range deltaSpecs {
		for _, p := range pipelines {
			t.Run(deltaName(sp)+"-"+p.name, func(t *testing.T) {
				n, err := New(deltaConfig(sp, p))
				if err != nil {
					t.Fatal(err)
				}
				var got []Delivery
				n.OnDeliver(func(d Delivery) { got = append(got, d) })
				ms := n.Multistage()
				z := ms.Stages()
				for src := 0; src < ms.Terminals(); src++ {
					for dst := 0; dst < ms.Terminals(); dst++ {
						for _, flits := range []int{1, 5} {
							got = got[:0]
							n.Offer(src, dst, flits)
							for k := 0; k < 200 && len(got) == 0; k++ {
								n.Step()
							}
							if len(got) != 1 {
								t.Fatalf("%d->%d: message not delivered in 200 cycles", src, dst)
							}
							d := got[0]
							want := sim.Cycle(deltaZeroLoad(n.Config(), z, flits))
							if zl := sim.Cycle(n.Config().ZeroLoadLatency(z, flits)); zl != want {
								t.Fatalf("Config.ZeroLoadLatency(%d, %d) = %d, derived T0 = %d", z, flits, zl, want)
							}
							if d.Latency != want || d.NetworkLatency != want || d.Hops != z || d.Src != src || d.Dst != dst {
								t.Fatalf("%d->%d (%d flits): %+v; want latency %d, %d hops", src, dst, flits, d, want, z)
							}
						}
					}
				}
				if n.InFlight() != 0 {
					t.Fatalf("%d flits left in flight", n.InFlight())
				}
			})
		}
	}
}

// TestMultistageChannelDependenciesAreAcyclic is the deadlock-freedom
// argument for wormhole with one VC class: build the channel dependency
// graph of destination-tag routing (an edge c -> c' when some route holds
// c while requesting c', from the routes of every source-destination pair)
// and check that every edge goes from level l to level l+1 — so the levels
// are a topological order — and that Kahn's algorithm consumes every
// channel (no cycle).
func TestMultistageChannelDependenciesAreAcyclic(t *testing.T) {
	for _, sp := range append(deltaSpecs, multistage.Spec{Degree: 4, Stages: 3}) {
		ms, err := multistage.New(sp)
		if err != nil {
			t.Fatal(err)
		}
		nt, C := ms.Terminals(), ms.Channels()
		edges := make(map[[2]int]bool)
		var buf []multistage.Hop
		for src := 0; src < nt; src++ {
			for dst := 0; dst < nt; dst++ {
				var sink int
				buf, sink = ms.Path(src, dst, buf[:0])
				if sink != dst {
					t.Fatalf("%s: %d->%d reaches sink %d", deltaName(sp), src, dst, sink)
				}
				held := ms.Injection(src)
				for _, h := range buf {
					if ms.In(h.Switch, h.In) != held {
						t.Fatalf("%s: %d->%d enters switch %d by port %d, not by channel %d", deltaName(sp), src, dst, h.Switch, h.In, held)
					}
					next := ms.Out(h.Switch, h.Out)
					edges[[2]int{held, next}] = true
					held = next
				}
				if held != ms.Ejection(dst) {
					t.Fatalf("%s: %d->%d ends on channel %d, not the ejection channel %d", deltaName(sp), src, dst, held, ms.Ejection(dst))
				}
			}
		}
		indeg := make([]int, C)
		succ := make([][]int, C)
		for e := range edges {
			if la, lb := ms.Channel(e[0]).Level, ms.Channel(e[1]).Level; lb != la+1 {
				t.Fatalf("%s: dependency %d (level %d) -> %d (level %d)", deltaName(sp), e[0], la, e[1], lb)
			}
			indeg[e[1]]++
			succ[e[0]] = append(succ[e[0]], e[1])
		}
		var queue []int
		for c := 0; c < C; c++ {
			if indeg[c] == 0 {
				queue = append(queue, c)
			}
		}
		done := 0
		for len(queue) > 0 {
			c := queue[0]
			queue = queue[1:]
			done++
			for _, d := range succ[c] {
				if indeg[d]--; indeg[d] == 0 {
					queue = append(queue, d)
				}
			}
		}
		if done != C {
			t.Fatalf("%s: channel dependency graph has a cycle (%d of %d channels ordered)", deltaName(sp), done, C)
		}
	}
}

// TestMultistageBurstIsDeliveredWithoutLoss offers a burst of long worms
// (far longer than the one-VC buffers, so every worm spans several stages
// and blocks) from every terminal at once, with the per-cycle conservation
// check on, and asserts that every message reaches its destination exactly
// once: a blocking network loses nothing and, its dependencies being
// acyclic, cannot deadlock even with one VC.
func TestMultistageBurstIsDeliveredWithoutLoss(t *testing.T) {
	for _, sp := range deltaSpecs {
		for _, rc := range []router.Arch{
			{VCs: 1, BufferDepth: 2},
			{VCs: 2, BufferDepth: 4, RoutingDelay: 1, VCAllocDelay: 1, SwitchAllocDelay: 1},
		} {
			t.Run(fmt.Sprintf("%s-V%d", deltaName(sp), rc.VCs), func(t *testing.T) {
				cfg := deltaConfig(sp, pipeline{router: rc, link: 1, credit: 2, inject: 1, eje: 1})
				n, err := New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				nt := n.Multistage().Terminals()
				rng := sim.NewStream(11, sim.PurposeTrafficDest, 0)
				want := make(map[[2]int]int)
				offered := 0
				for k := 0; k < 12; k++ {
					for src := 0; src < nt; src++ {
						dst := rng.IntN(nt)
						n.Offer(src, dst, 9)
						want[[2]int{src, dst}]++
						offered++
					}
				}
				got := make(map[[2]int]int)
				delivered := 0
				n.OnDeliver(func(d Delivery) { got[[2]int{d.Src, d.Dst}]++; delivered++ })
				for k := 0; k < 20000 && delivered < offered; k++ {
					n.Step()
					if n.Now()-n.lastProgress > 1000 {
						t.Fatalf("no progress for 1000 cycles at cycle %d with %d flits in flight", n.Now(), n.InFlight())
					}
				}
				if delivered != offered || !reflect.DeepEqual(got, want) || n.InFlight() != 0 || n.Backlog() != 0 {
					t.Fatalf("delivered %d of %d (in flight %d, backlog %d)", delivered, offered, n.InFlight(), n.Backlog())
				}
				t.Logf("%d messages of 9 flits drained in %d cycles", offered, n.Now())
			})
		}
	}
}

// TestMultistageConservationUnderLoad runs every wiring and pipeline past
// saturation (Poisson, 0.3 messages of 5 flits per terminal per cycle =
// 1.5 flits, above the one flit per cycle a terminal's link can carry)
// with the per-cycle conservation check on.
func TestMultistageConservationUnderLoad(t *testing.T) {
	for _, sp := range deltaSpecs {
		for _, p := range pipelines {
			t.Run(deltaName(sp)+"-"+p.name, func(t *testing.T) {
				cfg := deltaConfig(sp, p)
				cfg.Rate, cfg.Process = 0.3, "poisson"
				if len(deliveries(t, cfg, 3000)) == 0 {
					t.Fatal("nothing delivered")
				}
			})
		}
	}
}

// TestMultistageLowLoadAndLittle: at 0.004 flits per terminal per cycle the
// mean latency is the zero-load latency T0 (the same for every pair in a
// delta network) up to the little contention left, judged as in
// TestLowLoadLatencyIsZeroLoadLatency; hops are exactly z; and at a
// moderate load Little's law holds within the latency's CI and the network
// accepts what is offered.
func TestMultistageLowLoadAndLittle(t *testing.T) {
	sp := multistage.Spec{Degree: 4, Stages: 3}
	cfg := deltaConfig(sp, pipelines[1])
	cfg.Debug = false
	cfg.Length = LengthSpec{Flits: 4}
	cfg.Process, cfg.Rate, cfg.Seed = "bernoulli", 0.001, 3
	cfg.Run = quickRun(2000000)
	cfg.Run.TargetRelCI = 0.003
	res := mustRun(t, cfg)
	t0 := float64(deltaZeroLoad(cfg.withDefaults(), 3, 4))
	t.Logf("n=64 b=4 z=3 omega at 0.004 flits/terminal/cycle: latency %.3f ± %.3f, T0 %.0f, hops %.3f, %d messages",
		res.Latency, res.LatencyCI95, t0, res.Hops, res.Messages)
	if res.Status != sim.StatusOK {
		t.Fatalf("status %s (%s)", res.Status, res.Reason)
	}
	if res.Latency < t0-res.LatencyCI95 || res.Latency > t0+res.LatencyCI95+0.005*t0 {
		t.Errorf("latency %.3f ± %.3f, want T0 = %.0f", res.Latency, res.LatencyCI95, t0)
	}
	if res.Hops != 3 {
		t.Errorf("mean hops %v, want z = 3", res.Hops)
	}

	cfg.Rate, cfg.Run = 0.1, quickRun(200000) // 0.4 flits/terminal/cycle
	res = mustRun(t, cfg)
	if res.Status != sim.StatusOK {
		t.Fatalf("status %s (%s)", res.Status, res.Reason)
	}
	lambda := res.AcceptedMessages * 64
	want := lambda * res.Latency
	tol := lambda*res.LatencyCI95 + 0.01*want
	t.Logf("0.4 flits/terminal/cycle: L = %.3f, lambda*W = %.4f * %.2f = %.3f (tolerance %.3f); buffered flits per stage %.3f",
		res.MeanInSystem, lambda, res.Latency, want, tol, res.StageBuffered)
	if math.Abs(res.MeanInSystem-want) > tol {
		t.Errorf("Little's law: L = %.3f, lambda*W = %.3f (tolerance %.3f)", res.MeanInSystem, want, tol)
	}
	if math.Abs(res.Accepted-res.Offered) > 0.02*res.Offered {
		t.Errorf("accepted %.4f flits/terminal/cycle, offered %.4f", res.Accepted, res.Offered)
	}
	// Per-stage buffered flits: positive, within the stage's buffer
	// capacity, and, all flits in buffers being in the system, their sum
	// is at most the flits of the messages in the system.
	capacity := float64(16 * 4 * cfg.Router.VCs * cfg.Router.BufferDepth)
	total := 0.0
	for s, b := range res.StageBuffered {
		if !(b > 0 && b < capacity) {
			t.Errorf("stage %d: %.3f flits buffered, want in (0, %.0f)", s, b, capacity)
		}
		total += b
	}
	if len(res.StageBuffered) != 3 || total > 4*res.MeanInSystem {
		t.Errorf("stage buffers %v (sum %.3f) against %.3f messages of 4 flits in the system", res.StageBuffered, total, res.MeanInSystem)
	}
}

// TestMultistageRunIsDeterministic: same config and seed give identical
// results; another seed does not.
func TestMultistageRunIsDeterministic(t *testing.T) {
	cfg := deltaConfig(multistage.Spec{Degree: 2, Stages: 3, Wiring: multistage.Butterfly}, pipelines[1])
	cfg.Debug = false
	cfg.Length = LengthSpec{Distribution: "geometric", Mean: 4}
	cfg.Process, cfg.Rate, cfg.Seed = "poisson", 0.06, 5
	cfg.Run = quickRun(50000)
	a, b := mustRun(t, cfg), mustRun(t, cfg)
	if a.Status != sim.StatusOK || !reflect.DeepEqual(a, b) {
		t.Fatalf("same seed, different results (status %s):\n%+v\n%+v", a.Status, a, b)
	}
	cfg.Seed++
	if c := mustRun(t, cfg); c.Latency == a.Latency {
		t.Fatalf("another seed gave the same latency %v", c.Latency)
	}
}

func TestMultistageConfigErrors(t *testing.T) {
	good := deltaConfig(multistage.Spec{Degree: 2, Stages: 3}, pipelines[0])
	expectRefused(t, good, map[string]func(*Config){
		"dimension-order routing": func(c *Config) { c.Routing = RoutingDimensionOrder },
		"adaptive routing":        func(c *Config) { c.Routing = RoutingAdaptive },
		"escape VCs":              func(c *Config) { c.EscapeVCs = 1 },
		"ejection VCs":            func(c *Config) { c.EjectionVCs = 1 },
		"degree 1":                func(c *Config) { c.Multistage = &multistage.Spec{Degree: 1, Stages: 3} },
		"scouting":                func(c *Config) { c.Router.Switching, c.Router.ScoutingDistance = router.Scouting, 1 },
		"cut-through too long":    func(c *Config) { c.Router.Switching = router.VirtualCutThrough; c.Length.Flits = 9 },
	})
	if _, err := New(Config{Topology: good.Topology, Router: good.Router, Routing: RoutingDestinationTag}); err == nil {
		t.Error("destination-tag routing accepted on a direct network")
	}
}
