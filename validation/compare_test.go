package validation

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/sim"
)

func sp(rate float64, status string, mean, hw float64) SimPoint {
	p := SimPoint{Rate: rate, Status: status}
	if status == sim.StatusOK {
		p.Values = map[string]SimValue{QLatency: {mean, hw}}
	}
	return p
}

func mp(rate, v float64, status string) ModelPoint {
	return ModelPoint{Rate: rate, Value: v, Status: status}
}

func curve(sat float64, b Bound, pts ...ModelPoint) Curve {
	return Curve{Model: "m", Sim: QLatency, Saturation: sat, Bound: b, Points: pts}
}

// TestCompare checks the error arithmetic, eligibility, offsets, knees and
// verdicts on hand-computed cases (values chosen so every expected number
// is exact in binary or checked to 1e-12).
func TestCompare(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name                  string
		sim                   []SimPoint
		c                     Curve
		tol                   Tolerance
		eligible              int
		meanErr, maxErr       float64
		meanExcess, maxExcess float64
		offset, simSat        float64
		verdict               string
	}{
		{
			name:     "exact model passes",
			sim:      []SimPoint{sp(0.1, sim.StatusOK, 10, 1), sp(0.2, sim.StatusOK, 20, 1)},
			c:        curve(nan, Estimate, mp(0.1, 10, sim.StatusOK), mp(0.2, 20, sim.StatusOK)),
			eligible: 2, meanErr: 0, maxErr: 0, meanExcess: 0, maxExcess: 0,
			offset: 0.0, simSat: nan, verdict: Pass,
		},
		{
			// errors 1/10 and 4/20; excess (1-0.5)/10 = .05 and (4-1)/20 = .15
			name:     "errors and CI excess",
			sim:      []SimPoint{sp(0.1, sim.StatusOK, 10, 0.5), sp(0.2, sim.StatusOK, 20, 1)},
			c:        curve(nan, Estimate, mp(0.1, 11, sim.StatusOK), mp(0.2, 16, sim.StatusOK)),
			tol:      Tolerance{Mean: 0.2, Max: 0.2},
			eligible: 2, meanErr: 0.15, maxErr: 0.2, meanExcess: 0.1, maxExcess: 0.15,
			offset: -1.0, simSat: nan, verdict: Pass,
		},
		{
			name:     "max tolerance fails",
			sim:      []SimPoint{sp(0.1, sim.StatusOK, 10, 0.5), sp(0.2, sim.StatusOK, 20, 1)},
			c:        curve(nan, Estimate, mp(0.1, 11, sim.StatusOK), mp(0.2, 16, sim.StatusOK)),
			tol:      Tolerance{Mean: 0.2, Max: 0.1},
			eligible: 2, meanErr: 0.15, maxErr: 0.2, meanExcess: 0.1, maxExcess: 0.15,
			offset: -1.0, simSat: nan, verdict: Fail,
		},
		{
			name:     "mean tolerance fails",
			sim:      []SimPoint{sp(0.1, sim.StatusOK, 10, 0.5), sp(0.2, sim.StatusOK, 20, 1)},
			c:        curve(nan, Estimate, mp(0.1, 11, sim.StatusOK), mp(0.2, 16, sim.StatusOK)),
			tol:      Tolerance{Mean: 0.05, Max: 1},
			eligible: 2, meanErr: 0.15, maxErr: 0.2, meanExcess: 0.1, maxExcess: 0.15,
			offset: -1.0, simSat: nan, verdict: Fail,
		},
		{
			// saturation 1: fraction 0.8 admits 0.1 and 0.8, not 0.9;
			// sim saturated at 0.95; the knee at 0.9 (40 > 3 x 10).
			name: "fraction, saturation and knee",
			sim: []SimPoint{sp(0.1, sim.StatusOK, 10, 0), sp(0.8, sim.StatusOK, 20, 0),
				sp(0.9, sim.StatusOK, 40, 0), sp(0.95, sim.StatusSaturated, 0, 0)},
			c: curve(1, Estimate, mp(0.1, 10, sim.StatusOK), mp(0.8, 25, sim.StatusOK),
				mp(0.9, 100, sim.StatusOK), mp(0.95, 200, sim.StatusOK)),
			eligible: 2, meanErr: 0.125, maxErr: 0.25, meanExcess: 0.125, maxExcess: 0.25,
			offset: 0.0, simSat: 0.9, verdict: Fail,
		},
		{
			name: "model out of domain and sim deadlock are ineligible",
			sim:  []SimPoint{sp(0.1, sim.StatusOK, 10, 0), sp(0.2, sim.StatusOK, 12, 0), sp(0.3, sim.StatusDeadlock, 0, 0)},
			c: curve(nan, Estimate, mp(0.1, 10, sim.StatusOK), mp(0.2, 99, sim.StatusOutOfDomain),
				mp(0.3, 13, sim.StatusOK)),
			eligible: 1, meanErr: 0, maxErr: 0, meanExcess: 0, maxExcess: 0,
			offset: 0.0, simSat: 0.3, verdict: Pass,
		},
		{
			name:     "no eligible point",
			sim:      []SimPoint{sp(0.1, sim.StatusSaturated, 0, 0)},
			c:        curve(nan, Estimate, mp(0.1, 10, sim.StatusOK)),
			eligible: 0, meanErr: nan, maxErr: nan, meanExcess: nan, maxExcess: nan,
			offset: nan, simSat: 0.1, verdict: NoData,
		},
		{
			// constant offset 4 (Safaei's double-counted distance): the
			// load-dependent error after removing it is 0 and 2/30.
			// The anchor (0.1) is not judged: one point, error 2/30.
			name:     "subtract zero-load offset",
			sim:      []SimPoint{sp(0.1, sim.StatusOK, 20, 0), sp(0.2, sim.StatusOK, 30, 0)},
			c:        curve(nan, Estimate, mp(0.1, 24, sim.StatusOK), mp(0.2, 36, sim.StatusOK)),
			tol:      Tolerance{SubtractOffset: true, MaxOffset: 0.25},
			eligible: 1, meanErr: 2.0 / 30, maxErr: 2.0 / 30, meanExcess: 2.0 / 30, maxExcess: 2.0 / 30,
			offset: -4.0, simSat: nan, verdict: Pass,
		},
		{
			// The same with the default bound: |-4| = 20% of 20 > 10%.
			name:     "subtracted offset out of its bound",
			sim:      []SimPoint{sp(0.1, sim.StatusOK, 20, 0), sp(0.2, sim.StatusOK, 30, 0)},
			c:        curve(nan, Estimate, mp(0.1, 24, sim.StatusOK), mp(0.2, 36, sim.StatusOK)),
			tol:      Tolerance{SubtractOffset: true},
			eligible: 1, meanErr: 2.0 / 30, maxErr: 2.0 / 30, meanExcess: 2.0 / 30, maxExcess: 2.0 / 30,
			offset: -4.0, simSat: nan, verdict: Fail,
		},
		{
			// Only the anchor is eligible: no data, which fails unless expected.
			name:     "anchor alone is no data",
			sim:      []SimPoint{sp(0.1, sim.StatusOK, 20, 0), sp(0.2, sim.StatusSaturated, 0, 0)},
			c:        curve(nan, Estimate, mp(0.1, 24, sim.StatusOK), mp(0.2, 36, sim.StatusOK)),
			tol:      Tolerance{SubtractOffset: true, MaxOffset: 0.25},
			eligible: 0, meanErr: nan, maxErr: nan, meanExcess: nan, maxExcess: nan,
			offset: -4.0, simSat: 0.2, verdict: NoData,
		},
		{
			name:     "report only reads info, never pass",
			sim:      []SimPoint{sp(0.1, sim.StatusOK, 10, 1), sp(0.2, sim.StatusOK, 20, 1)},
			c:        curve(nan, Estimate, mp(0.1, 10, sim.StatusOK), mp(0.2, 20, sim.StatusOK)),
			tol:      Tolerance{ReportOnly: true, Reason: "why"},
			eligible: 2, meanErr: 0, maxErr: 0, meanExcess: 0, maxExcess: 0,
			offset: 0, simSat: nan, verdict: Info,
		},
		{
			// sim 10 ± 1 below a lower bound of 12: violation (12-11)/10.
			name:     "lower bound violated",
			sim:      []SimPoint{sp(1, sim.StatusOK, 10, 1), sp(2, sim.StatusOK, 20, 1)},
			c:        curve(nan, Lower, mp(1, 12, sim.StatusOK), mp(2, 15, sim.StatusOK)),
			tol:      Tolerance{Max: 0.05},
			eligible: 2, meanErr: 0.225, maxErr: 0.25, meanExcess: 0.05, maxExcess: 0.1,
			offset: nan, simSat: nan, verdict: Fail,
		},
		{
			name:     "upper bound respected",
			sim:      []SimPoint{sp(1, sim.StatusOK, 10, 1), sp(2, sim.StatusOK, 20, 1)},
			c:        curve(nan, Upper, mp(1, 12, sim.StatusOK), mp(2, 20.5, sim.StatusOK)),
			tol:      Tolerance{Max: 0.0},
			eligible: 2, meanErr: 0.1125, maxErr: 0.2, meanExcess: 0, maxExcess: 0,
			offset: nan, simSat: nan, verdict: Pass,
		},
	}
	same := func(a, b float64) bool {
		return math.IsNaN(a) && math.IsNaN(b) || math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b))
	}
	for _, tc := range cases {
		got := Compare("cfg", tc.sim, tc.c, tc.tol)
		if got.Eligible != tc.eligible || !same(got.MeanErr, tc.meanErr) || !same(got.MaxErr, tc.maxErr) ||
			!same(got.MeanExcess, tc.meanExcess) || !same(got.MaxExcess, tc.maxExcess) ||
			!same(got.Offset, tc.offset) || !same(got.SimSaturation, tc.simSat) ||
			got.Verdict != tc.verdict {
			t.Errorf("%s:\n got eligible %d err %v/%v excess %v/%v offset %v simSat %v verdict %s (%s)\nwant eligible %d err %v/%v excess %v/%v offset %v simSat %v verdict %s",
				tc.name, got.Eligible, got.MeanErr, got.MaxErr, got.MeanExcess, got.MaxExcess, got.Offset, got.SimSaturation, got.Verdict, got.Reason,
				tc.eligible, tc.meanErr, tc.maxErr, tc.meanExcess, tc.maxExcess, tc.offset, tc.simSat, tc.verdict)
		}
	}
}

