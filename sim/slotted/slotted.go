package slotted

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/traffic"
)

// Stream indices under sim.PurposeArbitration: one stream per purpose, both
// shared by all nodes (the visiting order is global, and the neighbour
// choices are made in that order).
const (
	streamOrder  = 0 // the per-slot permutation of the nodes
	streamChoice = 1 // the choice among productive neighbours
)

// growthZ is the number of (autocorrelation-corrected) standard errors by
// which the backlog's least-squares slope must exceed zero for a run to be
// declared saturated at its end.
const growthZ = 4

// firstMSERCheck is the number of periods after which automatic warm-up
// detection first applies MSER-5; later checks come at each doubling.
const firstMSERCheck = 40

// Sim is one slotted-hypercube simulation. Build it with New; Run may be
// called more than once and always starts from the empty network, so every
// call returns the same Result. A Sim is not safe for concurrent use.
type Sim struct {
	cfg   Config
	n     int // dimension
	nodes int // 2^n
	blind bool
	proc  traffic.Process
	pat   traffic.Pattern

	// State, initialised by reset.
	q         []sim.FIFO[packet]
	headSince []int64 // first slot in which the current head packet may be sent
	busy      []bool  // node has sent or received in the current slot
	order     []int32 // visiting order, permuted every slot
	next      []float64
	arr, dst  []*rand.Rand
	orderRNG  *rand.Rand
	choiceRNG *rand.Rand
	queued    int // packets in all queues

	// Cumulative counters since reset.
	sends, delivered, generated int64

	// Measurement: packets generated at or after measStart are measured
	// (+Inf during warm-up); hops are measured while measuring is set.
	measuring       bool
	measStart       float64
	delay, delayC   *sim.BatchMeans
	hop             *sim.BatchMeans
	thr, off, busyP *sim.BatchMeans
	backlog         *sim.BatchMeans
	backlogAcc      sim.Accumulator
	backlogTrend    sim.Trend
	hops, wait      *sim.BatchMeans
	warm            []float64 // per-period backlog during automatic warm-up
}

// cubeSpace is the traffic.Space of a binary n-cube: node ids are the
// addresses, the distance is the Hamming distance.
type cubeSpace struct{ n int }

func (c cubeSpace) Nodes() int            { return 1 << c.n }
func (c cubeSpace) Distance(a, b int) int { return bits.OnesCount(uint(a ^ b)) }
func (c cubeSpace) Radix() int            { return 2 }
func (c cubeSpace) Dims() int             { return c.n }

// New validates cfg, reporting every problem at once, and returns a Sim
// ready to Run.
func New(cfg Config) (*Sim, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	s := &Sim{cfg: cfg, n: cfg.Dim, nodes: 1 << cfg.Dim, blind: cfg.Choice == ChoiceBlind}
	var err error
	if cfg.Arrivals == ArrivalsBernoulli {
		s.proc, err = traffic.NewBernoulli(cfg.Rate)
	} else {
		s.proc, err = traffic.NewPoisson(cfg.Rate)
	}
	if err != nil {
		return nil, fmt.Errorf("slotted: %w", err)
	}
	if s.pat, err = traffic.NewPattern(traffic.PatternSpec{Name: traffic.Uniform}, cubeSpace{cfg.Dim}); err != nil {
		return nil, fmt.Errorf("slotted: %w", err)
	}
	N := s.nodes
	s.q = make([]sim.FIFO[packet], N)
	s.headSince = make([]int64, N)
	s.busy = make([]bool, N)
	s.order = make([]int32, N)
	s.next = make([]float64, N)
	s.arr = make([]*rand.Rand, N)
	s.dst = make([]*rand.Rand, N)
	r := cfg.Run
	s.delay = sim.NewBatchMeans(r.MaxBatches, r.MinBatches)
	s.delayC = sim.NewBatchMeans(r.MaxBatches, r.MinBatches)
	s.hop = sim.NewBatchMeans(r.MaxBatches, r.MinBatches)
	s.thr = sim.NewBatchMeans(r.MaxBatches, r.MinBatches)
	s.off = sim.NewBatchMeans(r.MaxBatches, r.MinBatches)
	s.busyP = sim.NewBatchMeans(r.MaxBatches, r.MinBatches)
	s.backlog = sim.NewBatchMeans(r.MaxBatches, r.MinBatches)
	s.hops = sim.NewBatchMeans(r.MaxBatches, r.MinBatches)
	s.wait = sim.NewBatchMeans(r.MaxBatches, r.MinBatches)
	if r.Warmup == 0 {
		s.warm = make([]float64, 0, r.MaxWarmup/r.Period+1)
	}
	return s, nil
}

