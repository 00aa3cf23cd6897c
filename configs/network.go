package configs

import (
	"fmt"
	"math"
	"strconv"

	"github.com/flitsim/flitsim/router"
	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/sim/network"
	"github.com/flitsim/flitsim/sim/sweep"
	"github.com/flitsim/flitsim/topology"
	"github.com/flitsim/flitsim/topology/multistage"
	"github.com/flitsim/flitsim/traffic/trace"
)

// switchingOf maps switching.technique to the router's switching.
var switchingOf = map[string]router.Switching{
	"wormhole":            router.Wormhole,
	"virtual-cut-through": router.VirtualCutThrough,
	"store-and-forward":   router.StoreAndForward,
	"scouting":            router.Scouting,
}

// NetworkConfig returns the engine configuration of sweep point `point` of
// a mode-network experiment, run with root seed `seed` (one replication's
// seed from the sweep). The offered load is converted to messages per node
// per cycle ([Experiment.MessageRate]); everything else maps one to one:
// routing: adaptive to network.RoutingAdaptive, router.escape_vcs to
// Config.EscapeVCs, switching.technique: scouting and scouting_distance to
// router.Scouting and Router.ScoutingDistance. It fails only for an
// experiment of another mode.
func (e *Experiment) NetworkConfig(point int, seed uint64) (network.Config, error) {
	if e.Mode != "network" {
		return network.Config{}, fmt.Errorf("configs: %s: mode %q does not run on the network engine", e.Name, e.Mode)
	}
	var spec topology.Spec
	var ms *multistage.Spec
	g, err := e.GraphNetwork()
	if err != nil {
		return network.Config{}, err
	}
	if g != nil {
		// the graph network carries its own shape and link latencies
	} else if e.Network.Topology == "delta" {
		w, err := multistage.ParseWiring(e.Network.Wiring)
		if err != nil {
			return network.Config{}, err
		}
		ms = &multistage.Spec{Degree: e.Network.Radix, Stages: e.Network.Dimensions, Wiring: w}
	} else {
		kind, err := topology.ParseKind(e.Network.Topology)
		if err != nil {
			return network.Config{}, err
		}
		spec = topology.Spec{Kind: kind, K: e.Network.Radix, N: e.Network.Dimensions, Bidirectional: e.Network.Bidirectional}
	}
	sw, ok := switchingOf[e.Switching.Technique]
	if !ok {
		return network.Config{}, fmt.Errorf("configs: %s: switching %q does not run on the network engine", e.Name, e.Switching.Technique)
	}
	t := e.Traffic
	ties, err := topology.ParseTies(e.Router.TieBreak)
	if err != nil {
		return network.Config{}, fmt.Errorf("configs: %s: %w", e.Name, err)
	}
	adaptiveVC := router.WholePacket
	if e.Router.AdaptiveVC != "" {
		if adaptiveVC, err = router.ParseAdaptiveVC(e.Router.AdaptiveVC); err != nil {
			return network.Config{}, fmt.Errorf("configs: %s: %w", e.Name, err)
		}
	}
	rate, speedup := e.MessageRate(point), 0.0
	var tr *trace.Trace
	if t.Trace.File != "" {
		if tr, err = e.loadedTrace(); err != nil {
			return network.Config{}, fmt.Errorf("configs: %s: %w", e.Name, err)
		}
		rate, speedup = 0, e.Sweep.Rates[point]
	}
	return network.Config{
		Trace:        tr,
		TraceSpeedup: speedup,
		Topology:     spec,
		Multistage:   ms,
		Graph:        g,
		Routing:      e.Routing,
		EscapeVCs:    e.Router.EscapeVCs,
		Ties:         ties,
		Router: router.Arch{
			VCs: e.Router.VCs, BufferDepth: e.Router.BufferDepth,
			RoutingDelay: e.Router.RoutingDelay, VCAllocDelay: e.Router.VCAllocDelay,
			SwitchAllocDelay: e.Router.SwitchAllocDelay, SwitchTraversalDelay: e.Router.SwitchTraversalDelay,
			Switching: sw, ScoutingDistance: e.Switching.ScoutingDistance,
			HoldClass:    e.Router.Dateline == "hold",
			StickyEscape: e.Router.StickyEscape,
			AdaptiveVC:   adaptiveVC,
			VCAllocator:  e.Router.VCAllocator, SwitchAllocator: e.Router.SwitchAllocator, AllocIterations: e.Router.AllocIterations,
		},
		LinkLatency:      e.Network.LinkLatency,
		CreditDelay:      e.Network.CreditDelay,
		InjectionLatency: e.Network.InjectionLatency,
		EjectionLatency:  e.Network.EjectionLatency,
		EjectionVCs:      e.Network.EjectionVCs,
		InjectionVCs:     e.Network.InjectionVCs,
		Pattern:          e.patternSpec(),
		Process:          t.Process,
		Burst:            t.BurstLength,
		Duty:             t.DutyCycle,
		Rate:             rate,
		Length: network.LengthSpec{
			Distribution: t.Length.Distribution, Flits: t.Length.Flits, Mean: t.Length.Mean, Max: t.Length.Max,
		},
		Seed:    seed,
		Run:     e.runControl(),
		Threads: e.Run.Threads,
	}, nil
}

