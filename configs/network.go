package configs

import (
	"fmt"

	"github.com/flitsim/flitsim/router"
	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/sim/network"
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
			HoldClass:   e.Router.Dateline == "hold",
			VCAllocator: e.Router.VCAllocator, SwitchAllocator: e.Router.SwitchAllocator, AllocIterations: e.Router.AllocIterations,
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
		Seed: seed,
		Run:  e.runControl(),
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
