package validation

import (
	"fmt"
	"math"

	"github.com/flitsim/flitsim/sim"
)

// Default judgement parameters.
const (
	// DefaultFraction is the share of the model's saturation load up to
	// which points are judged (issue 9: "below a configurable fraction of
	// its predicted saturation (default 0.8)").
	DefaultFraction = 0.8
	// DefaultMeanTol and DefaultMaxTol are the tolerances of a Setup that
	// states none: 10 % mean and 20 % worst excess error.
	DefaultMeanTol = 0.10
	DefaultMaxTol  = 0.20
	// KneeFactor defines the simulated saturation knee: the first load whose
	// simulated latency exceeds KneeFactor times the value at the lowest
	// load (docs/models.md#harness).
	KneeFactor = 3.0
)

// Tolerance is the judgement of one experiment: the largest mean and the
// largest single CI excess error allowed over the eligible points, and the
// fraction of the model's saturation load up to which points are eligible.
// Zero fields take DefaultMeanTol, DefaultMaxTol and DefaultFraction.
//
// YAML (the validation: section of an experiment file, configs.Validation):
//
//	validation:
//	  mean_tolerance: 0.05   # Mean
//	  max_tolerance: 0.15    # Max
//	  fraction: 0.8          # Fraction
//	  subtract_offset: false # SubtractOffset
type Tolerance struct {
	Mean     float64
	Max      float64
	Fraction float64
	// SubtractOffset judges the load-dependent error: the zero-load offset
	// (simulated minus model value at the lowest eligible load) is added to
	// every model value before the errors are taken. Use it where the model
	// is known to count a constant differently (Safaei's double-counted
	// header distance, docs/models.md#safaei-readings item 4; DG-R's c0, docs/models.md#dg-r).
	SubtractOffset bool
	// ReportOnly computes and reports the errors but never fails the
	// verdict (it reads "info"): for the relaxed-assumption experiments,
	// whose point is to measure what an assumption is worth. The baseline
	// regression check still applies to them.
	ReportOnly bool
}

func (t Tolerance) resolved() Tolerance {
	if t.Mean == 0 {
		t.Mean = DefaultMeanTol
	}
	if t.Max == 0 {
		t.Max = DefaultMaxTol
	}
	if t.Fraction == 0 {
		t.Fraction = DefaultFraction
	}
	return t
}

func (t Tolerance) check() error {
	if t.Mean < 0 || t.Max < 0 || t.Fraction < 0 || math.IsNaN(t.Mean+t.Max+t.Fraction) {
		return fmt.Errorf("validation: tolerance %+v: fields must be >= 0", t)
	}
	return nil
}

// SimPoint is the simulator's result at one sweep point: a status and, for an
// ok point, the measured quantities, each a mean with its 95% CI half-width.
type SimPoint struct {
	Rate   float64
	Status string
	Reason string
	Values map[string]SimValue
}

// SimValue is a steady-state mean and the half-width of its 95% CI.
type SimValue struct {
	Mean, HalfWidth float64
}

// PointError is the comparison at one sweep point.
type PointError struct {
	Rate      float64
	Sim       float64 // simulated mean (NaN if none)
	HalfWidth float64 // its 95% half-width
	Model     float64 // model value (NaN if none)
	// Err is (model - sim)/sim, signed; Excess is the part of |model - sim|
	// beyond the CI half-width, over sim (bounds: the violation only).
	Err, Excess float64
	// Eligible says whether the point enters the error statistics; Why
	// says why not.
	Eligible bool
	Why      string
}

// Comparison is the judgement of one model curve against the simulation.
type Comparison struct {
	Config, Model, Sim string
	Bound              Bound
	Points             []PointError
	// Eligible is the number of points in the statistics below.
	Eligible int
	// MeanErr, MaxErr: mean and largest |Err| over eligible points.
	MeanErr, MaxErr float64
	// MeanExcess, MaxExcess: mean and largest Excess (what is judged).
	MeanExcess, MaxExcess float64
	// Offset is the zero-load offset, simulated minus model value at the
	// lowest eligible load (NaN if none); reported apart from the errors.
	Offset float64
	// SimSaturation is the first load whose point is saturated or
	// deadlocked, or (latencies only) whose latency exceeds KneeFactor
	// times the lowest-load latency; NaN when none is seen.
	SimSaturation float64
	// ModelSaturation is the model's saturation load (NaN if none).
	ModelSaturation float64
	// Verdict is "pass", "fail" or "no-data"; Reason explains a failure.
	Verdict, Reason string
	Tolerance       Tolerance
}

// Verdicts of a Comparison.
const (
	Pass   = "pass"
	Fail   = "fail"
	NoData = "no-data"
	Info   = "info" // Tolerance.ReportOnly: errors reported, never a failure
)

// Passed reports whether the verdict is not a failure (no-data passes: an
// experiment whose points are all ineligible cannot accuse its model).
func (c Comparison) Passed() bool { return c.Verdict != Fail }

// isRate reports whether a simulated quantity is a throughput, for which the
// latency knee does not apply.
func isRate(q string) bool { return q == QX0 || q == QNTP || q == QAccepted || q == QThroughput }