// Config returns the configuration in force, defaults filled in.
func (s *Sim) Config() Config { return s.cfg }

// reset returns the network to empty at slot 0 and rederives every stream
// from the root seed.
func (s *Sim) reset() {
	seed := s.cfg.Seed
	for u := range s.nodes {
		s.q[u].Reset()
		s.headSince[u] = 0
		s.order[u] = int32(u)
		s.arr[u] = sim.NewStream(seed, sim.PurposeTrafficArrival, uint64(u))
		s.dst[u] = sim.NewStream(seed, sim.PurposeTrafficDest, uint64(u))
		s.next[u] = s.proc.First(s.arr[u])
	}
	s.orderRNG = sim.NewStream(seed, sim.PurposeArbitration, streamOrder)
	s.choiceRNG = sim.NewStream(seed, sim.PurposeArbitration, streamChoice)
	s.queued = 0
	s.sends, s.delivered, s.generated = 0, 0, 0
	s.measuring, s.measStart = false, math.Inf(1)
	for _, b := range []*sim.BatchMeans{s.delay, s.delayC, s.hop, s.thr, s.off, s.busyP, s.backlog, s.hops, s.wait} {
		b.Reset()
	}
	s.backlogAcc = sim.Accumulator{}
	s.backlogTrend.Reset()
	s.warm = s.warm[:0]
}

// step simulates slot t (docs/models.md#jacquet-simulator): forwarding in a fresh random
// node order, then generation. It does not allocate once the queues have
// reached their largest size.
func (s *Sim) step(t int64) {
	order := s.order
	for i := len(order) - 1; i > 0; i-- {
		j := s.orderRNG.IntN(i + 1)
		order[i], order[j] = order[j], order[i]
	}
	busy := s.busy
	clear(busy)
	for _, u32 := range order {
		u := int(u32)
		if busy[u] || s.q[u].Len() == 0 {
			continue
		}
		pk := s.q[u].Front()
		diff := uint32(u) ^ uint32(pk.dest)
		var v int
		if s.blind {
			b := nthSetBit(diff, 0)
			if k := bits.OnesCount32(diff); k > 1 {
				b = nthSetBit(diff, s.choiceRNG.IntN(k))
			}
			v = u ^ (1 << b)
			if busy[v] {
				continue
			}
		} else {
			var free uint32
			for m := diff; m != 0; m &= m - 1 {
				bit := m & -m
				if !busy[u^int(bit)] {
					free |= bit
				}
			}
			if free == 0 {
				continue
			}
			b := nthSetBit(free, 0)
			if k := bits.OnesCount32(free); k > 1 {
				b = nthSetBit(free, s.choiceRNG.IntN(k))
			}
			v = u ^ (1 << b)
		}
		busy[u], busy[v] = true, true
		s.q[u].Pop()
		s.sends++
		if s.measuring {
			s.hop.Add(float64(t - s.headSince[u] + 1))
		}
		if s.q[u].Len() > 0 {
			s.headSince[u] = t + 1
		}
		if v == int(pk.dest) {
			s.queued--
			s.delivered++
			if pk.gen >= s.measStart {
				d := t - int64(pk.gen)
				h := int64(bits.OnesCount32(uint32(pk.src) ^ uint32(pk.dest)))
				s.delay.Add(float64(d))
				s.delayC.Add(float64(t+1) - pk.gen)
				s.hops.Add(float64(h))
				s.wait.Add(float64(d - h))
			}
			continue
		}
		if s.q[v].Len() == 0 {
			s.headSince[v] = t + 1
		}
		s.q[v].Push(pk)
	}
	end := float64(t + 1)
	for u := range s.nodes {
		for s.next[u] < end {
			if s.q[u].Len() == 0 {
				s.headSince[u] = t + 1
			}
			d := s.pat.Dest(u, s.dst[u])
			s.q[u].Push(packet{gen: s.next[u], src: int32(u), dest: int32(d)})
			s.queued++
			s.generated++
			s.next[u] = s.proc.Next(s.next[u], s.arr[u])
		}
	}
}

