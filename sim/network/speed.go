package network

import (
	"fmt"
	"runtime"
	"time"

	"github.com/flitsim/flitsim/router"
	"github.com/flitsim/flitsim/topology"
	"github.com/flitsim/flitsim/traffic"
)

// SpeedConfig is the reference configuration speed is measured on (the
// simulator-core issue's point 8): a k x k bidirectional torus,
// dimension-order wormhole routing, 2 VCs x 8 flits, 16-flit messages,
// uniform Bernoulli traffic at load flits per node per cycle, and a
// BookSim-like router with one cycle each for routing, VC allocation and
// switch allocation (link and credit delays 1).
func SpeedConfig(k int, load float64) Config {
	return speedConfig(k, load, SpeedLength)
}

// SpeedLength is the reference speed networks' message length, in flits.
const SpeedLength = 16

// speedConfig is SpeedConfig with messages of length flits at the same
// load in flits per node per cycle.
func speedConfig(k int, load float64, length int) Config {
	return Config{
		Topology: topology.Spec{Kind: topology.Torus, K: k, N: 2, Bidirectional: true},
		Router:   router.Arch{VCs: 2, BufferDepth: 8, RoutingDelay: 1, VCAllocDelay: 1, SwitchAllocDelay: 1},
		Pattern:  traffic.PatternSpec{Name: "uniform"},
		Process:  "bernoulli",
		Rate:     load / float64(length),
		Length:   LengthSpec{Flits: length},
		Seed:     1,
	}
}

// SpeedCase is one reference speed measurement: SpeedConfig(K, Load), in
// Dims dimensions and with Length-flit messages when those are set, and
// the simulated cycles per second the project aims for on one core of its
// 2-core CI machine (the simulator-core issue's point 8).
type SpeedCase struct {
	K    int
	Dims int     // dimensions of the k-ary n-cube; 0 means 2
	Load float64 // flits per node per cycle
	// Length is the messages' length in flits; 0 means SpeedLength.
	// The load stays in flits, so a length changes how many packets carry
	// the same flits: timing one network at two lengths separates the
	// cost of a flit's hop from that of a packet's (docs/speed.md#session15).
	Length int
	Target float64 // simulated cycles per second; 0: none
}

// Config is the case's SpeedConfig, with its dimensions and message length.
func (c SpeedCase) Config() Config {
	length := c.Length
	if length == 0 {
		length = SpeedLength
	}
	cfg := speedConfig(c.K, c.Load, length)
	if c.Dims > 0 {
		cfg.Topology.N = c.Dims
	}
	return cfg
}

// Name is the case's network: "8x8 torus", "16-ary 5-cube", and the
// message length when it is not SpeedConfig's ("16-ary 5-cube, 8-flit
// messages").
func (c SpeedCase) Name() string {
	name := fmt.Sprintf("%d-ary %d-cube", c.K, c.Dims)
	if c.Dims == 0 || c.Dims == 2 {
		name = fmt.Sprintf("%dx%d torus", c.K, c.K)
	}
	if c.Length > 0 && c.Length != SpeedLength {
		name += fmt.Sprintf(", %d-flit messages", c.Length)
	}
	return name
}

// SpeedCases are the reference measurements: the 8x8 torus at 0.2 and the
// 16x16 torus at 0.1 flits per node per cycle. flitsim bench, the Torus
// benchmark and scripts/cost.sh all time these.
var SpeedCases = []SpeedCase{{K: 8, Load: 0.2, Target: 300_000}, {K: 16, Load: 0.1, Target: 30_000}}

