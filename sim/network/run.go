package network

import (
	"context"
	"fmt"
	"strings"

	"github.com/flitsim/flitsim/router"
	"github.com/flitsim/flitsim/sim"
)

// BlockedChannel is one input VC holding flits when a deadlock was declared:
// the channel feeding it (or "inject" for the local port) and its state.
type BlockedChannel struct {
	Router  int
	From    int // upstream router, -1 for the local (injection) port
	Port    int
	VC      int
	Flits   int
	Packet  int32
	State   string // "vc-allocation": waiting for an output VC; "active": waiting for credits or the switch
	OutPort int
	OutVC   int
}

func (b BlockedChannel) String() string {
	from := "inject"
	if b.From >= 0 {
		from = fmt.Sprint(b.From)
	}
	return fmt.Sprintf("%s->%d port %d vc %d: %d flits of packet %d, %s (out port %d vc %d)",
		from, b.Router, b.Port, b.VC, b.Flits, b.Packet, b.State, b.OutPort, b.OutVC)
}

// Result is what one run measured. Latencies are in cycles, rates in flits
// per node (multistage: per terminal) per cycle. When Status is not "ok" the
// latency fields are zero and must not be read as numbers; a saturated point
// still reports Offered and Accepted (the throughput it sustained).
type Result struct {
	Status string
	Reason string

	Latency            float64 // generation -> tail delivered, mean
	LatencyCI95        float64 // half-width, batch means
	NetworkLatency     float64 // head injected -> tail delivered, mean
	NetworkLatencyCI95 float64
	SourceWait         float64 // generation -> head injected, mean
	P50, P95, P99      int64   // latency percentiles

	Offered          float64 // flits generated per node per cycle during measurement
	Accepted         float64 // flits delivered per node per cycle during measurement
	AcceptedMessages float64 // messages delivered per node per cycle
	Hops             float64 // mean links crossed per message (multistage: switches crossed, z)
	MeanInSystem     float64 // time-average messages generated and not yet delivered (Little: = AcceptedMessages*nodes*Latency)
	ChannelUtil      []float64
	MeanChannelUtil  float64
	MaxChannelUtil   float64

	// SetupTime is the mean path set-up time in cycles: from the cycle the
	// head (scouting: the header) left the NIC to the cycle the header was
	// granted the ejection VC at the destination (scouting), or the head
	// flit left the destination router for the sink (wormhole, cut-through,
	// store-and-forward; scouting with K = 0). It includes every backtrack;
	// the counterpart of Cbar in seed 004 Eq. (7), which the model counts
	// with the header's Dbar hops (docs/models.md#safaei-readings item 4).
	SetupTime float64
	// Backtracks is the mean number of header backtracks (negative
	// acknowledgements) per message; 0 without scouting.
	Backtracks float64
	// VCOccupancy[v], v = 0..Router.VCs, is the fraction of cycles during
	// which exactly v VCs of a physical channel were reserved (VC granted,
	// tail not yet through), averaged over the network channels: the
	// measured P_v of Dally's chain (seed 004 Eq. (12), docs/models.md#dally-1992).
	VCOccupancy []float64
	// VCMultiplexing is the mean degree of VC multiplexing estimated from
	// the measured occupancy, seed 004 Eq. (13) with measured P_v:
	//
	//	Vbar = sum_{v>=1} v^2 P_v / sum_{v>=1} v P_v
	//
	// (the number of reserved VCs of its channel seen by a reserved VC,
	// averaged over VC-cycles); 0 if no VC was ever reserved.
	VCMultiplexing float64

	// StageBuffered[s], multistage fabric only, is the time-average number
	// of flits in the input buffers of all the switches of stage s (stage 0
	// is fed by the terminals), during measurement.
	StageBuffered []float64

	Messages      int64 // tagged messages measured (generated in the window, delivered by the end of the drain)
	Cycles        int64 // cycles simulated in all, the drain included
	WarmupEnd     int64 // cycle the measurement window opened
	MeasureCycles int64 // cycles in the measurement window
	DrainCycles   int64 // cycles after the window until the last tagged message was delivered

	DeadlockCycle int64            // cycle the deadlock was declared
	Blocked       []BlockedChannel // up to 32 blocked input VCs

	// Trace holds the results of a trace-driven run (Config.Trace), nil
	// otherwise; Latency, NetworkLatency, SourceWait, the percentiles and
	// Hops are then its per-packet figures over the whole trace (no CI:
	// a trace's packets are not a sample), Accepted and Offered its flits
	// per node per cycle over the run time.
	Trace *TraceResult
}

