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

// Run simulates until the stopping rule, Run.MaxTime or saturation, and
// honours ctx: on cancellation it returns ctx.Err() (wrapped) and a zero
// Result. A Sim runs once.
func (s *Sim) Run(ctx context.Context) (Result, error) {
	if s.ran {
		return Result{}, errors.New("delta: Sim.Run called twice")
	}
	s.ran = true
	s.start()
	meter := sim.MeterFrom(ctx)
	for {
		if s.events&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return Result{}, fmt.Errorf("delta: run interrupted at time %v: %w", s.now, err)
			}
			meter.Store(int64(s.now), int64(s.cfg.Run.MaxTime))
		}
		if stop, final := s.step(); stop {
			return s.result(final), nil
		}
	}
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

// step processes one event; stop reports the end of the run and final
// whether it ended at MaxTime or by saturation.
func (s *Sim) step() (stop, final bool) {
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
		return s.endPeriod()
	}
	return false, false
}

func nan0(num, den float64) float64 {
	if den == 0 {
		return math.NaN()
	}
	return num / den
}

// endPeriod closes the current observation period, applies the stopping
// rule and schedules the next period.
func (s *Sim) endPeriod() (stop, final bool) {
	for st := range s.z {
		s.setOcc(st, 0)
	}
	d := s.cfg.Run.Period
	nd := d * float64(s.n)
	c := &s.per
	del := float64(c.delivered)
	s.series[colNTP] = append(s.series[colNTP], del/d)
	s.series[colPDT] = append(s.series[colPDT], nan0(c.delaySum, del))
	s.series[colPDTNet] = append(s.series[colPDTNet], nan0(c.delaySum-c.waitSum, del))
	s.series[colWait] = append(s.series[colWait], nan0(c.waitSum, del))
	s.series[colOffered] = append(s.series[colOffered], float64(c.emitted)/d)
	s.series[colDrop] = append(s.series[colDrop], float64(c.dropped)/d)
	s.series[colBacklog] = append(s.series[colBacklog], float64(s.inQueues+s.inBuffers+s.inTransit))
	s.series[colCarried] = append(s.series[colCarried], float64(c.delivered+c.dropped)/d)
	for st := range s.z {
		att, rej := float64(c.att[st]), float64(c.rej[st])
		s.series[s.col(st, stArr)] = append(s.series[s.col(st, stArr)], att/nd)
		s.series[s.col(st, stAcc)] = append(s.series[s.col(st, stAcc)], (att-rej)/nd)
		s.series[s.col(st, stRej)] = append(s.series[s.col(st, stRej)], nan0(rej, att))
		s.series[s.col(st, stSoj)] = append(s.series[s.col(st, stSoj)], nan0(c.soj[st], float64(c.dep[st])))
		s.series[s.col(st, stOcc)] = append(s.series[s.col(st, stOcc)], c.occ[st]/nd)
	}
	c.reset()

	if b := s.inBuffers + s.inTransit; b > int64(s.cfg.Run.MaxBacklog) {
		s.saturation = fmt.Sprintf("%d packets wait to re-enter the network at time %v (Run.MaxBacklog = %d): the offered load with retries exceeds what the network accepts",
			b, s.now, s.cfg.Run.MaxBacklog)
		return true, true
	}
	final = s.periodEnd+d > s.cfg.Run.MaxTime*(1+1e-12)
	if final || len(s.series[0])%s.cfg.checkGap == 0 {
		if s.converged(final) || final {
			return true, final
		}
	}
	s.periodEnd += d
	s.cal.Push(s.periodKey(s.periodEnd), event{kind: evPeriod})
	return false, false
}

// warmupPeriods returns the number of leading periods to discard and
// whether the warm-up is over.
func (s *Sim) warmupPeriods() (int, bool) {
	if w := s.cfg.Run.Warmup; w > 0 {
		p := int(math.Ceil(w/s.cfg.Run.Period - 1e-9))
		return p, p < len(s.series[0])
	}
	t1, ok1 := sim.MSER5(s.series[colBacklog])
	t2, ok2 := sim.MSER5(s.series[colNTP])
	return max(t1, t2), ok1 && ok2
}

