package closed

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/topology"
	"github.com/flitsim/flitsim/traffic"
)

// Sim is one closed network at one population, built by New and run by Run.
// The network description is immutable; Run resets every queue and random
// stream first, so calling Run twice gives the same Result. A Sim is not safe
// for concurrent use.
type Sim struct {
	cfg     Config
	topo    *topology.Topology // nil for a bus
	route   topology.Routing   // dimension order; nil for a bus
	pattern traffic.Pattern
	linkLen traffic.Length // Geometric links only
	k       int            // PEs
	links   int            // link servers
	devOf   []int32        // channel id -> link server (0..links-1)
	chDst   []int32        // channel id -> downstream router
	r1      float64        // no-contention cycle time S_PE + S_CL E[hops]
	buf     []topology.Candidate

	// Random streams, rebuilt by reset.
	destRNG []*rand.Rand // per node: destination of the messages it creates
	lenRNG  []*rand.Rand // per node: per-message link service (PerMessage)
	svcRNG  []*rand.Rand // per station: service draws
	placeRN *rand.Rand

	// Stations 0..k-1 are PEs, k..k+links-1 link servers: FCFS queues
	// threaded through msgNext.
	head, tail, qlen []int32
	busySince        []float64
	busyTime         []float64

	// Messages.
	msgNext []int32
	cur     []int32 // PE: the node; link: the node it reaches after the crossing
	dest    []int32
	hops    []int32
	born    []float64
	lsvc    []float64 // PerMessage link service time

	cal sim.Calendar[int32]
	now float64

	// Instantaneous state and its time integrals over the current period.
	busyPE, busyLink, atPE int
	last                   float64
	areaBusyPE             float64
	areaBusyLink           float64
	areaAtPE               float64
	periodDone             int64

	events int64
}

// busSpace is the traffic.Space of a bus: every other node one crossing away.
type busSpace int

func (b busSpace) Nodes() int { return int(b) }
func (b busSpace) Distance(x, y int) int {
	if x == y {
		return 0
	}
	return 1
}
func (b busSpace) Radix() int { return int(b) }
func (b busSpace) Dims() int  { return 1 }

// New validates cfg (reporting every problem at once) and builds the
// network, its dimension-order routes, its link servers and the routing
// distribution.
func New(cfg Config) (*Sim, error) {
	c := cfg.WithDefaults()
	if err := c.validate(); err != nil {
		return nil, err
	}
	s := &Sim{cfg: c}
	var space traffic.Space
	if c.Network == Bus {
		s.k = c.Radix
		s.links = 1
		space = busSpace(c.Radix)
	} else {
		spec := topology.Spec{K: c.Radix, N: c.Dims, Bidirectional: true}
		switch c.Network {
		case Ring:
			spec.Kind = topology.Ring
		case Torus:
			spec.Kind = topology.Torus
		case Mesh:
			spec.Kind = topology.Mesh
		case Hypercube:
			spec.Kind = topology.Hypercube
		}
		t, err := topology.New(spec)
		if err != nil {
			return nil, fmt.Errorf("closed: %w", err)
		}
		s.topo, s.route, s.k = t, topology.NewDimensionOrder(t), t.Nodes()
		s.buf = make([]topology.Candidate, 0, t.Ports())
		if err := s.buildLinks(); err != nil {
			return nil, err
		}
		space = t
	}
	p, err := traffic.NewPattern(c.Pattern, space)
	if err != nil {
		return nil, fmt.Errorf("closed: pattern: %w", err)
	}
	s.pattern = p
	if c.Link.Distribution == Geometric {
		if s.linkLen, err = traffic.NewGeometricLength(c.Link.Mean/c.FlitTime, 0); err != nil {
			return nil, fmt.Errorf("closed: link length: %w", err)
		}
	}

	// Run-control defaults scale with R1, the cycle time of a lone message.
	prob := make([]float64, s.k)
	p.Probabilities(0, prob)
	meanHops := 0.0
	for j, q := range prob {
		meanHops += q * float64(space.Distance(0, j))
	}
	s.r1 = c.PE.Mean + c.Link.Mean*meanHops
	if !(s.r1 > 0) {
		return nil, errors.New("closed: a message needs no time at all (PE service none and no link crossings): the run would not advance")
	}
	r := &s.cfg.Run
	if r.Period == 0 {
		r.Period = 10 * s.r1
	}
	if r.MaxWarmup == 0 {
		r.MaxWarmup = 1000 * r.Period
	}
	if r.MinMeasure == 0 {
		r.MinMeasure = 200 * r.Period
	}
	if r.MaxTime == 0 {
		r.MaxTime = 100000 * r.Period
	}
	var errs []error
	if r.MinMeasure < float64(r.MinBatches)*r.Period {
		errs = append(errs, fmt.Errorf("closed: Run.MinMeasure = %v time units is shorter than MinBatches = %d periods of %v", r.MinMeasure, r.MinBatches, r.Period))
	}
	warm := r.Warmup
	if warm == 0 {
		warm = r.MaxWarmup
	}
	if r.MaxTime < warm+r.MinMeasure+r.Period {
		errs = append(errs, fmt.Errorf("closed: Run.MaxTime = %v time units leaves no room for warm-up (%v) plus MinMeasure (%v) plus a period", r.MaxTime, warm, r.MinMeasure))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}

	n := c.Population
	s.msgNext = make([]int32, n)
	s.cur = make([]int32, n)
	s.dest = make([]int32, n)
	s.hops = make([]int32, n)
	s.born = make([]float64, n)
	s.lsvc = make([]float64, n)
	st := s.k + s.links
	s.head = make([]int32, st)
	s.tail = make([]int32, st)
	s.qlen = make([]int32, st)
	s.busySince = make([]float64, st)
	s.busyTime = make([]float64, st)
	s.destRNG = make([]*rand.Rand, s.k)
	s.lenRNG = make([]*rand.Rand, s.k)
	s.svcRNG = make([]*rand.Rand, st)
	return s, nil
}