// TestCompareThroughputHasNoKnee: a rising throughput is not a latency knee.
func TestCompareThroughputHasNoKnee(t *testing.T) {
	pts := []SimPoint{
		{Rate: 1, Status: sim.StatusOK, Values: map[string]SimValue{QX0: {0.2, 0.001}}},
		{Rate: 10, Status: sim.StatusOK, Values: map[string]SimValue{QX0: {1.4, 0.01}}},
	}
	c := Curve{Model: "reed", Sim: QX0, Saturation: math.NaN(), Points: []ModelPoint{mp(1, 0.2, sim.StatusOK), mp(10, 1.405, sim.StatusOK)}}
	got := Compare("reed", pts, c, Tolerance{})
	if !math.IsNaN(got.SimSaturation) || got.Verdict != Pass || got.Eligible != 2 {
		t.Errorf("%+v", got)
	}
}

// TestBaseline round-trips a baseline and flags only regressions past slack.
func TestBaseline(t *testing.T) {
	cs := []Comparison{
		{Config: "a", Model: "m", Verdict: Pass, MeanErr: 0.05},
		{Config: "b", Model: "m", Verdict: Pass, MeanErr: 0.10},
		{Config: "c", Model: "m", Verdict: NoData, MeanErr: math.NaN()},
		{Config: "d", Model: "bound", Bound: Upper, Verdict: Pass, MeanErr: 0.3},
	}
	b := NewBaseline(cs)
	if len(b) != 2 || b["a/m"] != (BaselineEntry{0.05, Pass}) || b["b/m"].MeanErr != 0.10 {
		t.Fatalf("baseline %v", b)
	}
	path := filepath.Join(t.TempDir(), "baseline.json")
	if err := b.Save(path); err != nil {
		t.Fatal(err)
	}
	b2, err := LoadBaseline(path)
	if err != nil || len(b2) != 2 || b2["b/m"] != (BaselineEntry{0.10, Pass}) {
		t.Fatalf("reloaded %v, %v", b2, err)
	}
	// A missing file and one too large to be a baseline are refused by
	// name, before anything runs unguarded or a huge file is read.
	none := filepath.Join(t.TempDir(), "none.json")
	if _, err := LoadBaseline(none); err == nil || !strings.Contains(err.Error(), none) {
		t.Errorf("missing file: %v, want an error naming it", err)
	}
	big := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(big, bytes.Repeat([]byte(" "), MaxBaselineBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadBaseline(big); err == nil || !strings.Contains(err.Error(), big) || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("oversized file: %v, want an error naming it and its size limit", err)
	}
	// A judged comparison without data that fails is recorded as a known
	// failure with that verdict; the same key failing otherwise is not it.
	nd := Comparison{Config: "f", Model: "m", Sim: QSaturation, Verdict: NoData, Judged: true, MeanErr: math.NaN()}
	kb := NewBaseline([]Comparison{nd})
	if kb["f/m@saturation"] != (BaselineEntry{0, NoData}) || !kb.KnownFailure(nd) {
		t.Errorf("failing no-data: baseline %v, known %v", kb, kb.KnownFailure(nd))
	}
	if fl := (Comparison{Config: "f", Model: "m", Sim: QSaturation, Verdict: Fail, Judged: true}); kb.KnownFailure(fl) {
		t.Error("a fail is known under a no-data row")
	}
	if exp := (Comparison{Config: "g", Model: "m", Verdict: NoData, Judged: true, Tolerance: Tolerance{ExpectNoData: "e"}}); len(NewBaseline([]Comparison{exp})) != 0 {
		t.Error("an expected no-data comparison recorded")
	}
	now := []Comparison{
		{Config: "a", Model: "m", Verdict: Pass, MeanErr: 0.069}, // within 0.02
		{Config: "b", Model: "m", Verdict: Fail, MeanErr: 0.13},  // regression
		{Config: "e", Model: "m", Verdict: Pass, MeanErr: 0.9},   // new, not a regression
	}
	reg := b2.Check(now, 0.02)
	if len(reg) != 1 || reg[0].Key != "b/m" {
		t.Fatalf("regressions %v", reg)
	}
	if reg := b2.Check(now, 0.05); len(reg) != 0 {
		t.Fatalf("slack 0.05: %v", reg)
	}
}

// TestNoDataFailsUnlessExpected: a judged comparison without an eligible
// point fails, unless the Setup declares it expected with a reason; an
// informational one never fails.
func TestNoDataFailsUnlessExpected(t *testing.T) {
	pts := []SimPoint{sp(0.1, sim.StatusSaturated, 0, 0)}
	c := curve(math.NaN(), Estimate, mp(0.1, 10, sim.StatusOK))
	for _, tc := range []struct {
		tol    Tolerance
		failed bool
		reason string
	}{
		{Tolerance{}, true, "does not declare it expected"},
		{Tolerance{ExpectNoData: "beyond the domain"}, false, "as expected: beyond the domain"},
		{Tolerance{ReportOnly: true, Reason: "relaxed"}, false, "informational: relaxed"},
	} {
		got := Compare("x", pts, c, tc.tol)
		if got.Verdict != NoData || got.Failed() != tc.failed || !strings.Contains(got.Reason, tc.reason) {
			t.Errorf("%+v: verdict %s failed %v reason %q", tc.tol, got.Verdict, got.Failed(), got.Reason)
		}
	}
}

// TestCompareSaturation: the model's saturation load against the largest
// accepted throughput of a saturated point, with its own tolerance; a
// bound when the simulator carried more than the model's saturation; no
// comparison when the sweep shows neither.
func TestCompareSaturation(t *testing.T) {
	acc := func(p SimPoint, a float64) SimPoint {
		if p.Values == nil {
			p.Values = map[string]SimValue{}
		}
		p.Values[QAcceptedRate] = SimValue{Mean: a, HalfWidth: math.NaN()}
		return p
	}
	pts := []SimPoint{acc(sp(0.5, sim.StatusOK, 10, 1), 0.5), acc(sp(0.9, sim.StatusSaturated, 0, 0), 0.78), acc(sp(1.0, sim.StatusSaturated, 0, 0), 0.8)}
	c := curve(0.9, Estimate, mp(0.5, 10, sim.StatusOK), mp(0.9, 20, sim.StatusOK), mp(1, 0, sim.StatusSaturated))
	got, ok := CompareSaturation("x", pts, c, Tolerance{Saturation: 0.15})
	if !ok || got.Sim != QSaturation || got.Verdict != Pass || math.Abs(got.MaxErr-0.125) > 1e-12 || got.Points[0].Sim != 0.8 || !got.Judged {
		t.Errorf("within 15%%: %+v", got)
	}
	if got, _ = CompareSaturation("x", pts, c, Tolerance{Saturation: 0.10}); got.Verdict != Fail || !strings.Contains(got.Reason, "saturation tolerance 0.1") {
		t.Errorf("beyond 10%%: %+v", got)
	}
	if got, _ = CompareSaturation("x", pts, c, Tolerance{Saturation: 0.10, ReportOnly: true, Reason: "r"}); got.Verdict != Info || got.Judged {
		t.Errorf("informational: %+v", got)
	}
	// No point saturated, the simulator carried 0.5 > model saturation 0.4.
	stable := []SimPoint{acc(sp(0.3, sim.StatusOK, 10, 1), 0.3), acc(sp(0.5, sim.StatusOK, 12, 1), 0.5)}
	got, ok = CompareSaturation("x", stable, curve(0.4, Estimate), Tolerance{Saturation: 0.15})
	if !ok || got.Verdict != Fail || math.Abs(got.Points[0].Err-(-0.2)) > 1e-12 || !strings.Contains(got.Reason, "is a bound") {
		t.Errorf("bound: %+v", got)
	}
	// The same bound within the tolerance shows nothing (the true error
	// may be far larger): no data, which fails, never a pass.
	got, ok = CompareSaturation("x", stable, curve(0.4, Estimate), Tolerance{Saturation: 0.25})
	if !ok || got.Verdict != NoData || !got.Failed() || !math.IsNaN(got.MeanErr) || !strings.Contains(got.Reason, "no point saturated") {
		t.Errorf("bound within the tolerance: %+v", got)
	}
	if got, _ = CompareSaturation("x", stable, curve(0.4, Estimate), Tolerance{Saturation: 0.25, ExpectNoData: "e"}); got.Verdict != NoData || got.Failed() {
		t.Errorf("bound within the tolerance, no data expected: %+v", got)
	}
	// The sweep stays below the model's saturation and nothing saturated.
	if _, ok = CompareSaturation("x", stable, curve(0.6, Estimate), Tolerance{}); ok {
		t.Error("a comparison without a saturation in the sweep")
	}
	if _, ok = CompareSaturation("x", pts, curve(math.NaN(), Estimate), Tolerance{}); ok {
		t.Error("a comparison for a model without saturation")
	}
	if BaselineKey(got) != "x/m@saturation" {
		t.Errorf("baseline key %q", BaselineKey(got))
	}
}
