package network

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/flitsim/flitsim/router"
	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/topology"
	"github.com/flitsim/flitsim/topology/graph"
	"github.com/flitsim/flitsim/topology/multistage"
)

// threadCases are networks of more than 64 routers (a plane splits at
// 64-router words), one per mechanism a partition boundary crosses: every
// switching technique, long links and credit lines, a pipeline of zero
// delays, random minimal and adaptive routing (escape VCs), a mesh, a
// 3-D torus, two hypercubes (8 and 9 ports); and three networks that run
// on one thread whatever is asked (multistage, scouting, a dragonfly),
// which must give the same results all the same.
func threadCases() map[string]Config {
	m := map[string]Config{}
	for name, f := range map[string]func() Config{
		"dor-torus16":   func() Config { return SpeedConfig(16, 0.3) },
		"dor-torus-sat": func() Config { return SpeedConfig(12, 0.6) },
		"vct": func() Config {
			c := SpeedConfig(12, 0.3)
			c.Router.Switching = router.VirtualCutThrough
			c.Router.BufferDepth = 16
			return c
		},
		"saf": func() Config {
			c := SpeedConfig(12, 0.2)
			c.Router.Switching = router.StoreAndForward
			c.Router.BufferDepth = 16
			return c
		},
		"latencies": func() Config {
			c := SpeedConfig(12, 0.3)
			c.InjectionLatency, c.EjectionLatency, c.LinkLatency, c.CreditDelay = 2, 3, 3, 4
			c.Router.SwitchTraversalDelay = 1
			c.Router.RoutingDelay = 0
			return c
		},
		"zero-pipeline": func() Config {
			c := SpeedConfig(12, 0.3)
			c.Router.RoutingDelay, c.Router.VCAllocDelay, c.Router.SwitchAllocDelay = 0, 0, 0
			return c
		},
		"mesh-4vc": func() Config {
			c := SpeedConfig(4, 0.3)
			c.Topology = topology.Spec{Kind: topology.Mesh, K: 13, N: 2}
			c.Router.VCs, c.Router.BufferDepth = 4, 3
			return c
		},
		"random-minimal": func() Config {
			c := SpeedConfig(4, 0.3)
			c.Topology = topology.Spec{Kind: topology.Mesh, K: 12, N: 2}
			c.Routing = RoutingRandomMinimal
			return c
		},
		"adaptive-escape": func() Config {
			c := SpeedConfig(12, 0.3)
			c.Routing = RoutingAdaptive
			c.Router.VCs, c.EscapeVCs = 4, 2
			return c
		},
		"torus3d": func() Config {
			c := SpeedConfig(6, 0.3)
			c.Topology.N = 3
			return c
		},
		"hypercube7": func() Config {
			c := SpeedConfig(4, 0.3)
			c.Topology = topology.Spec{Kind: topology.Hypercube, N: 7}
			return c
		},
		"one-thread-multistage": func() Config {
			c := SpeedConfig(4, 0.4)
			c.Multistage = &multistage.Spec{Degree: 4, Stages: 4}
			return c
		},
		"one-thread-scouting": func() Config {
			c := SpeedConfig(12, 0.2)
			c.Routing = RoutingAdaptive
			c.Router.VCs, c.EscapeVCs = 4, 2
			c.Router.Switching, c.Router.ScoutingDistance = router.Scouting, 3
			return c
		},
		"hypercube8": func() Config {
			c := SpeedConfig(4, 0.2)
			c.Topology = topology.Spec{Kind: topology.Hypercube, N: 8}
			return c
		},
		"one-thread-dragonfly": func() Config {
			g, err := graph.NewDragonfly(graph.DragonflySpec{P: 2})
			if err != nil {
				panic(err)
			}
			c := SpeedConfig(4, 0.3)
			c.Topology, c.Graph, c.Routing = topology.Spec{}, g, graph.RouteMinimal
			c.Router.VCs = 3
			c.Rate, c.Length = 0.3/4, LengthSpec{Flits: 4}
			return c
		},
	} {
		m[name] = f()
	}
	return m
}

