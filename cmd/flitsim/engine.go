package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"sync"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/internal/sysmem"
	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/sim/closed"
	"github.com/flitsim/flitsim/sim/delta"
	"github.com/flitsim/flitsim/sim/network"
	"github.com/flitsim/flitsim/sim/slotted"
	"github.com/flitsim/flitsim/sim/sweep"
)

// runner runs one sweep unit of one experiment on its mode's engine.
type runner func(ctx context.Context) (sweep.Outcome, error)

// newRunnerHook is called by every newRunner; tests count builds with it.
var newRunnerHook = func() {}

// newRunner builds the run of sweep point `point` of e with root seed
// `seed` on the engine of e's mode; building it checks everything the
// engine checks, so a config the engine refuses fails here.
func newRunner(e *configs.Experiment, point int, seed uint64) (runner, error) {
	newRunnerHook()
	switch e.Mode {
	case "closed":
		cfg, err := e.ClosedConfig(point, seed)
		return makeRunner(cfg, err, closed.New, closedOutcome)
	case "delta":
		cfg, err := e.DeltaConfig(point, seed)
		return makeRunner(cfg, err, delta.New, deltaOutcome)
	case "slotted":
		cfg, err := e.SlottedConfig(point, seed)
		return makeRunner(cfg, err, slotted.New, slottedOutcome)
	}
	cfg, err := e.NetworkConfig(point, seed)
	return makeRunner(cfg, err, network.New, networkOutcome)
}

// makeRunner builds a mode's simulator from its config (cfgErr is the
// error of deriving that config) and returns its run, mapped onto a
// results row by outcome.
func makeRunner[C, R any, S interface {
	Run(context.Context) (R, error)
}](cfg C, cfgErr error, newSim func(C) (S, error), outcome func(R) sweep.Outcome) (runner, error) {
	if cfgErr != nil {
		return nil, cfgErr
	}
	s, err := newSim(cfg)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) (sweep.Outcome, error) {
		r, err := s.Run(ctx)
		if err != nil {
			return sweep.Outcome{}, err
		}
		return outcome(r), nil
	}, nil
}

// networkOutcome maps a flit-level network run onto a results row (the
// columns' native mode: latencies in cycles, rates in flits/node/cycle);
// extra holds the latency percentiles, hops, source wait, channel
// utilisation and, for adaptive routing or scouting, the quantities the
// Safaei model predicts (no CIs: single-run figures).
func networkOutcome(r network.Result) sweep.Outcome {
	o := sweep.Outcome{
		Status: r.Status, Reason: r.Reason,
		Latency: r.Latency, LatencyCI95: r.LatencyCI95,
		NetworkLatency: r.NetworkLatency, NetworkLatencyCI95: r.NetworkLatencyCI95,
		Accepted: r.Accepted, Offered: r.Offered, Cycles: r.Cycles,
	}
	if r.Trace != nil {
		return traceOutcome(o, r)
	}
	if r.Status != sim.StatusOK {
		return o
	}
	o.Extra = []sweep.Metric{
		metric("p50 cycles", float64(r.P50), noNumber),
		metric("p95 cycles", float64(r.P95), noNumber),
		metric("p99 cycles", float64(r.P99), noNumber),
		metric("hops", r.Hops, noNumber),
		metric("source wait cycles", r.SourceWait, noNumber),
		metric("channel util mean", r.MeanChannelUtil, noNumber),
		metric("channel util max", r.MaxChannelUtil, noNumber),
	}
	if r.VCMultiplexing > 0 {
		o.Extra = append(o.Extra,
			metric("setup cycles", r.SetupTime, noNumber),
			metric("backtracks/message", r.Backtracks, noNumber),
			metric("VC multiplexing", r.VCMultiplexing, noNumber))
		for v, p := range r.VCOccupancy {
			o.Extra = append(o.Extra, metric("P_v["+strconv.Itoa(v)+"]", p, noNumber))
		}
	}
	return o
}