// nthSetBit returns the index of the r-th (from 0) set bit of m, counting
// from the least significant; m must have more than r set bits.
func nthSetBit(m uint32, r int) int {
	for range r {
		m &= m - 1
	}
	return bits.TrailingZeros32(m)
}

// period runs the slots [t0, t0+p) and returns the sum over them of the
// number of queued packets at the start of each slot.
func (s *Sim) period(t0, p int64) (queuedSlots int64) {
	for t := t0; t < t0+p; t++ {
		queuedSlots += int64(s.queued)
		s.step(t)
	}
	return queuedSlots
}

// Run simulates from the empty network until the stopping rule of
// cfg.Run is met, and returns the measured figures (see Result and the
// package documentation for the run control). It returns ctx.Err() if ctx
// is cancelled; cancellation is checked once per period.
func (s *Sim) Run(ctx context.Context) (Result, error) {
	s.reset()
	rc := s.cfg.Run
	res := Result{Dim: s.n, Nodes: s.nodes, Rate: s.cfg.Rate, Seed: s.cfg.Seed}
	N := float64(s.nodes)
	limit := rc.BacklogLimit * s.nodes
	overLimit := func(t int64) string {
		return fmt.Sprintf("backlog %d packets/node exceeds BacklogLimit %d at slot %d",
			s.queued/s.nodes, rc.BacklogLimit, t)
	}

	// Warm-up.
	t := int64(0)
	meter := sim.MeterFrom(ctx)
	if rc.Warmup > 0 {
		for t < rc.Warmup {
			if err := ctx.Err(); err != nil {
				return Result{}, err
			}
			meter.Store(t, rc.MaxSlots)
			p := min(rc.Period, rc.Warmup-t)
			s.period(t, p)
			t += p
			if s.queued > limit {
				return s.saturated(res, t, t, overLimit(t)), nil
			}
		}
	} else {
		check := firstMSERCheck
		for {
			if err := ctx.Err(); err != nil {
				return Result{}, err
			}
			meter.Store(t, rc.MaxSlots)
			q := s.period(t, rc.Period)
			t += rc.Period
			if s.queued > limit {
				return s.saturated(res, t, t, overLimit(t)), nil
			}
			s.warm = append(s.warm, float64(q)/(float64(rc.Period)*N))
			last := t+rc.Period > rc.MaxWarmup
			if len(s.warm) == check || last {
				if _, ok := sim.MSER5(s.warm); ok {
					break
				}
				check *= 2
			}
			if last {
				return s.saturated(res, t, t, fmt.Sprintf(
					"automatic warm-up: MSER-5 finds the backlog transient still running after %d slots (MaxWarmup %d)",
					t, rc.MaxWarmup)), nil
			}
		}
	}
	res.WarmupSlots = t

	// Measurement.
	start := t
	s.measuring, s.measStart = true, float64(t)
	pn := float64(rc.Period) * N
	busyPerSend := float64(2*s.n-1) / float64(s.n) / pn
	for periods := 0; ; periods++ {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		meter.Store(t, rc.MaxSlots)
		sends, deliv, gen := s.sends, s.delivered, s.generated
		q := s.period(t, rc.Period)
		t += rc.Period
		b := float64(q) / pn
		s.thr.Add(float64(s.delivered-deliv) / pn)
		s.off.Add(float64(s.generated-gen) / pn)
		s.busyP.Add(float64(s.sends-sends) * busyPerSend)
		s.backlog.Add(b)
		s.backlogAcc.Add(b)
		s.backlogTrend.Add(float64(periods), b)
		if s.queued > limit {
			return s.saturated(res, start, t, overLimit(t)), nil
		}
		if t-start >= rc.MinMeasure {
			if s.delay.TargetMet(rc.TargetRelCI) {
				res.CITargetMet = true
				break
			}
		}
		if t+rc.Period > rc.MaxSlots {
			break
		}
	}
	if grow, why := s.growing(); grow {
		return s.saturated(res, start, t, why), nil
	}
	s.fill(&res, start, t)
	res.Delay = sim.EstimateOf(s.delay)
	res.DelayContinuous = sim.EstimateOf(s.delayC)
	res.HopService = sim.EstimateOf(s.hop)
	res.Backlog = sim.EstimateOf(s.backlog)
	res.Hops = sim.EstimateOf(s.hops)
	res.Wait = sim.EstimateOf(s.wait)
	end := sim.Ending{Stopped: sim.Converged, TargetRelCI: rc.TargetRelCI, CapRelCI: rc.CapRelCI,
		Judged:  []sim.Named{{Name: "delay", Estimate: res.Delay}},
		Offered: res.Offered, Accepted: res.Throughput,
		Reason: fmt.Sprintf("delay CI95 within the target %v", rc.TargetRelCI)}
	if !res.CITargetMet {
		end.Stopped = sim.CapReached
		end.Reason = fmt.Sprintf("MaxSlots %d reached before the delay CI target %v", rc.MaxSlots, rc.TargetRelCI)
	}
	res.Status, res.Reason = sim.Conclude(end)
	if res.Status != sim.StatusOK { // no steady-state figure without a steady state
		res.Delay, res.DelayContinuous, res.HopService = sim.Estimate{}, sim.Estimate{}, sim.Estimate{}
		res.Backlog, res.Hops, res.Wait = sim.Estimate{}, sim.Estimate{}, sim.Estimate{}
	}
	return res, nil
}

