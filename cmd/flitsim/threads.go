package main

import (
	"fmt"
	"io"
	"runtime"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/sim/network"
)

// addThreadsFlag registers --threads: threads per simulation (run.threads;
// network.Config.Threads), 0 leaving the configs' value.
func (c *command) addThreadsFlag() *int {
	return c.Int("threads", 0, fmt.Sprintf("threads stepping each network simulation, 1..%d (overrides run.threads; 0: the config's, default 1); results are the same for any value", network.MaxThreads))
}

// checkThreads refuses a --threads value out of range.
func checkThreads(name string, threads int) error {
	if threads < 0 || threads > network.MaxThreads {
		return withCode(exitUsage, fmt.Errorf("%s: --threads %d, want 1..%d", name, threads, network.MaxThreads))
	}
	return nil
}

// setThreads gives every experiment whose mode reads run.threads (mode
// network) the --threads value, when given, and returns the most threads
// one of them asks for (at least 1).
func setThreads(exps []*configs.Experiment, threads int) int {
	most := 1
	for _, e := range exps {
		if !e.Reads("run.threads") {
			continue
		}
		if threads > 0 {
			e.Run.Threads = threads
		}
		most = max(most, e.Run.Threads)
	}
	return most
}

// threadWorkers applies the rule that shares the CPUs between the points a
// sweep runs at once (--workers) and the threads each point runs on: without
// --workers, workers × threads <= CPUs (at least one point at a time); an
// explicit --workers is kept, with a note when it oversubscribes the CPUs.
// Either way the results are the same; only the wall time changes.
func threadWorkers(workers int, told bool, threads int, stderr io.Writer) int {
	if threads <= 1 {
		return workers
	}
	cpus := runtime.NumCPU()
	if told {
		if workers*threads > cpus {
			fmt.Fprintf(stderr, "flitsim: --workers %d x %d threads per simulation on %d CPUs: oversubscribed (same results, more wall time)\n", workers, threads, cpus)
		}
		return workers
	}
	w := max(1, cpus/threads)
	if w < workers {
		fmt.Fprintf(stderr, "flitsim: %d threads per simulation: %d point(s) at once on %d CPUs (--workers overrides)\n", threads, w, cpus)
	}
	return min(w, workers)
}
