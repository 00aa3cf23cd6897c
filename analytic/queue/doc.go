// Package queue holds the single-station queueing building blocks that the
// paper models of flitsim are assembled from (docs/models.md#conventions, docs/models.md#mm1l):
//
//	MM1    M/M/1, infinite buffer                       (Kleinrock 1975, §3.2)
//	MM1L   M/M/1/L, L places including the one in service (docs/models.md#mm1l, Eqs. (1.1), (2))
//	MG1    M/G/1, Pollaczek–Khinchine mean wait         (Kleinrock 1975, Vol. I, ch. 5)
//	MD1    M/D/1, the deterministic-service case of MG1
//
// # Model
//
// One FCFS server fed by a Poisson stream of rate lambda. Service is
// exponential with rate mu (MM1, MM1L), general with mean E[S] and second
// moment E[S^2] (MG1), or constant (MD1). rho = lambda/mu = lambda E[S].
//
// # Units
//
// Any consistent time unit: lambda in customers per time unit, mu in
// services per time unit, E[S] in time units, E[S^2] in time units squared.
// Mean numbers are customers; mean times and waits are in time units.
// "Time" (T) is the sojourn, waiting plus service; "wait" (W) excludes service.
//
// # Invariants
//
// Values are built only through their constructors (NewMM1, NewMM1L, NewMG1,
// NewMG1SCV, NewMD1), which refuse non-positive, infinite or NaN inputs with
// an error wrapping analytic.ErrDomain and, for the infinite-buffer queues,
// rho >= 1 with an error wrapping analytic.ErrSaturated. A constructed value
// therefore never yields NaN, an infinite or a negative mean. The zero value
// of each type is not a valid queue.
//
// Little's law holds by construction: E[N] = lambda E[T] for MM1, MG1 and
// MD1, E[N] = lambda (1 - p_L) E[T] for MM1L (only accepted customers enter),
// and E[T] = E[W] + E[S] for all of them.
//
// MM1L is finite and therefore stable at every rho > 0. Its formulas are
// evaluated in x = ln(rho) with expm1, which has no cancellation near rho = 1
// and no overflow at large rho or L; E[N] switches to its Taylor series in x
// for (L+1)|x| < 0.1 (see MM1L.MeanNumber), and rho = 1 exactly gives the
// limits p_k = 1/(L+1), E[N] = L/2, E[T] = (L+1)/(2 mu).
//
// All methods are pure, allocation-free (except where a slice is appended to
// a caller's buffer) and safe for concurrent use.
package queue