// engineUnitFunc returns the function that runs one sweep unit of exps on
// the engine of each experiment's mode (sim/network, sim/closed, sim/delta
// or sim/slotted). Before returning it builds every mode-network
// experiment's first run (point 0, replication 0, with that unit's seed), so
// a network the engine refuses (beyond what the loader checks) is reported
// as an invalid config before any run starts; that network is then the one
// the unit runs, so each run builds its network once. A job whose first
// unit is not run (resumed, or in another shard) drops it when its first
// unit that is run starts. The paper modes are not built again here:
// configs.Load has already built their point 0 (configs' engineCheck) and
// refused the file there, and the seed, the only thing cmd may change
// since, never makes an engine refuse.
func engineUnitFunc(exps []*configs.Experiment) (sweep.Func, error) {
	first := make([]runner, len(exps))
	for j, e := range exps {
		if e.Mode != "network" {
			continue
		}
		run, err := newRunner(e, 0, sweep.UnitSeed(e.Seed, 0, 0))
		if err != nil {
			return nil, fmt.Errorf("%s: the %s engine refuses this config: %w", e.File, e.Mode, err)
		}
		first[j] = run
	}
	var mu sync.Mutex
	return func(ctx context.Context, u sweep.Unit) (sweep.Outcome, error) {
		mu.Lock()
		run := first[u.Job]
		first[u.Job] = nil // units start in index order: (job, 0, 0) first if it runs at all
		mu.Unlock()
		if run == nil || u.Point != 0 || u.Replication != 0 {
			var err error
			if run, err = newRunner(exps[u.Job], u.Point, u.Seed); err != nil {
				return sweep.Outcome{}, err
			}
		}
		return run(ctx)
	}, nil
}

// memoryLimit reads the memory this process may use; tests replace it.
var memoryLimit = func() (sysmem.Limit, error) { return sysmem.Read("/") }

// checkMemory estimates the memory of every mode-network experiment's
// network (network.EstimateMemory, at its first point) before anything is
// built, and refuses, naming the estimate and the limit, one that cannot
// fit in this machine's memory (or its cgroup's limit) even alone: errs,
// exit 3, an impossible config. A network that fits the machine but not the
// memory free now is refused with busy (exit 4): building it would push the
// machine into swap or the OOM killer, with every other process on it. It
// returns the largest estimate and the limit, for fitWorkers; where the
// memory cannot be read (not Linux) nothing is refused.
func checkMemory(exps []*configs.Experiment) (peak int64, limit sysmem.Limit, errs []error, busy error) {
	limit, err := memoryLimit()
	if err != nil {
		return 0, sysmem.Limit{}, nil, nil
	}
	for _, e := range exps {
		if e.Mode != "network" {
			continue
		}
		cfg, err := e.NetworkConfig(0, e.Seed)
		if err != nil {
			continue // the engine check reports it
		}
		m, err := network.EstimateMemory(cfg)
		if err != nil {
			continue
		}
		mib := float64(m.Peak) / (1 << 20)
		switch {
		case m.Peak > limit.Bytes:
			errs = append(errs, e.ErrorAt("network", "the network needs an estimated %.0f MiB to build (%s), more than the %s this process may use; make it smaller (fewer routers, VCs or buffer slots)",
				mib, m, limit))
			continue
		case limit.Available > 0 && m.Peak > limit.Available && busy == nil:
			busy = fmt.Errorf("%s: the network needs an estimated %.0f MiB to build (%s) and only %.0f MiB of the %s is free now; nothing was run",
				e.File, mib, m, float64(limit.Available)/(1<<20), limit)
		}
		peak = max(peak, m.Peak)
	}
	return peak, limit, errs, busy
}

