package delta

import (
	"math"
	"math/rand/v2"

	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/topology/multistage"
)

type evKind uint8

const (
	evEmit     evKind = iota // source idx emits a new packet
	evDone                   // queue idx completes a service
	evResubmit               // packet idx reaches its source again
	evPeriod                 // end of an observation period
)

type event struct {
	kind evKind
	idx  int32
}

// packet is one packet's state, kept in a pool indexed by id.
type packet struct {
	src, dst int32
	emit     float64 // first emission, time units
	enter    float64 // acceptance into the current queue
	waitFrom float64 // entry into a retry buffer
	srcWait  float64 // total time spent in retry buffers
}

// Sim is one run of the packet-level model. It is not safe for concurrent
// use; run independent Sims in parallel instead.
type Sim struct {
	cfg resolved
	net *multistage.Network
	n   int // terminals
	b   int
	z   int
	L   int

	cal   sim.Calendar[event]
	phase int64 // slotted: key = cycle*phase + stage phase
	now   float64

	pk   []packet
	free []int32

	// Queue q = s*n + x (stage s, output line x): ring of L packet ids.
	qbuf  []int32
	qhead []int32
	qlen  []int32
	busy  []bool // a completion is pending for the head
	// retry holds the packets waiting to (re-)enter stage 1: one FIFO per
	// source (RetryBuffer "source") or per stage-1 queue ("queue").
	retry  []sim.FIFO[int32]
	perSrc bool
	srcOf  []int32 // stage-1 input line -> source feeding it

	arrRNG  []*rand.Rand // per source: emission times
	dstRNG  []*rand.Rand // per source: destinations
	servRNG []*rand.Rand // per queue: service times

	// Current-period counters.
	per periodCounters
	// Totals since time 0 (conservation accounting).
	tot Totals

	inQueues  int64
	inBuffers int64
	inTransit int64
	stageOcc  []int64   // packets in the queues of stage s
	stageLast []float64 // time of the last change of stageOcc
	events    int64
	periodEnd float64
	periods   sim.Cycle     // periods closed
	mon       *sim.Monitor  // the run control (sim.Monitor, time in periods)
	cols      []*sim.Series // metric column -> its series (colPDT: nil, the monitor's observation)
	ran       bool
}

type periodCounters struct {
	emitted, delivered, dropped int64
	delaySum, waitSum           float64
	att, rej, dep               []int64
	soj, occ                    []float64
}

func (p *periodCounters) reset() {
	p.emitted, p.delivered, p.dropped = 0, 0, 0
	p.delaySum, p.waitSum = 0, 0
	clear(p.att)
	clear(p.rej)
	clear(p.dep)
	clear(p.soj)
	clear(p.occ)
}

// Metric columns of the per-period series.
const (
	colNTP = iota
	colPDT
	colPDTNet
	colWait
	colOffered
	colDrop
	colBacklog
	colCarried // delivered + dropped per time unit: what the network disposed of, against colOffered
	colFixed   // first per-stage column
)

const (
	stArr = iota
	stAcc
	stRej
	stSoj
	stOcc
	stCols
)

func (s *Sim) col(stage, c int) int { return colFixed + stage*stCols + c }

// New validates cfg and builds a run.
func New(cfg Config) (*Sim, error) {
	r, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	nw, err := multistage.New(multistage.Spec{Degree: r.Degree, Stages: r.Stages, Wiring: r.wiring})
	if err != nil {
		return nil, err
	}
	n, z, L := r.n, r.Stages, r.QueueLength
	s := &Sim{cfg: r, net: nw, n: n, b: r.Degree, z: z, L: L, phase: int64(z + 2),
		qbuf: make([]int32, z*n*L), qhead: make([]int32, z*n), qlen: make([]int32, z*n),
		busy:     make([]bool, z*n),
		retry:    make([]sim.FIFO[int32], n),
		perSrc:   r.perSrc,
		srcOf:    make([]int32, n),
		arrRNG:   make([]*rand.Rand, n),
		dstRNG:   make([]*rand.Rand, n),
		servRNG:  make([]*rand.Rand, z*n),
		stageOcc: make([]int64, z), stageLast: make([]float64, z),
	}
	s.per = periodCounters{att: make([]int64, z), rej: make([]int64, z), dep: make([]int64, z),
		soj: make([]float64, z), occ: make([]float64, z)}
	s.tot.Rejected = make([]int64, z)
	for t := range n {
		s.srcOf[nw.FirstLine(t)] = int32(t)
	}
	for i := range n {
		s.arrRNG[i] = sim.NewStream(r.Seed, sim.PurposeTrafficArrival, uint64(i))
		s.dstRNG[i] = sim.NewStream(r.Seed, sim.PurposeTrafficDest, uint64(i))
	}
	for q := range z * n {
		s.servRNG[q] = sim.NewStream(r.Seed, sim.PurposeService, uint64(q))
	}
	if s.mon, err = monitor(r); err != nil {
		return nil, err
	}
	s.cols = make([]*sim.Series, colFixed+z*stCols)
	for c := range s.cols {
		if c != colPDT {
			// NTP and PDT-network (what the validation compares) are
			// judged beside PDT: the stopping and status rules, the lag-1
			// check included, apply to every CI a comparison relies on.
			s.cols[c] = s.mon.NewSeries(colName(c), c == colNTP || c == colPDTNet)
		}
	}
	// Packet pool sized for the queues plus a margin; it grows if needed.
	s.pk = make([]packet, 0, z*n*L+4*n)
	s.free = make([]int32, 0, cap(s.pk))
	return s, nil
}

