package sim

import (
	"fmt"
	"math"
)

// Run statuses: the one vocabulary every simulator mode reports a run in
// (network, closed, delta, slotted) and the results files carry. A status
// is a claim about the run and never reads better than the run: only
// StatusOK carries steady-state numbers; every other status comes with a
// reason and no latency (delay, X0, ...) figure.
const (
	// StatusOK: steady state shown. The run met its CI target, or reached
	// its cap with every judged half-width within its bound, and (open
	// systems) accepted throughput equal to offered within the run's own
	// tolerance; see [Conclude].
	StatusOK = "ok"
	// StatusSaturated: the offered load is not carried: a backlog grew,
	// accepted throughput fell below offered beyond the run's tolerance, or
	// the work tagged in the measurement window did not drain.
	StatusSaturated = "saturated"
	// StatusUnconverged: the run stopped at its cap without showing a
	// steady state: no confidence interval, an interval wider than its
	// bound, batch means too correlated to trust (lag-1 check), or a
	// throughput estimate without an interval.
	StatusUnconverged = "unconverged"
	// StatusDeadlock: work in the system and nothing moved for the
	// configured number of cycles.
	StatusDeadlock = "deadlock"
	// StatusOutOfDomain is not a run status: it marks a model row whose
	// assumptions do not hold at the point (and a simulated point the
	// simulator could not run), the word of the results files of
	// sim/sweep and of the validation harness.
	StatusOutOfDomain = "out-of-domain"
)

// MaxLag1 is the largest lag-1 autocorrelation of batch means at which
// their confidence interval is trusted ([BatchMeans.Lag1]): above it the
// batches are too short for their means to be nearly independent, and the
// interval too narrow. Every mode applies it wherever it reports a CI.
const MaxLag1 = 0.5

// DefaultCapRelCI is the default bound on the relative 95% half-width of
// a run that stops at its cap rather than on its CI target (see
// [Conclude]).
const DefaultCapRelCI = 0.05

// Estimate is a steady-state mean with the half-width of its 95%
// confidence interval by batch means (Mean ± HalfWidth), the one estimate
// type of every mode. N counts the observations behind it (messages,
// packets, periods: as documented where it is used), Batches the batch
// means and Lag1 their lag-1 autocorrelation (NaN with fewer than three
// batches or zero variance). HalfWidth is +Inf when fewer than the minimum
// number of batches completed: no interval is an infinitely wide one,
// never a zero-width one. An interval of another level q is HalfWidth ·
// t_{q, Batches−1} / t_{0.975, Batches−1}.
type Estimate struct {
	Mean      float64
	HalfWidth float64
	N         int64
	Batches   int
	Lag1      float64
}

// EstimateOf reads b (its mean over complete batches, 95% half-width,
// observation count, batches and lag-1 autocorrelation).
func EstimateOf(b *BatchMeans) Estimate {
	e := Estimate{Mean: b.Mean(), HalfWidth: math.Inf(1), N: b.Count(), Batches: b.Batches(), Lag1: b.Lag1()}
	if h, ok := b.CI95(); ok {
		e.HalfWidth = h
	}
	return e
}

// CIOK reports whether e has a finite confidence interval.
func (e Estimate) CIOK() bool { return !math.IsInf(e.HalfWidth, 0) && !math.IsNaN(e.HalfWidth) }

// Independent reports whether the batch means behind e pass the lag-1
// check (Lag1 ≤ MaxLag1; NaN, from too few batches or zero variance,
// passes: the CI rule then decides).
func (e Estimate) Independent() bool { return !(e.Lag1 > MaxLag1) }

// RelHalfWidth returns HalfWidth/|Mean| (+Inf without an interval or with
// a zero mean).
func (e Estimate) RelHalfWidth() float64 {
	if !e.CIOK() || e.Mean == 0 {
		return math.Inf(1)
	}
	return e.HalfWidth / math.Abs(e.Mean)
}

// Contains reports whether x lies in the interval Mean ± HalfWidth.
func (e Estimate) Contains(x float64) bool { return math.Abs(x-e.Mean) <= e.HalfWidth }

// TargetMet reports whether b's 95% interval exists, its relative
// half-width is at most target and its batch means pass the lag-1 check:
// the stopping rule of every mode. A target ≤ 0 is never met.
func (b *BatchMeans) TargetMet(target float64) bool {
	if !(target > 0) {
		return false
	}
	rel, ok := b.RelHalfWidth()
	return ok && rel <= target && !(b.Lag1() > MaxLag1)
}