// fill sets the fields every Result carries. When no measurement period
// completed (saturation during warm-up), Throughput, Offered and Busy are
// plain means over the whole run, without a CI.
func (s *Sim) fill(res *Result, start, end int64) {
	res.WarmupSlots = start
	res.MeasuredSlots = end - start
	if s.thr.Batches() > 0 {
		res.Throughput = sim.EstimateOf(s.thr)
		res.Offered = sim.EstimateOf(s.off)
		res.Busy = sim.EstimateOf(s.busyP)
		return
	}
	if end == 0 {
		return
	}
	ns := float64(end) * float64(s.nodes)
	res.Throughput = sim.Estimate{Mean: float64(s.delivered) / ns}
	res.Offered = sim.Estimate{Mean: float64(s.generated) / ns}
	res.Busy = sim.Estimate{Mean: float64(s.sends) * float64(2*s.n-1) / float64(s.n) / ns}
}

// saturated returns res marked saturated for reason.
func (s *Sim) saturated(res Result, start, end int64, reason string) Result {
	s.fill(&res, start, end)
	res.Status, res.Reason = sim.StatusSaturated, reason
	return res
}

// growing reports whether the per-period backlog grows: its least-squares
// slope exceeds growthZ standard errors, the OLS standard error being
// inflated by the batch-means variance ratio
//
//	f = Var_BM(mean) / (s²/m)
//
// (the long-run over the marginal variance of the per-period backlog), which
// corrects the OLS error for the positive autocorrelation of queue lengths.
func (s *Sim) growing() (bool, string) {
	slope, se, ok := s.backlogTrend.Slope()
	if !ok || !(slope > 0) {
		return false, ""
	}
	f := 1.0
	if h, ok := s.backlog.CI95(); ok {
		tq := sim.StudentTQuantile(0.975, s.backlog.Batches()-1)
		naive := s.backlogAcc.Variance() / float64(s.backlogAcc.N())
		if naive > 0 {
			f = max(1, (h/tq)*(h/tq)/naive)
		}
	}
	z := slope / (se * math.Sqrt(f))
	if se == 0 || z > growthZ {
		return true, fmt.Sprintf("backlog grows by %.3g packets/node per %d-slot period (%.1f corrected standard errors above 0)",
			slope, s.cfg.Run.Period, z)
	}
	return false, ""
}
