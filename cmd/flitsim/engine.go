package main

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/internal/sysmem"
	"github.com/flitsim/flitsim/sim/sweep"
)

// runner runs one sweep unit of one experiment on its mode's engine.
type runner func(ctx context.Context) (sweep.Outcome, error)

// newRunnerHook is called by every newRunner; tests count builds with it.
var newRunnerHook = func() {}

// newRunner builds the run of sweep point `point` of e with root seed
// `seed` on the engine of e's mode (configs.Experiment.NewRun: its row of
// the mode table builds the engine's config, the engine, and maps its
// result onto one results row); building it checks everything the engine
// checks, so a config the engine refuses fails here.
func newRunner(e *configs.Experiment, point int, seed uint64) (runner, error) {
	newRunnerHook()
	run, err := e.NewRun(point, seed)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) (sweep.Outcome, error) {
		r, err := run(ctx)
		return r.Outcome, err
	}, nil
}

// engineUnitFunc returns the function that runs one sweep unit of exps on
// the engine of each experiment's mode. Before returning it builds the
// first run (point 0, replication 0, with that unit's seed) of every
// experiment whose engine the loader did not build
// (configs.Experiment.BuiltAtLoad: mode network), so an engine refusal
// (beyond what the loader checks) is reported as an invalid config before
// any run starts; that engine is then the one the unit runs, so each run
// builds its engine once. A job whose first unit is not run (resumed, or
// in another shard) drops it when its first unit that is run starts. The
// engines configs.Load built (the paper modes: cheap) are not built again
// here: the loader refused the file there, and the seed, the only thing
// cmd may change since, never makes an engine refuse.
func engineUnitFunc(exps []*configs.Experiment) (sweep.Func, error) {
	first := make([]runner, len(exps))
	for j, e := range exps {
		if e.BuiltAtLoad() {
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

// checkMemory estimates the memory of every experiment whose mode
// estimates it (configs.Experiment.EstimateMemory: mode network's
// network.EstimateMemory, at its first point) before anything is built, and refuses, naming the estimate and the limit, one that cannot
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
		m, ok := e.EstimateMemory()
		if !ok {
			continue // not estimated, or refused: the engine check reports it
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
