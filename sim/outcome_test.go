package sim

import (
	"math"
	"strings"
	"testing"
)

// TestConclude pins the one status rule of every mode, case by case.
func TestConclude(t *testing.T) {
	inf := math.Inf(1)
	good := Estimate{Mean: 100, HalfWidth: 1, N: 1000, Batches: 40, Lag1: 0.1}
	thr := func(mean, hw float64) Estimate {
		return Estimate{Mean: mean, HalfWidth: hw, N: 20, Batches: 20, Lag1: 0}
	}
	cases := []struct {
		name   string
		e      Ending
		status string
		reason string // a fragment the reason must contain
	}{
		{"converged, closed system", Ending{Stopped: Converged, TargetRelCI: 0.02, Judged: []Named{{"X0", good}}}, StatusOK, ""},
		{"saturated passes through", Ending{Stopped: Saturated, Reason: "backlog grew"}, StatusSaturated, "backlog grew"},
		{"deadlock passes through", Ending{Stopped: Deadlocked, Reason: "no progress"}, StatusDeadlock, "no progress"},
		{"still running is never ok", Ending{Stopped: Running, Judged: []Named{{"X0", good}}}, StatusUnconverged, "did not stop"},
		{"no interval", Ending{Stopped: CapReached, Judged: []Named{{"latency", Estimate{Mean: 5, HalfWidth: inf, Batches: 3}}}}, StatusUnconverged, "no confidence interval for latency"},
		{"lag-1 too high", Ending{Stopped: Converged, TargetRelCI: 0.02, Judged: []Named{{"delay", Estimate{Mean: 100, HalfWidth: 1, Batches: 40, Lag1: 0.6}}}}, StatusUnconverged, "lag-1"},
		{"lag-1 NaN is not a failure", Ending{Stopped: Converged, TargetRelCI: 0.02, Judged: []Named{{"delay", Estimate{Mean: 100, HalfWidth: 1, Batches: 40, Lag1: math.NaN()}}}}, StatusOK, ""},
		{"cap, within the default bound", Ending{Stopped: CapReached, Reason: "cap", TargetRelCI: 0.01, Judged: []Named{{"latency", Estimate{Mean: 100, HalfWidth: 4.9, Batches: 40}}}}, StatusOK, "within the bound 5.00%"},
		{"cap, beyond the default bound", Ending{Stopped: CapReached, Reason: "cap", TargetRelCI: 0.01, Judged: []Named{{"latency", Estimate{Mean: 100, HalfWidth: 5.1, Batches: 40}}}}, StatusUnconverged, "exceeds the bound at the cap 5.00%"},
		{"cap, configured bound", Ending{Stopped: CapReached, CapRelCI: 0.10, TargetRelCI: 0.01, Judged: []Named{{"latency", Estimate{Mean: 100, HalfWidth: 8, Batches: 40}}}}, StatusOK, ""},
		{"cap bound never below the target", Ending{Stopped: CapReached, CapRelCI: 0.01, TargetRelCI: 0.09, Judged: []Named{{"latency", Estimate{Mean: 100, HalfWidth: 8, Batches: 40}}}}, StatusOK, ""},
		{"converged but not to the target", Ending{Stopped: Converged, TargetRelCI: 0.005, Judged: []Named{{"X0", good}}}, StatusUnconverged, "exceeds the target"},
		{"every judged estimate counts", Ending{Stopped: Converged, TargetRelCI: 0.02, Judged: []Named{{"PDT", good}, {"NTP", Estimate{Mean: 10, HalfWidth: 1, Batches: 40}}}}, StatusUnconverged, "NTP CI95"},
		{"open, accepted equals offered", Ending{Stopped: Converged, TargetRelCI: 0.02, Judged: []Named{{"latency", good}},
			Offered: thr(0.100, 0.002), Accepted: thr(0.099, 0.002)}, StatusOK, ""},
		// The 64x64 torus: 0.035 of 0.1 accepted with a latency CI of ±9%.
		{"open, accepted far below offered", Ending{Stopped: CapReached, CapRelCI: 0.10, Judged: []Named{{"latency", Estimate{Mean: 641, HalfWidth: 57, Batches: 40}}},
			Offered: thr(0.1, 0.001), Accepted: thr(0.035, 0.002)}, StatusSaturated, "accepted 0.035 below offered 0.1"},
		{"open, just beyond the run's tolerance", Ending{Stopped: Converged, TargetRelCI: 0.02, Judged: []Named{{"latency", good}},
			Offered: thr(0.100, 0.002), Accepted: thr(0.0959, 0.002)}, StatusSaturated, "tolerance 0.004"},
		{"open, accepted above offered", Ending{Stopped: CapReached, Judged: []Named{{"latency", good}},
			Offered: thr(0.100, 0.001), Accepted: thr(0.110, 0.001)}, StatusUnconverged, "still draining"},
		{"open, no throughput interval", Ending{Stopped: CapReached, Judged: []Named{{"latency", good}},
			Offered: Estimate{Mean: 0.1, HalfWidth: inf, N: 3, Batches: 3}, Accepted: Estimate{Mean: 0.1, HalfWidth: inf, N: 3, Batches: 3}}, StatusUnconverged, "no confidence interval for the throughput"},
	}
	for _, tc := range cases {
		st, why := Conclude(tc.e)
		if st != tc.status || !strings.Contains(why, tc.reason) {
			t.Errorf("%s: got %s (%q), want %s containing %q", tc.name, st, why, tc.status, tc.reason)
		}
		if st != StatusOK && why == "" {
			t.Errorf("%s: status %s without a reason", tc.name, st)
		}
	}
}

// TestEstimateOf reads a BatchMeans into the shared Estimate.
func TestEstimateOf(t *testing.T) {
	b := NewBatchMeans(64, 10)
	for i := range 5 {
		b.Add(float64(i))
	}
	e := EstimateOf(b)
	if e.CIOK() || !math.IsInf(e.HalfWidth, 1) || e.N != 5 || e.Batches != 5 || !math.IsInf(e.RelHalfWidth(), 1) {
		t.Errorf("5 batches: %+v, want no interval", e)
	}
	for i := range 100 {
		b.Add(float64(i % 7))
	}
	e = EstimateOf(b)
	h, _ := b.CI95()
	if !e.CIOK() || e.HalfWidth != h || e.Mean != b.Mean() || e.Lag1 != b.Lag1() || !e.Contains(e.Mean+0.99*h) || e.Contains(e.Mean+1.01*h) {
		t.Errorf("%+v", e)
	}
}

// TestTargetMetNeedsLag1: a stream whose batch means are strongly
// autocorrelated never meets its target, however narrow the interval.
func TestTargetMetNeedsLag1(t *testing.T) {
	b := NewBatchMeans(64, 10)
	for i := range 40 { // a slow ramp: narrow interval, lag-1 near 1
		b.Add(1000 + float64(i)*0.01)
	}
	if rel, _ := b.RelHalfWidth(); !(rel < 0.01) || !(b.Lag1() > MaxLag1) {
		t.Fatalf("setup: rel %v lag1 %v", rel, b.Lag1())
	}
	if b.TargetMet(0.01) {
		t.Error("target met with lag-1 above MaxLag1")
	}
	c := NewBatchMeans(64, 10)
	for i := range 40 {
		c.Add(1000 + float64(i%2)*0.01) // alternating: lag-1 negative
	}
	if !c.TargetMet(0.01) || c.TargetMet(0) {
		t.Errorf("alternating stream: TargetMet(0.01) %v, TargetMet(0) %v", c.TargetMet(0.01), c.TargetMet(0))
	}
}
