package network

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/router"
	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/topology"
	"github.com/flitsim/flitsim/traffic"
)

// quickRun is run control for tests: short periods, a tight CI target and
// a cycle cap that keeps each run well under a second.
func quickRun(maxCycles sim.Cycle) sim.RunControl {
	return sim.RunControl{Period: 500, Warmup: 2000, MinMeasure: 5000, MaxCycles: maxCycles, TargetRelCI: 0.01,
		BacklogLimit: 2000, DeadlockCycles: 2000}
}

func mustRun(t *testing.T, cfg Config) Result {
	t.Helper()
	n, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := n.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestLowLoadLatencyIsZeroLoadLatency: at near-zero load the measured mean
// latency equals the closed-form zero-load latency averaged over uniform
// destinations (mean distance Dbar, self excluded):
//
//	T0 = InjectionLatency + (Dbar+1)*HopDelay + Dbar*LinkLatency + EjectionLatency + M - 1
//
// up to the little contention left at 0.004 flits/node/cycle: the test
// allows the CI half-width below T0 and CI + 0.5% above.
func TestLowLoadLatencyIsZeroLoadLatency(t *testing.T) {
	for _, spec := range []topology.Spec{
		{Kind: topology.Torus, K: 4, N: 2, Bidirectional: true},
		{Kind: topology.Mesh, K: 4, N: 2},
		{Kind: topology.Hypercube, K: 2, N: 4},
	} {
		cfg := Config{Topology: spec, Router: pipelines[1].router, LinkLatency: 1, CreditDelay: 1,
			InjectionLatency: 1, EjectionLatency: 1, Pattern: uniform, Process: "bernoulli",
			Rate: 0.001, Length: LengthSpec{Flits: 4}, Seed: 3, Run: quickRun(2000000)}
		cfg.Run.TargetRelCI = 0.003
		res := mustRun(t, cfg)
		topo, _ := topology.New(spec)
		dbar := topo.MeanDistance(false)
		c := cfg.withDefaults()
		t0 := float64(c.InjectionLatency+c.EjectionLatency) + (dbar+1)*float64(c.Router.HopDelay()) + dbar*float64(c.LinkLatency) + 3
		t.Logf("%v: latency %.3f ± %.3f, T0 %.3f, hops %.3f (Dbar %.3f), %d messages", topo, res.Latency, res.LatencyCI95, t0, res.Hops, dbar, res.Messages)
		if res.Status != sim.StatusOK {
			t.Fatalf("%v: status %s (%s)", topo, res.Status, res.Reason)
		}
		if res.Latency < t0-res.LatencyCI95 || res.Latency > t0+res.LatencyCI95+0.005*t0 {
			t.Errorf("%v: latency %.3f ± %.3f, want T0 = %.3f", topo, res.Latency, res.LatencyCI95, t0)
		}
		// Hops of uniform traffic: mean distance within 4 standard errors.
		if se := math.Sqrt(dbar / float64(res.Messages)); math.Abs(res.Hops-dbar) > 4*se+0.01 {
			t.Errorf("%v: mean hops %.4f, want Dbar = %.4f", topo, res.Hops, dbar)
		}
	}
}

// TestLittlesLaw: the time-average number of messages in the system equals
// throughput (messages per cycle) times mean latency, within the latency's
// CI (the throughput estimate's own error is far smaller at this length).
func TestLittlesLaw(t *testing.T) {
	cfg := benchConfig(4, 0.3)
	cfg.Run = quickRun(200000)
	res := mustRun(t, cfg)
	if res.Status != sim.StatusOK {
		t.Fatalf("status %s (%s)", res.Status, res.Reason)
	}
	lambda := res.AcceptedMessages * 16 // 4x4 nodes
	want := lambda * res.Latency
	tol := lambda * res.LatencyCI95
	t.Logf("L = %.3f, lambda*W = %.4f * %.2f = %.3f (tolerance %.3f)", res.MeanInSystem, lambda, res.Latency, want, tol)
	if math.Abs(res.MeanInSystem-want) > tol {
		t.Errorf("Little's law: L = %.3f, lambda*W = %.3f (tolerance %.3f)", res.MeanInSystem, want, tol)
	}
	// Below saturation the network accepts what is offered: over the window
	// generated minus delivered flits is the change in flits held in the
	// system, whose mean is L*M (M = 16 flits a message); bound the change
	// by twice that mean, per node and measured cycle.
	accTol := 2 * res.MeanInSystem * 16 / (16 * float64(res.MeasureCycles))
	t.Logf("accepted %.5f, offered %.5f flits/node/cycle (tolerance %.5f)", res.Accepted, res.Offered, accTol)
	if math.Abs(res.Accepted-res.Offered) > accTol {
		t.Errorf("accepted %.4f flits/node/cycle, offered %.4f (tolerance %.4f)", res.Accepted, res.Offered, accTol)
	}
}

// TestRunIsDeterministic: same config and seed give identical results.
func TestRunIsDeterministic(t *testing.T) {
	cfg := benchConfig(4, 0.2)
	cfg.Run = quickRun(50000)
	cfg.Routing = RoutingRandomMinimal
	a, b := mustRun(t, cfg), mustRun(t, cfg)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("same seed, different results:\n%+v\n%+v", a, b)
	}
	cfg.Seed++
	if c := mustRun(t, cfg); c.Latency == a.Latency {
		t.Fatalf("another seed gave the same latency %v", c.Latency)
	}
}

