package network

import (
	"context"
	"fmt"
	"math"

	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/traffic/trace"
)

// Trace-driven runs (Config.Trace).
//
// Timing rule. Let c_P = floor((cycle_P - cycle_min) / s) be packet P's
// recorded cycle, shifted so the trace starts at cycle 0 and divided by
// the speed-up s = Config.TraceSpeedup (1: as recorded), and L0_P its
// zero-load latency in this network (Config.ZeroLoadLatency with its hop
// count and flits). A packet that waits for no other is generated at c_P.
// A packet P that waits for packets D (trace.Packet.After) is generated
//
//	g_P = max_D t_D + 1 + gap_P,   gap_P = max(0, c_P - max_D (c_D + L0_D + 1))
//
// where t_D is the cycle D's tail was delivered: one cycle after the last
// of its dependencies arrives, plus its recorded gap, the time the
// recording shows between the arrival of its last dependency (had that
// dependency taken its zero-load latency) and its own injection, the
// think time of the node. On an ideal network, where every packet takes
// exactly L0, g_P = c_P whenever the recording allows it, so replaying on
// the ideal network reproduces the recorded timing; contention delays a
// packet and, through the dependencies, everything that waits for it.
// A generated packet joins its source queue like any other message (one
// flit per cycle onto the injection channel); its latency is counted
// from g_P.
//
// Results (TraceResult). The run time T is the number of cycles until
// the last tail is delivered (its delivery cycle + 1). The ideal run time
// T0 is the same for the ideal network: the recurrence above with
// t_D = g_D + L0_D, no contention and no source queueing. The slowdown is
// T/T0 (>= 1 up to the source serialisation the ideal network ignores);
// the packet slowdown is the mean over packets of latency_P / L0_P.
//
// Idle stretches: when no flit has been in the network or a source queue
// for a while (long enough for every credit and pipeline event to have
// fired) and the next packet is generated later, the network jumps to the
// cycle before it (nothing can change meanwhile); TestTraceFastForward
// checks that the deliveries are those of stepping every cycle.

// TraceResult is what a trace-driven run measured (see the timing rule
// above). Latencies in cycles.
type TraceResult struct {
	Packets   int   // packets in the trace
	Delivered int   // packets delivered
	Flits     int64 // flits delivered
	Dangling  int   // dependency references to packets not in the trace (ignored)

	RunCycles      int64   // T: cycles until the last tail was delivered
	IdealCycles    int64   // T0: the same on the ideal (zero-load) network
	Slowdown       float64 // T / T0
	PacketSlowdown float64 // mean of latency / zero-load latency over packets

	Latency        float64 // generation -> tail delivered, mean
	NetworkLatency float64 // head injected -> tail delivered, mean
	SourceWait     float64 // generation -> head injected, mean
	Hops           float64 // mean links crossed
	P50, P95, P99  int64   // latency percentiles (sim.Histogram: exact to 4096 cycles, 1.6% beyond)
	MaxLatency     int64
}

// replay is the state of a trace-driven run, kept off the per-flit path:
// it is touched once per packet generated and once per packet delivered.
type replay struct {
	tr       *trace.Trace
	ready    sim.Calendar[int32] // packets cleared for generation, by cycle
	waiting  []int32             // per packet: dependencies not yet delivered
	kidStart []int32             // packet P's dependants: kids[kidStart[P]:kidStart[P+1]]
	kids     []int32
	lastDep  []int64     // per packet: latest delivery cycle of its dependencies so far
	gap      []int64     // per packet: gap_P (0 for a packet without dependencies)
	zero     []int32     // per packet: L0_P
	byID     []int32     // network packet id -> trace packet, while in flight
	genAt    []sim.Cycle // per packet: cycle generated (-1 before)
	doneAt   []sim.Cycle // per packet: cycle its tail was delivered (-1 before)

	res                  TraceResult
	hist                 *sim.Histogram
	latSum, netSum, wait float64
	hops, slow           float64
	last                 sim.Cycle // cycle of the latest delivery
}

