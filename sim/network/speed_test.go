package network

import (
	"testing"
	"time"
)

// TestSteadyStateDoesNotAllocate pins point 8's "steady state allocates
// nothing per cycle" on the reference speed network: after warm-up a cycle
// of the 8x8 torus at 0.2 flits/node/cycle makes no heap allocation.
func TestSteadyStateDoesNotAllocate(t *testing.T) {
	n, err := New(SpeedConfig(8, 0.2))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20000; i++ {
		n.Step()
	}
	if a := testing.AllocsPerRun(2000, n.Step); a != 0 {
		t.Fatalf("%.3f allocations per cycle in steady state, want 0", a)
	}
}

func TestMeasureSpeed(t *testing.T) {
	s, err := MeasureSpeed(SpeedConfig(4, 0.2), 2000, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if s.Cycles != 1000 || s.FlitHops <= 0 || s.Elapsed <= 0 || s.CyclesPerSecond() <= 0 {
		t.Fatalf("implausible measurement %+v", s)
	}
	// 16 routers at 0.2 flits/node/cycle, mean distance 2 hops (+1/15 for
	// self excluded): about 3.2*2.13 = 6.8 flit-hops per cycle.
	if perCycle := float64(s.FlitHops) / float64(s.Cycles); perCycle < 5 || perCycle > 9 {
		t.Fatalf("%.2f flit-hops per cycle, want about 6.8", perCycle)
	}
	if _, err := MeasureSpeed(SpeedConfig(4, 0.2), 0, 0); err == nil {
		t.Fatal("zero cycles accepted")
	}
}

// TestMeasureSpeedWindows: 1,000 cycles in windows of 300 are three
// windows, whose times lie within the whole and whose flit-hops are those
// of the same cycles in a run without windows (the same network, seed and
// cycles); a window longer than the timed cycles is refused.
func TestMeasureSpeedWindows(t *testing.T) {
	s, err := MeasureSpeedWindows(SpeedConfig(4, 0.2), 500, 1000, 300)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Windows) != 3 || len(s.WindowHops) != 3 {
		t.Fatalf("%d windows, %d hop counts, want 3", len(s.Windows), len(s.WindowHops))
	}
	var sum time.Duration
	var hops int64
	for k, w := range s.Windows {
		if w <= 0 || s.WindowHops[k] <= 0 {
			t.Fatalf("window %d: %v, %d flit-hops", k, w, s.WindowHops[k])
		}
		sum += w
		hops += s.WindowHops[k]
	}
	if sum > s.Elapsed || hops > s.FlitHops {
		t.Fatalf("windows %v and %d flit-hops beyond the whole %v and %d", sum, hops, s.Elapsed, s.FlitHops)
	}
	plain, err := MeasureSpeedWindows(SpeedConfig(4, 0.2), 500, 900, 0)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Windows != nil || plain.FlitHops != hops {
		t.Fatalf("without windows: %d windows, %d flit-hops in the first 900 cycles; with them %d", len(plain.Windows), plain.FlitHops, hops)
	}
	if _, err := MeasureSpeedWindows(SpeedConfig(4, 0.2), 0, 100, 101); err == nil {
		t.Fatal("a window of 101 cycles in 100 accepted")
	}
}

// TestReferenceRouterBytesPerNode pins the memory of the reference router
// (issue 20, point 1): a 32x32 torus of SpeedConfig, measured by
// MeasureSpeed after a short steady run (flit slots, VC state, credits,
// NIC queues and statistics included), holds at most maxBytesPerNode of
// live heap per node. With a fixed 64-port state array per router it held
// 10.9 KB; with per-port state sized to the ports 6.2 KB; with one stamp
// per 24-byte slot and the routers' state in one router.Storage 5.5 KB;
// with the plane's scratch on the stack, 64-byte port records, a 1 KiB
// Router and the ejection list sized to the sinks 5.2 KB; with 16-byte
// slots 4.55 KB; with a 720-byte Router in the storage's one array, one
// count of link flits and the topology's tables shared, 4.07 KB; with
// only the heads' and tails' slots of each buffer (router.HeadTailServes),
// 2,848 bytes; with the feeder each buffer has waiting (40 bytes a router)
// and the arrival calendar's buckets (some 50 bytes a terminal at this
// size, sim.CycleCalendarBytes), 2,945; with the calendar's ring from
// cycle 0 (fewer arrivals in the heap beside it), 2,933.
func TestReferenceRouterBytesPerNode(t *testing.T) {
	const maxBytesPerNode = 3000
	s, err := MeasureSpeed(SpeedConfig(32, 0.1), 300, 100)
	if err != nil {
		t.Fatal(err)
	}
	if s.Nodes != 1024 {
		t.Fatalf("%d nodes, want 1024", s.Nodes)
	}
	t.Logf("%.0f bytes per node", s.BytesPerNode())
	if b := s.BytesPerNode(); b > maxBytesPerNode || b < 500 {
		t.Fatalf("%.0f bytes per node, want 500..%d", b, maxBytesPerNode)
	}
}

// TestSpeedCaseLength: a speed case's message length changes the packets,
// not the flits: the same load in flits/node/cycle, carried by Length-flit
// messages, and the length in the case's name unless it is the default.
func TestSpeedCaseLength(t *testing.T) {
	for _, tc := range []struct {
		c     SpeedCase
		flits int
		rate  float64
		name  string
	}{
		{SpeedCase{K: 8, Load: 0.2}, 16, 0.2 / 16, "8x8 torus"},
		{SpeedCase{K: 8, Load: 0.2, Length: 16}, 16, 0.2 / 16, "8x8 torus"},
		{SpeedCase{K: 16, Dims: 5, Load: 0.05, Length: 8}, 8, 0.05 / 8, "16-ary 5-cube, 8-flit messages"},
		{SpeedCase{K: 4, Dims: 3, Load: 0.1, Length: 32}, 32, 0.1 / 32, "4-ary 3-cube, 32-flit messages"},
	} {
		cfg := tc.c.Config()
		if cfg.Length.Flits != tc.flits || cfg.Rate != tc.rate || tc.c.Name() != tc.name {
			t.Errorf("%+v: %d flits at rate %g, %q; want %d at %g, %q", tc.c, cfg.Length.Flits, cfg.Rate, tc.c.Name(), tc.flits, tc.rate, tc.name)
		}
	}
}