// TestThreadsDeterministic steps each of threadCases on 1, 2, 3 and 4
// threads and requires the same deliveries in the same order, cycle by
// cycle, the same final state (flits in flight, backlog, every channel's
// count), with flit conservation checked every cycle (Config.Debug); and
// that the networks with a plane were split as asked.
func TestThreadsDeterministic(t *testing.T) {
	cycles := 3000
	if testing.Short() {
		cycles = 700
	}
	for name, cfg := range threadCases() {
		t.Run(name, func(t *testing.T) {
			cfg.Debug = true
			one, state1 := runTrace(t, cfg, cycles)
			if len(one) == 0 {
				t.Fatalf("no deliveries in %d cycles: the case tests nothing", cycles)
			}
			for k := 2; k <= 4; k++ {
				c := cfg
				c.Threads = k
				checkThreads(t, c, name)
				got, state := runTrace(t, c, cycles)
				if len(got) != len(one) {
					t.Fatalf("%d threads: %d deliveries, %d on one", k, len(got), len(one))
				}
				for i := range got {
					if got[i] != one[i] {
						t.Fatalf("%d threads: delivery %d is %q, on one thread %q", k, i, got[i], one[i])
					}
				}
				if state != state1 {
					t.Errorf("%d threads: final state\n%s\non one thread\n%s", k, state, state1)
				}
			}
		})
	}
}

// checkThreads requires a network of cfg to run on cfg.Threads threads,
// or on one for the cases named one-thread-*.
func checkThreads(t *testing.T, cfg Config, name string) {
	t.Helper()
	n, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := min(cfg.Threads, (n.nodes+63)/64)
	if len(name) > 10 && name[:10] == "one-thread" {
		want = 1
	}
	if n.Threads() != want {
		t.Errorf("%d threads asked: runs on %d, want %d", cfg.Threads, n.Threads(), want)
	}
}

// TestThreadsRunResult runs two points through Run (warm-up, measurement,
// drain) on 1 to 4 threads and requires every field of the results to be
// the same.
func TestThreadsRunResult(t *testing.T) {
	cases := []Config{SpeedConfig(16, 0.2), threadCases()["adaptive-escape"]}
	if testing.Short() {
		cases = cases[:1]
	}
	for _, cfg := range cases {
		cfg.Run = sim.RunControl{Period: 500, MaxWarmup: 3000, MaxCycles: 8000, TargetRelCI: 0.05}
		var want string
		for k := 1; k <= 4; k++ {
			c := cfg
			c.Threads = k
			n, err := New(c)
			if err != nil {
				t.Fatal(err)
			}
			res, err := n.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			got := fmt.Sprintf("%+v", res)
			if k == 1 {
				want = got
				if res.Messages == 0 {
					t.Fatalf("no message measured: %s", got)
				}
				continue
			}
			if got != want {
				t.Errorf("%d threads:\n%s\none thread:\n%s", k, got, want)
			}
		}
	}
}

// TestThreadsRandomConfigs draws direct networks of 128 to 256 routers
// with random switching, routing, VCs, buffers, pipeline and line delays
// (planeCase's draws, enlarged) and compares 1 thread with 2 and 3,
// delivery by delivery.
func TestThreadsRandomConfigs(t *testing.T) {
	cases, cycles := 16, 2000
	if testing.Short() {
		cases, cycles = 4, 800
	}
	rng := rand.New(rand.NewPCG(20, 2))
	for k := 0; k < cases; k++ {
		cfg := planeCase(rng)
		switch cfg.Topology.Kind {
		case topology.Torus:
			if cfg.Topology.N == 3 {
				cfg.Topology.K = 6
			} else {
				cfg.Topology.K = 12 + rng.IntN(5)
			}
		case topology.Mesh:
			cfg.Topology.K = 12 + rng.IntN(5)
		case topology.Ring:
			cfg.Topology.K = 130 + rng.IntN(120)
		case topology.Hypercube:
			cfg.Topology.N = 7
		}
		name := fmt.Sprintf("%d-%s-%d-%dvc-%s-%s", k, cfg.Topology.Kind, cfg.Topology.K, cfg.Router.VCs, cfg.Router.Switching, cfg.Routing)
		t.Run(name, func(t *testing.T) {
			one, state1 := runTrace(t, cfg, cycles)
			if len(one) == 0 {
				t.Fatalf("no deliveries in %d cycles", cycles)
			}
			for _, th := range []int{2, 3} {
				c := cfg
				c.Threads = th
				got, state := runTrace(t, c, cycles)
				if fmt.Sprint(got) != fmt.Sprint(one) || state != state1 {
					i := 0
					for i < len(got) && i < len(one) && got[i] == one[i] {
						i++
					}
					t.Fatalf("%d threads differ from one from delivery %d on (%d and %d deliveries); states\n%s\n%s", th, i, len(got), len(one), state, state1)
				}
			}
		})
	}
}