func TestSaturationIsReportedNotANumber(t *testing.T) {
	cfg := benchConfig(4, 0.9) // far beyond the 4x4 torus's uniform capacity
	cfg.Run = quickRun(200000)
	res := mustRun(t, cfg)
	if res.Status != sim.StatusSaturated || res.Latency != 0 {
		t.Fatalf("status %s latency %v (%s), want saturated", res.Status, res.Latency, res.Reason)
	}
	// The sustained (saturation) throughput is still reported: below what was
	// offered, above nothing.
	if !(res.Accepted > 0 && res.Accepted < res.Offered) {
		t.Fatalf("saturated point: accepted %v, offered %v flits/node/cycle; want 0 < accepted < offered", res.Accepted, res.Offered)
	}
	t.Logf("saturated at cycle %d: %s; accepted %.4f of %.4f offered", res.Cycles, res.Reason, res.Accepted, res.Offered)
}

// deadlockRing is a unidirectional ring of k routers with one VC of depth
// flits and no dateline classes, fed wormhole packets of the given length
// (longer than the buffers) at rate: they wait on each other round the
// ring. The run stops 500 cycles after the last flit moved.
func deadlockRing(k, depth, flits int, rate float64, seed uint64) Config {
	cfg := Config{
		Topology: topology.Spec{Kind: topology.Ring, K: k, N: 1},
		Router:   router.Arch{VCs: 1, BufferDepth: depth},
		Pattern:  traffic.PatternSpec{Name: "uniform"}, Process: "bernoulli", Rate: rate,
		Length: LengthSpec{Flits: flits}, Seed: seed, Run: quickRun(100000),
		singleClass: true,
	}
	cfg.Run.BacklogLimit = 1e9
	cfg.Run.DeadlockCycles = 500
	return cfg
}

// TestDeadlockIsDetected removes the dateline classes from a unidirectional
// ring with one VC: wormhole packets longer than the buffers then wait on
// each other round the ring. The run must stop and name the blocked VCs.
func TestDeadlockIsDetected(t *testing.T) {
	res := mustRun(t, deadlockRing(4, 2, 8, 0.04, 1))
	if res.Status != sim.StatusDeadlock || len(res.Blocked) == 0 {
		t.Fatalf("status %s, %d blocked (%s), want deadlock", res.Status, len(res.Blocked), res.Reason)
	}
	t.Logf("deadlock at cycle %d: %s", res.DeadlockCycle, res.Reason)
}

// TestDeadlockReportWithoutSlots runs a ring like TestDeadlockIsDetected's
// with the plane, which moves body flits without their slots (router.Plane:
// anonymous bodies) and finds a blocked body's packet upstream, and with
// each router allocating alone, which reads every flit's slot: the two
// must report the same deadlock, packet for packet. The ring is chosen so
// that it tells: with Router.frontPacket reading the front slot of a
// blocked body, the plane reports other packets (seen red); with the ring
// above, the stale slots happen to hold the right ones.
func TestDeadlockReportWithoutSlots(t *testing.T) {
	cfg := deadlockRing(8, 4, 7, 0.05, 2)
	planed := mustRun(t, cfg)
	cfg.ownAllocators = true
	alone := mustRun(t, cfg)
	if planed.Status != sim.StatusDeadlock || len(planed.Blocked) == 0 {
		t.Fatalf("status %s, %d blocked (%s), want deadlock", planed.Status, len(planed.Blocked), planed.Reason)
	}
	if got, want := fmt.Sprint(planed.Blocked), fmt.Sprint(alone.Blocked); got != want {
		t.Fatalf("plane reports %s\nrouters alone %s", got, want)
	}
	t.Logf("deadlock at cycle %d: %s", planed.DeadlockCycle, planed.Reason)
}

