package validation

import (
	"fmt"
	"math"
	"strings"

	"github.com/flitsim/flitsim/configs"
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
	// DefaultMaxOffset bounds the zero-load offset a SubtractOffset
	// judgement may remove, as a fraction of the simulated value at the
	// anchoring point, where a Setup states none.
	DefaultMaxOffset = 0.10
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
//	  max_offset: 0.1        # MaxOffset
//	  saturation_tolerance: 0.2 # Saturation
//	  report_only: true      # ReportOnly, with
//	  reason: "..."          # Reason (required with report_only)
//	  expect_no_data: "..."  # ExpectNoData
type Tolerance struct {
	Mean     float64
	Max      float64
	Fraction float64
	// SubtractOffset judges the load-dependent error: the zero-load offset
	// (simulated minus model value at the lowest eligible load) is added to
	// every model value before the errors are taken. Use it where the model
	// is known to count a constant differently (Safaei's double-counted
	// header distance, docs/models.md#safaei-readings item 4; DG-R's c0, docs/models.md#dg-r).
	//
	// The anchoring point then has zero error by construction and is left
	// out of the statistics, and the offset itself is judged: |offset| ≤
	// MaxOffset × the simulated value there (0: DefaultMaxOffset), or the
	// verdict fails.
	SubtractOffset bool
	MaxOffset      float64
	// Saturation is the tolerance of the saturation judgement, a
	// comparison of its own (Sim = QSaturation): where a model predicts a
	// saturation load, |model − measured| / measured of the simulator's
	// saturation throughput (CompareSaturation); 0: the Max tolerance.
	Saturation float64
	// ReportOnly computes and reports the errors but never fails the
	// verdict (it reads "info"), for the reason in Reason, which is
	// required and printed beside every row (relaxed-assumption
	// experiments, whose point is to measure what an assumption is worth;
	// a model limit investigated and recorded in docs/validation.md). The
	// baseline regression check still applies. Without ReportOnly a Reason
	// is a note the report prints beside the tolerance.
	ReportOnly bool
	Reason     string
	// ExpectNoData declares, with its reason, that the experiment is
	// expected to have no judged point (every load outside the model's
	// domain, say). Without it a comparison without data fails.
	ExpectNoData string
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
	if t.MaxOffset == 0 {
		t.MaxOffset = DefaultMaxOffset
	}
	if t.Saturation == 0 {
		t.Saturation = t.Max
	}
	return t
}

func (t Tolerance) check() error {
	if t.Mean < 0 || t.Max < 0 || t.Fraction < 0 || t.MaxOffset < 0 || t.Saturation < 0 ||
		math.IsNaN(t.Mean+t.Max+t.Fraction+t.MaxOffset+t.Saturation) {
		return fmt.Errorf("validation: tolerance %+v: fields must be >= 0", t)
	}
	if t.ReportOnly && strings.TrimSpace(t.Reason) == "" {
		return fmt.Errorf("validation: tolerance: report_only needs a reason (why the comparison is informational)")
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

// QSaturation names the saturation comparison of a curve (CompareSaturation):
// the model's saturation load against the simulator's measured saturation
// throughput, both in the sweep's unit.
const QSaturation = "saturation throughput"

// QAcceptedRate is the accepted throughput of a point in the sweep's unit
// (network: flits or messages per node per cycle; slotted: packets per
// node per slot), kept for saturated points too: beyond saturation it is
// the throughput the simulator sustained (CompareSaturation).
const QAcceptedRate = configs.QAcceptedRate

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
	// Verdict is Pass, Fail, Info or NoData; Reason explains every verdict
	// but a pass (an Info verdict: why the comparison is informational).
	Verdict, Reason string
	// Judged is false for an informational comparison (ReportOnly, or a
	// hypothesis curve): its verdict is Info (or NoData) and never fails.
	Judged    bool
	Tolerance Tolerance
}

// Verdicts of a Comparison. Only a judged comparison passes or fails; an
// informational one reads Info with its reason, never Pass.
const (
	Pass   = "pass"
	Fail   = "fail"
	NoData = "no-data" // no eligible point: fails unless expected (Tolerance.ExpectNoData) or informational
	Info   = "info"    // informational (Tolerance.ReportOnly, hypothesis curves): errors reported, never a failure
)

// Failed reports whether the comparison fails the validation: a judged
// failure, or a judged comparison without data that the Setup did not
// declare expected (Tolerance.ExpectNoData).
func (c Comparison) Failed() bool {
	return c.Verdict == Fail || (c.Verdict == NoData && c.Judged && c.Tolerance.ExpectNoData == "")
}

// Passed reports whether the comparison does not fail (!Failed).
func (c Comparison) Passed() bool { return !c.Failed() }

// isRate reports whether a simulated quantity is a throughput, for which the
// latency knee does not apply.
func isRate(q string) bool { return q == QX0 || q == QNTP || q == QAccepted || q == QThroughput }

// Compare judges curve c against the simulated points pts (same rates, same
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
// counts, Excess = (m - s - h)/s; for an Upper bound only s - h > m. Under
// SubtractOffset the anchoring point (the lowest eligible load, where the
// offset is taken) has zero error by construction and is left out of the
// statistics, and |offset| must be at most tol.MaxOffset times the
// simulated value there. The verdict fails when MeanExcess > tol.Mean or
// MaxExcess > tol.Max (a bound: MaxExcess > tol.Max only) or the offset is
// out of its bound, is no-data when no point is eligible, and is info
// (never a failure; Reason = tol.Reason) under tol.ReportOnly.
func Compare(config string, pts []SimPoint, c Curve, tol Tolerance) Comparison {
	tol = tol.resolved()
	out := Comparison{
		Config: config, Model: c.Model, Sim: c.Sim, Bound: c.Bound,
		Offset: math.NaN(), SimSaturation: simSaturation(pts, c.Sim),
		ModelSaturation: c.Saturation, Tolerance: tol, Judged: !tol.ReportOnly,
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
	anchor := -1
	if tol.SubtractOffset || c.Bound == Estimate {
		for i, pe := range out.Points {
			if pe.Eligible {
				out.Offset, anchor = pe.Sim-pe.Model, i
				break
			}
		}
	}
	shift := 0.0
	var offsetFail string
	if tol.SubtractOffset && c.Bound == Estimate && anchor >= 0 {
		shift = out.Offset
		a := &out.Points[anchor]
		a.Eligible = false
		a.Why = "anchor of the subtracted zero-load offset (zero error by construction)"
		if rel := math.Abs(out.Offset) / a.Sim; rel > tol.MaxOffset {
			offsetFail = fmt.Sprintf("zero-load offset %.4g = %.1f%% of the simulated %.4g exceeds max_offset %.3g", out.Offset, 100*rel, a.Sim, tol.MaxOffset)
		}
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
		out.Verdict = NoData
		switch {
		case tol.ReportOnly:
			out.Reason = "no eligible point; informational: " + tol.Reason
		case tol.ExpectNoData != "":
			out.Reason = "no eligible point, as expected: " + tol.ExpectNoData
		default:
			out.Reason = "no eligible point, and the config does not declare it expected (validation.expect_no_data)"
		}
		return out
	}
	out.MeanErr = sumErr / float64(out.Eligible)
	out.MeanExcess = sumExc / float64(out.Eligible)
	out.Verdict = Pass
	if tol.ReportOnly {
		out.Verdict, out.Reason = Info, tol.Reason
		return out
	}
	var why []string
	switch {
	case c.Bound != Estimate && out.MaxExcess > tol.Max:
		why = append(why, fmt.Sprintf("simulation violates the %s by %.3g beyond its CI (tolerance %.3g)", c.Bound, out.MaxExcess, tol.Max))
	case c.Bound == Estimate && out.MeanExcess > tol.Mean:
		why = append(why, fmt.Sprintf("mean excess error %.3g > tolerance %.3g", out.MeanExcess, tol.Mean))
	case c.Bound == Estimate && out.MaxExcess > tol.Max:
		why = append(why, fmt.Sprintf("max excess error %.3g > tolerance %.3g", out.MaxExcess, tol.Max))
	}
	if offsetFail != "" {
		why = append(why, offsetFail)
	}
	if len(why) > 0 {
		out.Verdict, out.Reason = Fail, strings.Join(why, "; ")
	}
	return out
}

// CompareSaturation judges the saturation load a curve predicts
// (c.Saturation, the sweep's unit) against the simulator's measured
// saturation throughput, with its own tolerance tol.Saturation; ok is false
// when there is nothing to compare (the model predicts no saturation, or the
// sweep neither saturates the simulator nor passes the model's saturation
// load). The measured saturation throughput is the largest accepted
// throughput (QAcceptedRate, the sweep's unit) of a saturated point: beyond
// saturation a network delivers what it can sustain. When no point
// saturated but the simulator carried a load above the model's saturation
// (status ok), the largest such load is a lower bound on the simulated
// saturation throughput; the error is then taken against it and is a lower
// bound on the size of the true error: beyond the tolerance the comparison
// fails, within it the verdict is NoData (a bound within the tolerance
// shows nothing; it fails unless the Setup expects no data), never Pass.
//
//	Err = (model saturation − measured) / measured
//
// The comparison has one PointError (Rate NaN) and Bound Estimate; its
// Excess is |Err| (a saturation throughput has no CI here), and it fails
// when |Err| > tol.Saturation. Informational (tol.ReportOnly) as Compare.
func CompareSaturation(config string, pts []SimPoint, c Curve, tol Tolerance) (Comparison, bool) {
	tol = tol.resolved()
	if math.IsNaN(c.Saturation) || c.Bound != Estimate {
		return Comparison{}, false
	}
	measured, maxOK, saturated := math.NaN(), math.NaN(), false
	for _, p := range pts {
		v, has := p.Values[QAcceptedRate]
		switch {
		case p.Status == sim.StatusSaturated && has && v.Mean > 0:
			saturated = true
			if !(v.Mean <= measured) {
				measured = v.Mean
			}
		case p.Status == sim.StatusOK && !(p.Rate <= maxOK):
			maxOK = p.Rate
		}
	}
	note := ""
	switch {
	case saturated:
	case !math.IsNaN(maxOK) && maxOK > c.Saturation:
		measured = maxOK
		note = fmt.Sprintf("; no point saturated, the simulator carried %.4g: the error is a bound", maxOK)
	default:
		return Comparison{}, false
	}
	e := (c.Saturation - measured) / measured
	out := Comparison{
		Config: config, Model: c.Model, Sim: QSaturation, Bound: Estimate, Eligible: 1,
		Points:  []PointError{{Rate: math.NaN(), Sim: measured, HalfWidth: 0, Model: c.Saturation, Err: e, Excess: math.Abs(e), Eligible: true}},
		MeanErr: math.Abs(e), MaxErr: math.Abs(e), MeanExcess: math.Abs(e), MaxExcess: math.Abs(e),
		Offset: math.NaN(), SimSaturation: measured, ModelSaturation: c.Saturation,
		Tolerance: tol, Judged: !tol.ReportOnly, Verdict: Pass,
	}
	switch {
	case tol.ReportOnly:
		out.Verdict, out.Reason = Info, tol.Reason
	case math.Abs(e) > tol.Saturation:
		out.Verdict = Fail
		out.Reason = fmt.Sprintf("model saturation %.4g vs measured saturation throughput %.4g: error %.3g > saturation tolerance %.3g%s", c.Saturation, measured, e, tol.Saturation, note)
	case !saturated:
		// A bound within the tolerance shows nothing: the true error is
		// at least |e| and may be far beyond the tolerance.
		out.Verdict, out.Eligible = NoData, 0
		out.MeanErr, out.MaxErr, out.MeanExcess, out.MaxExcess = math.NaN(), math.NaN(), math.NaN(), math.NaN()
		out.Points[0].Eligible = false
		out.Reason = fmt.Sprintf("no point saturated: the simulator carried %.4g, above the model's saturation %.4g, so the error is at least %.3g in size, which does not show it within the saturation tolerance %.3g (a load beyond the simulated saturation decides it)",
			maxOK, c.Saturation, math.Abs(e), tol.Saturation)
		if tol.ExpectNoData != "" {
			out.Reason += "; expected: " + tol.ExpectNoData
		}
	}
	return out, true
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
