package network

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/flitsim/flitsim/router"
)

// TestPlaneStateMatchesOwnAllocators steps networks with a router.Plane
// and with each router allocating alone side by side and compares, after
// every cycle, what each router reports of every input VC holding flits
// (Router.Blocked: flits, packet at the front, state, output port and VC,
// credits of the output VC): the plane's records, including what it keeps
// unwritten (the slots of anonymous bodies, read back through the VCs
// upstream), must say what the routers' own say, in every cycle and not
// only in the deliveries (TestPlaneMatchesOwnAllocators). A divergence is
// reported at its first cycle and router, where the deliveries show it
// only when a packet arrives.
func TestPlaneStateMatchesOwnAllocators(t *testing.T) {
	cases, cycles := 40, 1500
	if testing.Short() {
		cases, cycles = 12, 800
	}
	rng := rand.New(rand.NewPCG(20261127, 14))
	cfgs := []Config{SpeedConfig(4, 0.3), SpeedConfig(9, 0.25)}
	for k := 0; k < cases; k++ {
		if k%2 == 0 {
			cfgs = append(cfgs, slotlessCase(rng))
		} else {
			cfgs = append(cfgs, planeCase(rng))
		}
	}
	for k, cfg := range cfgs {
		cfg.Seed = uint64(k) + 101
		t.Run(fmt.Sprintf("%d-%s-%dvc-%dflit-%s", k, cfg.Topology.Kind, cfg.Router.VCs, cfg.Router.BufferDepth, cfg.Router.Switching), func(t *testing.T) {
			own := cfg
			own.ownAllocators = true
			a, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			b, err := New(own)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			if a.plane == nil || b.plane != nil {
				t.Fatalf("plane %v with, %v without: the case compares nothing", a.plane != nil, b.plane != nil)
			}
			var cmp stateComparison
			for c := 0; c < cycles; c++ {
				a.Step()
				b.Step()
				if id, va, vb := cmp.differ(a, b); id >= 0 {
					t.Fatalf("cycle %d, router %d:\nwith the plane %+v\nalone          %+v", c, id, va, vb)
				}
			}
			if cmp.busy == 0 {
				t.Fatalf("no VC held a flit in %d cycles: the case tests nothing", cycles)
			}
		})
	}
}

// TestThreadsStateMatch steps a network on one thread and on two and
// three side by side and compares every router's busy VCs (Router.Blocked)
// after every cycle, as TestPlaneStateMatchesOwnAllocators does for the
// plane: TestThreadsDeterministic sees a divergence when a packet
// arrives, this one in the cycle it happens.
func TestThreadsStateMatch(t *testing.T) {
	cycles := 1500
	if testing.Short() {
		cycles = 600
	}
	cases := threadCases()
	for _, name := range []string{"zero-pipeline", "torus3d", "hypercube8"} {
		cfg, ok := cases[name]
		if !ok {
			t.Fatalf("no thread case %q", name)
		}
		t.Run(name, func(t *testing.T) {
			nets := make([]*Network, 3)
			for k := range nets {
				c := cfg
				c.Threads = k + 1
				n, err := New(c)
				if err != nil {
					t.Fatal(err)
				}
				defer n.Close()
				nets[k] = n
			}
			if len(nets[1].parts) < 2 || len(nets[2].parts) < 3 {
				t.Fatalf("split into %d and %d partitions: the case compares nothing", len(nets[1].parts), len(nets[2].parts))
			}
			var cmp stateComparison
			for c := 0; c < cycles; c++ {
				for _, n := range nets {
					n.Step()
				}
				for k := 1; k < len(nets); k++ {
					if id, v0, vk := cmp.differ(nets[0], nets[k]); id >= 0 {
						t.Fatalf("cycle %d, router %d:\non %d threads %+v\non one        %+v", c, id, k+1, vk, v0)
					}
				}
			}
			if cmp.busy == 0 {
				t.Fatalf("no VC held a flit in %d cycles: the case tests nothing", cycles)
			}
		})
	}
}

// stateComparison compares two networks' routers by what they report of
// their busy input VCs (Router.Blocked), reusing its buffers.
type stateComparison struct {
	va, vb []router.BlockedVC
	busy   int // busy VCs seen in the first network, over every comparison
}

// differ returns the first router whose report differs between a and b,
// with both reports, or -1.
func (sc *stateComparison) differ(a, b *Network) (id int, va, vb []router.BlockedVC) {
	for id := range a.routers {
		sc.va = a.routers[id].Blocked(sc.va[:0], a.now)
		sc.vb = b.routers[id].Blocked(sc.vb[:0], b.now)
		sc.busy += len(sc.va)
		if !reflect.DeepEqual(sc.va, sc.vb) {
			return id, sc.va, sc.vb
		}
	}
	return -1, nil, nil
}