// checkDeadlockCycles checks run.deadlock_cycles (rc: the run control with
// the engine's defaults filled in) against the network: at least its
// longest round trip (network.Config.RoundTrip: routing, VC and switch
// allocation, switch traversal, the slowest link and the credit's return),
// or a network waiting on its own pipeline at a light load would be called
// deadlocked; and, when set, at most run.max_cycles, or the rule could
// never fire (the default may exceed a short max_cycles: the end-of-run
// stall rule, network.Config.DeadlockStall, still reports a deadlock).
func checkDeadlockCycles(e *Experiment, r *reporter, rc sim.RunControl) {
	cfg, err := e.NetworkConfig(0, e.Seed)
	if err != nil {
		return
	}
	key := "run.deadlock_cycles"
	rt := cfg.RoundTrip()
	set := ""
	if !r.set(key) {
		set = " (the default)"
	}
	switch {
	case rc.DeadlockCycles < rt:
		r.errorf(key, "%d%s is below the network's longest round trip of %d cycles (routing %d + VC allocation %d + switch allocation %d + traversal %d + slowest link %d + credit %d + 1): a network waiting on its own pipeline would be reported deadlocked; use at least %d",
			rc.DeadlockCycles, set, rt, cfg.Router.RoutingDelay, cfg.Router.VCAllocDelay, cfg.Router.SwitchAllocDelay, cfg.Router.SwitchTraversalDelay,
			int64(rt)-int64(cfg.Router.RoutingDelay+cfg.Router.VCAllocDelay+cfg.Router.SwitchAllocDelay+cfg.Router.SwitchTraversalDelay+max(cfg.CreditDelay, 1)+1), max(cfg.CreditDelay, 1), rt)
	case rc.DeadlockCycles > rc.MaxCycles && set == "":
		r.errorf(key, "%d%s exceeds run.max_cycles %d: a deadlock could never be declared during the run (the end-of-run rule calls a stall of min(deadlock_cycles, 4 round trips) a deadlock anyway); use at most %d",
			rc.DeadlockCycles, set, rc.MaxCycles, rc.MaxCycles)
	}
}

