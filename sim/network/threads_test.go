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
	"github.com/flitsim/flitsim/traffic"
)

// threadCases are the networks of TestDeliveryTraceGolden (traceCases:
// every switching technique, long links and credit lines, a pipeline of
// zero delays, random minimal and adaptive routing with escape VCs, a
// mesh, a hypercube) enlarged beyond 64 routers, since a plane splits at
// 64-router words, and three more: a 3-D torus, a hypercube of 9 ports
// and a dragonfly. The multistage fabric, scouting (K = 3) and the
// dragonfly run on one thread whatever is asked (one-thread-*) and must
// give the same results all the same.
func threadCases() map[string]Config {
	m := map[string]Config{}
	for name, c := range traceCases() {
		switch c.Topology.Kind {
		case topology.Torus:
			c.Topology.K = 12
		case topology.Mesh:
			c.Topology.K = 13
		case topology.Hypercube:
			c.Topology.N = 7
		}
		if c.Multistage != nil {
			c.Multistage.Stages = 4
		}
		if c.Multistage != nil || c.Router.ScoutingDistance > 0 || c.Router.VCs > router.MaxPlaneVCs {
			name = "one-thread-" + name
		}
		m[name] = c
	}
	torus3d := SpeedConfig(6, 0.3)
	torus3d.Topology.N = 3
	m["torus3d"] = torus3d
	cube := SpeedConfig(4, 0.2)
	cube.Topology = topology.Spec{Kind: topology.Hypercube, N: 8}
	m["hypercube8"] = cube
	g, err := graph.NewDragonfly(graph.DragonflySpec{P: 2})
	if err != nil {
		panic(err)
	}
	fly := SpeedConfig(4, 0.3)
	fly.Topology, fly.Graph, fly.Routing = topology.Spec{}, g, graph.RouteMinimal
	fly.Router.VCs = 3
	fly.Rate, fly.Length = 0.3/4, LengthSpec{Flits: 4}
	m["one-thread-dragonfly"] = fly
	return m
}

// TestThreadsDeterministic steps each of threadCases on 1, 2, 3 and 4
// threads, and on 3 threads whose planes load their lines ahead of their
// moves (router.Plane's touchAhead, which the largest networks turn on and
// no test network is large enough for), and requires the same deliveries
// in the same order, cycle by cycle, the same final state (flits in
// flight, backlog, every channel's count), with flit conservation checked
// every cycle (Config.Debug); and that the networks with a plane were
// split as asked.
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
			for _, v := range []struct {
				threads int
				touch   bool
			}{{2, false}, {3, false}, {4, false}, {3, true}} {
				c := cfg
				c.Threads, c.touchAhead = v.threads, v.touch
				label := fmt.Sprintf("%d threads", c.Threads)
				if c.touchAhead {
					label += " loading ahead"
				}
				checkThreads(t, c, name)
				got, state := runTrace(t, c, cycles)
				if len(got) != len(one) {
					t.Fatalf("%s: %d deliveries, %d on one", label, len(got), len(one))
				}
				for i := range got {
					if got[i] != one[i] {
						t.Fatalf("%s: delivery %d is %q, on one thread %q", label, i, got[i], one[i])
					}
				}
				if state != state1 {
					t.Errorf("%s: final state\n%s\non one thread\n%s", label, state, state1)
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
	if cfg.touchAhead && n.plane != nil && !n.plane.TouchesAhead() {
		t.Errorf("%d threads asked to load ahead: a plane or partition does not", cfg.Threads)
	}
}

// TestThreadsRunResult runs two points through Run (warm-up, measurement,
// drain) on 1 to 4 threads (-short: one point, 1 and 2 threads) and
// requires every field of the results to be the same.
func TestThreadsRunResult(t *testing.T) {
	// A ring of 200 routers with one VC and no dateline classes
	// deadlocks (TestDeadlockIsDetected): the blocked VCs are reported
	// while the other threads finish their cycle's last phase.
	ring := Config{
		Topology: topology.Spec{Kind: topology.Ring, K: 200, N: 1},
		Router:   router.Arch{VCs: 1, BufferDepth: 2},
		Pattern:  traffic.PatternSpec{Name: "uniform"}, Process: "bernoulli", Rate: 0.04,
		Length: LengthSpec{Flits: 8}, Seed: 1, singleClass: true,
	}
	cases := []Config{SpeedConfig(16, 0.2), ring, threadCases()["adaptive-escape"]}
	if testing.Short() {
		cases = cases[:2]
	}
	for ci, cfg := range cases {
		cfg.Run = sim.RunControl{Period: 500, MaxWarmup: 3000, MaxCycles: 8000, TargetRelCI: 0.05}
		if ci == 1 {
			cfg.Run.BacklogLimit, cfg.Run.DeadlockCycles = 1e9, 500
		}
		var want string
		most := 4
		if testing.Short() {
			most = 2
		}
		for k := 1; k <= most; k++ {
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
				if ci == 1 && res.Status != sim.StatusDeadlock || ci != 1 && res.Messages == 0 {
					t.Fatalf("case %d: status %s, %d messages measured: %s", ci, res.Status, res.Messages, got)
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