// fitWorkers lowers workers so that that many networks of peak bytes fit
// in the memory free now (else in the limit), saying so on stderr.
func fitWorkers(workers int, peak int64, limit sysmem.Limit, stderr io.Writer) int {
	free := limit.Available
	if free <= 0 {
		free = limit.Bytes
	}
	if peak <= 0 || free <= 0 || int64(workers)*peak <= free {
		return workers
	}
	w := int(max(free/peak, 1))
	fmt.Fprintf(stderr, "flitsim: running %d networks at once instead of %d: each needs an estimated %.0f MiB and %.0f MiB is free\n",
		w, workers, float64(peak)/(1<<20), float64(free)/(1<<20))
	return w
}

// noNumber marks an Outcome column the mode does not measure: the sweep
// writes a non-finite value as an empty field (null in JSON).
var noNumber = math.NaN()

// metric is one Extra entry from a mean and its 95% half-width.
func metric(name string, mean, half float64) sweep.Metric {
	return sweep.Metric{Name: name, Value: mean, CI95: half}
}

// closedOutcome maps a Reed closed-network run onto a results row:
//
//	latency          R0 = N/X0, the mean cycle time of a message (time units), with its CI
//	network_latency  empty (a closed message has no injection instant)
//	accepted         X0, completions per time unit, whole network (messages / time unit)
//	offered          empty (the load is the population, in the rate column)
//	cycles           simulated time, warm-up included, rounded (time units)
//	extra            X0, hops (LV), PE and link utilisation, mean PE and link queues, each with its CI
func closedOutcome(r closed.Result) sweep.Outcome {
	return sweep.Outcome{
		Status: r.Status, Reason: r.Reason,
		Latency: r.CycleTime.Mean, LatencyCI95: r.CycleTime.HalfWidth,
		NetworkLatency: noNumber, NetworkLatencyCI95: noNumber,
		Accepted: r.X0.Mean, Offered: noNumber,
		Cycles: int64(math.Round(r.Warmup + r.Measured)),
		Extra: []sweep.Metric{
			metric("X0 messages/time", r.X0.Mean, r.X0.HalfWidth),
			metric("hops", r.Hops.Mean, r.Hops.HalfWidth),
			metric("U_PE", r.PEUtilisation.Mean, r.PEUtilisation.HalfWidth),
			metric("U_link", r.LinkUtilisation.Mean, r.LinkUtilisation.HalfWidth),
			metric("n_PE messages", r.PEQueue.Mean, r.PEQueue.HalfWidth),
			metric("n_link messages", r.LinkQueue.Mean, r.LinkQueue.HalfWidth),
		},
	}
}

// deltaOutcome maps a Makrucki–Mudge delta-network run onto a results row:
//
//	latency          PDT, first emission to delivery (time units), with its CI
//	network_latency  PDT without the source retry-buffer wait (time units), with its CI
//	accepted         NTP, packets delivered per time unit, whole network
//	offered          packets emitted per time unit, whole network
//	cycles           simulated time, rounded (time units; cycles when slotted)
//	extra            NTP with its CI; per stage i (1-based, as in the paper): the
//	                 rejection probability p_L[i], the mean queue length E[N][i]
//	                 (packets per queue), the sojourn E[T][i] (time units) and the
//	                 arrival rate a[i] (attempts per queue per time unit), each with its CI
//
// A saturated run has no estimates; its accepted and offered are empty.
func deltaOutcome(r delta.Result) sweep.Outcome {
	o := sweep.Outcome{
		Status: r.Status, Reason: r.Reason,
		Latency: noNumber, LatencyCI95: noNumber, NetworkLatency: noNumber, NetworkLatencyCI95: noNumber,
		Accepted: noNumber, Offered: noNumber,
		Cycles: int64(math.Round(r.End)),
	}
	if r.Status != sim.StatusOK {
		return o
	}
	o.Latency, o.LatencyCI95 = r.PDT.Mean, r.PDT.HalfWidth
	o.NetworkLatency, o.NetworkLatencyCI95 = r.PDTNetwork.Mean, r.PDTNetwork.HalfWidth
	o.Accepted, o.Offered = r.NTP.Mean, r.Offered.Mean
	o.Extra = append(o.Extra, metric("NTP packets/time", r.NTP.Mean, r.NTP.HalfWidth))
	for i, st := range r.Stages {
		k := strconv.Itoa(i + 1)
		o.Extra = append(o.Extra,
			metric("p_L["+k+"]", st.Rejection.Mean, st.Rejection.HalfWidth),
			metric("E[N]["+k+"] packets", st.Occupancy.Mean, st.Occupancy.HalfWidth),
			metric("E[T]["+k+"] time", st.Sojourn.Mean, st.Sojourn.HalfWidth),
			metric("a["+k+"] attempts/time", st.ArrivalRate.Mean, st.ArrivalRate.HalfWidth))
	}
	return o
}

