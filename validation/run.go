package validation

import (
	"context"
	"fmt"
	"maps"
	"math"
	"strings"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/sim/sweep"
)

// Options controls a validation run.
type Options struct {
	// Workers is the number of simulations run at once (0: runtime.NumCPU()).
	Workers int
	// Dir receives the report ("" writes nothing).
	Dir string
	// Baseline, if not nil, is checked with Slack (see Baseline.Check).
	Baseline Baseline
	Slack    float64
	// Progress, if not nil, is called after each simulated point with the
	// number of points done and the total (from Run's goroutine, one call
	// at a time).
	Progress func(done, total int)

	// Test hooks (the guard's mutation tests): applied by Finish to every
	// simulated point and every model curve before judging.
	mutateSim   func(s *Setup, p *SimPoint)
	mutateCurve func(s *Setup, c *Curve)
}

// Validate runs loaded experiments (any mode; see FromExperiment) through Run.
func Validate(ctx context.Context, exps []*configs.Experiment, opts Options) (Report, error) {
	setups, err := FromExperiments(exps)
	if err != nil {
		return Report{}, err
	}
	return Run(ctx, setups, opts)
}

// Run simulates every point of every Setup (in parallel, each point with
// seed sweep.UnitSeed(Seed, point, 0), the seed `flitsim run` gives it),
// evaluates the Setup's models, compares, checks the baseline and, with
// opts.Dir, writes the report. A Setup whose models cannot be mapped or whose
// simulator fails is recorded in its ConfigReport.Errors (so the report shows
// it and Report.Failed is true), not returned as an error; the error return
// is for cancellation and for failing to write the report.
func Run(ctx context.Context, setups []Setup, opts Options) (Report, error) {
	jobs := make([]sweep.Job, len(setups))
	var units []sweep.Unit
	for i := range setups {
		jobs[i] = sweep.Job{Name: setups[i].Name, Rates: setups[i].Rates}
		if setups[i].check() != nil {
			continue
		}
		for p := range setups[i].Rates {
			units = append(units, sweep.Unit{Job: i, Point: p})
		}
	}
	results := make([][]PointResult, len(setups))
	for i := range setups {
		results[i] = make([]PointResult, len(setups[i].Rates))
	}
	done := 0
	err := sweep.ForEach(ctx, jobs, units, opts.Workers,
		func(ctx context.Context, u sweep.Unit) (PointResult, error) {
			return SimulateUnit(ctx, &setups[u.Job], u.Point), nil
		},
		func(u sweep.Unit, r PointResult) error {
			results[u.Job][u.Point] = r
			done++
			if opts.Progress != nil {
				opts.Progress(done, len(units))
			}
			return nil
		})
	if ctxErr := ctx.Err(); ctxErr != nil {
		return Report{Configs: make([]ConfigReport, len(setups))}, fmt.Errorf("validation: %w", ctxErr)
	}
	if err != nil { // neither function fails: only a cancellation stops ForEach
		return Report{Configs: make([]ConfigReport, len(setups))}, fmt.Errorf("validation: %w", err)
	}
	return Finish(setups, results, opts)
}

// PointResult is one simulated point of a validation run: the point and
// the simulator's error, if any. It is the unit outcome of a sharded
// `flitsim validate` and survives a JSON round trip bit for bit (NaN
// half-widths included), so a merged report equals the unsharded one.
type PointResult struct {
	Point SimPoint
	Err   string
}

// SimulateUnit simulates point p of s (SimulatePoint) and records the
// error as text.
func SimulateUnit(ctx context.Context, s *Setup, p int) PointResult {
	sp, err := SimulatePoint(ctx, s, p)
	r := PointResult{Point: sp}
	if err != nil {
		r.Err = err.Error()
	}
	return r
}

