// Run control: the measurement loop of a simulation run, independent of
// what is simulated.
//
// Overview. A model advances in sample periods of RunControl.Period cycles.
// During a period it feeds each completed observation (a delivered
// message's latency, say) to Monitor.Observe, which keeps it only while
// Monitor.Measuring is true; at the end of the period it calls
// Monitor.EndPeriod with a PeriodReport and obeys the Decision:
//
//	cycle 0        warm-up          WarmupEnd  MeasureStart      measuring            stop
//	  |----|----|----|----|----|----|----|----|----|----|----|----|----|----|----|----|
//	   EndPeriod after every period: deadlock? saturated? warm-up over? converged? cap?
//
// Phases:
//
//  1. Warm-up. Fixed (RunControl.Warmup > 0): it ends at the first period
//     boundary at or after Warmup. Automatic (Warmup == 0): the per-period
//     means of the observations are kept (periods without observations are
//     skipped), and the MSER rule of [MSER5] is run on them once there are
//     20 of them, with the period itself as the batch: a period mean is
//     already the mean of a batch of observations, which is all the 5 of
//     MSER-5 provides, and batching periods again in fives would leave
//     only 10 points in the default 50-period MaxWarmup (too coarse: a
//     τ = 5-period transient was then never detected). When MSER finds a
//     truncation point d in the first half of the series, the transient is
//     over: WarmupEnd is the start of period d and measurement starts at
//     the current period end (observations between the two were not kept,
//     which only costs data). The half-series rule means a transient of T
//     cycles is recognised at about 2T. If MaxWarmup passes first, the run
//     is Saturated when the backlog is growing by the trend rule below;
//     otherwise measurement starts there.
//  2. Measuring. Observations go to a [BatchMeans]. The run has Converged
//     when at least MinMeasure cycles have been measured, the batch-means
//     95% interval exists (MinBatches batches), its half-width is at most
//     TargetRelCI·|mean|, and the lag-1 autocorrelation of the batch means
//     is at most 0.5 (otherwise the batches are too short for the interval
//     to be trusted).
//  3. Stop. Checked in this order at every period end: Deadlocked
//     (InFlight > 0 and CyclesSinceProgress ≥ DeadlockCycles), Saturated
//     (backlog above BacklogLimit at any time; or, while measuring, the
//     trend rule), Converged, CapReached (End ≥ MaxCycles).
//
// Trend rule for saturation. Over the last k ≤ 20 period-end backlogs B_i
// (only those after WarmupEnd while measuring; at least 10 of them), the
// backlog is growing when both
//
//	OLS slope of B on cycle:    β > 0 and β / se(β) > 4
//	per-period increments Δ_i:  B_last − B_first = ΣΔ_i > 6 · s_Δ · √(k−1)
//
// hold, where s_Δ is the sample standard deviation of the k−1 increments;
// the second is a one-sided t-test, t > 6, that the increments have a
// positive mean, and is the "set amount" the growth must exceed. The
// first alone is useless on autocorrelated backlogs: a zero-drift random
// walk routinely gives OLS t-statistics of 10–25 over 20 points (spurious
// regression). For a random walk the increments are independent, so the
// second needs a t₁₈ > 6 event (P ≈ 6·10⁻⁶ per window); with a threshold
// of 4 instead, 2 of 20 reflected zero-drift walks of 1000 periods were
// called saturated (0 of 200 with 6). For a stable backlog fluctuating as
// white noise of standard deviation σ the growth must be a swing of about
// 6·√2·√19 σ ≈ 37σ (12σ for AR(1) with φ = 0.9). A linear growth of c
// per period on top of white noise σ is caught within 20 periods when
// c ≳ 2σ (for a network with Poisson sources, an overload of a few
// percent); slower growth is left to BacklogLimit. At MaxWarmup, where the
// latency has not settled either, the increment threshold is 4 instead of 6
// (two pieces of evidence instead of one).
//
// A run that saturates, deadlocks or has too few batches never yields a
// number: [Monitor.Estimate] then returns ok = false.