// buildLinks numbers the link servers: one per channel (full duplex) or one
// per pair of opposite channels (half duplex), in channel-id order.
func (s *Sim) buildLinks() error {
	t := s.topo
	nch := t.NumChannels()
	s.devOf = make([]int32, nch)
	s.chDst = make([]int32, nch)
	for i := range s.devOf {
		s.devOf[i] = -1
	}
	half := s.cfg.Duplex == HalfDuplex
	next := int32(0)
	for id := 0; id < nch; id++ {
		ch := t.Channel(id)
		s.chDst[id] = int32(ch.Dst)
		if s.devOf[id] >= 0 {
			continue
		}
		s.devOf[id] = next
		if half {
			rp := ch.SrcPort ^ 1 // + and - of one dimension are ports 2d, 2d+1
			if t.Kind() == topology.Hypercube {
				rp = ch.SrcPort // port d flips bit d both ways
			}
			rev := t.Out(ch.Dst, rp)
			if rev < 0 || t.Channel(rev).Dst != ch.Src {
				return fmt.Errorf("closed: channel %d (%d->%d) has no reverse channel to share a half-duplex server with", id, ch.Src, ch.Dst)
			}
			s.devOf[rev] = next
		}
		next++
	}
	s.links = int(next)
	return nil
}

// reset puts every message at its start node, empties every queue and
// re-derives every stream from the seed.
func (s *Sim) reset() {
	seed := s.cfg.Seed
	for v := 0; v < s.k; v++ {
		s.destRNG[v] = sim.NewStream(seed, sim.PurposeTrafficDest, uint64(v))
		s.lenRNG[v] = sim.NewStream(seed, sim.PurposeTrafficLength, uint64(v))
	}
	for i := range s.svcRNG {
		s.svcRNG[i] = sim.NewStream(seed, sim.PurposeService, uint64(i))
	}
	s.placeRN = sim.NewStream(seed, sim.PurposePlacement, 0)
	for i := range s.head {
		s.head[i], s.tail[i], s.qlen[i] = -1, -1, 0
		s.busySince[i], s.busyTime[i] = 0, 0
	}
	s.cal.Reset()
	s.now, s.last = 0, 0
	s.busyPE, s.busyLink, s.atPE = 0, 0, 0
	s.clearPeriod()
	s.events = 0
	for m := range s.msgNext {
		v := m % s.k
		if s.cfg.Placement == Random {
			v = s.placeRN.IntN(s.k)
		}
		s.cur[m] = int32(v)
		s.create(int32(m), v)
	}
}

func (s *Sim) clearPeriod() {
	s.areaBusyPE, s.areaBusyLink, s.areaAtPE, s.periodDone = 0, 0, 0, 0
}

