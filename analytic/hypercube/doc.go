// Package hypercube is the slotted binary-hypercube model of Jacquet and
// Mühlethaler, "Models for communications in the hypercube", INRIA RR-1276,
// 1990 — seed 003, restated in docs/models.md#jacquet.
//
// # Model
//
// N = 2^n nodes, each both processor and router. Time is slotted; in a slot
// a node sends one packet or receives one, never both. One unbounded FIFO
// per node holds local and transit packets. Local generation is Poisson of
// rate lambda per node per slot, destinations uniform over the other N-1
// nodes. A packet at distance k has k useful next hops and picks a free one
// at random. The independence approximation (§III.1) makes each neighbour
// unavailable with probability
//
//	p = lambda (n - 1/2) / (1 - 2^{-n})
//
// so a hop at distance j takes a geometric number of slots with success
// probability 1 - p^j. From there:
//
//	X, Q, lambda_max          [Cube.At], [Cube.LambdaMax]     (§III.1)
//	Poisson approximation T   [Cube.Poisson]                  (§III.2, M/G/1 per node)
//	Bernoulli model D         [Cube.Bernoulli]                (§III.2 second part, appendix)
//
// # Units
//
// Time in slots; lambda in packets per slot per node. T is the integer-slot
// delay (generation slot to last-hop slot, zero-load value d); D counts from
// the continuous generation instant (about T + 1/2 at light load); see
// docs/models.md#jacquet-simulator for the matching simulator conventions.
//
// # Invariants
//
// Stable iff lambda X < 1 (which implies p < 1 and lambda d < 1): beyond
// it every delay function returns an error wrapping analytic.ErrSaturated,
// never a number. T -> d as lambda -> 0 and increases with lambda; with the
// corrected mu the Bernoulli q0 vanishes exactly where lambda X = 1.
//
// # Errata (docs/errata.md#jacquet: E8–E12)
//
// Corrected forms are the defaults (zero values); the printed ones are
// variants:
//
//	E8   mu = lambda (d-1)/(1 - lambda d)                 MuPrinted: (n/2)(1-2^{-n}) in place of d
//	E9   Q normalised by 1 - 2^{-n}                       QPrinted
//	E10  q'(1) re-derived                                 QPrimePrintedMain, QPrimePrintedAppendix
//	E11  D = M/lambda                                     DPrinted: 2M/(lambda n (1-2^{-n}))
//	E12  "X", "Q" inside q'(1) and M are the per-hop moments x1 = X/d, x2 = Q/d (no variant)
//
// and the report's sums "to infinity" in A(z) and q'(1) stop at n.
package hypercube
