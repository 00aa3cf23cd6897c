package configs

import (
	"fmt"

	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/sim/slotted"
	"github.com/flitsim/flitsim/sim/sweep"
)

// Slotted is the slotted: section of a mode-slotted experiment, the slotted
// send-or-receive binary n-cube of Jacquet & Mühlethaler (INRIA RR-1276,
// 1990; docs/models.md#jacquet; sim/slotted). Time is in slots.
type Slotted struct {
	// Dimensions is n, the hypercube dimension (1..20, required; N = 2^n
	// nodes).
	Dimensions int `yaml:"dimensions" json:"dimensions"`
	// Choice is the next-hop policy: "free" (default: uniform among the
	// productive neighbours still free in the slot, the policy the model's
	// X_k assumes) or "blind" (uniform among all productive neighbours).
	Choice string `yaml:"choice" json:"choice"`
}

// resolveSlotted fills the defaults of mode slotted. Its traffic is the
// paper's: uniform destinations, Poisson arrivals unless traffic.process
// says bernoulli.
func (e *Experiment) resolveSlotted(r *reporter) {
	if !r.set("slotted.choice") {
		e.Slotted.Choice = slotted.ChoiceFree
	}
	if !r.set("traffic.pattern") {
		e.Traffic.Pattern = "uniform"
	}
	if !r.set("traffic.process") {
		e.Traffic.Process = slotted.ArrivalsPoisson
	}
}

// validateSlotted checks the slotted: section and the traffic it accepts.
func validateSlotted(e *Experiment, r *reporter) {
	s := &e.Slotted
	requiredInt(r, "slotted.dimensions", fmt.Sprintf("slotted.dimensions (n of the 2^n-node hypercube, 1..%d)", slotted.MaxDim), s.Dimensions, 1, slotted.MaxDim)
	oneOf(r, "slotted.choice", s.Choice, slotted.ChoiceFree, slotted.ChoiceBlind)
	if e.Traffic.Pattern != "uniform" {
		r.errorf("traffic.pattern", "mode slotted sends to uniform destinations only (the model's assumption), got %q", e.Traffic.Pattern)
	}
	oneOf(r, "traffic.process", e.Traffic.Process, slotted.ArrivalsPoisson, slotted.ArrivalsBernoulli)
}

// SlottedConfig returns the sim/slotted configuration of sweep point
// `point` of a mode-slotted experiment, run with root seed `seed` (one
// replication's seed from the sweep, sweep.UnitSeed):
//
//	Rate = sweep.rates[point]   (lambda, packets/node/slot)
//	Dim = slotted.dimensions, Choice = slotted.choice, Arrivals = traffic.process
//
// and run: is read in slots, key for key (run.max_cycles → Run.MaxSlots;
// warmup, max_warmup, period, min_measure, target_rel_ci, min_batches,
// max_batches, backlog_limit by the same names; 0 leaves sim/slotted's
// default). It fails only for an experiment of another mode.
func (e *Experiment) SlottedConfig(point int, seed uint64) (slotted.Config, error) {
	if e.Mode != "slotted" {
		return slotted.Config{}, fmt.Errorf("configs: %s: mode %q is not mode slotted", e.Name, e.Mode)
	}
	rc := e.Run
	return slotted.Config{
		Dim:      e.Slotted.Dimensions,
		Rate:     e.Sweep.Rates[point],
		Arrivals: e.Traffic.Process,
		Choice:   e.Slotted.Choice,
		Seed:     seed,
		Run: slotted.RunControl{
			Warmup: rc.Warmup, MaxWarmup: rc.MaxWarmup, Period: rc.Period, MinMeasure: rc.MinMeasure,
			MaxSlots: rc.MaxCycles, TargetRelCI: rc.TargetRelCI,
			MinBatches: rc.MinBatches, MaxBatches: rc.MaxBatches, BacklogLimit: rc.BacklogLimit, CapRelCI: rc.CapRelCI,
		},
	}, nil
}