// fill loads the batch-means estimators with periods w.. of every series.
func (s *Sim) fill(w int) {
	for c, bm := range s.bms {
		bm.Reset()
		for _, x := range s.series[c][w:] {
			if !math.IsNaN(x) {
				bm.Add(x)
			}
		}
	}
}

// converged applies the stopping rule at a check point.
func (s *Sim) converged(final bool) bool {
	w, ok := s.warmupPeriods()
	if !ok {
		if !final {
			return false
		}
		w = len(s.series[0]) / 2
	}
	if len(s.series[0])-w < s.cfg.minPer && !final {
		return false
	}
	s.fill(w)
	tgt := s.cfg.Run.TargetRelCI
	if tgt <= 0 {
		return false
	}
	return s.bms[colPDT].TargetMet(tgt) && s.bms[colNTP].TargetMet(tgt)
}

func (s *Sim) estimate(c int) sim.Estimate { return sim.EstimateOf(s.bms[c]) }

// result assembles the Result after the run stopped.
func (s *Sim) result(final bool) Result {
	r := Result{Status: sim.StatusOK, End: s.now, Period: s.cfg.Run.Period, Events: s.events, Seed: s.cfg.Seed}
	r.Totals = Totals{Emitted: s.tot.Emitted, Delivered: s.tot.Delivered, Dropped: s.tot.Dropped,
		InQueues: s.inQueues, InRetryBuffers: s.inBuffers, InTransit: s.inTransit,
		Rejected: append([]int64(nil), s.tot.Rejected...)}
	if s.saturation != "" {
		r.Status, r.Reason = sim.StatusSaturated, s.saturation
		return r
	}
	w, ok := s.warmupPeriods()
	if !ok {
		w = len(s.series[0]) / 2
		r.Reason = "MSER-5 found no end of the warm-up; the first half of the run was discarded"
	}
	s.fill(w)
	P := len(s.series[0])
	r.Warmup = float64(w) * s.cfg.Run.Period
	r.Measured = float64(P-w) * s.cfg.Run.Period
	if s.cfg.mode != modeDrop {
		if why := s.growing(w); why != "" {
			r.Status, r.Reason = sim.StatusSaturated, why
			return r
		}
	}
	r.Converged = !final
	r.NTP, r.PDT, r.PDTNetwork = s.estimate(colNTP), s.estimate(colPDT), s.estimate(colPDTNet)
	end := sim.Ending{Stopped: sim.Converged, TargetRelCI: s.cfg.Run.TargetRelCI, CapRelCI: s.cfg.Run.CapRelCI,
		Judged:  []sim.Named{{Name: "PDT", Estimate: r.PDT}, {Name: "NTP", Estimate: r.NTP}},
		Offered: s.estimate(colOffered), Accepted: s.estimate(colCarried),
		Reason: fmt.Sprintf("PDT and NTP CI95 within the target %v", s.cfg.Run.TargetRelCI)}
	if final {
		end.Stopped = sim.CapReached
		end.Reason = fmt.Sprintf("MaxTime = %v reached before the CI target %v", s.cfg.Run.MaxTime, s.cfg.Run.TargetRelCI)
	}
	warn := r.Reason
	r.Status, r.Reason = sim.Conclude(end)
	if warn != "" {
		r.Reason += "; " + warn
	}
	r.SourceWait, r.Offered, r.DropRate, r.Backlog = s.estimate(colWait), s.estimate(colOffered), s.estimate(colDrop), s.estimate(colBacklog)
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

// growing tests the backlog of the measurement window for a linear trend
// (sim.Trend): a slope four standard errors above zero that adds more than
// max(n, mean backlog) packets over the window means the retry buffers grow
// without bound.
func (s *Sim) growing(w int) string {
	var tr sim.Trend
	var sum float64
	bl := s.series[colBacklog][w:]
	for i, x := range bl {
		tr.Add(float64(i)*s.cfg.Run.Period, x)
		sum += x
	}
	slope, se, ok := tr.Slope()
	if !ok || len(bl) == 0 {
		return ""
	}
	growth := slope * float64(len(bl)) * s.cfg.Run.Period
	if slope > 4*se && growth > max(float64(s.n), sum/float64(len(bl))) {
		return fmt.Sprintf("backlog grows by %.3g packets per time unit (±%.2g) over the measurement window", slope, se)
	}
	return ""
}