package sim

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// Run-control constants (documented in the overview above).
const (
	trendWindow    = 20   // period-end backlogs in the saturation window
	trendMinPoints = 10   // fewer points: no trend verdict
	trendT         = 4.0  // t threshold of the OLS slope
	incT           = 6.0  // t threshold of the mean increment while measuring
	risingIncT     = 4.0  // the same at MaxWarmup, when latency has not settled either
	mserMinPeriods = 20   // per-period means before MSER is first tried
	driftSDs       = 3    // rise (in first-third standard deviations) that marks a drifting series at the cap
	warmupBatch    = 1    // MSER batch, in periods (see the overview)
	maxWarmPeriods = 1e5  // bound on MaxWarmup/Period (memory of the warm-up series)
	defaultPeriod  = 1000 // cycles
)

// RunControl configures a [Monitor]. Its zero value means "all defaults";
// only BacklogLimit usually needs setting.
type RunControl struct {
	// Period is the sample period in cycles (default 1000).
	Period Cycle
	// Warmup is a fixed warm-up in cycles; measurement starts at the first
	// period end ≥ Warmup. 0 selects the automatic warm-up (MSER-5 over the
	// per-period means).
	Warmup Cycle
	// MaxWarmup caps the automatic warm-up (default 50 periods). Reaching
	// it while the backlog is rising is saturation; otherwise measurement
	// starts there.
	MaxWarmup Cycle
	// MinMeasure is the minimum number of measured cycles before the run
	// may converge (default 10 periods).
	MinMeasure Cycle
	// MaxCycles is the hard cap on the run length (default 1 000 000);
	// reaching it stops the run with status CapReached.
	MaxCycles Cycle
	// TargetRelCI stops the run when the 95% half-width is at most this
	// fraction of |mean| (default 0.02). A negative value disables the
	// target: the run then goes to MaxCycles.
	TargetRelCI float64
	// MaxBatches and MinBatches configure the batch means (defaults 64 and
	// 10); MaxBatches must be even and at least 2·MinBatches.
	MaxBatches, MinBatches int
	// BacklogLimit declares saturation as soon as PeriodReport.Backlog
	// exceeds it (e.g. 100 messages per node). 0 disables the limit; the
	// trend rule still applies.
	BacklogLimit float64
	// DeadlockCycles declares deadlock when CyclesSinceProgress reaches it
	// while InFlight > 0 (default 10 000).
	DeadlockCycles Cycle
	// CapRelCI bounds the relative 95% half-width of a run that stops at
	// MaxCycles: within it (and with accepted equal to offered) the run is
	// ok, beyond it unconverged (default DefaultCapRelCI; never below
	// TargetRelCI). See [Conclude].
	CapRelCI float64
	// Unit names the model's time step in reasons ("cycle" by default; the
	// continuous-time modes, closed and delta, count in "period"s of their
	// own time unit, Period = 1).
	Unit string
	// TimeScale is the model's time per Unit (the period length of the
	// continuous-time modes; 0: 1): RunPeriods stores progress in the
	// context's meter in the model's time.
	TimeScale float64
	// MaxDrain bounds the drain after the measurement window, in cycles:
	// a model that measures the work tagged in the window (sim/network)
	// runs on until every tagged item is done, and a drain longer than
	// MaxDrain makes the run saturated (default: the measured cycles, at
	// least 10 periods).
	MaxDrain Cycle
}

// ErrRunControl is wrapped by every error of [NewMonitor].
var ErrRunControl = errors.New("sim: invalid RunControl")

// PeriodReport is what a model reports to [Monitor.EndPeriod] at the end of
// each sample period.
type PeriodReport struct {
	End                 Cycle   // cycle at the end of the period (non-decreasing)
	MeanObservation     float64 // mean of the observations completed in the period (ignored when Count == 0)
	Count               int64   // observations completed in the period
	Backlog             float64 // the quantity that grows without bound when saturated (e.g. messages waiting at sources)
	InFlight            int64   // work in the system (e.g. flits in the network)
	CyclesSinceProgress Cycle   // cycles since anything moved
	// Offered and Accepted are the period's offered and accepted
	// throughput of an open system (any unit, the same for both); kept in
	// batch means over the measured periods for the throughput rule of
	// [Conclude]. A closed system leaves both 0 and sets Closed.
	Offered, Accepted float64
	Closed            bool
}

// Decision tells the model whether to run another period.
type Decision uint8

