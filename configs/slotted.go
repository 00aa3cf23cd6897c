package configs

import (
	"fmt"

	"github.com/flitsim/flitsim/sim/slotted"
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