// slottedEngine is mode slotted's engine (its mode-table row):
// sim/slotted at lambda = the sweep rate, packets/node/slot.
var slottedEngine = engineOf(slotted.New, slottedOutcome, measureSlotted,
	atPoint0((*Experiment).SlottedConfig),
	func(n *slotted.Config, _ int, rate float64, seed uint64) (slotted.Config, string, error) {
		cfg := *n
		cfg.Rate, cfg.Seed = rate, seed
		return cfg, "", nil
	})

// measureSlotted sets the accepted rate of a slotted run (saturated too)
// and, when it is ok, its delays and throughput, with their CIs.
func measureSlotted(_ slotted.Config, r slotted.Result, _ string, set SetQuantity) {
	if r.Throughput.Mean > 0 {
		set(QAcceptedRate, r.Throughput.Mean, r.Throughput.HalfWidth, r.Throughput.CIOK())
	}
	if r.Status == sim.StatusOK {
		set(QDelay, r.Delay.Mean, r.Delay.HalfWidth, r.Delay.CIOK())
		set(QDelayContinuous, r.DelayContinuous.Mean, r.DelayContinuous.HalfWidth, r.DelayContinuous.CIOK())
		set(QThroughput, r.Throughput.Mean, r.Throughput.HalfWidth, true)
	}
}

// slottedOutcome maps a Jacquet–Mühlethaler slotted-hypercube run onto a
// results row:
//
//	latency          integer-slot delay (slots), compare with the model's T, with its CI
//	network_latency  continuous delay (slots), compare with the Bernoulli model's D, with its CI
//	accepted         delivered throughput, packets/node/slot
//	offered          generated rate, packets/node/slot
//	cycles           slots simulated, warm-up included
//	extra            the busy probability p, the hop service time x1 (slots) and hops, with CIs
//
// A saturated run has no delay; throughput and offered describe its window.
func slottedOutcome(r slotted.Result) sweep.Outcome {
	o := sweep.Outcome{
		Status: r.Status, Reason: r.Reason,
		Latency: noNumber, LatencyCI95: noNumber, NetworkLatency: noNumber, NetworkLatencyCI95: noNumber,
		Accepted: r.Throughput.Mean, Offered: r.Offered.Mean,
		Cycles: r.WarmupSlots + r.MeasuredSlots,
	}
	if r.Status != sim.StatusOK {
		return o
	}
	o.Latency, o.LatencyCI95 = r.Delay.Mean, r.Delay.HalfWidth
	o.NetworkLatency, o.NetworkLatencyCI95 = r.DelayContinuous.Mean, r.DelayContinuous.HalfWidth
	o.Extra = []sweep.Metric{
		metric("p busy", r.Busy.Mean, r.Busy.HalfWidth),
		metric("x1 slots/hop", r.HopService.Mean, r.HopService.HalfWidth),
		metric("hops", r.Hops.Mean, r.Hops.HalfWidth),
	}
	return o
}

// slottedLinks ties each field of the slotted.Config SlottedConfig builds
// to the key it comes from (for the engine's refusals, engineKeys).
func slottedLinks(e *Experiment) (any, []fieldLink) {
	c := &slotted.Config{}
	r := &e.Run
	return c, []fieldLink{
		link(&c.Dim, &e.Slotted.Dimensions), link(&c.Rate, &e.Sweep.Rates), link(&c.Arrivals, &e.Traffic.Process),
		link(&c.Choice, &e.Slotted.Choice), link(&c.Seed, &e.Seed),
		link(&c.Run.Warmup, &r.Warmup), link(&c.Run.MaxWarmup, &r.MaxWarmup), link(&c.Run.Period, &r.Period),
		link(&c.Run.MinMeasure, &r.MinMeasure), link(&c.Run.MaxSlots, &r.MaxCycles), link(&c.Run.TargetRelCI, &r.TargetRelCI),
		link(&c.Run.MinBatches, &r.MinBatches), link(&c.Run.MaxBatches, &r.MaxBatches),
		link(&c.Run.BacklogLimit, &r.BacklogLimit), link(&c.Run.CapRelCI, &r.CapRelCI),
	}
}