// startReplay checks the trace against the network and schedules the
// packets that wait for nothing.
func (n *Network) startReplay() error {
	tr := n.cfg.Trace
	if n.g != nil {
		// The timing rule needs every pair's zero-load latency; on a graph
		// network it depends on the routing's path and its channels'
		// latencies, which the engine does not tabulate yet.
		return fmt.Errorf("network: trace replay is not available on a %s (graph networks): the replay's gaps need each pair's zero-load latency", n.g.Kind())
	}
	if err := tr.CheckNodes(n.terms); err != nil {
		return fmt.Errorf("network: %w", err)
	}
	hops := func(src, dst int) int {
		if n.ms != nil {
			return n.ms.Stages()
		}
		return n.topo.Distance(src, dst)
	}
	np := len(tr.Packets)
	rp := &replay{
		tr:       tr,
		waiting:  make([]int32, np),
		kidStart: make([]int32, np+1),
		lastDep:  make([]int64, np),
		gap:      make([]int64, np),
		zero:     make([]int32, np),
		genAt:    make([]sim.Cycle, np),
		doneAt:   make([]sim.Cycle, np),
		hist:     sim.NewHistogram(4096),
	}
	for i := range rp.genAt {
		rp.genAt[i], rp.doneAt[i] = -1, -1
	}
	rp.res.Packets, rp.res.Dangling = np, tr.Dangling
	minCycle := int64(math.MaxInt64)
	for i := range tr.Packets {
		minCycle = min(minCycle, tr.Packets[i].Cycle)
	}
	speed := n.cfg.TraceSpeedup
	c := make([]int64, np)
	for i := range tr.Packets {
		p := &tr.Packets[i]
		c[i] = int64(math.Floor(float64(p.Cycle-minCycle) / speed))
		rp.zero[i] = int32(n.cfg.ZeroLoadLatency(hops(int(p.Src), int(p.Dst)), int(p.Flits)))
		rp.waiting[i] = int32(len(p.After))
		for _, d := range p.After {
			rp.kidStart[d+1]++
		}
	}
	for i := 1; i <= np; i++ {
		rp.kidStart[i] += rp.kidStart[i-1]
	}
	rp.kids = make([]int32, rp.kidStart[np])
	fill := append([]int32(nil), rp.kidStart[:np]...)
	for i := range tr.Packets {
		p := &tr.Packets[i]
		if len(p.After) == 0 {
			continue
		}
		latest := int64(math.MinInt64)
		for _, d := range p.After {
			rp.kids[fill[d]] = int32(i)
			fill[d]++
			latest = max(latest, c[d]+int64(rp.zero[d])+1)
		}
		rp.gap[i] = max(0, c[i]-latest)
	}
	rp.res.IdealCycles = rp.ideal(c)
	for i := range tr.Packets {
		if rp.waiting[i] == 0 {
			rp.ready.Push(float64(c[i]), int32(i))
		}
	}
	n.replay = rp
	return nil
}

// ideal returns T0, the run time on the ideal network (every packet takes
// its zero-load latency), by the timing rule in dependency order.
func (rp *replay) ideal(c []int64) int64 {
	np := len(c)
	gen := make([]int64, np)
	left := append([]int32(nil), rp.waiting...)
	var queue []int32
	for i := range left {
		if left[i] == 0 {
			gen[i] = c[i]
			queue = append(queue, int32(i))
		}
	}
	latestDep := make([]int64, np)
	var end int64 = -1
	for len(queue) > 0 {
		p := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		done := gen[p] + int64(rp.zero[p])
		end = max(end, done)
		for _, k := range rp.kids[rp.kidStart[p]:rp.kidStart[p+1]] {
			latestDep[k] = max(latestDep[k], done)
			if left[k]--; left[k] == 0 {
				gen[k] = latestDep[k] + 1 + rp.gap[k]
				queue = append(queue, k)
			}
		}
	}
	return end + 1
}

// release generates the trace packets cleared for this cycle.
func (n *Network) release() {
	rp := n.replay
	limit := float64(n.now + 1)
	for {
		at, i, ok := rp.ready.Peek()
		if !ok || at >= limit {
			return
		}
		rp.ready.Pop()
		p := &rp.tr.Packets[i]
		id := n.enqueue(int(p.Src), int(p.Dst), int(p.Flits))
		for int(id) >= len(rp.byID) {
			rp.byID = append(rp.byID, -1)
		}
		rp.byID[id] = i
		rp.genAt[i] = n.now
	}
}

// delivered records the delivery of network packet id (its tail arrived
// this cycle) and clears the trace packets that waited for it.
func (n *Network) delivered(id int32, pk *packet, hops int) {
	rp := n.replay
	now := n.now
	i := rp.byID[id]
	rp.byID[id] = -1
	rp.doneAt[i] = now
	lat := now - pk.gen
	rp.res.Delivered++
	rp.res.Flits += int64(pk.length)
	rp.latSum += float64(lat)
	rp.netSum += float64(now - pk.inject)
	rp.wait += float64(pk.inject - pk.gen)
	rp.hops += float64(hops)
	rp.slow += float64(lat) / float64(max(1, rp.zero[i]))
	rp.hist.Add(int64(lat))
	rp.last = now
	for _, k := range rp.kids[rp.kidStart[i]:rp.kidStart[i+1]] {
		rp.lastDep[k] = max(rp.lastDep[k], int64(now))
		if rp.waiting[k]--; rp.waiting[k] == 0 {
			rp.ready.Push(float64(rp.lastDep[k]+1+rp.gap[k]), k)
		}
	}
}

