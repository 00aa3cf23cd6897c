package delta

import (
	"errors"
	"fmt"
	"math"

	"github.com/flitsim/flitsim/topology/multistage"
)

// Rejection modes (docs/models.md#makrucki-simulator item 3).
const (
	// ResubmitSource returns a packet rejected at stage i >= 2 to its
	// source, which re-offers it to its stage-1 queue after
	// Config.ResubmitDelay (Makrucki & Mudge §2.2, the report's main model).
	ResubmitSource = "resubmit-source"
	// RetryPrevious puts a packet rejected at stage i >= 2 back at the tail
	// of the stage-(i-1) queue it just left, whose place it keeps, to be
	// served again (addendum SEL-TR-167).
	RetryPrevious = "retry-previous"
	// Drop discards a rejected packet at any stage.
	Drop = "drop"
)

// Service-time laws.
const (
	Exponential = "exponential" // Exp(mu) in continuous time; Geometric(mu) >= 1 cycles when slotted
	Fixed       = "fixed"       // exactly 1/mu (an integer number of cycles when slotted)
)

// Time bases.
const (
	Continuous = "continuous" // event-driven continuous time, Poisson sources
	Slotted    = "slotted"    // integer cycles, Bernoulli sources, phases in reverse stage order
)

// Config is one run of the packet-level delta-network model at one load.
// Zero values mean the documented defaults (those of Figure 6 of the report:
// n = 64, b = 4, z = 3, mu = 1).
type Config struct {
	Degree      int     // b, switch size b x b, >= 2; 0 means 4
	Stages      int     // z, >= 1; 0 means 3 (n = b^z terminals)
	Wiring      string  // "omega" (default), "butterfly" or "baseline"
	QueueLength int     // L, places per output queue including the one in service, >= 1; 0 means 4
	Rate        float64 // lambda, packets emitted per source per time unit, > 0 (slotted: <= 1 per cycle)
	Mu          float64 // mu, service rate per time unit, > 0; 0 means 1 (slotted: <= 1 per cycle)
	Service     string  // Exponential (default) or Fixed
	Time        string  // Continuous (default) or Slotted
	Rejection   string  // ResubmitSource (default), RetryPrevious or Drop

	// ResubmitDelay is the time a packet rejected at stage i >= 2 spends
	// travelling back to its source before it is re-offered to stage 1,
	// in time units (slotted: whole cycles), >= 0; 0 is the report's
	// instantaneous resubmission. Used by ResubmitSource only.
	ResubmitDelay float64

	// RetryBuffer is where packets wait for room in stage 1 (after a
	// stage-1 rejection, or on their way back in): "source" (default) is
	// one FIFO per source, head-of-line blocking included (docs/models.md#makrucki-simulator
	// item 3); "queue" is one FIFO per stage-1 queue shared by the b
	// sources of its switch, in order of arrival (no head-of-line
	// blocking). Unused in drop mode.
	RetryBuffer string

	Seed uint64 // root seed of every random stream
	Run  Run
}

// Run is the run control. Times are in the model's time unit (cycles when
// slotted).
type Run struct {
	// Warmup is the time discarded before measuring, >= 0; 0 means
	// automatic: MSER-5 on the per-period PDT (sim.Monitor), capped at
	// half of MaxTime.
	Warmup float64
	// Period is the length of one observation period (the unit of the
	// batch-means series), > 0; 0 means max(10/mu, 200/(n lambda)), so a
	// period sees about 200 emissions at least.
	Period float64
	// MinMeasure is the least measured time before the stopping rule may
	// end the run; 0 means 64 periods.
	MinMeasure float64
	// MaxTime caps the simulated time; 0 means 2000 periods.
	MaxTime float64
	// TargetRelCI stops the run once the 95% CI half-widths of PDT,
	// PDT-network and NTP are all within this fraction of their means (and
	// their batch means pass the lag-1 check); 0 means 0.02; a negative
	// value disables it (run to MaxTime).
	TargetRelCI float64
	// MaxBacklog declares the point saturated as soon as this many packets
	// wait in source retry buffers or travel back to their sources; 0
	// means 100 n.
	MaxBacklog int
	// CapRelCI bounds the relative half-widths of PDT and NTP when the run
	// stops at MaxTime (0 means sim.DefaultCapRelCI): within it the run is
	// ok, beyond it unconverged (sim.Conclude).
	CapRelCI float64
}

// resolved is a Config with defaults filled in and parsed enums.
type resolved struct {
	Config
	wiring  multistage.Wiring
	slotted bool
	fixed   bool
	mode    mode
	perSrc  bool
	n       int
}

type mode uint8

const (
	modeResubmit mode = iota
	modeRetry
	modeDrop
)

