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

// firstMSERCheck is the number of periods automatic warm-up detection
// needs at least (sim.Monitor first applies MSER-5 after 20; twice that
// leaves it room).
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
	// The run control is sim.Monitor's (new in every reset); the integer
	// delay is its observation, the other quantities its series.
	measuring  bool
	measStart  float64
	mon        *sim.Monitor
	delayC     *sim.Series
	hop        *sim.Series
	busyP      *sim.Series
	backlog    *sim.Series
	hops, wait *sim.Series
	// Delays of the period's deliveries, every packet (the warm-up
	// detection's per-period mean).
	perDelay     float64
	perDelivered int64
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
	if _, err := sim.NewMonitor(runControl(cfg.Run)); err != nil {
		return nil, fmt.Errorf("slotted: %w", err)
	}
	s.reset()
	return s, nil
}

// runControl maps rc onto sim's run control (times in slots; the backlog
// limit is per node, as the reported backlog).
func runControl(rc RunControl) sim.RunControl {
	return sim.RunControl{Period: sim.Cycle(rc.Period), Warmup: sim.Cycle(rc.Warmup), MaxWarmup: sim.Cycle(rc.MaxWarmup),
		MinMeasure: sim.Cycle(rc.MinMeasure), MaxCycles: sim.Cycle(rc.MaxSlots), TargetRelCI: rc.TargetRelCI,
		MinBatches: rc.MinBatches, MaxBatches: rc.MaxBatches, CapRelCI: rc.CapRelCI,
		BacklogLimit: float64(rc.BacklogLimit), Unit: "slot"}
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
	s.mon, _ = sim.NewMonitor(runControl(s.cfg.Run)) // validated by New
	s.delayC = s.mon.NewSeries("continuous delay", false)
	s.hop = s.mon.NewSeries("hop service", false)
	s.busyP = s.mon.NewSeries("busy", false)
	s.backlog = s.mon.NewSeries("backlog", false)
	s.hops = s.mon.NewSeries("hops", false)
	s.wait = s.mon.NewSeries("wait", false)
	s.perDelay, s.perDelivered = 0, 0
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
			d := t - int64(pk.gen)
			s.perDelay += float64(d)
			s.perDelivered++
			if pk.gen >= s.measStart {
				h := int64(bits.OnesCount32(uint32(pk.src) ^ uint32(pk.dest)))
				s.mon.Observe(float64(d))
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
// package documentation for the run control, which is sim's: sim.RunPeriods
// driving a sim.Monitor, the integer delay its observation). It returns
// ctx.Err() if ctx is cancelled; cancellation is checked once per period.
func (s *Sim) Run(ctx context.Context) (Result, error) {
	s.reset()
	rc := s.cfg.Run
	res := Result{Dim: s.n, Nodes: s.nodes, Rate: s.cfg.Rate, Seed: s.cfg.Seed}
	pn := float64(rc.Period) * float64(s.nodes)
	busyPerSend := float64(2*s.n-1) / float64(s.n) / pn
	t := int64(0)
	err := sim.RunPeriods(ctx, s.mon, func() sim.PeriodReport {
		if !s.measuring && s.mon.Measuring() { // measurement started at t
			s.measuring, s.measStart = true, float64(t)
			res.WarmupSlots = t
		}
		sends, deliv, gen := s.sends, s.delivered, s.generated
		q := s.period(t, rc.Period)
		t += rc.Period
		s.busyP.Add(float64(s.sends-sends) * busyPerSend)
		s.backlog.Add(float64(q) / pn)
		mean := 0.0
		if s.perDelivered > 0 {
			mean = s.perDelay / float64(s.perDelivered)
		}
		r := sim.PeriodReport{End: sim.Cycle(t), MeanObservation: mean, Count: s.perDelivered,
			Backlog:  float64(s.queued) / float64(s.nodes),
			Offered:  float64(s.generated-gen) / pn,
			Accepted: float64(s.delivered-deliv) / pn}
		s.perDelay, s.perDelivered = 0, 0
		return r
	})
	if err != nil {
		return Result{}, err
	}
	if !s.measuring {
		res.WarmupSlots = t
	}
	res.CITargetMet = s.mon.Status() == sim.Converged
	s.fill(&res, res.WarmupSlots, t)
	res.Status, res.Reason = s.mon.Conclude("delay")
	if res.Status != sim.StatusOK { // no steady-state figure without a steady state
		return res, nil
	}
	res.Delay, _ = s.mon.Measured()
	res.DelayContinuous = s.delayC.Estimate()
	res.HopService = s.hop.Estimate()
	res.Backlog = s.backlog.Estimate()
	res.Hops = s.hops.Estimate()
	res.Wait = s.wait.Estimate()
	return res, nil
}

// fill sets the fields every Result carries. When no measurement period
// completed (saturation during warm-up), Throughput, Offered and Busy are
// plain means over the whole run, without a CI.
func (s *Sim) fill(res *Result, start, end int64) {
	res.WarmupSlots = start
	res.MeasuredSlots = end - start
	if s.busyP.Batches() > 0 {
		res.Offered, res.Throughput = s.mon.Throughput()
		res.Busy = s.busyP.Estimate()
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