// Ending describes how a run stopped, for [Conclude].
type Ending struct {
	// Stopped is the run-control state the run stopped in: Converged (its
	// CI target met), CapReached, Saturated or Deadlocked.
	Stopped Status
	// Reason is the run control's sentence for Stopped.
	Reason string
	// Judged are the estimates the CI rule applies to, by name (at least
	// one: latency, X0, delay, ...).
	Judged []Named
	// TargetRelCI is the run's CI target; CapRelCI the bound on the
	// relative half-width of a run stopped at its cap (0: DefaultCapRelCI;
	// never below TargetRelCI).
	TargetRelCI, CapRelCI float64
	// Offered and Accepted are the throughputs over the measurement window
	// of an open system, as batch-means estimates over sample periods;
	// Offered.N == 0 marks a closed system (no throughput check).
	Offered, Accepted Estimate
}

// Named is an estimate with the name a reason calls it by.
type Named struct {
	Name string
	Estimate
}

// Conclude returns the status of a finished run and its reason: the one
// status rule of every mode.
//
//   - Saturated and Deadlocked pass through with their reason.
//
//   - Every judged estimate needs a confidence interval and batch means
//     that pass the lag-1 check (Lag1 ≤ MaxLag1); otherwise unconverged.
//
//   - Converged needs every judged relative half-width ≤ TargetRelCI;
//     CapReached ≤ CapRelCI (the configurable bound); otherwise
//     unconverged.
//
//   - An open system (Offered.N > 0) needs a CI on both throughputs and
//
//     |Accepted − Offered| ≤ h(Accepted) + h(Offered)
//
//     the tolerance the run itself gives (the two 95% half-widths): below
//     it the run is saturated (the network did not carry the load), above
//     it unconverged (still draining a transient).
//
// Only a run that passes every rule is StatusOK; its reason is the run
// control's sentence (and, at the cap, the half-widths against their bound).
func Conclude(e Ending) (status, reason string) {
	switch e.Stopped {
	case Saturated:
		return StatusSaturated, e.Reason
	case Deadlocked:
		return StatusDeadlock, e.Reason
	case Converged, CapReached:
	default:
		return StatusUnconverged, fmt.Sprintf("the run did not stop (state %s)", e.Stopped)
	}
	bound := e.TargetRelCI
	what := "target"
	if e.Stopped == CapReached {
		bound = e.CapRelCI
		if bound <= 0 {
			bound = DefaultCapRelCI
		}
		bound = max(bound, e.TargetRelCI)
		what = "bound at the cap"
	}
	capNote := ""
	if e.Stopped == CapReached {
		capNote = e.Reason + ": "
	}
	var notes []string
	for _, j := range e.Judged {
		switch {
		case !j.CIOK():
			return StatusUnconverged, fmt.Sprintf("%sno confidence interval for %s (%d batches of %d observations)", capNote, j.Name, j.Batches, j.N)
		case !j.Independent():
			return StatusUnconverged, fmt.Sprintf("%s%s: lag-1 autocorrelation of the batch means %.2f > %.2g, batches too short to trust the interval", capNote, j.Name, j.Lag1, MaxLag1)
		case j.RelHalfWidth() > bound:
			return StatusUnconverged, fmt.Sprintf("%s%s CI95 half-width %.3g = %.2f%% of mean %.6g exceeds the %s %.2f%%",
				capNote, j.Name, j.HalfWidth, 100*j.RelHalfWidth(), j.Mean, what, 100*bound)
		}
		if e.Stopped == CapReached {
			notes = append(notes, fmt.Sprintf("%s CI95 ±%.2f%% within the bound %.2f%%", j.Name, 100*j.RelHalfWidth(), 100*bound))
		}
	}
	if e.Offered.N > 0 {
		a, o := e.Accepted, e.Offered
		if !a.CIOK() || !o.CIOK() {
			return StatusUnconverged, fmt.Sprintf("%sno confidence interval for the throughput (%d periods measured, %d batches)", capNote, o.N, o.Batches)
		}
		tol := a.HalfWidth + o.HalfWidth
		switch d := a.Mean - o.Mean; {
		case d < -tol:
			return StatusSaturated, fmt.Sprintf("accepted %.6g below offered %.6g by %.3g, beyond the run's tolerance %.3g (the two 95%% half-widths)", a.Mean, o.Mean, -d, tol)
		case d > tol:
			return StatusUnconverged, fmt.Sprintf("%saccepted %.6g above offered %.6g by %.3g, beyond the run's tolerance %.3g: a transient still draining", capNote, a.Mean, o.Mean, d, tol)
		}
	}
	if e.Stopped == Converged {
		return StatusOK, e.Reason
	}
	reason = e.Reason
	for _, n := range notes {
		reason += "; " + n
	}
	return StatusOK, reason
}
