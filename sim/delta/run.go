package delta

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/flitsim/flitsim/sim"
)

// Estimates (sim.Estimate) of this package are batch means over the
// per-period values (Law & Kelton §9.5.3); N counts the periods that
// contributed. Periods where the quantity is undefined (no delivery in the
// period for PDT, no departure for a sojourn) are skipped.

// Stage holds the measured per-queue quantities of one stage (all n queues
// of a stage are pooled; they are statistically identical under uniform
// traffic). Stage i of the report is Stages[i-1].
type Stage struct {
	// ArrivalRate is the rate of attempts to enter one queue, packets per
	// time unit per queue, retries included (the report's a_i; lambda at
	// stage 1 in drop mode).
	ArrivalRate sim.Estimate
	// AcceptedRate is the rate of attempts that enter, packets per time
	// unit per queue.
	AcceptedRate sim.Estimate
	// Rejection is p_{L,i}, the fraction of attempts that find the queue
	// full (dimensionless).
	Rejection sim.Estimate
	// Sojourn is E[T_i], the mean time from acceptance into the queue to
	// leaving it (service included; in retry-previous mode every re-pass is
	// included), time units.
	Sojourn sim.Estimate
	// Occupancy is E[N_i], the time-average number of packets in one queue
	// (the one in service included), packets.
	Occupancy sim.Estimate
}

// Totals counts packets from time 0 to the end of the run (warm-up
// included). Conservation holds exactly:
//
//	Emitted = Delivered + Dropped + InQueues + InRetryBuffers + InTransit
type Totals struct {
	Emitted        int64   // new packets emitted by the sources
	Delivered      int64   // packets that reached their sink
	Dropped        int64   // packets discarded (drop mode only)
	InQueues       int64   // packets in stage queues at the end
	InRetryBuffers int64   // packets waiting for room in their stage-1 queue at the end
	InTransit      int64   // packets travelling back to their source at the end (ResubmitDelay > 0)
	Rejected       []int64 // rejections per stage (stage i at index i-1), retries of one packet counted each time
}

// Result is the outcome of one run. Times are in the model's time unit
// (1/mu = 1 by default; cycles when slotted), rates per that unit.
type Result struct {
	Status string // sim.StatusOK, sim.StatusSaturated or sim.StatusUnconverged (sim.Conclude)
	Reason string // why the run is not ok, or a note on an ok run

	// Converged is true when the run stopped on Run.TargetRelCI rather
	// than on Run.MaxTime.
	Converged bool

	// NTP is the network throughput: packets delivered per time unit,
	// whole network (the report's NTP).
	NTP sim.Estimate
	// PDT is the packet delay time: first emission to delivery, every
	// rejection, resubmission and retry-buffer wait included, time units.
	PDT sim.Estimate
	// PDTNetwork is PDT without the time spent in source retry buffers,
	// time units (the report charges zero time for stage-1 rejections).
	PDTNetwork sim.Estimate
	// SourceWait is the mean time a delivered packet spent in retry
	// buffers, time units.
	SourceWait sim.Estimate
	// Offered is the rate of new packets, network total, packets per time
	// unit (n lambda in expectation).
	Offered sim.Estimate
	// DropRate is the rate of discarded packets, packets per time unit.
	DropRate sim.Estimate
	// Backlog is the number of packets in the system (queues, retry
	// buffers, in transit) at period ends, packets.
	Backlog sim.Estimate

	Stages []Stage

	Warmup   float64 // time discarded, time units
	Measured float64 // length of the measurement window, time units
	End      float64 // simulated time at the end, time units
	Period   float64 // length of one observation period, time units
	Events   int64   // events processed
	Seed     uint64
	Totals   Totals
}