// Speed is one speed measurement: Cycles simulated in Elapsed wall time
// after a warm-up, with the flits they moved over network links and the
// heap allocations they made, and the memory the network holds.
type Speed struct {
	Cycles   int64
	FlitHops int64
	Allocs   uint64
	Elapsed  time.Duration
	// Nodes is the network's node count; Bytes the live heap it holds at
	// the end of the timed cycles (after a garbage collection: its flit
	// slots, VC state, credits, NIC queues and statistics at steady state),
	// measured by runtime.MemStats, not estimated.
	Nodes int
	Bytes uint64
	// Threads is the threads that stepped the network (Network.Threads).
	Threads int
	// Windows are the timed cycles' wall times in windows of a fixed
	// number of cycles (MeasureSpeedWindows; nil from MeasureSpeed), and
	// WindowHops the flit-hops of each: two builds of one exact engine
	// simulate the same windows, so their times compare window by window
	// (scripts/abw.sh).
	Windows    []time.Duration
	WindowHops []int64
}

// BytesPerNode is the live heap the network holds per node.
func (s Speed) BytesPerNode() float64 { return float64(s.Bytes) / float64(s.Nodes) }

// CyclesPerSecond is the simulated cycles per wall-clock second.
func (s Speed) CyclesPerSecond() float64 { return float64(s.Cycles) / s.Elapsed.Seconds() }

// FlitHopsPerSecond is the flits moved over network links per wall-clock
// second.
func (s Speed) FlitHopsPerSecond() float64 { return float64(s.FlitHops) / s.Elapsed.Seconds() }

// AllocsPerCycle is the heap allocations per simulated cycle (0 in steady
// state: the hot loop allocates nothing).
func (s Speed) AllocsPerCycle() float64 { return float64(s.Allocs) / float64(s.Cycles) }

// MeasureSpeed builds the network cfg describes, steps it warmup cycles
// (queues, pools and lines reach their steady-state size) and then times
// cycles more. It uses the calling goroutine only (one core), unless
// cfg.Threads asks for more (Speed.Threads says how many stepped it).
func MeasureSpeed(cfg Config, warmup, cycles int) (Speed, error) {
	return MeasureSpeedWindows(cfg, warmup, cycles, 0)
}

// MeasureSpeedWindows is MeasureSpeed that also times the cycles in
// windows of window cycles each (Speed.Windows; 0: none), the last
// cycles%window untimed by any window.
func MeasureSpeedWindows(cfg Config, warmup, cycles, window int) (Speed, error) {
	if cycles < 1 || warmup < 0 || window < 0 || window > cycles {
		return Speed{}, fmt.Errorf("network: speed measurement needs cycles >= 1, warmup >= 0 and 0 <= window <= cycles (got %d, %d, %d)", cycles, warmup, window)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	heap0 := before.HeapAlloc
	n, err := New(cfg)
	if err != nil {
		return Speed{}, err
	}
	defer n.Close()
	for i := 0; i < warmup; i++ {
		n.Step()
	}
	var windows []time.Duration
	var windowHops []int64
	if window > 0 { // made before the count of the cycles' allocations starts
		windows, windowHops = make([]time.Duration, 0, cycles/window), make([]int64, 0, cycles/window)
	}
	runtime.GC()
	runtime.ReadMemStats(&before)
	hops := n.FlitHops()
	start := time.Now()
	wStart, wHops := start, hops
	var counting time.Duration // the windows' hop counts: a walk over every router, timed by neither a window nor Elapsed
	for i := 1; i <= cycles; i++ {
		n.Step()
		if window > 0 && i%window == 0 {
			end := time.Now()
			h := n.FlitHops()
			windows, windowHops = append(windows, end.Sub(wStart)), append(windowHops, h-wHops)
			wStart, wHops = time.Now(), h
			counting += wStart.Sub(end)
		}
	}
	elapsed := time.Since(start) - counting
	runtime.ReadMemStats(&after)
	sp := Speed{Cycles: int64(cycles), FlitHops: n.FlitHops() - hops, Allocs: after.Mallocs - before.Mallocs, Elapsed: elapsed, Nodes: n.topo.Nodes(), Threads: n.Threads(),
		Windows: windows, WindowHops: windowHops}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if after.HeapAlloc > heap0 {
		sp.Bytes = after.HeapAlloc - heap0
	}
	runtime.KeepAlive(n)
	return sp, nil
}