func TestRunHonoursCancellation(t *testing.T) {
	cfg := benchConfig(4, 0.2)
	cfg.Run = quickRun(1 << 40)
	cfg.Run.TargetRelCI = 1e-9
	n, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := n.Run(ctx); err == nil {
		t.Fatal("cancelled run returned no error")
	}
}

// TestShortRunCannotClaimSteadyState is the 64x64 torus at 0.1 with
// max_cycles 3000 in small: a run too short to show a steady state, or one
// whose tagged messages cannot drain, never reads ok. The same network with
// enough cycles does.
func TestShortRunCannotClaimSteadyState(t *testing.T) {
	cfg := benchConfig(8, 0.3)
	cfg.Run = sim.RunControl{Period: 1000, Warmup: 1000, MinMeasure: 2000, MaxCycles: 3000, TargetRelCI: 0.01}
	res := mustRun(t, cfg)
	t.Logf("3000 cycles: %s (%s)", res.Status, res.Reason)
	if res.Status != sim.StatusUnconverged || res.Latency != 0 || res.Reason == "" {
		t.Errorf("3000 cycles: status %s latency %v (%s), want unconverged with its reason", res.Status, res.Latency, res.Reason)
	}

	// Overloaded, capped before the trend rule can fire: the tagged
	// messages do not drain within the bound.
	cfg = benchConfig(8, 0.9)
	cfg.Run = sim.RunControl{Period: 1000, Warmup: 1000, MinMeasure: 2000, MaxCycles: 3000, TargetRelCI: 0.01, MaxDrain: 2000}
	res = mustRun(t, cfg)
	t.Logf("overloaded: %s (%s), accepted %.3f of %.3f", res.Status, res.Reason, res.Accepted, res.Offered)
	if res.Status != sim.StatusSaturated || !strings.Contains(res.Reason, "drain did not finish") || res.Latency != 0 {
		t.Errorf("overloaded: status %s (%s), want saturated by the drain bound", res.Status, res.Reason)
	}

	cfg = benchConfig(8, 0.2)
	cfg.Run = quickRun(200000)
	res = mustRun(t, cfg)
	if res.Status != sim.StatusOK || res.DrainCycles <= 0 || res.Messages == 0 {
		t.Errorf("long run: status %s (%s), drain %d cycles, %d messages; want ok after a drain", res.Status, res.Reason, res.DrainCycles, res.Messages)
	}
}

// TestTaggedMessagesAreTheMeasured: every message generated in the
// measurement window is measured, each exactly once, and no other: the
// delivery trace's messages generated in [WarmupEnd, WarmupEnd +
// MeasureCycles) are Result.Messages, and their mean latency is
// Result.Latency.
func TestTaggedMessagesAreTheMeasured(t *testing.T) {
	cfg := benchConfig(4, 0.2)
	cfg.Run = quickRun(200000)
	n, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	type d struct{ gen, lat sim.Cycle }
	var all []d
	n.OnDeliver(func(x Delivery) { all = append(all, d{x.Generated, x.Latency}) })
	res, err := n.Run(context.Background())
	if err != nil || res.Status != sim.StatusOK {
		t.Fatalf("%v %s (%s)", err, res.Status, res.Reason)
	}
	lo, hi := sim.Cycle(res.WarmupEnd), sim.Cycle(res.WarmupEnd+res.MeasureCycles)
	var cnt int64
	var sum float64
	for _, x := range all {
		if x.gen >= lo && x.gen < hi {
			cnt++
			sum += float64(x.lat)
		}
	}
	if cnt != res.Messages {
		t.Errorf("%d messages generated in the window were delivered, Result.Messages = %d", cnt, res.Messages)
	}
	// Result.Latency is the batch-means mean (complete batches only): within
	// a fraction of its CI of the plain mean.
	if mean := sum / float64(cnt); math.Abs(mean-res.Latency) > 0.5*res.LatencyCI95 {
		t.Errorf("plain mean of the tagged messages %.3f, Result.Latency %.3f ± %.3f", mean, res.Latency, res.LatencyCI95)
	}
}
