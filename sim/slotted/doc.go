// Package slotted is the packet-level slotted-hypercube mode of flitsim: the
// network of Jacquet and Mühlethaler, "Models for communications in the
// hypercube", INRIA RR-1276, 1990 (seed 003, §II–III), simulated exactly as
// docs/models.md#jacquet-inputs and docs/models.md#jacquet-simulator specify, so that its figures can be set
// beside the analytical models of analytic/hypercube (λ_max, the Poisson
// approximation T and the Bernoulli model D).
//
// # Model
//
// A binary n-cube of N = 2^n nodes, each both processor and router; node ids
// are the n-bit addresses, neighbours differ in one bit. Time is slotted. In
// one slot a node either sends one packet or receives one packet, never both,
// and receives at most one. Each node has one unbounded FIFO holding the
// packets it generates and those in transit. Packets are generated at every
// node at rate λ (packets/node/slot) with destinations uniform over the N − 1
// other nodes. A packet at Hamming distance k from its destination has k
// productive neighbours (one per differing bit); a packet received by its
// destination is consumed.
//
// # One slot
//
// Slot t is simulated in two phases (docs/models.md#jacquet-simulator):
//
//	slot t       |<-------------------- 1 slot -------------------->|
//	             t                                                  t+1
//	forwarding:  fresh random order π_t of all N nodes; for u in π_t:
//	               skip u if busy or its queue is empty;
//	               head packet at distance k: choose among the k productive
//	               neighbours (policy below); if a choice is made, send:
//	               u and the receiver v become busy for the rest of slot t;
//	               v consumes the packet (v = destination) or appends it to
//	               its queue tail
//	generation:  packets whose generation instant lies in [t, t+1) join the
//	             tail of their node's queue, after that slot's transit arrival
//	backlog:     sampled at the start of forwarding (before any send)
//
// Nothing that joins a queue in slot t is sent before slot t+1: a receiver is
// busy for the rest of the slot, and generation follows forwarding. A packet
// generated in slot g and sent on its last hop in slot L is therefore queued
// at the start of slots g+1 … L, and at zero load L = g + hops.
//
// Next-hop choice (Config.Choice):
//
//	ChoiceFree  (default)  uniform among the productive neighbours still free
//	                       in slot t; wait if none is. A hop at distance k then
//	                       fails only when all k are busy, probability p^k
//	                       under the model's independence approximation: this
//	                       is the policy X_k = Σ_{j=1}^{k} 1/(1 − p^j)
//	                       implies (seed 003 §III.1; docs/models.md#jacquet-capacity).
//	ChoiceBlind            uniform among all k productive neighbours; wait if
//	                       that one is busy (hop success 1 − p for every k).
//	                       For comparison only; no model of the paper fits it.
//
// # Delay conventions and units
//
// Time is in slots, rates in packets per node per slot. Both delay
// conventions of docs/models.md#jacquet-simulator are recorded for every measured packet:
//
//	integer delay     Delay           = L − ⌊t_gen⌋            zero load: d; compare with T
//	continuous delay  DelayContinuous = (L + 1) − t_gen        = Delay + 1 − frac(t_gen); compare with D
//
// where t_gen is the continuous generation instant and
//
//	d = n / (2 (1 − 2^−n))       mean distance (seed 003 §III.1)
//
// With Poisson arrivals frac(t_gen) is uniform, so DelayContinuous ≈ Delay +
// 1/2; with Bernoulli arrivals packets are generated at the start of their
// slot and DelayContinuous = Delay + 1 exactly.
//
// Result.Busy is the model's p, the probability that a node is unavailable
// to a given neighbour in a slot (sending, or receiving from one of its n − 1
// other neighbours), averaged over the N·n ordered neighbour pairs. Every
// send is a reception, so per slot it equals (2n − 1)/n · sends/N, and in
// steady state its mean is λ d (2n − 1)/n = λ (n − 1/2)/(1 − 2^−n), the
// paper's p. Result.HopService (time at the head of a queue per hop) is the
// M/G/1 service of the Poisson approximation, model mean x1 = X/d.
//
// # What is mirrored and what is relaxed
//
// Mirrored exactly: the send-or-receive slot, one FIFO per node shared by
// local and transit packets, random choice among free shortest-path
// neighbours, a fresh random node priority every slot (the paper's
// "random permutation which selects at each slot the processor which first
// tries to forward", §III), Poisson arrivals, uniform destinations.
// Not assumed, since they are what the comparison with the models tests:
// the independence approximation (neighbour states are whatever the dynamics
// make them) and the Poisson/Bernoulli approximations of the traffic a node
// sees. Relaxed as options: Bernoulli arrivals
// (Arrivals: "bernoulli", at most one packet per node per slot) and the
// blind next-hop choice.
//
// # Randomness
//
// One root seed (Config.Seed). Node u draws its arrival instants from
// sim.NewStream(seed, sim.PurposeTrafficArrival, u) and its destinations from
// sim.NewStream(seed, sim.PurposeTrafficDest, u). Arbitration has one stream
// per purpose, shared by all nodes: the visiting order from
// sim.NewStream(seed, sim.PurposeArbitration, 0) (Fisher–Yates over all N
// nodes every slot) and the neighbour choices from
// sim.NewStream(seed, sim.PurposeArbitration, 1) (drawn only when there is a
// choice). Same Config, same Result, bit for bit; Run restarts from the
// empty network each time it is called.
//
// # Run control
//
// The run control is sim's, the one of every mode (sim.RunPeriods driving
// a sim.Monitor in slots). Warm-up: Run.Warmup slots (rounded up to a
// period end) if set; otherwise MSER-5 on the per-period mean delay of the
// packets delivered in the period; measurement starts at the period end
// where it finds the transient over, or at MaxWarmup unless the backlog is
// growing there (then the run is saturated).
//
// Measurement: packets generated at or after the end of the warm-up are
// measured (delay, hops, wait; observations in delivery order), hops made
// during the window give HopService, and every Period slots one observation
// each of throughput, offered load, busy fraction and backlog is taken. All
// CIs are 95% batch means (MinBatches…MaxBatches batches) over the same
// window. The run stops when at least MinMeasure slots are measured and the
// integer delay's relative half-width is at most TargetRelCI with batch
// means that pass the lag-1 check (sim.MaxLag1), or at MaxSlots
// (Result.CITargetMet false); the status is sim.Conclude's.
//
// Saturation ("saturated", with a reason, and no delay figures): the
// queues hold more than BacklogLimit packets per node on average; the
// per-node backlog grows by the run control's trend rule; at MaxSlots the
// backlog and the delay both still rise; or the throughput falls below the
// offered load beyond the run's own tolerance (sim.Conclude).
//
// The mode cannot deadlock (sim.StatusDeadlock is never returned). Near the true
// capacity (about 1.05 λ_max for n = 4, above the model's λ_max, as
// docs/models.md#jacquet-pins notes) the verdict depends on the run length; SaturationSearch
// brackets the largest stable rate for the configured one.
//
// # Configuration keys
//
// Config maps onto an experiment file as
//
//	mode: slotted
//	seed: 1                      -> Seed
//	slotted:
//	  dimensions: 4              -> Dim (n; N = 2^n)
//	  choice: free               -> Choice ("free" | "blind")
//	traffic:
//	  process: poisson           -> Arrivals ("poisson" | "bernoulli")
//	sweep:
//	  unit: packets/node/slot
//	  rates: [...]               -> Rate, one run per rate
//	run:                         -> Run (warmup, max_warmup, period, min_measure,
//	                                max_cycles as MaxSlots, target_rel_ci,
//	                                min_batches, max_batches, backlog_limit)
//
// The zero value of every field except Dim and Rate is its default
// (RunControl lists them).
package slotted
