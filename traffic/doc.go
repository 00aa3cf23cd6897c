// Package traffic describes the offered load of a simulation: where each
// message goes (a [Pattern]), when messages are generated (a [Process]) and
// how long they are (a [Length]). The three are independent: the engine
// gives every node one random stream per question (sim.PurposeTrafficDest,
// sim.PurposeTrafficArrival, sim.PurposeTrafficLength), so changing the
// length distribution never moves an arrival or a destination.
//
// # Where: patterns
//
// A Pattern maps a source node to a random (or fixed) destination. Built by
// [NewPattern] from a plain [PatternSpec] over a [Space], the package's view
// of the network (node count, minimal hop distance, radix k and dimension n
// of a k-ary n-cube). Random patterns:
//
//   - uniform: uniform over the N-1 other nodes (Reed 1983, seed 000);
//   - locality: Reed's sphere of locality, phi inside radius L, 1-phi beyond;
//   - decay: Reed's decreasing probability, Phi(l) = (1-d) d^(l-1) / (1-d^l_max)
//     in distance l, with the corrected normalisation of docs/models.md#reed-routing (erratum E2, docs/errata.md#e2);
//   - hotspot: a fraction h to a set of hot nodes, the rest uniform.
//
// Application-like: halo, the nearest-neighbour halo exchange (uniform over
// the one-hop neighbours).
//
// Permutations (every source has one destination): transpose,
// bit-complement, bit-reverse, shuffle, tornado, neighbour, and
// random-permutation (a derangement drawn once from PatternSpec.Seed). A fixed point of
// a permutation sends to itself; such a message has distance 0 and should
// be delivered at its source without entering the network.
//
// Every Pattern reports its exact destination distribution
// (Pattern.Probabilities), the same definition Dest samples from; analytic
// models (Reed's link visits LV = sum_l l Phi(l)) and the tests use it.
//
// # When: processes
//
// A Process generates arrival times, in cycles, as float64. The
// generation-time convention: a message generated at time t belongs to
// cycle floor(t) ([CycleOf]) and may be injected in that same cycle, not
// earlier. traffic defines t; whether latency is counted from t or from
// floor(t) is the engine's convention to state. [NewBernoulli] gives integer times (one
// message with probability p per cycle); [NewPoisson] gives real times with
// exponential gaps, so several messages may belong to one cycle;
// [NewOnOff] is the bursty two-state Markov-modulated Bernoulli source
// (integer times, offered load exact, closed-form count variance).
//
//	cycle:      0         1         2         3
//	            |---------|---------|---------|----
//	Bernoulli:  *                   *         *        (at most one, at t = c)
//	Poisson:      *  *         *                 *     (any number, t real)
//
// # How long: lengths
//
// A Length draws a message length in flits (>= 1): [NewFixedLength] or
// [NewGeometricLength] (optionally truncated; Mean is then the exact
// truncated mean).
//
// # Units
//
// Rates are messages per node per cycle (Process.Rate); lengths are flits;
// times are cycles. [MessagesPerCycle] and [FlitsPerCycle] convert offered
// load between messages/node/cycle and flits/node/cycle using Length.Mean.
//
// # Invariants
//
// Dest, Draw, First and Next do not allocate and draw only from the
// *rand.Rand passed in (never the global source), so a run is reproducible
// from its root seed. Patterns, processes and lengths are immutable after
// construction and may be shared between nodes and goroutines; the random
// streams may not. Configuration errors wrap [ErrInvalid] and say which
// condition failed; wrong slice lengths and out-of-range node ids are
// programming errors and panic.
package traffic