// Run simulates until sim's run control stops (the CI target is met, the
// cycle cap is reached, the point saturates or the network deadlocks),
// then drains: the messages generated during the measurement window are
// tagged, and the network runs on (traffic still arriving, untagged)
// until every tagged message is delivered, at most the run control's
// DrainLimit cycles; a drain that does not finish makes the point
// saturated. The status is sim.Conclude's (Monitor.Conclude). Run
// returns ctx.Err() if the context is cancelled, checked every period.
func (n *Network) Run(ctx context.Context) (Result, error) {
	defer n.Close() // the threads of a network on several (Config.Threads)
	if n.replay != nil {
		return n.runTrace(ctx)
	}
	mon, err := sim.NewMonitor(n.cfg.Run)
	if err != nil {
		return Result{}, err
	}
	rc := mon.Config()
	n.stats.observe = mon.Observe
	deadlockAfter := rc.DeadlockCycles
	meter := sim.MeterFrom(ctx)
	perNode := float64(rc.Period) * float64(n.terms)
	for {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		meter.Store(int64(n.now), int64(rc.MaxCycles))
		for k := sim.Cycle(0); k < rc.Period; k++ {
			n.Step()
			if n.now-n.lastProgress >= deadlockAfter && n.InFlight() > 0 {
				return n.deadlockResult(), nil
			}
		}
		wasMeasuring := mon.Measuring()
		var mean float64
		if n.stats.periodCount > 0 {
			mean = n.stats.periodSum / float64(n.stats.periodCount)
		}
		d := mon.EndPeriod(sim.PeriodReport{
			End:                 n.now,
			MeanObservation:     mean,
			Count:               n.stats.periodCount,
			Backlog:             float64(n.Backlog()),
			InFlight:            n.InFlight(),
			CyclesSinceProgress: n.now - n.lastProgress,
			Offered:             float64(n.stats.periodGen) / perNode,
			Accepted:            float64(n.stats.periodAcc) / perNode,
		})
		n.stats.periodSum, n.stats.periodCount = 0, 0
		n.stats.periodGen, n.stats.periodAcc = 0, 0
		if !wasMeasuring && mon.Measuring() {
			n.stats.reset(n.now)
			n.markLinkCounts()
			n.resetOccupancy()
		}
		if d == sim.Stop {
			if mon.Status() == sim.Deadlocked || n.stalled(deadlockAfter) {
				return n.deadlockResult(), nil
			}
			res := n.windowResult()
			if err := n.drain(ctx, mon, &res); err != nil {
				return Result{}, err
			}
			if res.Status == sim.StatusDeadlock {
				return res, nil
			}
			n.finish(mon, &res)
			return res, nil
		}
	}
}

// stalled reports whether flits are in flight and none has moved for
// Config.DeadlockStall cycles: a run stopped by a saturation or cap verdict
// in that state is deadlocked, however large deadlockCycles is.
func (n *Network) stalled(deadlockCycles sim.Cycle) bool {
	return n.InFlight() > 0 && n.now-n.lastProgress >= n.cfg.DeadlockStall(deadlockCycles)
}

