package validation

import (
	"errors"
	"fmt"
	"time"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/sim/closed"
	"github.com/flitsim/flitsim/sim/delta"
	"github.com/flitsim/flitsim/sim/slotted"
)

// Load units of a Setup's sweep beside configs.UnitMessages and
// configs.UnitFlits (docs/models.md#units).
const (
	UnitPopulation = "population"        // Reed: closed population N, messages
	UnitRho        = "rho"               // Makrucki–Mudge: lambda/mu per source
	UnitSlots      = "packets/node/slot" // Jacquet–Mühlethaler: lambda per node per slot
)

// Setup is one experiment as the harness sees it: a sweep, the models to
// evaluate, the tolerances, and exactly one simulator description. For the
// flit-level network mode that description is the loaded configs.Experiment
// itself; for the paper modes it is the mode package's own Config, with the
// per-point field (Population, Rate) filled in at each sweep point:
//
//	Closed   closed.Config.Population = int(rate)       rate unit population
//	Delta    delta.Config.Rate        = rate * Mu        rate unit rho
//	Slotted  slotted.Config.Rate      = rate             rate unit packets/node/slot
//
// FromExperiment builds a Setup from a loaded experiment of any mode;
// ReducedSet and FullSet build the same Setups in Go, so the CI guard does not
// depend on parsing.
type Setup struct {
	// Name labels the experiment in the report (the config name).
	Name string
	// Description is one line for humans.
	Description string
	// Models are the model names to evaluate (see ModelNames).
	Models []string
	// RateUnit is the unit of Rates (configs.UnitMessages, configs.UnitFlits,
	// UnitPopulation, UnitRho or UnitSlots).
	RateUnit string
	// Rates are the offered loads, ascending.
	Rates []float64
	// Seed is the root seed; point i runs with sweep.UnitSeed(Seed, i, 0).
	Seed uint64
	// Tolerance is the judgement of this experiment (zero fields: defaults).
	Tolerance Tolerance
	// Hash is the experiment's config hash (configs.Experiment.Hash), which
	// identifies it in shard files; empty for a Setup built by hand.
	Hash string

	// Network is the flit-level experiment (mode network).
	Network *configs.Experiment
	// Closed is Reed's closed network (mode closed).
	Closed *closed.Config
	// Delta is Makrucki–Mudge's delta network (mode delta).
	Delta *delta.Config
	// Slotted is Jacquet–Mühlethaler's slotted hypercube (mode slotted).
	Slotted *slotted.Config

	// Experiment is the loaded experiment the Setup came from (nil for one
	// built in Go): external models receive it resolved, and resolve their
	// relative paths from its file's directory.
	Experiment *configs.Experiment
	// ModelTimeout bounds each command model's run (0: DefaultModelTimeout).
	ModelTimeout time.Duration
}

// Mode returns the simulator mode of s: "network", "closed", "delta" or
// "slotted", or "" when no (or more than one) description is set.
func (s *Setup) Mode() string {
	n, m := 0, ""
	if s.Network != nil {
		n, m = n+1, "network"
	}
	if s.Closed != nil {
		n, m = n+1, "closed"
	}
	if s.Delta != nil {
		n, m = n+1, "delta"
	}
	if s.Slotted != nil {
		n, m = n+1, "slotted"
	}
	if n != 1 {
		return ""
	}
	return m
}

// native returns the one simulator description of s (nil when none or
// several are set): what its mode's row of the mode table runs
// (configs.Mode.Start).
func (s *Setup) native() any {
	switch {
	case s.Mode() == "":
		return nil
	case s.Network != nil:
		return s.Network
	case s.Closed != nil:
		return s.Closed
	case s.Delta != nil:
		return s.Delta
	}
	return s.Slotted
}

// setNative sets the field of s that holds a mode's native description
// (configs.Mode.Native): the typed fields the models and the Go-built sets
// read.
func (s *Setup) setNative(d any) error {
	switch d := d.(type) {
	case *configs.Experiment:
		s.Network = d
	case *closed.Config:
		s.Closed = d
	case *delta.Config:
		s.Delta = d
	case *slotted.Config:
		s.Slotted = d
	default:
		return fmt.Errorf("a %T has no field in validation.Setup", d)
	}
	return nil
}