// create starts message m at node v (time s.now): a new destination, a fresh
// per-message link service, and off into the network.
func (s *Sim) create(m int32, v int) {
	s.born[m] = s.now
	s.hops[m] = 0
	s.dest[m] = int32(s.pattern.Dest(v, s.destRNG[v]))
	if s.cfg.LinkDraw == PerMessage {
		s.lsvc[m] = s.linkService(s.lenRNG[v])
	}
	s.forward(m)
}

func (s *Sim) linkService(r *rand.Rand) float64 {
	switch s.cfg.Link.Distribution {
	case Exponential:
		return s.cfg.Link.Mean * r.ExpFloat64()
	case Geometric:
		return float64(s.linkLen.Draw(r)) * s.cfg.FlitTime
	}
	return s.cfg.Link.Mean
}

// forward moves message m, at node cur[m], one step on: into its
// destination's PE queue, or into the queue of the next link on its
// dimension-order route. Intermediate nodes take no time.
func (s *Sim) forward(m int32) {
	c, d := int(s.cur[m]), int(s.dest[m])
	if c == d {
		s.enqueue(c, m)
		return
	}
	s.hops[m]++
	if s.topo == nil { // bus
		s.cur[m] = int32(d)
		s.enqueue(s.k, m)
		return
	}
	cand := s.route.Route(c, d, s.buf[:0])
	ch := s.topo.Out(c, cand[0].Port)
	s.cur[m] = s.chDst[ch]
	s.enqueue(s.k+int(s.devOf[ch]), m)
}

// enqueue appends m to station st's FCFS queue and starts its service if the
// server was idle.
func (s *Sim) enqueue(st int, m int32) {
	s.msgNext[m] = -1
	if s.qlen[st] == 0 {
		s.head[st] = m
	} else {
		s.msgNext[s.tail[st]] = m
	}
	s.tail[st] = m
	s.qlen[st]++
	if st < s.k {
		s.atPE++
	}
	if s.qlen[st] == 1 {
		s.busySince[st] = s.now
		if st < s.k {
			s.busyPE++
		} else {
			s.busyLink++
		}
		s.start(st)
	}
}

// start schedules the end of service of the message at the head of st.
func (s *Sim) start(st int) {
	var d float64
	if st < s.k {
		switch s.cfg.PE.Distribution {
		case Exponential:
			d = s.cfg.PE.Mean * s.svcRNG[st].ExpFloat64()
		case Fixed:
			d = s.cfg.PE.Mean
		}
	} else if s.cfg.LinkDraw == PerMessage {
		d = s.lsvc[s.head[st]]
	} else {
		d = s.linkService(s.svcRNG[st])
	}
	s.cal.Push(s.now+d, int32(st))
}

// integrate advances the period integrals to time t.
func (s *Sim) integrate(t float64) {
	dt := t - s.last
	s.areaBusyPE += dt * float64(s.busyPE)
	s.areaBusyLink += dt * float64(s.busyLink)
	s.areaAtPE += dt * float64(s.atPE)
	s.last = t
}

// complete ends the service at station st (time s.now) and moves its message
// on. It returns the completed message and whether it was a PE completion.
func (s *Sim) complete(st int) (int32, bool) {
	m := s.head[st]
	s.head[st] = s.msgNext[m]
	s.qlen[st]--
	if s.qlen[st] > 0 {
		s.start(st)
	} else {
		s.tail[st] = -1
		s.busyTime[st] += s.now - s.busySince[st]
		if st < s.k {
			s.busyPE--
		} else {
			s.busyLink--
		}
	}
	s.events++
	if st < s.k {
		s.atPE--
		s.periodDone++
		return m, true
	}
	s.forward(m)
	return m, false
}

// step processes the next event, which must come before limit; it reports
// false (and does nothing) if the next event is at or after limit.
func (s *Sim) step(limit float64) (m int32, pe bool, ok bool) {
	at, st, _ := s.cal.Peek()
	if at >= limit {
		return 0, false, false
	}
	s.cal.Pop()
	s.integrate(at)
	s.now = at
	m, pe = s.complete(int(st))
	return m, pe, true
}

// monitor returns the run control of sim (sim.Monitor) for rc: time is
// counted in periods of rc.Period time units.
func monitor(rc Run) (*sim.Monitor, error) {
	mrc := sim.RunControl{Period: 1, Unit: "period", TimeScale: rc.Period,
		MaxWarmup:  sim.Periods(rc.MaxWarmup, rc.Period),
		MinMeasure: sim.Periods(rc.MinMeasure, rc.Period),
		// The whole periods that fit in MaxTime.
		MaxCycles:   sim.Cycle(math.Floor(rc.MaxTime/rc.Period + 1e-9)),
		TargetRelCI: rc.TargetRelCI, CapRelCI: rc.CapRelCI,
		MinBatches: rc.MinBatches, MaxBatches: rc.MaxBatches}
	if rc.Warmup > 0 {
		mrc.Warmup = sim.Periods(rc.Warmup, rc.Period)
	}
	return sim.NewMonitor(mrc)
}