// Decisions returned by [Monitor.EndPeriod].
const (
	Continue Decision = iota // run another period
	Stop                     // stop the run; see Monitor.Status
)

// String returns "continue" or "stop".
func (d Decision) String() string {
	if d == Stop {
		return "stop"
	}
	return "continue"
}

// Status is the state of a run.
type Status uint8

// Run statuses. Only Converged and CapReached (with enough batches) yield an
// estimate.
const (
	Running    Status = iota // not stopped yet
	Converged                // CI target met
	CapReached               // MaxCycles reached
	Saturated                // backlog above the limit or growing
	Deadlocked               // work in flight and no progress
)

var statusNames = [...]string{"running", "converged", "cap-reached", "saturated", "deadlocked"}

// String returns the lower-case name of the status.
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// Monitor runs the measurement loop described in the run-control overview:
// it decides when the warm-up is over, collects the measured observations
// in batch means, and stops the run when converged, saturated, deadlocked
// or capped. EndPeriod and Observe never allocate while the run is going
// (a stop reason is formatted once, when the run stops).
type Monitor struct {
	rc   RunControl // defaults applied
	auto bool       // automatic warm-up

	status    Status
	reason    string
	measuring bool
	warmCap   bool // warm-up ended at MaxWarmup
	lastEnd   Cycle
	periods   int

	// Automatic warm-up: per-period means (periods with Count > 0) and the
	// start cycle of each.
	series []float64
	starts []Cycle
	// meas and measB hold the per-period means and end-of-period backlogs
	// while measuring (bounded), for the steady-state test at the cycle cap.
	meas, measB []float64

	warmupEnd, measureStart Cycle

	// Saturation window: ring of the last trendWindow (end, backlog).
	ringEnd   [trendWindow]Cycle
	ringB     [trendWindow]float64
	ringN     int // entries used
	ringNext  int // next slot
	trendFrom Cycle

	bm           *BatchMeans
	offered, acc *BatchMeans // per-period throughputs while measuring (open systems)
	open         bool        // a period reported Offered/Accepted
	extra        []*Series   // further quantities measured over the same window (NewSeries)
}

// Series is a quantity measured over a [Monitor]'s measurement window
// beside its observations (a mode's cycle time, throughput, utilisation,
// ...): Add keeps x only while the monitor keeps observations (as
// [Monitor.Observe]), and the monitor empties the series when
// measurement starts, so every estimate of a run covers the same window.
// A judged series also enters the stopping rule (its CI target, with the
// lag-1 check) and the status rule ([Monitor.Conclude]) under its name.
type Series struct {
	m      *Monitor
	name   string
	judged bool
	bm     *BatchMeans
}

// NewSeries returns a series measured with m's batch-means settings; call
// it before the run starts.
func (m *Monitor) NewSeries(name string, judged bool) *Series {
	s := &Series{m: m, name: name, judged: judged, bm: NewBatchMeans(m.rc.MaxBatches, m.rc.MinBatches)}
	m.extra = append(m.extra, s)
	return s
}

// Add adds x if the monitor keeps observations now (see Monitor.Observe).
func (s *Series) Add(x float64) {
	if s.m.keeps() {
		s.bm.Add(x)
	}
}

// Estimate returns the series' batch-means estimate over the measured
// window (whatever the run's status: the mode decides what it reports).
func (s *Series) Estimate() Estimate { return EstimateOf(s.bm) }

// Batches returns the number of complete batches (BatchMeans.Batches).
func (s *Series) Batches() int { return s.bm.Batches() }

