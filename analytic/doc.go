// Package analytic holds what every closed-form model of flitsim shares: the
// domain errors a model returns instead of NaN or a negative delay, the
// bisection that locates a model's saturation rate ([SaturationPoint]), and
// the conventions the model packages follow.
//
// The models themselves live in sub-packages, one per source:
//
//	analytic/queue      M/M/1, M/M/1/L, M/G/1 (Pollaczek–Khinchine), M/D/1
//	analytic/reed       Reed 1983 (seed 000): routing distributions, visit ratios, bounds, MVA
//	analytic/delta      Makrucki–Mudge 1982 (seed 001): delta networks of M/M/1/L stages
//	analytic/wormhole   Draper–Ghosh 1994 reconstruction (seed 002), Dally 1990 and 1992
//	analytic/hypercube  Jacquet–Mühlethaler 1990 (seed 003): slotted hypercube
//	analytic/scouting   Safaei et al. (seed 004): scouting switching in adaptive tori
//
// Conventions (docs/models.md#conventions): float64 throughout; every model function
// returns (result, error); outside a model's domain the error wraps
// [ErrSaturated] or [ErrDomain] and names the condition that failed. Where a
// paper's printed formula is wrong, the corrected form is the default (the
// zero value of the model's Variant type) and the printed one is an explicit
// variant. analytic never imports the simulator.
package analytic