// check reports a Setup that cannot be evaluated at all.
func (s *Setup) check() error {
	if s.Mode() == "" {
		return fmt.Errorf("validation: setup %q: exactly one of Network, Closed, Delta, Slotted must be set", s.Name)
	}
	if len(s.Rates) == 0 {
		return fmt.Errorf("validation: setup %q: no sweep rates", s.Name)
	}
	for i := 1; i < len(s.Rates); i++ {
		if !(s.Rates[i] > s.Rates[i-1]) {
			return fmt.Errorf("validation: setup %q: rates must be strictly ascending (rates[%d] = %g after %g)", s.Name, i, s.Rates[i], s.Rates[i-1])
		}
	}
	return s.Tolerance.check()
}

// FromExperiment returns the Setup of a loaded experiment: mode network
// keeps the experiment itself; the paper modes take the mode configuration the
// loader derives (Experiment.ClosedConfig, DeltaConfig, SlottedConfig, with
// the per-point field overwritten at each point as Setup says). A delta
// experiment must hold one queue length (see Experiment.Variants). The
// tolerance starts from FamilyTolerance of the first model; every key set
// in the file's validation: section overrides it (the booleans can only
// switch on; report_only needs its reason).
func FromExperiment(e *configs.Experiment) (Setup, error) {
	if e == nil {
		return Setup{}, errors.New("validation: nil experiment")
	}
	s := Setup{
		Name:        e.Name,
		Hash:        e.Hash(),
		Description: e.Description,
		Models:      append([]string(nil), e.Models...),
		RateUnit:    e.Sweep.Unit,
		Rates:       append([]float64(nil), e.Sweep.Rates...),
		Seed:        e.Seed,
		Experiment:  e,
	}
	if len(e.Sweep.Rates) == 0 {
		return Setup{}, fmt.Errorf("validation: %s: no sweep rates", e.Name)
	}
	m, ok := configs.LookupMode(e.Mode)
	if !ok {
		return Setup{}, fmt.Errorf("validation: %s: mode %q has no simulator the harness knows", e.Name, e.Mode)
	}
	native, err := m.Native(e)
	if err == nil {
		err = s.setNative(native)
	}
	if err != nil {
		return Setup{}, fmt.Errorf("validation: %s: %w", e.Name, err)
	}
	if len(e.Models) > 0 {
		s.Tolerance = FamilyTolerance(e.Models[0])
	}
	v := e.Validation
	if v.MeanTolerance > 0 {
		s.Tolerance.Mean = v.MeanTolerance
	}
	if v.MaxTolerance > 0 {
		s.Tolerance.Max = v.MaxTolerance
	}
	if v.Fraction > 0 {
		s.Tolerance.Fraction = v.Fraction
	}
	if v.MaxOffset > 0 {
		s.Tolerance.MaxOffset = v.MaxOffset
	}
	if v.SaturationTolerance > 0 {
		s.Tolerance.Saturation = v.SaturationTolerance
	}
	s.Tolerance.SubtractOffset = s.Tolerance.SubtractOffset || v.SubtractOffset
	s.Tolerance.ReportOnly = s.Tolerance.ReportOnly || v.ReportOnly
	if v.Reason != "" {
		s.Tolerance.Reason = v.Reason
	}
	if v.ExpectNoData != "" {
		s.Tolerance.ExpectNoData = v.ExpectNoData
	}
	return s, s.check()
}

// FromExperiments maps every experiment (each variant of a file that lists
// several delta queue lengths) with FromExperiment and returns the Setups in
// order, or every problem joined.
func FromExperiments(exps []*configs.Experiment) ([]Setup, error) {
	var errs []error
	var out []Setup
	for _, e := range exps {
		for _, v := range e.Variants() {
			s, err := FromExperiment(v)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			out = append(out, s)
		}
	}
	return out, errors.Join(errs...)
}