// checkRunLength refuses a run that cannot end ok at all, before it runs
// (rc: the run control with the engine's defaults): a measurement window
// (max_cycles less a fixed warm-up) shorter than min_batches periods, which
// the throughput check of the status rule and the saturation trend need,
// so every point would end unconverged; and a sweep rate so low that the
// window expects fewer than min_batches messages over the whole network
// (5e-324 expects none), so no latency could ever be estimated.
func checkRunLength(e *Experiment, r *reporter, rc sim.RunControl) {
	window := rc.MaxCycles - rc.Warmup
	need := sim.Cycle(rc.MinBatches) * rc.Period
	if window < need {
		key := "run.max_cycles"
		if !r.set(key) {
			key = "run"
		}
		r.errorf(key, "max_cycles %d less the warm-up %d leaves %d cycles to measure, fewer than the %d periods of %d cycles (min_batches × period = %d) the status rule needs: every point would end unconverged; raise max_cycles or lower period",
			rc.MaxCycles, rc.Warmup, window, rc.MinBatches, rc.Period, need)
		return
	}
	nodes := float64(e.Nodes())
	for i := range e.Sweep.Rates {
		expect := e.MessageRate(i) * nodes * float64(window)
		if expect < float64(rc.MinBatches) {
			r.errorf(fmt.Sprintf("sweep.rates[%d]", i), "rate %g %s expects %.3g messages from %d nodes in the at most %d measured cycles, fewer than the min_batches %d a latency estimate needs: the point could never end ok; raise the rate or run.max_cycles",
				e.Sweep.Rates[i], e.Sweep.Unit, expect, e.Nodes(), window, rc.MinBatches)
		}
	}
}

// checkNetworkRate checks sweep rate i (key p, value v) of a network
// experiment: the unit against traffic.trace, and what a Bernoulli or
// on/off source can create.
func checkNetworkRate(e *Experiment, r *reporter, i int, p string, v float64, lenOK bool) {
	if (e.Sweep.Unit == UnitTraceSpeedup) != r.set("traffic.trace") && i == 0 {
		if e.Sweep.Unit == UnitTraceSpeedup {
			r.errorf("sweep.unit", "trace-speedup applies only with traffic.trace")
		} else {
			r.errorf("sweep.unit", "a trace run sweeps its speed-up: unit trace-speedup (rates: factors dividing the recorded cycles, 1 = as recorded)")
		}
	}
	if e.Traffic.Process == "bernoulli" && lenOK {
		if m := e.MessageRate(i); m > 1 {
			r.errorf(p, "a Bernoulli source creates at most 1 message per cycle; rate %g is %g messages/node/cycle", v, m)
		}
	}
	if e.Traffic.Process == "onoff" && lenOK && e.Traffic.DutyCycle > 0 {
		if m := e.MessageRate(i); m > e.Traffic.DutyCycle {
			r.errorf(p, "an on/off source creates at most 1 message per on cycle, so at most duty_cycle %g messages/node/cycle; rate %g is %g messages/node/cycle", e.Traffic.DutyCycle, v, m)
		}
	}
}

// measureNetwork sets the quantities of a network run the harness judges:
// latency (its CI only when there is one), accepted throughput (no
// interval: judged on its raw error) and, saturated points too, the
// accepted rate in the sweep's unit (flits per message for
// messages/node/cycle).
func measureNetwork(cfg network.Config, r network.Result, unit string, set SetQuantity) {
	perRate := 1.0 // flits per unit of the sweep rate
	if unit == UnitMessages {
		perRate = cfg.Length.MeanFlits()
	}
	if r.Accepted > 0 {
		set(QAcceptedRate, r.Accepted/perRate, math.NaN(), false)
	}
	if r.Status == sim.StatusOK {
		set(QLatency, r.Latency, r.LatencyCI95, r.LatencyCI95 > 0)
		set(QAccepted, r.Accepted, 0, true)
	}
}

