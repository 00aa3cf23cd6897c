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
	cases, cycles := 12, 1500
	if testing.Short() {
		cases, cycles = 6, 800
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
			var va, vb []router.BlockedVC
			busy := 0
			for c := 0; c < cycles; c++ {
				a.Step()
				b.Step()
				for id := range a.routers {
					va = a.routers[id].Blocked(va[:0], a.now)
					vb = b.routers[id].Blocked(vb[:0], b.now)
					busy += len(va)
					if !reflect.DeepEqual(va, vb) {
						t.Fatalf("cycle %d, router %d:\nwith the plane %+v\nalone          %+v", c, id, va, vb)
					}
				}
			}
			if busy == 0 {
				t.Fatalf("no VC held a flit in %d cycles: the case tests nothing", cycles)
			}
		})
	}
}
