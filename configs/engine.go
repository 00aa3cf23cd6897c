package configs

import (
	"context"
	"fmt"
	"math"

	"github.com/flitsim/flitsim/sim/network"
	"github.com/flitsim/flitsim/sim/sweep"
)

// Runner is one sweep unit of an experiment on its mode's engine, built
// and ready to run.
type Runner func(ctx context.Context) (Result, error)

// Result is what a run gives: its results row, and the engine's own result
// (network.Result, closed.Result, delta.Result or slotted.Result) for the
// mode's row to read more from (Mode.Measure).
type Result struct {
	Outcome sweep.Outcome
	Native  any
	cfg     any // the engine's Config the run was built from
}

// The simulated quantities the validation harness judges models against
// (Mode.Measure sets them; package validation names them Q...).
const (
	QLatency         = "latency"          // network: generation to tail delivery, cycles
	QAccepted        = "accepted"         // network: accepted throughput, flits/node/cycle
	QAcceptedRate    = "accepted-rate"    // network, slotted: accepted throughput in the sweep's unit, saturated points too
	QX0              = "X0"               // closed: message completion rate, messages / time unit
	QCycleTime       = "cycle-time"       // closed: R0 = N/X0, time units
	QPDT             = "PDT"              // delta: first emission to delivery, time units
	QPDTNetwork      = "PDT-network"      // delta: PDT without source retry-buffer waiting
	QNTP             = "NTP"              // delta: delivered packets per time unit, whole network
	QDelay           = "delay"            // slotted: integer-slot delay, slots
	QDelayContinuous = "delay-continuous" // slotted: continuous delay, slots
	QThroughput      = "throughput"       // slotted: delivered packets/node/slot
)

// modeEngine is a mode's engine as the front ends use it, with the engine's
// own types hidden behind any (engineOf keeps them straight):
//
//   - native: the experiment as the validation harness keeps it (the
//     engine's Config at point 0; for network, the experiment itself);
//   - config: the engine's Config of sweep point `point` with root seed
//     `seed`, from the experiment (flitsim run);
//   - atRate: the same from a native description and the point's rate
//     (validation's Setups, some built in Go), or the reason the rate is
//     outside the engine's domain;
//   - start: builds the engine (refusing what it cannot run) and returns
//     its run, whose result is mapped onto one results row;
//   - measure: the quantities of a run's result the harness judges.
type modeEngine struct {
	native  func(e *Experiment) (any, error)
	config  func(e *Experiment, point int, seed uint64) (any, error)
	atRate  func(native any, point int, rate float64, seed uint64) (cfg any, outOfDomain string, err error)
	start   func(cfg any) (Runner, error)
	measure func(cfg, result any, rateUnit string, set SetQuantity)
}

// SetQuantity records a measured quantity: its mean, the half-width of its
// 95% CI, and whether that interval holds (a missing one is not an
// infinitely wide one).
type SetQuantity func(q string, mean, halfWidth float64, ciOK bool)

// engineOf makes a mode's engine from its typed parts: the engine's
// constructor, the mapping of its result onto a results row, the harness's
// quantities, the native description of an experiment and the engine's
// Config at a sweep point from it.
func engineOf[N, C, R any, S interface {
	Run(context.Context) (R, error)
}](newSim func(C) (S, error), outcome func(R) sweep.Outcome, measure func(C, R, string, SetQuantity),
	native func(*Experiment) (N, error), atRate func(N, int, float64, uint64) (C, string, error)) modeEngine {
	return modeEngine{
		native: func(e *Experiment) (any, error) { return native(e) },
		config: func(e *Experiment, point int, seed uint64) (any, error) {
			n, err := native(e)
			if err != nil {
				return nil, err
			}
			c, ood, err := atRate(n, point, e.Sweep.Rates[point], seed)
			if err == nil && ood != "" {
				err = fmt.Errorf("configs: %s: sweep point %d: %s", e.Name, point, ood)
			}
			return c, err
		},
		atRate: func(n any, point int, rate float64, seed uint64) (any, string, error) {
			nn, ok := n.(N)
			if !ok {
				return nil, "", fmt.Errorf("configs: a %T describes no experiment of this mode (want %T)", n, nn)
			}
			return atRate(nn, point, rate, seed)
		},
		start: func(cfg any) (Runner, error) {
			c, ok := cfg.(C)
			if !ok {
				return nil, fmt.Errorf("configs: a %T is no configuration of this mode's engine (want %T)", cfg, c)
			}
			s, err := newSim(c)
			if err != nil {
				return nil, err
			}
			return func(ctx context.Context) (Result, error) {
				r, err := s.Run(ctx)
				if err != nil {
					return Result{}, err
				}
				return Result{Outcome: outcome(r), Native: r, cfg: c}, nil
			}, nil
		},
		measure: func(cfg, r any, unit string, set SetQuantity) { measure(cfg.(C), r.(R), unit, set) },
	}
}