// drain closes the measurement window and steps until every tagged
// message is delivered or mon.DrainLimit() cycles have passed (then the
// monitor is told the run saturated). It returns the deadlock result in
// res if the network deadlocks while draining.
func (n *Network) drain(ctx context.Context, mon *sim.Monitor, res *Result) error {
	n.stats.on = false
	if mon.Status() != sim.Converged && mon.Status() != sim.CapReached {
		return nil
	}
	limit := mon.DrainLimit()
	start := n.now
	for n.stats.taggedOut > 0 {
		if n.now-start >= limit {
			mon.DrainFailed(fmt.Sprintf("drain did not finish: %d of the messages generated in the measurement window (cycles %d-%d) still undelivered %d cycles after it closed (drain bound %d cycles)",
				n.stats.taggedOut, n.stats.start, start, n.now-start, limit))
			break
		}
		if (n.now-start)&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		n.Step()
		if n.now-n.lastProgress >= mon.Config().DeadlockCycles && n.InFlight() > 0 {
			*res = n.deadlockResult()
			return nil
		}
	}
	res.DrainCycles = int64(n.now - start)
	res.Cycles = int64(n.now)
	return nil
}

// windowResult returns the figures of the measurement window, taken when
// it closes (before the drain): rates, utilisations and occupancies.
func (n *Network) windowResult() Result {
	m := &n.stats
	res := Result{
		Cycles:        int64(n.now),
		WarmupEnd:     int64(m.start),
		MeasureCycles: m.cycles,
	}
	if m.cycles == 0 {
		n.sustainedRates(&res)
		return res
	}
	nodeCycles := float64(m.cycles) * float64(n.terms)
	res.Offered = float64(m.flitsOffered) / nodeCycles
	res.Accepted = float64(m.flitsAccepted) / nodeCycles
	res.AcceptedMessages = float64(m.msgsAccepted) / nodeCycles
	res.MeanInSystem = m.inSystemSum / float64(m.cycles)
	res.ChannelUtil = make([]float64, len(m.channelFlits))
	for c := range m.channelFlits {
		u := float64(n.channelFlits(c)) / float64(m.cycles)
		res.ChannelUtil[c] = u
		res.MeanChannelUtil += u
		res.MaxChannelUtil = max(res.MaxChannelUtil, u)
	}
	if len(m.channelFlits) > 0 {
		res.MeanChannelUtil /= float64(len(m.channelFlits))
	}
	res.VCOccupancy, res.VCMultiplexing = n.occupancy()
	if m.stageSum != nil {
		res.StageBuffered = make([]float64, len(m.stageSum))
		for s, f := range m.stageSum {
			res.StageBuffered[s] = f / float64(m.cycles)
		}
	}
	return res
}

// finish sets the status by the monitor's conclusion and, for an ok point,
// the per-message figures of the tagged messages. A point that is not ok
// keeps only what the network sustained (Offered, Accepted): no latency,
// utilisation or occupancy is reported as a steady-state number.
func (n *Network) finish(mon *sim.Monitor, res *Result) {
	m := &n.stats
	res.Status, res.Reason = mon.Conclude("latency")
	res.Messages = m.messages
	if res.Status != sim.StatusOK {
		*res = Result{Status: res.Status, Reason: res.Reason, Cycles: res.Cycles, WarmupEnd: res.WarmupEnd,
			MeasureCycles: res.MeasureCycles, DrainCycles: res.DrainCycles, Messages: res.Messages,
			Offered: res.Offered, Accepted: res.Accepted}
		if m.cycles == 0 {
			n.sustainedRates(res)
		}
		return
	}
	mean, hw, _ := mon.Estimate()
	res.Latency, res.LatencyCI95 = mean, hw
	res.NetworkLatency = m.netLatency.Mean()
	if h, ok := m.netLatency.CI95(); ok {
		res.NetworkLatencyCI95 = h
	}
	res.SourceWait = m.sourceWait.Mean()
	res.P50, res.P95, res.P99 = m.hist.Percentile(0.50), m.hist.Percentile(0.95), m.hist.Percentile(0.99)
	res.Hops = m.hops.Mean()
	res.SetupTime = m.setup.Mean()
	res.Backtracks = m.backtracks.Mean()
}

