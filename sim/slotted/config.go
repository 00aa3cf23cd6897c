package slotted

import (
	"errors"
	"fmt"
	"math"
)

// MaxDim is the largest hypercube dimension New accepts: 2^20 nodes, whose
// per-slot work (a permutation of every node) is already about a millisecond.
const MaxDim = 20

// Arrival processes accepted by Config.Arrivals.
const (
	// ArrivalsPoisson is the paper's source (seed 003 §III): a Poisson
	// process of rate λ per node, any number of packets per slot, each with
	// a continuous generation instant.
	ArrivalsPoisson = "poisson"
	// ArrivalsBernoulli relaxes it: at most one packet per node per slot,
	// with probability λ, generated at the start of its slot.
	ArrivalsBernoulli = "bernoulli"
)

// Next-hop choice policies accepted by Config.Choice.
const (
	// ChoiceFree (the default) picks uniformly among the productive
	// neighbours that are still free in this slot and waits only if all k
	// are busy: the hop then succeeds with probability 1 − p^k, the
	// geometric service behind X_k = Σ_{j=1}^{k} 1/(1 − p^j) (seed 003
	// §III.1; docs/models.md#jacquet-inputs, docs/models.md#jacquet-capacity).
	ChoiceFree = "free"
	// ChoiceBlind picks uniformly among all k productive neighbours and
	// waits if that one is busy: a hop succeeds with probability 1 − p
	// whatever k is, so the model's X_k does not describe it. For
	// comparison only.
	ChoiceBlind = "blind"
)

// Config is one run of the slotted hypercube at one load. The zero value of
// every field except Dim and Rate means the default noted beside it. The
// YAML loader maps it as
//
//	slotted.dimensions -> Dim        traffic.process -> Arrivals
//	slotted.choice     -> Choice     sweep.rates[i]  -> Rate (unit packets/node/slot)
//	seed               -> Seed       run.*           -> Run (same key names, cycles read as slots)
type Config struct {
	// Dim is the hypercube dimension n, 1 ≤ n ≤ MaxDim (N = 2^n nodes).
	// Required.
	Dim int
	// Rate is λ, the generation rate in packets per node per slot, > 0
	// (≤ 1 for Bernoulli arrivals). Required. Rates at or above the
	// model's λ_max are allowed: such runs end "saturated".
	Rate float64
	// Arrivals is ArrivalsPoisson (default) or ArrivalsBernoulli.
	Arrivals string
	// Choice is ChoiceFree (default) or ChoiceBlind.
	Choice string
	// Seed is the root seed of every random stream.
	Seed uint64
	// Run is run control: warm-up, stopping rule and saturation limits.
	Run RunControl
}

// RunControl says how long a run lasts and when it is declared saturated.
// All times are in slots; zero values take the defaults noted. Field names
// follow the run: section of the experiment files.
type RunControl struct {
	// Warmup is a fixed warm-up in slots (rounded up to a period end); 0
	// (default) detects the end of the transient automatically by MSER-5 on
	// the per-period mean delay (sim.Monitor).
	Warmup int64
	// MaxWarmup caps automatic warm-up detection (default MaxSlots/2); a
	// backlog still growing at this point is reported as saturation,
	// otherwise measurement starts there.
	MaxWarmup int64
	// Period is the observation period in slots (default 128): backlog,
	// throughput and busy fraction are averaged per period, and the
	// stopping rule and saturation checks run at period ends.
	Period int64
	// MinMeasure is the shortest measurement phase in slots (default 10000).
	MinMeasure int64
	// MaxSlots caps the whole run, warm-up included (default 1<<20).
	MaxSlots int64
	// TargetRelCI is the target relative half-width of the 95% confidence
	// interval of the mean integer-slot delay (default 0.01).
	TargetRelCI float64
	// MinBatches and MaxBatches bound the number of batch means (defaults
	// 10 and 64; MaxBatches must be even and at least 2·MinBatches).
	MinBatches int
	MaxBatches int
	// BacklogLimit declares saturation as soon as the queues hold more
	// than this many packets per node on average (default 512).
	BacklogLimit int
	// CapRelCI bounds the relative half-width of the delay when the run
	// stops at MaxSlots (0 means sim.DefaultCapRelCI): within it the run
	// is ok, beyond it unconverged (sim.Conclude).
	CapRelCI float64
}

// Defaults of RunControl.
const (
	DefaultPeriod       = 128
	DefaultMinMeasure   = 10000
	DefaultMaxSlots     = 1 << 20
	DefaultTargetRelCI  = 0.01
	DefaultMinBatches   = 10
	DefaultMaxBatches   = 64
	DefaultBacklogLimit = 512
)