// NewMonitor validates rc, applies its defaults and returns a monitor at
// cycle 0. All problems are reported together, each wrapping
// [ErrRunControl].
func NewMonitor(rc RunControl) (*Monitor, error) {
	var errs []error
	bad := func(format string, a ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{ErrRunControl}, a...)...))
	}
	for _, f := range []struct {
		name string
		v    Cycle
	}{{"Period", rc.Period}, {"Warmup", rc.Warmup}, {"MaxWarmup", rc.MaxWarmup}, {"MinMeasure", rc.MinMeasure},
		{"MaxCycles", rc.MaxCycles}, {"DeadlockCycles", rc.DeadlockCycles}} {
		if f.v < 0 {
			bad("%s = %d is negative", f.name, f.v)
		}
	}
	if math.IsNaN(rc.TargetRelCI) || math.IsInf(rc.TargetRelCI, 0) {
		bad("TargetRelCI = %v is not finite", rc.TargetRelCI)
	}
	if math.IsNaN(rc.CapRelCI) || rc.CapRelCI < 0 || rc.CapRelCI >= 1 {
		bad("CapRelCI = %v must be in [0, 1) (0: default %g)", rc.CapRelCI, DefaultCapRelCI)
	}
	if rc.MaxDrain < 0 {
		bad("MaxDrain = %d is negative", rc.MaxDrain)
	}
	if math.IsNaN(rc.BacklogLimit) || rc.BacklogLimit < 0 {
		bad("BacklogLimit = %v must be ≥ 0 (0 disables)", rc.BacklogLimit)
	}
	if rc.MaxBatches < 0 || rc.MinBatches < 0 {
		bad("MaxBatches = %d, MinBatches = %d must be ≥ 0", rc.MaxBatches, rc.MinBatches)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}

	def := func(v *Cycle, d Cycle) {
		if *v == 0 {
			*v = d
		}
	}
	def(&rc.Period, defaultPeriod)
	def(&rc.MaxWarmup, 50*rc.Period)
	def(&rc.MinMeasure, 10*rc.Period)
	def(&rc.MaxCycles, 1_000_000)
	def(&rc.DeadlockCycles, 10_000)
	if rc.TargetRelCI == 0 {
		rc.TargetRelCI = 0.02
	}
	if rc.MaxBatches == 0 {
		rc.MaxBatches = 64
	}
	if rc.CapRelCI == 0 {
		rc.CapRelCI = DefaultCapRelCI
	}
	if rc.Unit == "" {
		rc.Unit = "cycle"
	}
	if rc.MinBatches == 0 {
		rc.MinBatches = 10
	}

	if rc.MinBatches < 2 || rc.MaxBatches%2 != 0 || rc.MaxBatches < 2*rc.MinBatches {
		bad("MaxBatches = %d, MinBatches = %d: need MinBatches ≥ 2 and even MaxBatches ≥ 2·MinBatches", rc.MaxBatches, rc.MinBatches)
	}
	auto := rc.Warmup == 0
	if auto {
		if rc.MaxWarmup >= rc.MaxCycles {
			bad("MaxWarmup = %d must be below MaxCycles = %d", rc.MaxWarmup, rc.MaxCycles)
		}
		if float64(rc.MaxWarmup/rc.Period) > maxWarmPeriods {
			bad("MaxWarmup = %d is more than %g periods of %d", rc.MaxWarmup, maxWarmPeriods, rc.Period)
		}
	} else if rc.Warmup+rc.MinMeasure > rc.MaxCycles {
		bad("Warmup + MinMeasure = %d exceeds MaxCycles = %d", rc.Warmup+rc.MinMeasure, rc.MaxCycles)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}

	m := &Monitor{rc: rc, auto: auto, warmupEnd: -1, measureStart: -1,
		bm:      NewBatchMeans(rc.MaxBatches, rc.MinBatches),
		offered: NewBatchMeans(rc.MaxBatches, rc.MinBatches),
		acc:     NewBatchMeans(rc.MaxBatches, rc.MinBatches)}
	if auto {
		n := int(rc.MaxWarmup/rc.Period) + 2
		m.series = make([]float64, 0, n)
		m.starts = make([]Cycle, 0, n)
	}
	nMeas := int(min(float64(rc.MaxCycles/rc.Period)+2, maxWarmPeriods))
	m.meas = make([]float64, 0, nMeas)
	m.measB = make([]float64, 0, nMeas)
	return m, nil
}

// Config returns the run control in force, with defaults applied.
func (m *Monitor) Config() RunControl { return m.rc }

// Measuring reports whether observations are currently being collected.
func (m *Monitor) Measuring() bool { return m.measuring && m.status == Running }

// Observe adds observation x to the batch means if Measuring, or while
// draining after a Converged or CapReached stop (the model then adds the
// observations of the work it tagged during the measurement window, see
// [Monitor.DrainFailed]), and does nothing otherwise.
func (m *Monitor) Observe(x float64) {
	if m.keeps() {
		m.bm.Add(x)
	}
}