// Compare judges curve c against the simulated points sim (same rates, same
// order) under tolerance tol, for the experiment named config. A point is
// eligible when the simulation is ok and measured c.Sim, the model is ok,
// and, for a model with a saturation load, rate <= tol.Fraction times it.
// For an Estimate curve
//
//	Err    = (m - s)/s
//	Excess = max(0, |m - s| - h)/s
//
// with m the model value (plus the zero-load offset when SubtractOffset), s the
// simulated mean and h its half-width. For a Lower bound only s + h < m
// counts, Excess = (m - s - h)/s; for an Upper bound only s - h > m. The
// verdict fails when MeanExcess > tol.Mean or MaxExcess > tol.Max (a bound:
// MaxExcess > tol.Max only), is no-data when no point is eligible, and is
// info (never a failure) under tol.ReportOnly.
func Compare(config string, pts []SimPoint, c Curve, tol Tolerance) Comparison {
	tol = tol.resolved()
	out := Comparison{
		Config: config, Model: c.Model, Sim: c.Sim, Bound: c.Bound,
		Offset: math.NaN(), SimSaturation: simSaturation(pts, c.Sim),
		ModelSaturation: c.Saturation, Tolerance: tol,
	}
	n := min(len(pts), len(c.Points))
	out.Points = make([]PointError, n)
	limit := math.Inf(1)
	if !math.IsNaN(c.Saturation) {
		limit = tol.Fraction * c.Saturation
	}
	for i := range n {
		sp, mp := pts[i], c.Points[i]
		pe := PointError{Rate: mp.Rate, Sim: math.NaN(), HalfWidth: math.NaN(), Model: mp.Value, Err: math.NaN(), Excess: math.NaN()}
		v, has := sp.Values[c.Sim]
		if has && sp.Status == sim.StatusOK {
			pe.Sim, pe.HalfWidth = v.Mean, v.HalfWidth
		}
		switch {
		case sp.Status != sim.StatusOK:
			pe.Why = "simulation " + sp.Status
		case !has || !(v.Mean > 0) || math.IsNaN(v.HalfWidth):
			pe.Why = "no simulated " + c.Sim
		case mp.Status != sim.StatusOK:
			pe.Why = "model " + mp.Status
		case mp.Rate > limit*(1+1e-12):
			pe.Why = fmt.Sprintf("above %.2g of model saturation", tol.Fraction)
		default:
			pe.Eligible = true
		}
		out.Points[i] = pe
	}
	if tol.SubtractOffset || c.Bound == Estimate {
		for _, pe := range out.Points {
			if pe.Eligible {
				out.Offset = pe.Sim - pe.Model
				break
			}
		}
	}
	shift := 0.0
	if tol.SubtractOffset && c.Bound == Estimate && !math.IsNaN(out.Offset) {
		shift = out.Offset
	}
	var sumErr, sumExc float64
	for i := range out.Points {
		pe := &out.Points[i]
		if !pe.Eligible {
			continue
		}
		m := pe.Model + shift
		d := m - pe.Sim
		pe.Err = d / pe.Sim
		switch c.Bound {
		case Lower:
			pe.Excess = math.Max(0, m-pe.Sim-pe.HalfWidth) / pe.Sim
		case Upper:
			pe.Excess = math.Max(0, pe.Sim-pe.HalfWidth-m) / pe.Sim
		default:
			pe.Excess = math.Max(0, math.Abs(d)-pe.HalfWidth) / pe.Sim
		}
		out.Eligible++
		sumErr += math.Abs(pe.Err)
		sumExc += pe.Excess
		out.MaxErr = math.Max(out.MaxErr, math.Abs(pe.Err))
		out.MaxExcess = math.Max(out.MaxExcess, pe.Excess)
	}
	if out.Eligible == 0 {
		out.MeanErr, out.MaxErr, out.MeanExcess, out.MaxExcess = math.NaN(), math.NaN(), math.NaN(), math.NaN()
		out.Verdict, out.Reason = NoData, "no eligible point"
		return out
	}
	out.MeanErr = sumErr / float64(out.Eligible)
	out.MeanExcess = sumExc / float64(out.Eligible)
	out.Verdict = Pass
	if tol.ReportOnly {
		out.Verdict = Info
		return out
	}
	switch {
	case c.Bound != Estimate && out.MaxExcess > tol.Max:
		out.Verdict = Fail
		out.Reason = fmt.Sprintf("simulation violates the %s by %.3g beyond its CI (tolerance %.3g)", c.Bound, out.MaxExcess, tol.Max)
	case c.Bound == Estimate && out.MeanExcess > tol.Mean:
		out.Verdict = Fail
		out.Reason = fmt.Sprintf("mean excess error %.3g > tolerance %.3g", out.MeanExcess, tol.Mean)
	case c.Bound == Estimate && out.MaxExcess > tol.Max:
		out.Verdict = Fail
		out.Reason = fmt.Sprintf("max excess error %.3g > tolerance %.3g", out.MaxExcess, tol.Max)
	}
	return out
}

// simSaturation returns the simulated saturation load of quantity q: the
// first point saturated or deadlocked, or, for a latency-like quantity, the
// first whose mean exceeds KneeFactor times the mean at the lowest ok load.
func simSaturation(pts []SimPoint, q string) float64 {
	base := math.NaN()
	for _, p := range pts {
		if p.Status == sim.StatusSaturated || p.Status == sim.StatusDeadlock {
			return p.Rate
		}
		v, ok := p.Values[q]
		if p.Status != sim.StatusOK || !ok || isRate(q) {
			continue
		}
		if math.IsNaN(base) {
			base = v.Mean
			continue
		}
		if v.Mean > KneeFactor*base {
			return p.Rate
		}
	}
	return math.NaN()
}