// occupancyCycles returns, for v = 0..VCs, the cycles the network channels
// spent with exactly v output VCs reserved since the measurement started,
// summed over the channels (whole numbers below 2^53, so exact). A plane
// counts them itself, over its routers' ports that lead to a router: in a
// direct network, the channels (outCh).
func (n *Network) occupancyCycles() []float64 {
	V := n.vcs
	cycles := make([]float64, V+1)
	m := &n.stats
	if n.plane != nil {
		clear(m.occ)
		n.plane.Occupancy(n.now, m.occ)
		for v := range cycles {
			cycles[v] = float64(m.occ[v])
		}
		return cycles
	}
	for i, r := range n.routers {
		clear(m.occ)
		r.Occupancy(n.now, m.occ)
		for q := 0; q < n.ports; q++ {
			if n.outCh[i*n.ports+q] < 0 {
				continue
			}
			for v := 0; v <= V; v++ {
				cycles[v] += float64(m.occ[q*(V+1)+v])
			}
		}
	}
	return cycles
}

// resetOccupancy restarts the routers' occupancy counts (the plane's, when
// it counts them) at the start of the measurement.
func (n *Network) resetOccupancy() {
	if n.plane != nil {
		n.plane.ResetOccupancy(n.now)
		return
	}
	for _, r := range n.routers {
		r.ResetOccupancy(n.now)
	}
}

// occupancy aggregates the routers' VC occupancy over the network channels
// since the measurement started: P_v and Vbar (see Result.VCOccupancy).
func (n *Network) occupancy() ([]float64, float64) {
	V := n.vcs
	cycles := n.occupancyCycles()
	var total, s1, s2 float64
	for v, c := range cycles {
		total += c
		s1 += float64(v) * c
		s2 += float64(v*v) * c
	}
	p := make([]float64, V+1)
	if total == 0 {
		return p, 0
	}
	for v := range p {
		p[v] = cycles[v] / total
	}
	vbar := 0.0
	if s1 > 0 {
		vbar = s2 / s1
	}
	return p, vbar
}

// sustainedRates fills Offered and Accepted of a saturated point: what the
// network was offered and what it delivered, per node per cycle, over the
// measurement window, or over the whole run when saturation was declared
// during warm-up. Beyond saturation Accepted is the throughput the network
// sustained (the saturation throughput), not a steady-state estimate; the
// latency fields stay zero.
func (n *Network) sustainedRates(res *Result) {
	m := &n.stats
	offered, accepted, cycles := m.flitsOffered, m.flitsAccepted, m.cycles
	if cycles == 0 {
		offered, accepted, cycles = n.generatedFlits, n.deliveredFlits, int64(n.now)
	}
	if cycles == 0 {
		return
	}
	nodeCycles := float64(cycles) * float64(n.terms)
	res.Offered = float64(offered) / nodeCycles
	res.Accepted = float64(accepted) / nodeCycles
}

// deadlockResult reports the cycle and the blocked input VCs.
func (n *Network) deadlockResult() Result {
	res := Result{Status: sim.StatusDeadlock, Cycles: int64(n.now), DeadlockCycle: int64(n.now),
		WarmupEnd: int64(n.stats.start)}
	var buf []router.BlockedVC
	for i, r := range n.routers {
		buf = r.Blocked(buf[:0], n.now)
		for _, b := range buf {
			if len(res.Blocked) == 32 {
				break
			}
			from := -1
			if b.Port != n.local {
				from = int(n.chanSrc[n.inCh[i*n.ports+b.Port]])
			}
			res.Blocked = append(res.Blocked, BlockedChannel{Router: i, From: from, Port: b.Port, VC: b.VC,
				Flits: b.Flits, Packet: b.Packet, State: b.State, OutPort: b.OutPort, OutVC: b.OutVC})
		}
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "no flit moved for %d cycles with %d flits in flight (cycle %d); blocked:",
		n.now-n.lastProgress, n.InFlight(), n.now)
	for k, b := range res.Blocked {
		if k == 4 {
			fmt.Fprintf(&sb, " ... (%d listed in Blocked)", len(res.Blocked))
			break
		}
		sb.WriteString(" [" + b.String() + "]")
	}
	res.Reason = sb.String()
	return res
}