// withDefaults returns c with zero fields replaced by their defaults.
func (c Config) withDefaults() Config {
	if c.Arrivals == "" {
		c.Arrivals = ArrivalsPoisson
	}
	if c.Choice == "" {
		c.Choice = ChoiceFree
	}
	r := &c.Run
	if r.Period == 0 {
		r.Period = DefaultPeriod
	}
	if r.MinMeasure == 0 {
		r.MinMeasure = DefaultMinMeasure
	}
	if r.MaxSlots == 0 {
		r.MaxSlots = DefaultMaxSlots
	}
	if r.MaxWarmup == 0 {
		r.MaxWarmup = r.MaxSlots / 2
	}
	if r.TargetRelCI == 0 {
		r.TargetRelCI = DefaultTargetRelCI
	}
	if r.MinBatches == 0 {
		r.MinBatches = DefaultMinBatches
	}
	if r.MaxBatches == 0 {
		r.MaxBatches = max(DefaultMaxBatches, 2*r.MinBatches)
	}
	if r.BacklogLimit == 0 {
		r.BacklogLimit = DefaultBacklogLimit
	}
	return c
}

// validate reports every problem with c (already defaulted) at once.
func (c Config) validate() error {
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf("slotted: "+format, args...)) }
	if c.Dim < 1 || c.Dim > MaxDim {
		add("Dim = %d, want 1..%d", c.Dim, MaxDim)
	}
	switch {
	case math.IsNaN(c.Rate) || math.IsInf(c.Rate, 0) || c.Rate <= 0:
		add("Rate = %v packets/node/slot, want a finite rate > 0", c.Rate)
	case c.Arrivals == ArrivalsBernoulli && c.Rate > 1:
		add("Rate = %v packets/node/slot with Bernoulli arrivals, want <= 1 (at most one packet per slot)", c.Rate)
	}
	if c.Arrivals != ArrivalsPoisson && c.Arrivals != ArrivalsBernoulli {
		add("unknown Arrivals %q (want %q or %q)", c.Arrivals, ArrivalsPoisson, ArrivalsBernoulli)
	}
	if c.Choice != ChoiceFree && c.Choice != ChoiceBlind {
		add("unknown Choice %q (want %q or %q)", c.Choice, ChoiceFree, ChoiceBlind)
	}
	r := c.Run
	if r.Warmup < 0 {
		add("Run.Warmup = %d slots, want >= 0 (0: automatic)", r.Warmup)
	}
	if r.Period < 1 || r.Period > 1<<16 {
		add("Run.Period = %d slots, want 1..65536", r.Period)
	}
	if r.MinMeasure < 1 {
		add("Run.MinMeasure = %d slots, want >= 1", r.MinMeasure)
	}
	if r.MaxSlots < 1 {
		add("Run.MaxSlots = %d slots, want >= 1", r.MaxSlots)
	}
	if r.MaxWarmup < 1 || r.MaxWarmup >= r.MaxSlots {
		add("Run.MaxWarmup = %d slots, want 1..MaxSlots-1 (%d)", r.MaxWarmup, r.MaxSlots-1)
	}
	if r.Warmup >= r.MaxSlots && r.MaxSlots >= 1 {
		add("Run.Warmup = %d slots leaves no measurement before MaxSlots = %d", r.Warmup, r.MaxSlots)
	}
	if r.Warmup == 0 && r.Period >= 1 && r.MaxWarmup >= 1 && r.MaxWarmup < firstMSERCheck*r.Period {
		add("Run.MaxWarmup = %d slots is shorter than the %d periods (%d slots) automatic warm-up needs; raise it (or MaxSlots) or set Run.Warmup",
			r.MaxWarmup, firstMSERCheck, firstMSERCheck*r.Period)
	}
	if r.Period >= 1 && r.MaxWarmup/r.Period > 1<<22 {
		add("Run.MaxWarmup/Run.Period = %d periods, want <= %d (the warm-up series is kept in memory)", r.MaxWarmup/r.Period, 1<<22)
	}
	if !(r.TargetRelCI > 0 && r.TargetRelCI < 1) {
		add("Run.TargetRelCI = %v, want in (0, 1)", r.TargetRelCI)
	}
	if r.MinBatches < 2 {
		add("Run.MinBatches = %d, want >= 2", r.MinBatches)
	}
	if r.MaxBatches%2 != 0 || r.MaxBatches < 2*r.MinBatches {
		add("Run.MaxBatches = %d, want even and >= 2*MinBatches (%d)", r.MaxBatches, 2*r.MinBatches)
	}
	if r.BacklogLimit < 1 {
		add("Run.BacklogLimit = %d packets/node, want >= 1", r.BacklogLimit)
	}
	return errors.Join(errs...)
}