// Run simulates period by period under sim's run control (sim.RunPeriods
// driving a sim.Monitor, the one of every mode: warm-up, batch means with
// the lag-1 check, saturation by backlog limit and trend, stopping and
// status rules), PDT per period being the judged observation and NTP and
// PDT-network judged series beside it, until the stopping rule, Run.MaxTime or
// saturation, and honours ctx: on cancellation it returns ctx.Err()
// (wrapped) and a zero Result. A Sim runs once.
func (s *Sim) Run(ctx context.Context) (Result, error) {
	if s.ran {
		return Result{}, errors.New("delta: Sim.Run called twice")
	}
	s.ran = true
	s.start()
	var cancelled error
	err := sim.RunPeriods(ctx, s.mon, func() sim.PeriodReport {
		for cancelled == nil {
			if s.events&4095 == 0 {
				cancelled = ctx.Err()
			}
			if s.step() {
				break
			}
		}
		return s.endPeriod()
	})
	if err == nil {
		err = cancelled
	}
	if err != nil {
		return Result{}, fmt.Errorf("delta: run interrupted at time %v: %w", s.now, err)
	}
	return s.result(), nil
}

// monitor returns the run control of r: time counted in periods of
// r.Run.Period, the automatic warm-up capped at half the run (what is
// left of the run is measured).
func monitor(r resolved) (*sim.Monitor, error) {
	rc := r.Run
	mrc := sim.RunControl{Period: 1, Unit: "period", TimeScale: rc.Period,
		MinMeasure:   sim.Periods(rc.MinMeasure, rc.Period),
		MaxCycles:    sim.Periods(rc.MaxTime, rc.Period),
		TargetRelCI:  rc.TargetRelCI,
		CapRelCI:     rc.CapRelCI,
		BacklogLimit: float64(rc.MaxBacklog)}
	mrc.MaxWarmup = max(mrc.MaxCycles/2, 1)
	if rc.Warmup > 0 {
		mrc.Warmup = sim.Periods(rc.Warmup, rc.Period)
	}
	m, err := sim.NewMonitor(mrc)
	if err != nil {
		return nil, fmt.Errorf("delta: %w", err)
	}
	return m, nil
}

// start schedules the first emission of every source and the first period
// end.
func (s *Sim) start() {
	for src := range s.n {
		s.cal.Push(s.key(s.gapEmit(src), s.z+1), event{kind: evEmit, idx: int32(src)})
	}
	s.periodEnd = s.cfg.Run.Period
	s.cal.Push(s.periodKey(s.periodEnd), event{kind: evPeriod})
}

// periodKey orders a period end after every event of the cycles before it.
func (s *Sim) periodKey(t float64) float64 {
	if !s.cfg.slotted {
		return t
	}
	return t*float64(s.phase) - 0.5
}

// step processes one event and reports whether it was the end of the
// current period.
func (s *Sim) step() (periodEnd bool) {
	k, ev, _ := s.cal.Pop()
	s.events++
	switch {
	case ev.kind == evPeriod:
		s.now = s.periodEnd
	case s.cfg.slotted:
		s.now = float64(int64(k) / s.phase)
	default:
		s.now = k
	}
	switch ev.kind {
	case evEmit:
		s.emit(int(ev.idx))
	case evDone:
		s.done(int(ev.idx))
	case evResubmit:
		s.inTransit--
		s.offerFirst(ev.idx)
	case evPeriod:
		return true
	}
	return false
}

// add adds a per-period value to column c's series; NaN (the quantity is
// undefined in the period) is skipped.
func (s *Sim) add(c int, x float64) {
	if !math.IsNaN(x) {
		s.cols[c].Add(x)
	}
}

func nan0(num, den float64) float64 {
	if den == 0 {
		return math.NaN()
	}
	return num / den
}