// Run simulates period by period under sim's run control (sim.RunPeriods,
// sim.Monitor: the warm-up, batch means with the lag-1 check, the stopping
// rule and the status rule every mode shares), the per-period completion
// rate being the judged observation X0, until the 95% CI of X0 is within
// Run.TargetRelCI (after at least Run.MinMeasure of measurement) or until
// Run.MaxTime, and returns the measured Result. It returns ctx.Err()
// (wrapped) if ctx is cancelled.
func (s *Sim) Run(ctx context.Context) (Result, error) {
	s.reset()
	rc := s.cfg.Run
	mon, err := monitor(rc)
	if err != nil {
		return Result{}, fmt.Errorf("closed: %w", err)
	}
	cycle, hops := mon.NewSeries("cycle time", false), mon.NewSeries("hops", false)
	uPE, uLink := mon.NewSeries("PE utilisation", false), mon.NewSeries("link utilisation", false)
	qPE, qLink := mon.NewSeries("PE queue", false), mon.NewSeries("link queue", false)

	res := Result{Population: s.cfg.Population, Nodes: s.k, Links: s.links, Period: rc.Period, Warmup: -1}
	periods := sim.Cycle(0)
	var completions int64
	n := float64(s.cfg.Population)
	kf, lf := float64(s.k), float64(s.links)
	var cancelled error
	period := func() sim.PeriodReport {
		measuring := mon.Measuring()
		if measuring && res.Warmup < 0 { // measurement started at the last period end
			res.Warmup = s.now
			for i := range s.busyTime {
				s.busyTime[i], s.busySince[i] = 0, s.now
			}
		}
		periodStart := s.now
		boundary := float64(periods+1) * rc.Period // counted from 0: no rounding accumulates
		for cancelled == nil {
			if s.events&4095 == 0 {
				cancelled = ctx.Err()
			}
			m, pe, ok := s.step(boundary)
			if !ok {
				break
			}
			if pe {
				if measuring {
					completions++
				}
				cycle.Add(s.now - s.born[m])
				hops.Add(float64(s.hops[m]))
				s.create(m, int(s.cur[m]))
			}
		}
		s.integrate(boundary)
		s.now = boundary
		p := boundary - periodStart
		x := float64(s.periodDone) / p
		mon.Observe(x)
		uPE.Add(s.areaBusyPE / (p * kf))
		uLink.Add(s.areaBusyLink / (p * lf))
		qPE.Add(s.areaAtPE / (p * kf))
		qLink.Add((n*p - s.areaAtPE) / (p * lf))
		s.clearPeriod()
		periods++
		return sim.PeriodReport{End: periods, MeanObservation: x, Count: 1, Closed: true}
	}
	err = sim.RunPeriods(ctx, mon, period)
	if err == nil {
		err = cancelled
	}
	if err != nil {
		return Result{}, fmt.Errorf("closed: run cancelled at time %v: %w", s.now, err)
	}
	if res.Warmup < 0 { // never measured
		res.Warmup = s.now
	}
	res.Measured = s.now - res.Warmup
	res.Completions = completions
	res.Events = s.events
	res.X0, res.BatchSize = mon.Measured()
	res.Batches = res.X0.Batches
	res.CycleTime = cycle.Estimate()
	res.Hops = hops.Estimate()
	res.PEUtilisation = uPE.Estimate()
	res.LinkUtilisation = uLink.Estimate()
	res.PEQueue = qPE.Estimate()
	res.LinkQueue = qLink.Estimate()
	res.Converged = mon.Status() == sim.Converged
	res.WarmupDetected = !mon.WarmupCapped()
	res.Status, res.Reason = mon.Conclude("X0")
	for st := s.k; st < s.k+s.links; st++ {
		b := s.busyTime[st]
		if s.qlen[st] > 0 {
			b += s.now - s.busySince[st]
		}
		res.MaxLinkUtilisation = max(res.MaxLinkUtilisation, b/res.Measured)
	}
	if math.IsNaN(res.MaxLinkUtilisation) {
		res.MaxLinkUtilisation = 0
	}
	return res, nil
}
