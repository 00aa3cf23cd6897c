// Package delta is the packet-level simulator mode of Makrucki & Mudge, "A
// Queueing Model of Delta Networks" (SEL-TR-159, 1982; CRL-TR-26-83) and its
// addendum SEL-TR-167 (seed 001), with the semantics fixed by
// docs/models.md#makrucki-simulator. Its model counterpart is analytic/delta; this
// package never imports it (the tests do).
//
// # Model
//
// n = b^z sources and sinks joined by z stages of b x b switches wired as a
// delta network (topology/multistage: omega, butterfly or baseline) with
// destination-tag routing. Every switch output owns a FIFO of capacity L,
// the packet in service included; queue q = s*n + x is output line x of
// stage s. Each source emits single-packet messages as a Poisson process of
// rate lambda with destinations uniform over all n sinks (self included).
// A packet served at stage s is offered to the stage-(s+1) queue chosen by
// its next destination digit (the last stage delivers to the sink). An offer
// to a full queue is a rejection, handled by Config.Rejection:
//
//	drop             the packet is discarded (counted in DropRate)
//	resubmit-source  the report's model: it leaves its queue and goes back to
//	                 its source, which re-offers it to stage 1 after
//	                 ResubmitDelay (0: at once)
//	retry-previous   the addendum: it goes back to the tail of the stage-(i-1)
//	                 queue it just left, whose place it kept, and is served again
//
// A packet rejected by stage 1 (outside drop mode) waits in a retry buffer
// and enters when its queue has room (the report charges stage-1 rejections
// no time; that wait is reported separately as SourceWait, and PDTNetwork =
// PDT - SourceWait). RetryBuffer "source" (default) is one FIFO per source,
// head-of-line blocking included: a source whose head packet waits holds its
// newer packets behind it; when a stage-1 queue frees a place, the longest
// waiting head that wants it enters. RetryBuffer "queue" is one FIFO per
// stage-1 queue (no head-of-line blocking).
//
// In drop mode stage 1 is exactly M/M/1/L (the tests hold it to Eqs. (1.1),
// (2) of the report); later stages see thinned, non-Poisson streams.
//
// # Time
//
// Continuous (default): an event calendar (sim.Calendar) keyed by time, ties
// broken by push order. Service is Exp(mu) or, with Service "fixed", exactly
// 1/mu. A packet moves between queues in zero time at a service completion.
//
// Slotted: integer cycles. Sources are Bernoulli(lambda) per cycle (the
// discrete analogue of Poisson; lambda <= 1), service is Geometric(mu) >= 1
// cycles (mean 1/mu) or exactly 1/mu cycles (an integer). Within cycle t the
// events run in fixed phases, the last stage first, so a place freed
// downstream in cycle t can be taken by a packet leaving upstream in the same
// cycle (an ideal pipeline), and new packets see the queues after every
// departure of the cycle:
//
//	cycle t:  | stage z done | stage z-1 done | ... | stage 1 done | returns | emissions |
//	          phase 0        1                      z-1            z         z+1
//	period end T: after every event of cycle T-1, before cycle T
//
// (calendar key t*(z+2)+phase, exact in float64). Occupancy is the state
// after cycle t's events, held over [t, t+1).
//
// # Measurement
//
// Time is cut into periods of length Run.Period. Each period yields one value
// of every quantity (per-period ratio of sums: PDT = delay sum / deliveries,
// p_{L,i} = rejections / attempts, ...). The run control is sim's, the one
// of every mode (sim.RunPeriods driving a sim.Monitor, time counted in
// periods): the warm-up is Run.Warmup or, when 0, MSER-5 on the per-period
// PDT (capped at half the run); the measured periods feed batch means
// (sim.Series), which give each Estimate and its 95% CI over the same
// window. The run stops at the first period end after Run.MinMeasure where
// the relative half-widths of PDT, PDT-network and NTP are within
// Run.TargetRelCI and
// their batch means pass the lag-1 check (sim.MaxLag1), or at Run.MaxTime;
// the status is sim.Conclude's. Periods with no delivery are skipped for
// PDT (a mean of ratios: its bias is O(1/deliveries per period), far inside
// the CI at the default period of >= 200 emissions).
//
// Saturation: with resubmission or retry the retry buffers are unbounded.
// The run stops as "saturated" as soon as more than Run.MaxBacklog packets
// wait to re-enter (in retry buffers or travelling back), when that backlog
// grows by the run control's trend rule, at the cap when it and PDT both
// still rise (sim.Monitor), or when the carried rate falls below the
// offered beyond the run's own tolerance (sim.Conclude). A saturated Result
// carries Status, Reason, Totals and times, and no estimates. Drop mode
// cannot saturate. There is no deadlock status: delta networks have no
// cyclic dependency and every rejected packet moves on.
//
// Conservation (Result.Totals, checked by the tests):
//
//	Emitted = Delivered + Dropped + InQueues + InRetryBuffers + InTransit
//
// # Units
//
// One time unit is the unit of 1/mu (mu = 1 by default; one cycle when
// slotted). Rates: Rate in packets per source per time unit, NTP and Offered
// per network per time unit, ArrivalRate and AcceptedRate per queue per time
// unit. Delays in time units; occupancies in packets; rejection fractions
// dimensionless.
//
// # Paper assumptions mirrored and relaxed
//
// Mirrored exactly: unique-path delta network with n = b^z; output queues of
// capacity L counting the packet in service; Exp(mu) service; Poisson
// sources; uniform destinations including self; instantaneous resubmission
// to the source (ResubmitDelay 0); the addendum's retry at stage i-1 with the
// place held. Relaxed as options: fixed service; slotted time with geometric
// or fixed service; a resubmission delay; the retry-buffer discipline; drop
// mode; butterfly and baseline wirings; any b >= 2 (the report asks b = 2^k).
// Not assumed: the model's Poisson approximation of later stages and its
// neglect of resubmitted load — the simulation measures what they cost.
//
// # Config fields (for the configs loader, `mode: delta`)
//
//	degree         Degree         int     b (default 4)
//	stages         Stages         int     z (default 3)
//	wiring         Wiring         string  omega | butterfly | baseline
//	queue_length   QueueLength    int     L (default 4)
//	rate / rho     Rate           float   lambda per source (sweep variable; rho = Rate/Mu)
//	mu             Mu             float   default 1
//	service        Service        string  exponential | fixed
//	time           Time           string  continuous | slotted
//	rejection      Rejection      string  resubmit-source | retry-previous | drop
//	resubmit_delay ResubmitDelay  float   time units, default 0
//	retry_buffer   RetryBuffer    string  source | queue
//	seed           Seed           uint64
//	run.warmup, run.period, run.min_measure, run.max_time, run.target_rel_ci,
//	run.max_backlog   Run.*       see Run
package delta
