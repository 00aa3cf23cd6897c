// Package closed simulates the closed message-passing networks of D. A. Reed,
// "Modeling Multimicrocomputer Networks", Purdue CSD-TR-436, 1983 (seed 000;
// docs/models.md#reed): N messages circulate for ever between processing
// elements (PEs) over store-and-forward links, and the simulator measures the
// message completion rate X_0(N) that Reed's mean value analysis (Figure II)
// and bounds (Eqs. (5), (7)) predict.
//
// # Model
//
// K nodes, each with one PE, joined by a ring, a single shared bus, a torus,
// a mesh or a hypercube. Every PE and every link is a single FCFS server with
// an unbounded queue (a station). A message
//
//  1. is created at node v when the PE of v finishes serving a message there
//     (the population is closed: one completion, one new message, same node);
//  2. draws its destination from the routing distribution of v (a
//     traffic.Pattern: Reed's uniform, sphere of locality or decreasing
//     probability, docs/models.md#reed-routing; or any other pattern);
//  3. follows its dimension-order route (topology.NewDimensionOrder: a
//     shortest path, unique on an odd ring; the + direction at an exact tie
//     on an even ring or torus); on a bus it crosses the bus once. At each
//     link it joins the link's FCFS queue and is served for one crossing.
//     Intermediate nodes take no time (their controllers are not stations,
//     docs/models.md#reed-simulator item 5);
//  4. joins the FCFS queue of its destination PE, is served for a compute
//     time, and completes: step 1 again.
//
// A destination equal to the source (possible with hotspot or permutation
// patterns, never with Reed's three) goes straight to the PE queue.
//
// Under HalfDuplex (Reed's reading, the default) the two opposite channels of
// a link share one server, so a ring has Numlinks = K servers and the uniform
// visit ratio V_CL = LV/K = (K+1)/(4K); under FullDuplex each direction is
// its own server (Numlinks = 2K). A bus is one server either way.
//
// # Time
//
// Continuous time, float64, in the unit of the service means S_PE and S_CL
// (call it a cycle: with Link = Fixed, Mean = M and FlitTime = 1, a crossing
// is an M-flit message on a one-flit-per-cycle link). Events are service
// completions kept in a sim.Calendar keyed by (time, push order), so equal
// times, which fixed service makes common, are processed in a reproducible
// order. One message's cycle, with S_PE and S_CL exponential by default:
//
//	time ──────────────────────────────────────────────────────────────►
//	      PE v done     link a        link b          PE d
//	  ────────┤ wait │ serve S_CL │wait│ serve S_CL │ wait │ serve S_PE ├──
//	          ▲ created at v                                            ▲ completion:
//	          │ dest d drawn                                            │ X_0 counts it,
//	          └──────────────────── cycle time ─────────────────────────┘ new message at d
//
// A message is always in exactly one station (queued or in service), so the
// time-average numbers of messages at the stations add up to N at every
// instant.
//
// # Service times
//
// PE: Exponential (default), Fixed, or None (no compute time). Link: each
// crossing takes
//
//	Exponential  S_CL * Exp(1)
//	Fixed        S_CL
//	Geometric    FlitTime * M,  M geometric on {1, 2, ...} with mean S_CL/FlitTime flits
//
// With LinkDraw = PerHop (default) the crossing time is drawn afresh at every
// link from that link's stream: Kleinrock's independence assumption, which
// product form needs. With LinkDraw = PerMessage it is drawn once when the
// message is created and reused at every link: a message of one length.
//
// # Which of Reed's assumptions are mirrored, and which relaxed
//
// The defaults (exponential PE and link service, PerHop, HalfDuplex, FCFS)
// satisfy every condition of docs/models.md#reed-simulator for an exact match with MVA:
// closed population with immediate regeneration at the completing node (item
// 1), destination distance from Phi(l) and a uniform node at that distance
// (item 2; the traffic patterns sample exactly that), a shortest path with
// each link a queue (item 3), one server per bidirectional link (item 4;
// FullDuplex matches MVA with Numlinks = 2K instead), exponential FCFS
// service with intermediate controllers taking no time (item 5). The tests
// show X_0(N) on the MVA curve within its CI on the ring, torus, hypercube,
// bus and (against a general MVA with enumerated per-link visit ratios) the
// mesh.
//
// Options that relax them, one at a time: Fixed or None service (no longer
// exponential: MVA is then only an approximation, and X_0 lies above it for
// the ring at moderate N), PerMessage link times (breaks independence),
// Geometric lengths (a discrete, non-exponential crossing time), FullDuplex
// (a different network), and non-Reed patterns. What it does not model at
// all is item 6, the flit level: a message holds exactly one server at a
// time (store-and-forward, infinite buffers), never several links at once as
// under wormhole switching. The asymptotic bounds (5) hold for every option;
// the balanced job bounds (7) only under product form. See docs/closed.md
// for the flit-level hook.
//
// # Measurement
//
// Time is cut into periods of Run.Period. Per period the simulator records
// the completion rate (completions / period), the time-average busy fraction
// of the PEs and of the links, and the time-average number of messages per
// PE and per link; per completed message, its cycle time and its number of
// link crossings. Each series feeds a sim.BatchMeans, so every Result
// quantity carries a 95% confidence interval over the same measurement
// window. The run control is sim's, the one of every mode (sim.RunPeriods
// driving a sim.Monitor, time counted in periods): warm-up a fixed
// Run.Warmup, or (Warmup = 0) MSER-5 on the per-period completion rates,
// measurement starting at the period end where it finds the transient over
// (at Run.MaxWarmup otherwise, which Reason notes); the run stops at the
// first period end after Run.MinMeasure of measurement where the relative
// 95% half-width of X_0 is at most Run.TargetRelCI and the lag-1
// autocorrelation of its batch means at most sim.MaxLag1, or at
// Run.MaxTime.
//
// A closed network cannot saturate (its population is finite) nor deadlock
// (a message holds one server at a time and queues are unbounded): Status is
// "ok", or "unconverged" by the status rule of sim.Conclude (at Run.MaxTime
// a half-width above Run.CapRelCI, or batch means failing the lag-1 check).
//
// # Units
//
// Time: the unit of S_PE and S_CL. X_0: messages per time unit. Cycle time:
// time units. Hops: links per message. Utilisations: fractions of time.
// Queue lengths: messages. Populations: messages.
//
// # Determinism
//
// One root seed (Config.Seed); streams via sim.NewStream: the destinations
// created at node v from (PurposeTrafficDest, v), per-message link times from
// (PurposeTrafficLength, v), service draws of station i (PEs 0..K-1, then the
// link servers) from (PurposeService, i), random placement from
// (PurposePlacement, 0). Same Config, same Result, bit for bit; Run resets
// everything, so one Sim runs twice alike.
//
// # Hot path
//
// The event loop allocates nothing: FCFS queues are intrusive lists over
// message ids, the calendar reuses its slice, routes are computed per hop
// into a preallocated candidate buffer, and statistics are constant-memory.
// BenchmarkEvents: about 4.4 million events per second on Reed's ring at
// N = 30 and 2.7 million on an 8x8 torus at N = 256 (one core of a shared
// 2-core Xeon); a whole point of Figure III to 1% takes about 25 ms.
//
// # Configuration (for the config loader)
//
// A YAML experiment with mode: closed maps onto Config as follows; the sweep
// lists populations, so the rate column of a result row holds N (sweep.unit:
// population).
//
//	YAML key                      Config field         default
//	network.topology              Network              ring  (ring|bus|torus|mesh|hypercube)
//	network.radix                 Radix                required (hypercube: 2)
//	network.dimensions            Dims                 1
//	closed.duplex                 Duplex               half  (half|full)
//	closed.placement              Placement            round-robin (round-robin|random)
//	closed.pe.distribution        PE.Distribution      exponential (exponential|fixed|none)
//	closed.pe.mean                PE.Mean              1 time unit
//	closed.link.distribution      Link.Distribution    exponential (exponential|fixed|geometric)
//	closed.link.mean              Link.Mean            1 time unit
//	closed.flit_time              FlitTime             1 time unit per flit (geometric only)
//	closed.link_draw              LinkDraw             per-hop (per-hop|per-message)
//	traffic.pattern, radius, phi,
//	  decay, hotspot_*            Pattern              uniform ("decreasing" is traffic.Decay)
//	sweep.rates (unit population) Population           one run per entry, integers >= 1
//	seed                          Seed                 per sweep point as the harness derives it
//	run.warmup                    Run.Warmup           0: MSER-5
//	run.max_warmup                Run.MaxWarmup        1000 periods
//	run.period                    Run.Period           10 R1, R1 = S_PE + S_CL E[hops]
//	run.min_measure               Run.MinMeasure       200 periods
//	run.max_cycles                Run.MaxTime          100000 periods
//	run.target_rel_ci             Run.TargetRelCI      0.01
//	run.min_batches, max_batches  Run.MinBatches, ...  10, 64
//
// The run keys are in time units, the same unit as the service means (cycles
// when S_CL is given in flit-cycles).
package closed
