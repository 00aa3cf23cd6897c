// Package wormhole holds analytical models of wormhole switching in
// k-ary n-cubes: DG-R, a reconstruction of the Draper–Ghosh (1994) model
// (seed 002); the Dally (1990) closed-form contention estimate; and the
// Dally (1992) virtual-channel occupancy chain used by analytic/scouting.
//
// # Reconstruction, not transcription
//
// Seed 002 is only the bibliography of Draper and Ghosh with the sentences
// that cite each reference; the paper's equations were not available
// (docs/models.md#dg-paper to docs/models.md#dg-missing). What the seed establishes is the structure: an
// M/G/1 server per channel with the Pollaczek–Khinchine wait, equivalence
// classes of channels with class-to-class transition probabilities,
// unidirectional k-ary n-cubes with e-cube routing and Dally–Seitz
// dateline virtual channels, an M/G/1 source queue. Everything else — the
// (S - M)^2 service-time variance, the backward service-time recursion,
// the exact per-hop cycle bookkeeping — is taken from how later papers
// (seed 004 among them) restate the model, tagged [RECON-M] (structure) or
// [RECON-L] (details, and the ExcludeOwnFlow and VCMultiplexing knobs,
// which are hypotheses for the unrecovered "correction factors"). DG-R must
// therefore be validated against the simulator, not trusted; the pinned
// numbers in the tests pin the reconstruction (docs/models.md#dg-pins), not the
// paper. The Dally (1990) contention term is [RECON-L] as well.
//
// # DG-R in brief
//
// Dimensions are resolved n-1 first, 0 last; in dimension i a message
// moves in the + direction and uses VC class 0 on the channel leaving
// coordinate c if c < b (its destination coordinate) and class 1 if c > b.
// A channel class (dim, coord, vc) has k^(n-1) identical instances
// (Network). Service times are computed backwards from the ejection
// channel over the acyclic class graph:
//
//	S_x = sum_y P(x -> y) [W_y + S_y],  W_y = lambda_y [S_y^2 + (S_y - M)^2] / (2 (1 - lambda_y S_y))
//	T   = W_INJ + S_INJ + Dbar + c0
//
// # Invariants
//
//   - zero load: every S = M, T = M + Dbar + c0 (c0 = 0 by default);
//   - T increases with lambda up to the saturation rate;
//   - every physical channel carries lambda k^n (k-1) / (2(N-1)) messages
//     per cycle (sum of its two VC classes), whatever its coordinate;
//   - the closed-form class graph (NewUniform) equals the one obtained by
//     enumerating every (source, destination) route, and BinaryCube equals
//     Network.Latency for k = 2;
//   - no model returns NaN or a negative delay: a utilisation >= 1 returns
//     an error wrapping analytic.ErrSaturated naming the class, parameters
//     outside the domain one wrapping analytic.ErrDomain.
//
// # Units
//
// Time in cycles (one flit crosses one channel per cycle); lambda in
// messages per node per cycle; M and B in flits; channel rates in messages
// per cycle.
package wormhole