// keeps reports whether observations are kept now: while measuring, and
// while draining after a Converged or CapReached stop.
func (m *Monitor) keeps() bool {
	return m.measuring && (m.status == Running || m.status == Converged || m.status == CapReached)
}

// DrainFailed records that the work tagged during the measurement window
// did not finish within the drain bound: the run is Saturated, for reason.
func (m *Monitor) DrainFailed(reason string) {
	if m.status == Converged || m.status == CapReached {
		m.status, m.reason = Saturated, reason
	}
}

// DrainLimit returns the bound on the drain after the measurement window:
// RunControl.MaxDrain, or by default the cycles measured (at least 10
// periods).
func (m *Monitor) DrainLimit() Cycle {
	if m.rc.MaxDrain > 0 {
		return m.rc.MaxDrain
	}
	measured := Cycle(0)
	if m.measureStart >= 0 {
		measured = m.lastEnd - m.measureStart
	}
	return max(measured, 10*m.rc.Period)
}

// Conclude returns the run's status and reason by the one status rule of
// every mode ([Conclude]), with the observations' estimate judged under
// the name what and, for an open system, the per-period throughputs.
func (m *Monitor) Conclude(what string) (status, reason string) {
	e := Ending{Stopped: m.status, Reason: m.StatusReason(), TargetRelCI: m.rc.TargetRelCI, CapRelCI: m.rc.CapRelCI,
		Judged: []Named{{what, EstimateOf(m.bm)}}}
	for _, s := range m.extra {
		if s.judged {
			e.Judged = append(e.Judged, Named{s.name, s.Estimate()})
		}
	}
	if m.open {
		e.Offered, e.Accepted = EstimateOf(m.offered), EstimateOf(m.acc)
	}
	return Conclude(e)
}

// Throughput returns the batch-means estimates of the offered and
// accepted throughput over the measured periods (zero Estimates for a
// closed system).
func (m *Monitor) Throughput() (offered, accepted Estimate) {
	if !m.open {
		return Estimate{}, Estimate{}
	}
	return EstimateOf(m.offered), EstimateOf(m.acc)
}

// EndPeriod closes the sample period described by r and decides whether to
// continue; after a Stop it keeps returning Stop. It panics if r.End is
// before the previous period's end (a programmer error).
func (m *Monitor) EndPeriod(r PeriodReport) Decision {
	if m.status != Running {
		return Stop
	}
	if r.End < m.lastEnd {
		panic(fmt.Sprintf("sim: Monitor.EndPeriod: End %d before previous end %d", r.End, m.lastEnd))
	}
	start := m.lastEnd
	m.lastEnd = r.End
	m.periods++
	m.ringEnd[m.ringNext], m.ringB[m.ringNext] = r.End, r.Backlog
	m.ringNext = (m.ringNext + 1) % trendWindow
	m.ringN = min(m.ringN+1, trendWindow)
	if m.measuring && !r.Closed { // the period just closed was measured
		m.open = true
		m.offered.Add(r.Offered)
		m.acc.Add(r.Accepted)
	}

	if r.InFlight > 0 && r.CyclesSinceProgress >= m.rc.DeadlockCycles {
		return m.stop(Deadlocked, fmt.Sprintf("no progress for %d %ss with %d in flight (%s %d)",
			r.CyclesSinceProgress, m.rc.Unit, r.InFlight, m.rc.Unit, r.End))
	}
	if m.rc.BacklogLimit > 0 && r.Backlog > m.rc.BacklogLimit {
		return m.stop(Saturated, fmt.Sprintf("backlog %.4g exceeds limit %.4g (%s %d)",
			r.Backlog, m.rc.BacklogLimit, m.rc.Unit, r.End))
	}

	if !m.measuring {
		if d := m.warmup(start, r); d == Stop {
			return Stop
		}
	} else {
		if g := m.backlogTrend(incT); g.growing {
			return m.stop(Saturated, g.describe("backlog", m.rc.Unit))
		}
		if r.End-m.measureStart >= m.rc.MinMeasure && m.rc.TargetRelCI > 0 {
			// An open system also needs the throughput interval of the
			// status rule (sim.Conclude): the run is extended until it has
			// MinBatches measured periods.
			if m.bm.TargetMet(m.rc.TargetRelCI) && m.extraTargetMet() && (!m.open || m.acc.Batches() >= m.rc.MinBatches) {
				h, _ := m.bm.CI95()
				rel, _ := m.bm.RelHalfWidth()
				return m.stop(Converged, fmt.Sprintf("CI95 half-width %.3g = %.2f%% of mean %.6g (target %.2f%%), %d batches of %d, lag-1 %.2f, %d %ss measured",
					h, 100*rel, m.bm.Mean(), 100*m.rc.TargetRelCI, m.bm.Batches(), m.bm.BatchSize(), m.bm.Lag1(), r.End-m.measureStart, m.rc.Unit)+m.extraNote())
			}
		}
	}
	if m.measuring && len(m.measB) < cap(m.measB) {
		m.measB = append(m.measB, r.Backlog)
		if r.Count > 0 {
			m.meas = append(m.meas, r.MeanObservation)
		}
	}
	if r.End >= m.rc.MaxCycles {
		if why, drifting := m.drifting(r.End); drifting {
			return m.stop(Saturated, why)
		}
		return m.stop(CapReached, m.capReason(r.End))
	}
	return Continue
}

