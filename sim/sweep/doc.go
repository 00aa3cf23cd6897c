// Package sweep runs the points of one or more experiments in parallel and
// deterministically, streaming finished points to results files that are
// complete and parseable at every instant.
//
// # Model
//
// A [Job] is one experiment: a list of offered loads (points) run
// Replications times each. Every (job, point, replication) is a [Unit] with
// its own root seed
//
//	pointSeed = DeriveSeed(job seed, PurposeSweepPoint, point)
//	unitSeed  = DeriveSeed(pointSeed, PurposeReplication, replication)
//
// (sim.DeriveSeed), so a unit's result depends only on the job seed, the
// point index and the replication index: never on the worker count, the
// order in which units finish, the other jobs in the run, or how many
// replications there are (adding replications keeps the earlier ones).
//
// N workers (default runtime.NumCPU()) pull units in index order. A point is
// finished when all its replications are; its replications are then
// combined into one [Row] by [Combine]:
//
//	latency  = (1/R) Σ_r latency_r                      (mean of replication means)
//	ci95     = t_{0.975, R−1} · s / √R,  R ≥ 2          (s: sample std. dev. of the R means)
//	ci95     = the run's own batch-means CI,  R = 1
//
// with the sums taken in replication order, so the floating-point result is
// the same whatever order the replications finished in.
//
// # Invariants
//
//   - Rows are ordered by (job, point), whatever the completion order; the
//     final results.csv and results.json are byte-identical for any worker
//     count.
//   - After each finished point both files are rewritten whole, each to a
//     temporary file in the same directory renamed over the old one, so a
//     reader (or a crash) only ever sees a complete previous or next
//     version.
//   - With Resume, rows already in results.json are kept (after checking
//     config hash, seed and version) and their units are not run again; the
//     final files are byte-identical to those of an uninterrupted run.
//   - Cancelling the context stops the workers (the unit function receives
//     the context and must return promptly) and keeps every finished point.
//
// # Shards
//
// A sweep can also be split over n independent processes (Slurm array
// tasks, Kubernetes Indexed Job pods): [Plan] deals the units to n shards
// by estimated cost (LPT, see Plan and [Job.Cost]); [RunShard] runs shard i
// and streams its per-unit outcomes to shard-i-of-n.json ([ShardFile]),
// whose header carries the jobs (config hashes, seeds, rates, costs), the
// version, i/n and the unit indexes it holds. [ReadShards] checks a set of
// shard files (missing, duplicated, foreign or incomplete shards are
// reported by file name, all together) and returns every unit's outcome;
// [MergeRows] combines them point by point with [Combine] exactly as [Run]
// does, so the merged results.csv and results.json are byte-identical to an
// unsharded run. A shard's outcome is only a unit's, never a combined row,
// because replications of one point may land in different shards. The
// machinery is generic in the outcome type ([UnitFunc], [ShardFile],
// [ReadShards]) so that commands with other per-unit results (validate)
// shard the same way; a shard file's Kind names the command.
//
// # Units
//
// rate is in the job's RateUnit (as written in the config); latencies and
// their CIs in cycles; accepted and offered in flits/node/cycle; cycles is
// the total simulated cycles of the point's replications.
package sweep