// slottedOutcome maps a Jacquet–Mühlethaler slotted-hypercube run onto a
// results row:
//
//	latency          integer-slot delay (slots), compare with the model's T, with its CI
//	network_latency  continuous delay (slots), compare with the Bernoulli model's D, with its CI
//	accepted         delivered throughput, packets/node/slot
//	offered          generated rate, packets/node/slot
//	cycles           slots simulated, warm-up included
//	extra            the busy probability p, the hop service time x1 (slots) and hops, with CIs
//
// A saturated run has no delay; throughput and offered describe its window.
func slottedOutcome(r slotted.Result) sweep.Outcome {
	o := sweep.Outcome{
		Status: r.Status, Reason: r.Reason,
		Latency: noNumber, LatencyCI95: noNumber, NetworkLatency: noNumber, NetworkLatencyCI95: noNumber,
		Accepted: r.Throughput.Mean, Offered: r.Offered.Mean,
		Cycles: r.WarmupSlots + r.MeasuredSlots,
	}
	if r.Status != sim.StatusOK {
		return o
	}
	o.Latency, o.LatencyCI95 = r.Delay.Mean, r.Delay.HalfWidth
	o.NetworkLatency, o.NetworkLatencyCI95 = r.DelayContinuous.Mean, r.DelayContinuous.HalfWidth
	o.Extra = []sweep.Metric{
		metric("p busy", r.Busy.Mean, r.Busy.HalfWidth),
		metric("x1 slots/hop", r.HopService.Mean, r.HopService.HalfWidth),
		metric("hops", r.Hops.Mean, r.Hops.HalfWidth),
	}
	return o
}

// traceOutcome maps a trace-driven run (network.TraceResult) onto a
// results row: latency and network latency are the per-packet means over
// the whole trace with no CI (a trace's packets are not a sample),
// accepted and offered are flits/node/cycle over the run time, cycles the
// cycles simulated; extra holds the run time T (cycles to deliver the
// trace), the ideal run time T0 (every packet at its zero-load latency),
// the slowdown T/T0, the mean packet slowdown (latency / zero-load
// latency), the latency percentiles and maximum, hops, source wait and
// the packet counts. An unconverged or deadlocked trace run is, like any
// row that is not ok, reported with its reason, accepted and offered only.
func traceOutcome(o sweep.Outcome, r network.Result) sweep.Outcome {
	t := r.Trace
	o.LatencyCI95, o.NetworkLatencyCI95 = noNumber, noNumber
	if r.Status != sim.StatusOK {
		o.Latency, o.NetworkLatency = noNumber, noNumber
	}
	o.Extra = []sweep.Metric{
		metric("run cycles", float64(t.RunCycles), noNumber),
		metric("ideal run cycles", float64(t.IdealCycles), noNumber),
		metric("slowdown", t.Slowdown, noNumber),
		metric("packet slowdown", t.PacketSlowdown, noNumber),
		metric("p50 cycles", float64(t.P50), noNumber),
		metric("p95 cycles", float64(t.P95), noNumber),
		metric("p99 cycles", float64(t.P99), noNumber),
		metric("max cycles", float64(t.MaxLatency), noNumber),
		metric("hops", t.Hops, noNumber),
		metric("source wait cycles", t.SourceWait, noNumber),
		metric("packets", float64(t.Packets), noNumber),
		metric("delivered", float64(t.Delivered), noNumber),
	}
	return o
}