// idle reports whether nothing is in the network, a source queue or on a
// line, so that the cycles until the next trace packet can be skipped.
func (n *Network) idle() bool {
	return n.InFlight() == 0 && n.queuedFlits == 0 && n.sinks.count() == 0 && n.control.count() == 0 && n.credits.count() == 0
}

// runTrace replays Config.Trace to its end: every packet delivered (status
// ok), a deadlock (no flit moved for Run.DeadlockCycles cycles with flits
// in flight), or Run.MaxCycles when it is set ("unconverged": the trace
// was not finished). It checks ctx every 4096 cycles.
func (n *Network) runTrace(ctx context.Context) (Result, error) {
	mon, err := sim.NewMonitor(n.cfg.Run)
	if err != nil {
		return Result{}, err
	}
	deadlockAfter := mon.Config().DeadlockCycles
	// quiet is how long the network must have been idle before a jump: by
	// then every event the last flit scheduled (credits, the routers'
	// pipeline wake-ups) has fired.
	rc := n.cfg.Router
	quiet := 4*(n.linkAt+n.ejectAt+n.probeAt+sim.Cycle(n.cfg.CreditDelay+n.cfg.InjectionLatency+rc.RoutingDelay+rc.VCAllocDelay)) + 16
	capAt := sim.Cycle(n.cfg.Run.MaxCycles)
	rp := n.replay
	for k := 0; rp.res.Delivered < rp.res.Packets; k++ {
		if k&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return Result{}, err
			}
		}
		if capAt > 0 && n.now >= capAt {
			res := n.traceResult()
			res.Status = sim.StatusUnconverged
			res.Reason = fmt.Sprintf("run.max_cycles = %d reached with %d of %d trace packets delivered", capAt, rp.res.Delivered, rp.res.Packets)
			return res, nil
		}
		if !n.cfg.traceNoSkip && n.now-n.lastProgress > quiet && n.idle() {
			// Jump to the cycle before the next generation, so that the
			// routers' own clocks (router.Plane) see it as any cycle.
			if at, _, ok := rp.ready.Peek(); ok && sim.Cycle(at)-1 > n.now {
				next := sim.Cycle(at) - 1
				if capAt > 0 {
					next = min(next, capAt)
				}
				n.now = next
				continue
			}
		}
		n.Step()
		if n.now-n.lastProgress >= deadlockAfter && n.InFlight() > 0 {
			res := n.deadlockResult()
			tr := n.traceResult()
			res.Trace = tr.Trace
			return res, nil
		}
	}
	res := n.traceResult()
	res.Status = sim.StatusOK
	return res, nil
}

// traceResult assembles the Result of a trace run so far.
func (n *Network) traceResult() Result {
	rp := n.replay
	tr := rp.res
	d := float64(tr.Delivered)
	if tr.Delivered > 0 {
		tr.RunCycles = int64(rp.last) + 1
		tr.Latency, tr.NetworkLatency, tr.SourceWait = rp.latSum/d, rp.netSum/d, rp.wait/d
		tr.Hops, tr.PacketSlowdown = rp.hops/d, rp.slow/d
		tr.P50, tr.P95, tr.P99 = rp.hist.Percentile(0.50), rp.hist.Percentile(0.95), rp.hist.Percentile(0.99)
		tr.MaxLatency = rp.hist.Percentile(1)
		if tr.IdealCycles > 0 {
			tr.Slowdown = float64(tr.RunCycles) / float64(tr.IdealCycles)
		}
	}
	res := Result{
		Cycles: int64(n.now), Messages: int64(tr.Delivered), MeasureCycles: tr.RunCycles,
		Latency: tr.Latency, NetworkLatency: tr.NetworkLatency, SourceWait: tr.SourceWait,
		P50: tr.P50, P95: tr.P95, P99: tr.P99, Hops: tr.Hops, Trace: &tr,
	}
	if tr.RunCycles > 0 {
		nodeCycles := float64(tr.RunCycles) * float64(n.terms)
		res.Accepted = float64(tr.Flits) / nodeCycles
		res.Offered = float64(n.generatedFlits) / nodeCycles
		res.AcceptedMessages = d / nodeCycles
	}
	return res
}
