package slotted

import (
	"github.com/flitsim/flitsim/sim"
)

// Run statuses are sim's (sim.StatusOK, ...). sim.StatusDeadlock is never
// produced: a head packet always has at least one productive neighbour and
// the slot structure frees every node at the next slot, so the mode cannot
// deadlock.

// Result is the outcome of one run. Delay, DelayContinuous, HopService,
// Backlog, Hops and Wait are steady-state figures and are left zero when Status is
// not sim.StatusOK (a saturated point has no mean delay); Throughput, Offered and
// Busy describe the measured window in every case.
type Result struct {
	// Status is sim.StatusOK, sim.StatusSaturated or sim.StatusUnconverged
	// (sim.Conclude: the delay and, as the open system's throughput rule,
	// Throughput against Offered); Reason says why.
	Status string
	Reason string

	Dim   int     // n
	Nodes int     // N = 2^n
	Rate  float64 // configured λ, packets/node/slot
	Seed  uint64

	WarmupSlots   int64 // slots discarded as warm-up
	MeasuredSlots int64 // slots in the measurement window
	// CITargetMet says the run stopped because the delay CI reached
	// Run.TargetRelCI (false: it ran into MaxSlots first).
	CITargetMet bool

	// Delay is the integer-slot delay, slots: index of the slot of the last
	// hop minus index of the generation slot (docs/models.md#jacquet-simulator); zero-load
	// mean d. Compare with the Poisson model's T. N counts packets
	// generated in the window and delivered before the end of the run.
	Delay sim.Estimate
	// DelayContinuous is the continuous delay, slots: end of the last-hop
	// slot minus the continuous generation instant, = Delay + 1 − U with U
	// the fractional part of the generation instant (Poisson: mean
	// Delay + 1/2; Bernoulli: exactly Delay + 1). Compare with the
	// Bernoulli model's D.
	DelayContinuous sim.Estimate
	// Throughput is the delivered rate, packets/node/slot, batch means over
	// periods (N = periods).
	Throughput sim.Estimate
	// Offered is the generated rate, packets/node/slot, over periods.
	Offered sim.Estimate
	// Busy is the probability that a node is unavailable to a given
	// neighbour in a slot (the model's p): sending, or receiving from one of
	// its other n−1 neighbours, averaged over all N·n ordered neighbour
	// pairs and over periods. Per slot it equals (2n−1)/n · sends/N.
	Busy sim.Estimate
	// HopService is the time a packet spends at the head of a queue per
	// hop, slots, counting the slot in which it is sent (the M/G/1 service
	// of docs/models.md#jacquet-poisson, model mean x1 = X/d). N counts hops.
	HopService sim.Estimate
	// Backlog is the time-average number of packets queued at a node,
	// sampled at the start of each slot's forwarding phase (packets/node);
	// by Little's law Backlog = Throughput · Delay.
	Backlog sim.Estimate
	// Hops is the number of hops of the measured packets (mean d =
	// n/(2(1 − 2^−n)) under uniform destinations), same packets as Delay.
	Hops sim.Estimate
	// Wait is Delay − hops per packet, slots: the time lost to queueing
	// and to blocked neighbours, 0 at zero load (same packets as Delay).
	Wait sim.Estimate
}
