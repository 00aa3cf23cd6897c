// Package validation is flitsim's model-versus-simulation harness (issue 9):
// it runs an experiment through the simulator mode that mirrors a paper and
// through that paper's analytical model, compares the two point by point,
// judges the difference against tolerances and renders a report.
//
// # Layers
//
//   - Model bridge (Evaluate, EvaluateModel): maps a Setup — a loaded
//     configs.Experiment for the flit-level network mode, or the mode
//     configuration of sim/closed, sim/delta or sim/slotted — onto the
//     parameters of the analytic packages, converts the sweep's load unit
//     into the model's (docs/models.md#units) and evaluates every named model at
//     every sweep point. Each point carries a value and a status: "ok",
//     "saturated" (analytic.ErrSaturated) or "out-of-domain"
//     (analytic.ErrDomain), with the model's own reason.
//   - Judgement (Compare, Baseline): pure functions over per-point simulated
//     estimates (mean and 95% CI half-width) and model values. See Compare
//     for the error definitions and the eligibility rule.
//   - Report (WriteReport): one PNG per config drawn with gonum.org/v1/plot,
//     report.html (images referenced relatively, no network) and report.md
//     with the same tables.
//   - Runner (Validate, Run): simulates every point of every Setup on a
//     worker pool with the seeds the sweep runner derives
//     (sweep.UnitSeed), evaluates the models, judges and reports.
//
// # Errors
//
// For a model value m and a simulated mean s with 95% half-width h at one
// offered load (docs/models.md#harness):
//
//	error  = |m - s| / s                              plain relative error
//	excess = max(0, |m - s| - h) / s                  part of the error outside the CI
//
// Tolerances are applied to the excess, so a model is flagged only when it
// lies outside the simulated interval by more than the stated fraction; the
// plain error is reported beside it. The zero-load offset (s - m at the
// lowest eligible load) is reported separately from the load-dependent error.
//
// # Units
//
// Loads are kept in the unit of the sweep (Setup.RateUnit): messages or flits
// per node per cycle, population N (Reed), rho = lambda/mu (Makrucki–Mudge),
// packets per node per slot (Jacquet–Mühlethaler). Model values are in the
// model's output unit: cycles (Safaei, DG-R, Dally), slots (Jacquet), time
// units of 1/mu (Makrucki PDT), messages per time unit (Reed X_0, Makrucki
// NTP). Saturation loads are reported in the sweep's unit.
//
// # Invariants
//
// Every function of the bridge and the judgement is deterministic and
// side-effect free; the runner's results depend only on the Setups and their
// seeds, not on the number of workers.
package validation