// atPoint0 is the native description of a paper mode's experiment (what
// the validation harness keeps): its engine's Config at sweep point 0,
// with the experiment's seed, by the mode's builder.
func atPoint0[C any](config func(*Experiment, int, uint64) (C, error)) func(*Experiment) (*C, error) {
	return func(e *Experiment) (*C, error) {
		c, err := config(e, 0, e.Seed)
		return &c, err
	}
}

// NewRun builds the run of sweep point `point` of e with root seed `seed`
// on the engine of e's mode (its mode-table row); building it checks
// everything the engine checks, so a config the engine refuses fails here.
func (e *Experiment) NewRun(point int, seed uint64) (Runner, error) {
	m := modeOf(e.Mode).engine
	cfg, err := m.config(e, point, seed)
	if err != nil {
		return nil, err
	}
	return m.start(cfg)
}

// BuiltAtLoad reports whether loading e already built its engine at sweep
// point 0 (the paper modes' engines are cheap to build); otherwise (mode
// network) a front end that wants an engine refusal reported as an invalid
// config before any run builds point 0 itself (NewRun).
func (e *Experiment) BuiltAtLoad() bool { return modeOf(e.Mode).builtAtLoad }

// EstimateMemory estimates the memory e's engine needs at sweep point 0
// (network.EstimateMemory); ok is false for a mode whose memory is not
// estimated (the paper modes: small) or a config the engine check refuses.
func (e *Experiment) EstimateMemory() (m network.Memory, ok bool) {
	f := modeOf(e.Mode).memory
	if f == nil {
		return network.Memory{}, false
	}
	m, err := f(e)
	return m, err == nil
}

// Mode is one row of the mode table as the validation harness uses it: a
// mode's engine run from a native description (an engine Config), and
// what of its result the harness judges.
type Mode struct{ row *modeRow }

// LookupMode returns the row of the named mode.
func LookupMode(name string) (Mode, bool) {
	row, ok := lookupMode(name)
	return Mode{row}, ok
}

// Name returns the mode's name.
func (m Mode) Name() string { return m.row.name }

// Native returns e as the harness keeps it: the engine's Config at sweep
// point 0 (a pointer: *closed.Config, ...), or for mode network e itself.
func (m Mode) Native(e *Experiment) (any, error) { return m.row.engine.native(e) }

// Start builds the engine of point `point` (rate `rate`, root seed `seed`)
// of a native description and returns its run; outOfDomain, if not empty,
// says why the engine cannot run that rate at all (no run is built).
func (m Mode) Start(native any, point int, rate float64, seed uint64) (run Runner, outOfDomain string, err error) {
	cfg, ood, err := m.row.engine.atRate(native, point, rate, seed)
	if err != nil || ood != "" {
		return nil, ood, err
	}
	run, err = m.row.engine.start(cfg)
	return run, "", err
}

// Measure sets the quantities of r, a run of mode m swept in rateUnit,
// that the harness judges (QLatency, QX0, ...).
func (m Mode) Measure(r Result, rateUnit string, set SetQuantity) {
	m.row.engine.measure(r.cfg, r.Native, rateUnit, set)
}

// Compared returns the quantities an external model's latency and
// throughput are compared with in mode m.
func (m Mode) Compared() Compared { return m.row.compared }

// noNumber marks an Outcome column the mode does not measure: the sweep
// writes a non-finite value as an empty field (null in JSON).
var noNumber = math.NaN()

// metric is one Extra entry from a mean and its 95% half-width.
func metric(name string, mean, half float64) sweep.Metric {
	return sweep.Metric{Name: name, Value: mean, CI95: half}
}