// RunPeriods is the period loop of every mode that reports a CI: it asks
// next for one sample period at a time (next simulates it, feeding its
// observations to m.Observe and its series, and returns its report) and
// gives the report to m.EndPeriod until m says Stop; the context is
// checked, and its meter (MeterFrom) set, before every period. The
// network mode drives the same Monitor from its own loop, which adds the
// drain of the tagged messages (sim/network).
func RunPeriods(ctx context.Context, m *Monitor, next func() PeriodReport) error {
	meter := MeterFrom(ctx)
	scale := m.rc.TimeScale
	if scale <= 0 {
		scale = 1
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		meter.Store(int64(scale*float64(m.lastEnd)), int64(scale*float64(m.rc.MaxCycles)))
		if m.EndPeriod(next()) == Stop {
			return nil
		}
	}
}

// drifting reports whether, at the cycle cap, the backlog and the measured
// per-period mean both still rise: no steady state, which must be reported
// as saturated rather than as a number. It catches queues that grow too
// slowly for the per-window trend rule (offered load a few per cent above
// capacity: the backlog rises by a little each period under much larger
// noise, and the latency, which includes the wait in those queues, rises
// with it).
//
// Each series is tested by thirds of the measurement (thirdsRise): it
// rises when
//
//	mean(last third) - mean(first third) > max(driftSDs * sd(first third), mean(first third)) + 1
//
// that is, it at least doubles and rises by more than three standard
// deviations of its own first third (the +1, one unit of the quantity,
// keeps a series that is constant at first from rising on a blip).
// Requiring both series to rise keeps a stable but strongly autocorrelated
// backlog from being flagged: alone, a mean-reverting AR(1) backlog doubled
// between thirds in about 1 run of 100, never together with the latency.
func (m *Monitor) drifting(end Cycle) (string, bool) {
	b0, b1, bsd, bUp := thirdsRise(m.measB)
	l0, l1, lsd, lUp := thirdsRise(m.meas)
	if !bUp || !lUp {
		return "", false
	}
	why := fmt.Sprintf("no steady state at MaxCycles = %d (%s %d): from the first to the last third of the measurement the backlog rose from %.4g to %.4g (sd %.3g) and the per-period mean from %.4g to %.4g (sd %.3g), each more than doubling and more than %g standard deviations",
		m.rc.MaxCycles, m.rc.Unit, end, b0, b1, bsd, l0, l1, lsd, float64(driftSDs))
	if m.warmCap {
		why += fmt.Sprintf("; the warm-up had ended at MaxWarmup = %d without reaching one either", m.rc.MaxWarmup)
	}
	return why, true
}

// thirdsRise applies the drift test of Monitor.drifting to xs (at least
// three values per third are needed).
func thirdsRise(xs []float64) (first, last, sd float64, rising bool) {
	third := len(xs) / 3
	if third < 3 {
		return 0, 0, 0, false
	}
	var a Accumulator
	for _, x := range xs[:third] {
		a.Add(x)
	}
	for _, x := range xs[len(xs)-third:] {
		last += x
	}
	first, sd, last = a.Mean(), a.StdDev(), last/float64(third)
	return first, last, sd, last-first > max(driftSDs*sd, first)+1
}