// endPeriod closes the current observation period: it adds the period's
// values to the series, schedules the next period and returns the report
// for the run control.
func (s *Sim) endPeriod() sim.PeriodReport {
	for st := range s.z {
		s.setOcc(st, 0)
	}
	d := s.cfg.Run.Period
	nd := d * float64(s.n)
	c := &s.per
	del := float64(c.delivered)
	pdt := nan0(c.delaySum, del)
	if c.delivered > 0 {
		s.mon.Observe(pdt)
	}
	s.add(colNTP, del/d)
	s.add(colPDTNet, nan0(c.delaySum-c.waitSum, del))
	s.add(colWait, nan0(c.waitSum, del))
	s.add(colOffered, float64(c.emitted)/d)
	s.add(colDrop, float64(c.dropped)/d)
	s.add(colBacklog, float64(s.inQueues+s.inBuffers+s.inTransit))
	s.add(colCarried, float64(c.delivered+c.dropped)/d)
	for st := range s.z {
		att, rej := float64(c.att[st]), float64(c.rej[st])
		s.add(s.col(st, stArr), att/nd)
		s.add(s.col(st, stAcc), (att-rej)/nd)
		s.add(s.col(st, stRej), nan0(rej, att))
		s.add(s.col(st, stSoj), nan0(c.soj[st], float64(c.dep[st])))
		s.add(s.col(st, stOcc), c.occ[st]/nd)
	}
	s.periods++
	r := sim.PeriodReport{End: s.periods, MeanObservation: pdt, Count: c.delivered,
		// The packets waiting to re-enter: what grows without bound when
		// the offered load with retries exceeds what the network accepts
		// (the queues are bounded by L).
		Backlog:  float64(s.inBuffers + s.inTransit),
		Offered:  float64(c.emitted) / d,
		Accepted: float64(c.delivered+c.dropped) / d}
	c.reset()
	s.periodEnd += d
	s.cal.Push(s.periodKey(s.periodEnd), event{kind: evPeriod})
	return r
}

// colName names a metric column in reasons.
func colName(c int) string {
	switch c {
	case colNTP:
		return "NTP"
	case colPDT:
		return "PDT"
	case colPDTNet:
		return "PDT-network"
	case colWait:
		return "source wait"
	case colOffered:
		return "offered"
	case colDrop:
		return "drop rate"
	case colBacklog:
		return "backlog"
	case colCarried:
		return "carried"
	}
	return fmt.Sprintf("stage %d column %d", (c-colFixed)/stCols+1, (c-colFixed)%stCols)
}

func (s *Sim) estimate(c int) sim.Estimate {
	if c == colPDT {
		e, _ := s.mon.Measured()
		return e
	}
	return s.cols[c].Estimate()
}

// result assembles the Result after the run stopped.
func (s *Sim) result() Result {
	r := Result{End: s.now, Period: s.cfg.Run.Period, Events: s.events, Seed: s.cfg.Seed}
	r.Totals = Totals{Emitted: s.tot.Emitted, Delivered: s.tot.Delivered, Dropped: s.tot.Dropped,
		InQueues: s.inQueues, InRetryBuffers: s.inBuffers, InTransit: s.inTransit,
		Rejected: append([]int64(nil), s.tot.Rejected...)}
	r.Status, r.Reason = s.mon.Conclude("PDT")
	r.Converged = s.mon.Status() == sim.Converged
	w := s.mon.MeasureStart()
	if w < 0 {
		w = s.periods
	}
	r.Warmup = float64(w) * s.cfg.Run.Period
	r.Measured = float64(s.periods-w) * s.cfg.Run.Period
	if r.Status == sim.StatusSaturated || r.Status == sim.StatusDeadlock {
		return r
	}
	r.NTP, r.PDT, r.PDTNetwork = s.estimate(colNTP), s.estimate(colPDT), s.estimate(colPDTNet)
	r.SourceWait, r.DropRate, r.Backlog = s.estimate(colWait), s.estimate(colDrop), s.estimate(colBacklog)
	r.Offered, _ = s.mon.Throughput()
	r.Stages = make([]Stage, s.z)
	for st := range s.z {
		r.Stages[st] = Stage{
			ArrivalRate:  s.estimate(s.col(st, stArr)),
			AcceptedRate: s.estimate(s.col(st, stAcc)),
			Rejection:    s.estimate(s.col(st, stRej)),
			Sojourn:      s.estimate(s.col(st, stSoj)),
			Occupancy:    s.estimate(s.col(st, stOcc)),
		}
	}
	return r
}