// key maps (time, phase) to a calendar key. In continuous time it is the
// time itself; slotted, cycle t and phase ph give t*(z+2)+ph, an exact
// integer in float64, so all events of a cycle are ordered by phase.
func (s *Sim) key(t float64, ph int) float64 {
	if !s.cfg.slotted {
		return t
	}
	return float64(int64(t)*s.phase + int64(ph))
}

// Slotted phases: stage s completions at z-1-s (the last stage first),
// returning packets at z, emissions at z+1.
func (s *Sim) phDone(stage int) int { return s.z - 1 - stage }

func (s *Sim) gapEmit(src int) float64 {
	r := s.arrRNG[src]
	if !s.cfg.slotted {
		return r.ExpFloat64() / s.cfg.Rate
	}
	return geometric(r, s.cfg.Rate)
}

func (s *Sim) service(q int) float64 {
	if s.cfg.fixed {
		if s.cfg.slotted {
			return math.Round(1 / s.cfg.Mu)
		}
		return 1 / s.cfg.Mu
	}
	r := s.servRNG[q]
	if !s.cfg.slotted {
		return r.ExpFloat64() / s.cfg.Mu
	}
	return geometric(r, s.cfg.Mu)
}

// geometric returns a Geometric(p) number of trials >= 1: the cycle on which
// an event of per-cycle probability p first happens.
func geometric(r *rand.Rand, p float64) float64 {
	if p >= 1 {
		return 1
	}
	u := 1 - r.Float64() // (0, 1]
	return 1 + math.Floor(math.Log(u)/math.Log1p(-p))
}

func (s *Sim) alloc() int32 {
	if k := len(s.free); k > 0 {
		id := s.free[k-1]
		s.free = s.free[:k-1]
		return id
	}
	s.pk = append(s.pk, packet{})
	return int32(len(s.pk) - 1)
}

func (s *Sim) release(id int32) { s.free = append(s.free, id) }

// setOcc records that stage st changes its occupancy by d at s.now.
func (s *Sim) setOcc(st int, d int64) {
	s.per.occ[st] += float64(s.stageOcc[st]) * (s.now - s.stageLast[st])
	s.stageLast[st] = s.now
	s.stageOcc[st] += d
	s.inQueues += d
}

// firstQueue returns the stage-1 queue of packet p.
func (s *Sim) firstQueue(p *packet) int {
	x := s.net.FirstLine(int(p.src))
	return x - x%s.b + s.net.Route(0, int(p.dst))
}

// accept appends packet id to queue q (known not to be full).
func (s *Sim) accept(q int, id int32) {
	st := q / s.n
	s.pk[id].enter = s.now
	l := s.qlen[q]
	s.qbuf[q*s.L+int((s.qhead[q]+l)%int32(s.L))] = id
	s.qlen[q] = l + 1
	s.setOcc(st, 1)
	if l == 0 {
		s.startService(q)
	}
}

func (s *Sim) startService(q int) {
	s.busy[q] = true
	st := q / s.n
	t := s.now + s.service(q)
	s.cal.Push(s.key(t, s.phDone(st)), event{kind: evDone, idx: int32(q)})
}

// popHead removes the head of queue q, records its sojourn, and returns it.
func (s *Sim) popHead(q int) int32 {
	st := q / s.n
	h := s.qhead[q]
	id := s.qbuf[q*s.L+int(h)]
	s.qhead[q] = (h + 1) % int32(s.L)
	s.qlen[q]--
	s.setOcc(st, -1)
	s.per.dep[st]++
	s.per.soj[st] += s.now - s.pk[id].enter
	return id
}

// afterDeparture admits waiting packets into a stage-1 queue that has room
// and starts the next service.
func (s *Sim) afterDeparture(q int) {
	if q < s.n {
		s.admitRetry(q)
	}
	if s.qlen[q] > 0 && !s.busy[q] {
		s.startService(q)
	}
}

