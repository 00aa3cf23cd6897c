// Package reed implements the network workload models of D. A. Reed,
// "Modeling Multimicrocomputer Networks", Purdue CSD-TR-436, 1983 (seed 000),
// as restated in docs/models.md#reed: message-routing distributions on
// symmetric networks, link visits and visit ratios, asymptotic and balanced
// job bounds, exact mean value analysis, crossing points of networks and
// optimal problem parallelism.
//
// # Model
//
// A closed queueing network of N circulating messages (single chain). A
// message is served at its destination node (processing element, mean S_PE),
// then leaves for a new destination drawn from a routing distribution Phi(l)
// over the distance l, and is served at every link it crosses (mean S_CL per
// crossing). Intermediate nodes' controllers take no time. The network is
// symmetric (every node sees the same Reach(l)), so
//
//	LV   = sum_l l Phi(l)                    mean link crossings per message   (1)
//	V_PE = 1/K,   V_CL = LV / Numlinks       visit ratios                      (4)
//
// and the workload reduces to T device types of O_t identical devices with
// demand V_t S_t each (Workload). Bounds need only single-class,
// load-independent service; MVA additionally needs product form
// (exponential FCFS or processor-sharing servers, state-independent routing).
//
// # Pipeline
//
//	Profile (Ring, Bus, Torus, Hypercube, NewProfile)
//	  -> Routing (Uniform, Locality, Decay)                 Phi(l), LV
//	  -> Workload (NetworkWorkload, NewWorkload)            O_t, V_t, S_t
//	  -> Asymptotic, BalancedJobBounds, MVA, GeneralMVA     X_0(N)
//	  -> CrossingLow, CrossingHigh, CrossingMVA, OptimalParallelism
//
// # Units
//
// Service times S_PE, S_CL in any time unit; X_0 in messages per that time
// unit; R_0 in time units; populations N in messages; queue lengths n_t in
// messages; visit ratios in visits per message completion.
//
// # Readings that differ from the printed report (docs/errata.md#reed)
//
//   - E1: the ring form of the sphere-of-locality LV is printed with
//     numerator (K-1)^2 and denominator 4K(K-2L-1); it contradicts Eq. (2)
//     and gives LV < 1. Corrected default: ((K^2-1) - 4L(L+1))/(4(K-2L-1)).
//     RingLocalityLV(..., Printed) evaluates the printed form.
//   - E2: the decreasing-probability Phi(l) = (d-1)d^l/(d^lmax-1) and Eq. (3)
//     carry an extra factor d (Phi sums to d). Corrected default:
//     Phi(l) = (1-d)d^{l-1}/(1-d^lmax). Decay and DecayLV accept Printed.
//   - E3: the ring-vs-bus N_low_cross is printed (4K^2-9K-1)/(3K-1); the
//     stated demands give (K^2-1)/(3K-1). RingBusCrossingLow accepts Printed.
//   - Links: Reed's V_CL = (K+1)/(4K) for the ring implies ONE device per
//     bidirectional link (HalfDuplex, the default); FullDuplex gives each
//     direction its own device (Numlinks = 2K), as a simulator with one
//     channel per direction needs (docs/models.md#reed-simulator item 4).
//   - Not in the report: the claim that the exact MVA crossing lies between
//     N_low_cross and N_high_cross fails for Reed's own ring-vs-bus example
//     (see CrossingMVA). Even rings and even-radix tori, which the report
//     does not treat, include the antipode once (Reach(K/2) = 1).
//
// # Invariants (tested)
//
// sum_l Phi(l) = 1 (d for the printed decay); 1 <= LV <= l_max;
// sum_t O_t n_t(N) = N; U_t(N) <= 1; the balanced job bounds (7) bracket the
// MVA X_0(N) and lie inside the asymptotic bounds (5); the per-type MVA of
// Figure II equals a general MVA whose per-link visit ratios come from
// enumerating every route. Variant and Duplex zero values are the defaults
// (Corrected, HalfDuplex).
//
// Values (Profile, Routing, Workload) are immutable after construction and
// safe for concurrent use; the solvers allocate their results and are not
// hot-path code.
package reed
