package network

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// headTailCase draws a configuration of slotlessCase's kind whose routers
// keep only their heads' and tails' slots (router.HeadTailServes): NICs at
// most a cycle from their routers and fixed-length messages no shorter
// than a buffer of three or more flits.
func headTailCase(rng *rand.Rand) Config {
	c := slotlessCase(rng)
	c.InjectionLatency = rng.IntN(2)
	c.Router.BufferDepth = 3 + rng.IntN(6)
	c.Length = LengthSpec{Flits: c.Router.BufferDepth + rng.IntN(10)}
	c.Rate = (0.05 + 0.6*rng.Float64()) / float64(c.Length.Flits)
	return c
}

// TestHeadTailSlotsChangeNothing runs networks whose routers keep only
// their heads' and tails' slots against the same networks with a slot for
// every flit (Config.AnyLength) and with each router allocating alone, on
// one thread and on three, and requires the same deliveries in the same
// order, cycle by cycle, and the same channel counts and occupancy.
func TestHeadTailSlotsChangeNothing(t *testing.T) {
	cases, cycles := 24, 2500
	if testing.Short() {
		cases, cycles = 10, 1500
	}
	rng := rand.New(rand.NewPCG(28, 11))
	// The reference router on networks of more than 64 routers (several
	// words, and partitions for the threads), with the 4-ary 5-cube's 11
	// ports, added to the random ones.
	fixed := []Config{SpeedConfig(12, 0.3), SpeedCase{K: 4, Dims: 5, Load: 0.15}.Config()}
	for k := 0; k < len(fixed)+cases; k++ {
		var cfg Config
		if k < len(fixed) {
			cfg = fixed[k]
			cfg.Seed = uint64(k) + 3
		} else {
			cfg = headTailCase(rng)
		}
		name := fmt.Sprintf("%d-%s-%dvc-%dflit-%dlong-inject%d", k, cfg.Topology.Kind, cfg.Router.VCs, cfg.Router.BufferDepth, cfg.Length.Flits, cfg.InjectionLatency)
		t.Run(name, func(t *testing.T) {
			n, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if n.minPacket != cfg.Length.Flits {
				t.Fatalf("the routers keep a slot for every flit (minPacket %d): the case tests nothing", n.minPacket)
			}
			n.Close()
			want, wantState := runTrace(t, cfg, cycles)
			if len(want) == 0 {
				t.Fatalf("no deliveries in %d cycles: the case tests nothing", cycles)
			}
			every := cfg
			every.AnyLength = true
			own := cfg
			own.ownAllocators = true
			threads := cfg
			threads.Threads = 3
			for _, v := range []struct {
				name string
				cfg  Config
			}{{"a slot for every flit", every}, {"each router alone", own}, {"three threads", threads}} {
				got, gotState := runTrace(t, v.cfg, cycles)
				if d := firstDifference(got, want); d != "" {
					t.Fatalf("%s: %s", v.name, d)
				}
				if gotState != wantState {
					t.Errorf("%s: final state\n%s\nwith heads' and tails' slots only:\n%s", v.name, gotState, wantState)
				}
			}
		})
	}
}

// firstDifference describes the first delivery where got and want differ,
// or returns "" when they are the same.
func firstDifference(got, want []string) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("delivery %d: %q, with heads' and tails' slots only %q", i, got[i], want[i])
		}
	}
	if len(got) != len(want) {
		return fmt.Sprintf("%d deliveries, with heads' and tails' slots only %d", len(got), len(want))
	}
	return ""
}

// TestHeadTailOfferRefusesShorter checks that a network keeping only its
// heads' and tails' slots refuses, with Offer, a message shorter than its
// fixed length, and that AnyLength lets it in.
func TestHeadTailOfferRefusesShorter(t *testing.T) {
	cfg := SpeedConfig(4, 0.1)
	cfg.Rate = 0
	for _, any := range []bool{false, true} {
		cfg.AnyLength = any
		n, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		msg := func() (msg string) {
			defer func() {
				if r := recover(); r != nil {
					msg = fmt.Sprint(r)
				}
			}()
			n.Offer(0, 5, 3)
			return ""
		}()
		switch {
		case !any && !strings.Contains(msg, "Offer of a 3-flit message to a network built for messages of 16 flits"):
			t.Errorf("Offer of 3 flits with heads' and tails' slots only: %q, want a refusal", msg)
		case any && msg != "":
			t.Errorf("Offer of 3 flits with AnyLength: %q", msg)
		}
		n.Close()
	}
}