// offerFirst offers packet id to stage 1. With per-source retry buffers a
// packet whose source already holds waiting packets queues behind them
// (first come, first served at the source) and makes no attempt yet.
// Otherwise it is an attempt at its stage-1 queue: accepted if there is
// room, else rejected and, outside drop mode, kept waiting.
func (s *Sim) offerFirst(id int32) {
	p := &s.pk[id]
	if s.perSrc && s.retry[p.src].Len() > 0 {
		p.waitFrom = s.now
		s.retry[p.src].Push(id)
		s.inBuffers++
		return
	}
	q := s.firstQueue(p)
	s.per.att[0]++
	if int(s.qlen[q]) < s.L {
		s.accept(q, id)
		return
	}
	s.per.rej[0]++
	s.tot.Rejected[0]++
	if s.cfg.mode == modeDrop {
		s.drop(id)
		return
	}
	p.waitFrom = s.now
	if s.perSrc {
		s.retry[p.src].Push(id)
	} else {
		s.retry[q].Push(id)
	}
	s.inBuffers++
}

// admitRetry fills the free places of stage-1 queue q from the waiting
// packets. Per queue: in order of rejection. Per source: among the sources of
// q's switch whose head-of-line packet wants q, the one whose head has
// waited longest (lowest source id on a tie) goes first; its next packet
// then becomes head and is offered at once (an attempt, which may fail).
func (s *Sim) admitRetry(q int) {
	if !s.perSrc {
		f := &s.retry[q]
		for f.Len() > 0 && int(s.qlen[q]) < s.L {
			s.enterFromBuffer(q, f.Pop())
		}
		return
	}
	base := q - q%s.b
	for int(s.qlen[q]) < s.L {
		best, bestAt := -1, math.Inf(1)
		for p := range s.b {
			src := int(s.srcOf[base+p])
			f := &s.retry[src]
			if f.Len() == 0 {
				continue
			}
			h := &s.pk[f.Front()]
			if s.firstQueue(h) == q && h.waitFrom < bestAt {
				best, bestAt = src, h.waitFrom
			}
		}
		if best < 0 {
			return
		}
		f := &s.retry[best]
		s.enterFromBuffer(q, f.Pop())
		// Drain the source: heads whose queue has room enter; the first
		// that finds its queue full is a rejected attempt and stays head.
		for f.Len() > 0 {
			q2 := s.firstQueue(&s.pk[f.Front()])
			if int(s.qlen[q2]) >= s.L {
				s.per.att[0]++
				s.per.rej[0]++
				s.tot.Rejected[0]++
				break
			}
			s.enterFromBuffer(q2, f.Pop())
		}
	}
}

// enterFromBuffer moves a waiting packet into q: a successful attempt.
func (s *Sim) enterFromBuffer(q int, id int32) {
	s.inBuffers--
	p := &s.pk[id]
	p.srcWait += s.now - p.waitFrom
	s.per.att[0]++
	s.accept(q, id)
}

func (s *Sim) drop(id int32) {
	s.per.dropped++
	s.tot.Dropped++
	s.release(id)
}

func (s *Sim) emit(src int) {
	id := s.alloc()
	p := &s.pk[id]
	*p = packet{src: int32(src), dst: int32(s.dstRNG[src].IntN(s.n)), emit: s.now}
	s.per.emitted++
	s.tot.Emitted++
	s.offerFirst(id)
	s.cal.Push(s.key(s.now+s.gapEmit(src), s.z+1), event{kind: evEmit, idx: int32(src)})
}

// done handles the service completion of the head of queue q.
func (s *Sim) done(q int) {
	s.busy[q] = false
	st, x := q/s.n, q%s.n
	id := s.qbuf[q*s.L+int(s.qhead[q])]
	p := &s.pk[id]
	if st == s.z-1 {
		s.popHead(q)
		s.per.delivered++
		s.tot.Delivered++
		s.per.delaySum += s.now - p.emit
		s.per.waitSum += p.srcWait
		s.release(id)
		s.afterDeparture(q)
		return
	}
	y := s.net.NextLine(st, x)
	q2 := (st+1)*s.n + y - y%s.b + s.net.Route(st+1, int(p.dst))
	s.per.att[st+1]++
	if int(s.qlen[q2]) < s.L {
		s.popHead(q)
		s.accept(q2, id)
		s.afterDeparture(q)
		return
	}
	s.per.rej[st+1]++
	s.tot.Rejected[st+1]++
	switch s.cfg.mode {
	case modeDrop:
		s.popHead(q)
		s.drop(id)
		s.afterDeparture(q)
	case modeResubmit:
		s.popHead(q)
		s.afterDeparture(q)
		if s.cfg.ResubmitDelay == 0 {
			s.offerFirst(id)
		} else {
			s.inTransit++
			s.cal.Push(s.key(s.now+s.cfg.ResubmitDelay, s.z), event{kind: evResubmit, idx: id})
		}
	case modeRetry:
		// Rotate: the head goes to the tail of its own queue, keeping its
		// place and its acceptance time; the new head starts service.
		h := s.qhead[q]
		s.qhead[q] = (h + 1) % int32(s.L)
		s.qbuf[q*s.L+int((s.qhead[q]+s.qlen[q]-1)%int32(s.L))] = id
		s.startService(q)
	}
}