// WithDefaults returns c with zero fields replaced by their defaults (the
// models read a Config through it, so they see the fabric the simulator
// builds).
func (c Config) WithDefaults() Config {
	if c.Degree == 0 {
		c.Degree = 4
	}
	if c.Stages == 0 {
		c.Stages = 3
	}
	if c.Wiring == "" {
		c.Wiring = "omega"
	}
	if c.QueueLength == 0 {
		c.QueueLength = 4
	}
	if c.Mu == 0 {
		c.Mu = 1
	}
	if c.Service == "" {
		c.Service = Exponential
	}
	if c.Time == "" {
		c.Time = Continuous
	}
	if c.Rejection == "" {
		c.Rejection = ResubmitSource
	}
	if c.RetryBuffer == "" {
		c.RetryBuffer = "source"
	}
	if c.Run.TargetRelCI == 0 {
		c.Run.TargetRelCI = 0.02
	}
	return c
}

func finitePos(x float64) bool { return x > 0 && !math.IsInf(x, 1) }

// resolve applies the defaults and validates every field, reporting all
// problems at once.
func (c Config) resolve() (resolved, error) {
	c = c.WithDefaults()
	r := resolved{Config: c}
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf("delta: "+format, args...)) }

	w, err := multistage.ParseWiring(c.Wiring)
	if err != nil {
		errs = append(errs, err)
	}
	r.wiring = w
	n, err := multistage.Spec{Degree: c.Degree, Stages: c.Stages, Wiring: w}.Terminals()
	if err != nil {
		errs = append(errs, err)
	}
	r.n = n
	if c.QueueLength < 1 {
		add("QueueLength = %d, want >= 1", c.QueueLength)
	}
	switch c.Time {
	case Continuous:
	case Slotted:
		r.slotted = true
	default:
		add("unknown Time %q (want %q or %q)", c.Time, Continuous, Slotted)
	}
	switch c.Service {
	case Exponential:
	case Fixed:
		r.fixed = true
	default:
		add("unknown Service %q (want %q or %q)", c.Service, Exponential, Fixed)
	}
	switch c.Rejection {
	case ResubmitSource:
		r.mode = modeResubmit
	case RetryPrevious:
		r.mode = modeRetry
	case Drop:
		r.mode = modeDrop
	default:
		add("unknown Rejection %q (want %q, %q or %q)", c.Rejection, ResubmitSource, RetryPrevious, Drop)
	}
	switch c.RetryBuffer {
	case "source":
		r.perSrc = true
	case "queue":
	default:
		add("unknown RetryBuffer %q (want source or queue)", c.RetryBuffer)
	}
	if !finitePos(c.Rate) {
		add("Rate = %v packets/source/time, want finite > 0", c.Rate)
	}
	if !finitePos(c.Mu) {
		add("Mu = %v /time, want finite > 0", c.Mu)
	}
	if r.slotted {
		if c.Rate > 1 {
			add("slotted Rate = %v > 1 packet/source/cycle (Bernoulli sources)", c.Rate)
		}
		if c.Mu > 1 {
			add("slotted Mu = %v > 1 service/cycle", c.Mu)
		}
		if r.fixed && finitePos(c.Mu) {
			if d := 1 / c.Mu; math.Abs(d-math.Round(d)) > 1e-9*d {
				add("slotted fixed service needs 1/Mu integer cycles, got %v", d)
			}
		}
		if c.ResubmitDelay != math.Trunc(c.ResubmitDelay) {
			add("slotted ResubmitDelay = %v, want whole cycles", c.ResubmitDelay)
		}
	}
	if !(c.ResubmitDelay >= 0) || math.IsInf(c.ResubmitDelay, 1) {
		add("ResubmitDelay = %v, want finite >= 0", c.ResubmitDelay)
	}
	rc := &r.Run
	if !(rc.Warmup >= 0) || math.IsInf(rc.Warmup, 1) {
		add("Run.Warmup = %v, want finite >= 0 (0 = automatic)", rc.Warmup)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"Period", rc.Period}, {"MinMeasure", rc.MinMeasure}, {"MaxTime", rc.MaxTime}} {
		if !(f.v >= 0) || math.IsInf(f.v, 1) {
			add("Run.%s = %v, want finite >= 0 (0 = default)", f.name, f.v)
		}
	}
	if math.IsNaN(rc.TargetRelCI) {
		add("Run.TargetRelCI is NaN")
	}
	if rc.MaxBacklog < 0 {
		add("Run.MaxBacklog = %d, want >= 0 (0 = default)", rc.MaxBacklog)
	}
	if len(errs) > 0 {
		return r, errors.Join(errs...)
	}

	if rc.Period == 0 {
		rc.Period = max(10/c.Mu, 200/(float64(n)*c.Rate))
	}
	if r.slotted {
		rc.Period = math.Ceil(rc.Period)
	}
	if rc.MaxTime == 0 {
		rc.MaxTime = 2000 * rc.Period
	}
	if rc.MinMeasure == 0 {
		rc.MinMeasure = 64 * rc.Period
	}
	if rc.MaxBacklog == 0 {
		rc.MaxBacklog = 100 * n
	}
	per := math.Ceil(rc.MaxTime / rc.Period)
	if per > 1<<22 {
		return r, fmt.Errorf("delta: Run.MaxTime/Run.Period = %v periods, want <= %d", per, 1<<22)
	}
	if rc.Warmup >= rc.MaxTime {
		return r, fmt.Errorf("delta: Run.Warmup = %v leaves nothing of Run.MaxTime = %v", rc.Warmup, rc.MaxTime)
	}
	return r, nil
}