// warmup handles a period end during the warm-up phase.
func (m *Monitor) warmup(start Cycle, r PeriodReport) Decision {
	if !m.auto {
		if r.End >= m.rc.Warmup {
			m.beginMeasuring(r.End, r.End)
		}
		return Continue
	}
	full := len(m.series) == cap(m.series)
	if r.Count > 0 && !full {
		m.series = append(m.series, r.MeanObservation)
		m.starts = append(m.starts, start)
	}
	// MSER-5 every period while the series is short, then about 50 times
	// per doubling, which bounds the total work by O(50·n).
	if n := len(m.series); n >= mserMinPeriods && n%max(1, n/50) == 0 {
		if d, ok := mser(m.series, warmupBatch); ok {
			m.beginMeasuring(m.starts[d], r.End)
			return Continue
		}
	}
	if r.End >= m.rc.MaxWarmup || full {
		if g := m.backlogTrend(risingIncT); g.growing {
			return m.stop(Saturated, fmt.Sprintf("warm-up not over after %d %ss and %s", r.End, m.rc.Unit, g.describe("backlog", m.rc.Unit)))
		}
		m.warmCap = true
		m.beginMeasuring(r.End, r.End)
	}
	return Continue
}

func (m *Monitor) beginMeasuring(warmupEnd, now Cycle) {
	m.measuring = true
	m.warmupEnd, m.measureStart = warmupEnd, now
	m.trendFrom = warmupEnd
	m.bm.Reset()
	m.offered.Reset()
	m.acc.Reset()
	for _, s := range m.extra {
		s.bm.Reset()
	}
}

// extraTargetMet reports whether every judged series meets the CI target
// (BatchMeans.TargetMet: interval, relative half-width, lag-1 check).
func (m *Monitor) extraTargetMet() bool {
	for _, s := range m.extra {
		if s.judged && !s.bm.TargetMet(m.rc.TargetRelCI) {
			return false
		}
	}
	return true
}

// extraNote describes the judged series at a Converged stop.
func (m *Monitor) extraNote() string {
	out := ""
	for _, s := range m.extra {
		if s.judged {
			rel, _ := s.bm.RelHalfWidth()
			out += fmt.Sprintf("; %s CI95 %.2f%% of mean %.6g, lag-1 %.2f", s.name, 100*rel, s.bm.Mean(), s.bm.Lag1())
		}
	}
	return out
}

func (m *Monitor) stop(s Status, reason string) Decision {
	m.status, m.reason = s, reason
	return Stop
}

func (m *Monitor) capReason(end Cycle) string {
	if !m.measuring {
		return fmt.Sprintf("MaxCycles = %d %ss reached during warm-up (%s %d)", m.rc.MaxCycles, m.rc.Unit, m.rc.Unit, end)
	}
	h, ok := m.bm.CI95()
	if !ok {
		return fmt.Sprintf("MaxCycles = %d %ss reached with only %d batches (need %d)", m.rc.MaxCycles, m.rc.Unit, m.bm.Batches(), m.rc.MinBatches)
	}
	return fmt.Sprintf("MaxCycles = %d %ss reached: CI95 half-width %.3g = %.2f%% of mean %.6g, %d batches of %d",
		m.rc.MaxCycles, m.rc.Unit, h, 100*h/math.Abs(m.bm.Mean()), m.bm.Mean(), m.bm.Batches(), m.bm.BatchSize())
}

// trendVerdict is the outcome of the saturation trend rule.
type trendVerdict struct {
	growing       bool
	k             int     // points used
	slopePerCycle float64 // OLS slope
	tSlope, tInc  float64 // t of the slope and of the mean increment
	growth        float64 // last − first
}

func (g trendVerdict) describe(what, unit string) string {
	return fmt.Sprintf("%s grew by %.4g (%.3g per %s, slope t = %.1f, increment t = %.1f) over the last %d periods",
		what, g.growth, g.slopePerCycle, unit, g.tSlope, g.tInc, g.k)
}