// Finish evaluates every Setup's models, compares them with the simulated
// points (results[i][p] for point p of setups[i]; a Setup the harness
// cannot run has them empty), checks the baseline and, with opts.Dir,
// writes the report: everything Run does after simulating, shared with the
// merge of a sharded validation. Simulator errors are reported in point
// order, so the report does not depend on the order points finished in.
func Finish(setups []Setup, results [][]PointResult, opts Options) (Report, error) {
	rep := Report{Configs: make([]ConfigReport, len(setups))}
	for i := range setups {
		cr := &rep.Configs[i]
		cr.Setup = setups[i]
		if err := setups[i].check(); err != nil {
			cr.Errors = append(cr.Errors, err.Error())
			continue
		}
		curves, err := Evaluate(setups[i])
		if err != nil {
			cr.Errors = append(cr.Errors, err.Error())
		}
		if opts.mutateCurve != nil {
			for k := range curves {
				opts.mutateCurve(&setups[i], &curves[k])
			}
		}
		cr.Curves = curves
		cr.Sim = make([]SimPoint, len(setups[i].Rates))
		var simErrs []string
		for p := range setups[i].Rates {
			if p < len(results[i]) {
				cr.Sim[p] = results[i][p].Point
				if opts.mutateSim != nil {
					cr.Sim[p].Values = maps.Clone(cr.Sim[p].Values)
					opts.mutateSim(&setups[i], &cr.Sim[p])
				}
				if e := results[i][p].Err; e != "" {
					simErrs = append(simErrs, e)
				}
			}
		}
		if len(simErrs) > 0 {
			cr.Errors = append(cr.Errors, "simulator: "+strings.Join(simErrs, "\n"))
		}
		for _, c := range cr.Curves {
			tol := cr.Setup.Tolerance
			if IsHypothesis(c.Model) && !tol.ReportOnly {
				tol.ReportOnly, tol.Reason = true, "hypothesis curve, reported and never judged: "+ModelDoc(c.Model)
			}
			cr.Comparisons = append(cr.Comparisons, Compare(cr.Setup.Name, cr.Sim, c, tol))
			if sc, ok := CompareSaturation(cr.Setup.Name, cr.Sim, c, tol); ok {
				cr.Comparisons = append(cr.Comparisons, sc)
			}
		}
	}
	if opts.Baseline != nil {
		rep.Regressions = opts.Baseline.Check(rep.Comparisons(), opts.Slack)
		for _, c := range rep.Comparisons() {
			if opts.Baseline.KnownFailure(c) {
				rep.KnownFailures = append(rep.KnownFailures, BaselineKey(c))
			}
		}
	}
	if opts.Dir != "" {
		if err := WriteReport(opts.Dir, rep); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// SimulatePoint runs point i of s on its mode's simulator with the seed
// sweep.UnitSeed(s.Seed, i, 0) and returns its status and measured
// quantities (see the Q constants):
//
//	closed   X0, cycle-time             messages / time unit; time units
//	delta    PDT, PDT-network, NTP      time units; packets / time unit
//	slotted  delay, delay-continuous    slots
//	         throughput                 packets/node/slot
//	network  latency                    cycles (generation to tail delivery)
//	         accepted                   flits/node/cycle (no interval)
//	slotted, network  accepted-rate     the sweep's unit, saturated points too (QAcceptedRate)
func SimulatePoint(ctx context.Context, s *Setup, i int) (SimPoint, error) {
	rate := s.Rates[i]
	seed := sweep.UnitSeed(s.Seed, i, 0)
	sp := SimPoint{Rate: rate, Values: map[string]SimValue{}}
	m, ok := configs.LookupMode(s.Mode())
	if !ok {
		return SimPoint{Rate: rate, Status: sim.StatusOutOfDomain, Reason: "no simulator"}, fmt.Errorf("validation: %s: no simulator for mode %q", s.Name, s.Mode())
	}
	run, ood, err := m.Start(s.native(), i, rate, seed)
	if err != nil {
		return failedPoint(rate, err)
	}
	if ood != "" {
		return SimPoint{Rate: rate, Status: sim.StatusOutOfDomain, Reason: ood}, nil
	}
	r, err := run(ctx)
	if err != nil {
		return failedPoint(rate, err)
	}
	sp.Status, sp.Reason = r.Outcome.Status, r.Outcome.Reason
	m.Measure(r, s.RateUnit, func(q string, mean, hw float64, ok bool) { sp.Values[q] = simValue(mean, hw, ok) })
	return sp, nil
}

// failedPoint is the point of a simulator that failed with err.
func failedPoint(rate float64, err error) (SimPoint, error) {
	return SimPoint{Rate: rate, Status: sim.StatusOutOfDomain, Reason: err.Error()}, err
}

// simValue records an estimate; a half-width that is missing (too few
// batches: +Inf, or CI not ok) becomes NaN, which Compare treats as "no
// simulated value" rather than as an infinitely wide interval that would
// excuse any model.
func simValue(mean, hw float64, ok bool) SimValue {
	if !ok || math.IsInf(hw, 0) {
		hw = math.NaN()
	}
	return SimValue{Mean: mean, HalfWidth: hw}
}