// networkOutcome maps a flit-level network run onto a results row (the
// columns' native mode: latencies in cycles, rates in flits/node/cycle);
// extra holds the latency percentiles, hops, source wait, channel
// utilisation and, for adaptive routing or scouting, the quantities the
// Safaei model predicts (no CIs: single-run figures).
func networkOutcome(r network.Result) sweep.Outcome {
	o := sweep.Outcome{
		Status: r.Status, Reason: r.Reason,
		Latency: r.Latency, LatencyCI95: r.LatencyCI95,
		NetworkLatency: r.NetworkLatency, NetworkLatencyCI95: r.NetworkLatencyCI95,
		Accepted: r.Accepted, Offered: r.Offered, Cycles: r.Cycles,
	}
	if r.Trace != nil {
		return traceOutcome(o, r)
	}
	if r.Status != sim.StatusOK {
		return o
	}
	o.Extra = []sweep.Metric{
		metric("p50 cycles", float64(r.P50), noNumber),
		metric("p95 cycles", float64(r.P95), noNumber),
		metric("p99 cycles", float64(r.P99), noNumber),
		metric("hops", r.Hops, noNumber),
		metric("source wait cycles", r.SourceWait, noNumber),
		metric("channel util mean", r.MeanChannelUtil, noNumber),
		metric("channel util max", r.MaxChannelUtil, noNumber),
	}
	if r.VCMultiplexing > 0 {
		o.Extra = append(o.Extra,
			metric("setup cycles", r.SetupTime, noNumber),
			metric("backtracks/message", r.Backtracks, noNumber),
			metric("VC multiplexing", r.VCMultiplexing, noNumber))
		for v, p := range r.VCOccupancy {
			o.Extra = append(o.Extra, metric("P_v["+strconv.Itoa(v)+"]", p, noNumber))
		}
	}
	return o
}

// traceOutcome maps a trace-driven run (network.TraceResult) onto a
// results row: latency and network latency are the per-packet means over
// the whole trace with no CI (a trace's packets are not a sample),
// accepted and offered are flits/node/cycle over the run time, cycles the
// cycles simulated; extra holds the run time T (cycles to deliver the
// trace), the ideal run time T0 (every packet at its zero-load latency),
// the slowdown T/T0, the mean packet slowdown (latency / zero-load
// latency), the latency percentiles and maximum, hops, source wait and
// the packet counts. An unconverged or deadlocked trace run is, like any
// row that is not ok, reported with its reason, accepted and offered only.
func traceOutcome(o sweep.Outcome, r network.Result) sweep.Outcome {
	t := r.Trace
	o.LatencyCI95, o.NetworkLatencyCI95 = noNumber, noNumber
	if r.Status != sim.StatusOK {
		o.Latency, o.NetworkLatency = noNumber, noNumber
	}
	o.Extra = []sweep.Metric{
		metric("run cycles", float64(t.RunCycles), noNumber),
		metric("ideal run cycles", float64(t.IdealCycles), noNumber),
		metric("slowdown", t.Slowdown, noNumber),
		metric("packet slowdown", t.PacketSlowdown, noNumber),
		metric("p50 cycles", float64(t.P50), noNumber),
		metric("p95 cycles", float64(t.P95), noNumber),
		metric("p99 cycles", float64(t.P99), noNumber),
		metric("max cycles", float64(t.MaxLatency), noNumber),
		metric("hops", t.Hops, noNumber),
		metric("source wait cycles", t.SourceWait, noNumber),
		metric("packets", float64(t.Packets), noNumber),
		metric("delivered", float64(t.Delivered), noNumber),
	}
	return o
}

// runControlLinks ties each field of the sim.RunControl runControl builds
// to the key it comes from (for the engine's refusals, engineKeys).
func runControlLinks(e *Experiment) (any, []fieldLink) {
	c := &sim.RunControl{}
	r := &e.Run
	return c, []fieldLink{
		link(&c.Period, &r.Period), link(&c.Warmup, &r.Warmup), link(&c.MaxWarmup, &r.MaxWarmup),
		link(&c.MinMeasure, &r.MinMeasure), link(&c.MaxCycles, &r.MaxCycles), link(&c.TargetRelCI, &r.TargetRelCI),
		link(&c.MaxBatches, &r.MaxBatches), link(&c.MinBatches, &r.MinBatches),
		{engine: &c.BacklogLimit, schema: &r.BacklogLimit, note: "times the nodes"},
		link(&c.DeadlockCycles, &r.DeadlockCycles), link(&c.CapRelCI, &r.CapRelCI), link(&c.MaxDrain, &r.MaxDrain),
	}
}