// backlogTrend applies the trend rule, with increment threshold incT, to
// the ring entries after trendFrom.
func (m *Monitor) backlogTrend(incT float64) trendVerdict {
	var tr Trend
	var inc Accumulator
	var g trendVerdict
	first, prev := 0.0, 0.0
	// Oldest first: the ring's oldest entry is at ringNext when full.
	oldest := (m.ringNext - m.ringN + trendWindow) % trendWindow
	for i := 0; i < m.ringN; i++ {
		j := (oldest + i) % trendWindow
		if m.ringEnd[j] <= m.trendFrom {
			continue
		}
		b := m.ringB[j]
		if g.k == 0 {
			first = b
		} else {
			inc.Add(b - prev)
		}
		prev = b
		g.k++
		tr.Add(float64(m.ringEnd[j]), b)
	}
	if g.k < trendMinPoints {
		return g
	}
	slope, se, ok := tr.Slope()
	if !ok || !(slope > 0) {
		return g
	}
	g.slopePerCycle = slope
	g.tSlope = slope / se // +Inf on an exact line
	g.growth = prev - first
	sd := inc.StdDev()
	g.tInc = inc.Mean() / (sd / math.Sqrt(float64(inc.N()))) // +Inf when all increments are equal and positive
	g.growing = g.tSlope > trendT && g.growth > 0 && g.tInc > incT
	return g
}

// Status returns the state of the run.
func (m *Monitor) Status() Status { return m.status }

// StatusReason explains the status in a sentence, e.g. "backlog grew by
// 6012 (0.3 per cycle, slope t = 41.2, increment t = 9.8) over the last 20
// periods". While running it describes the phase.
func (m *Monitor) StatusReason() string {
	if m.status != Running {
		if m.warmCap && m.status != Saturated && m.status != Deadlocked {
			return m.reason + fmt.Sprintf("; warm-up not detected by MSER-5, ended at MaxWarmup = %d", m.rc.MaxWarmup)
		}
		return m.reason
	}
	if !m.measuring {
		return fmt.Sprintf("warming up: %d periods, %s %d", m.periods, m.rc.Unit, m.lastEnd)
	}
	return fmt.Sprintf("measuring since %s %d: %d observations, %d batches of %d", m.rc.Unit, m.measureStart, m.bm.Count(), m.bm.Batches(), m.bm.BatchSize())
}

// WarmupEnd returns the cycle at which the warm-up transient ended (the
// start of the first period MSER-5 keeps, or the fixed warm-up boundary),
// or −1 while still warming up.
func (m *Monitor) WarmupEnd() Cycle { return m.warmupEnd }

// MeasureStart returns the cycle from which observations were collected,
// or −1 while still warming up. It is at or after WarmupEnd.
func (m *Monitor) MeasureStart() Cycle { return m.measureStart }

// Estimate returns the batch-means estimate of the mean observation and
// the half-width of its 95% confidence interval. ok is false, and mean and
// halfWidth are 0, unless the run stopped Converged, or CapReached with at
// least MinBatches batches: a saturated or deadlocked run has no estimate.
func (m *Monitor) Estimate() (mean, halfWidth float64, ok bool) {
	if m.status != Converged && m.status != CapReached {
		return 0, 0, false
	}
	h, ok := m.bm.CI95()
	if !ok {
		return 0, 0, false
	}
	return m.bm.Mean(), h, true
}

// Measured returns the batch-means estimate of the observations over the
// measured window, whatever the status (Estimate gives it only for a run
// that may report it), with the batch size in observations.
func (m *Monitor) Measured() (e Estimate, batchSize int64) {
	return EstimateOf(m.bm), m.bm.BatchSize()
}

// WarmupCapped reports whether the automatic warm-up ended at MaxWarmup,
// MSER-5 not having found the end of the transient.
func (m *Monitor) WarmupCapped() bool { return m.warmCap }

// End returns the end of the last period reported.
func (m *Monitor) End() Cycle { return m.lastEnd }

// Periods converts a time t of a continuous-time mode into whole sample
// periods of length period, rounded up (1e-9 of a period forgiven): the
// time unit of a RunControl with Unit "period" and Period 1.
func Periods(t, period float64) Cycle {
	if t <= 0 {
		return 0
	}
	return Cycle(math.Ceil(t/period - 1e-9))
}
