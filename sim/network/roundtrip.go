package network

import "github.com/flitsim/flitsim/sim"

// RoundTrip returns the longest round trip of one hop of the network, in
// cycles: a flit routed, granted a VC and the switch, sent across the
// slowest link (graph networks: the largest channel latency; the
// injection and ejection lines count as links) and its credit returned
//
//	RoutingDelay + VCAllocDelay + SwitchAllocDelay + SwitchTraversalDelay
//	  + max(LinkLatency, InjectionLatency, EjectionLatency) + CreditDelay + 1
//
// In a network that is not deadlocked, flits in flight cannot all stand
// still for longer: whichever flit holds a granted VC and a credit moves
// within it, and its credit frees the next. So a run's deadlock_cycles
// below it would call a network waiting on its own pipeline deadlocked;
// configs refuses that, and a run that stops for another reason (a
// saturation or cap verdict) after DeadlockStall cycles without progress is
// reported as the deadlock it is (Run).
func (c Config) RoundTrip() sim.Cycle {
	c = c.withDefaults()
	r := c.Router
	link := max(c.LinkLatency, c.InjectionLatency, c.EjectionLatency)
	if c.Graph != nil {
		for ch := range c.Graph.NumChannels() {
			link = max(link, c.Graph.Channel(ch).Latency)
		}
	}
	return sim.Cycle(r.RoutingDelay + r.VCAllocDelay + r.SwitchAllocDelay + r.SwitchTraversalDelay + link + c.CreditDelay + 1)
}

// DeadlockStall returns the stall (cycles without any flit moving while
// flits are in flight) that Run reports as a deadlock when the run stops
// for another reason first: four round trips, or the run's DeadlockCycles
// if that is shorter. A huge deadlock_cycles therefore delays the detection
// of a deadlock during the run but cannot turn it into "saturated" at the
// end.
func (c Config) DeadlockStall(deadlockCycles sim.Cycle) sim.Cycle {
	return min(4*c.RoundTrip(), deadlockCycles)
}
