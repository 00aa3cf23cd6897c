package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/sim/sweep"
)

// costIdle is the cost of a run at (near) zero load relative to one at the
// highest load of its sweep, in unitCosts.
const costIdle = 0.1

// unitCosts estimates the relative cost of one run at each sweep point of
// e, for dealing units to shards (sweep.Plan):
//
//	cost(p) = N · (c₀ + r_p / max_q r_q),  c₀ = 0.1
//
// N is the number of nodes (at least 1) and r_p the offered load of point
// p in the sweep's own unit. A run's work per cycle grows with the routers
// stepped (∝ N) and the flits moving (∝ N · load), and runs near or past
// saturation take longest to converge or to be declared saturated; the
// load is taken relative to the sweep's highest because sweeps are written
// to end near saturation, and because that needs no unit conversion (the
// closed, delta and slotted modes sweep populations and per-slot rates).
// Measured on this project's engine (docs/cluster.md: 4×4, 8×8 and 16×16
// tori, 16-flit messages, 0.05–0.5 flits/node/cycle) a point's wall time
// is within a factor of about 2 of this shape. The estimate only balances
// shards; it never changes a result.
func unitCosts(e *configs.Experiment) []float64 {
	n := float64(max(e.Nodes(), 1))
	top := slices.Max(e.Sweep.Rates)
	c := make([]float64, len(e.Sweep.Rates))
	for i, r := range e.Sweep.Rates {
		c[i] = n * (costIdle + r/top)
	}
	return c
}

// runShard runs one shard of a flitsim run or validate (O is the unit
// outcome: sweep.Outcome, validation.PointResult) and reports where its file
// is.
func runShard[O any](ctx context.Context, jobs []sweep.Job, s sweep.Shard, fn sweep.UnitFunc[O], opt sweep.ShardOptions, progress bool, stdout, stderr io.Writer) error {
	if opt.Dir != "" {
		// Shards of one run may share a directory; each file has one writer.
		lock, err := lockOut(opt.Dir, s.FileName())
		if err != nil {
			return err
		}
		defer lock.Unlock()
	}
	var prog sweep.Progress
	opt.Progress = &prog
	stop := startProgress(&prog, progress, stderr)
	f, err := sweep.RunShard(ctx, jobs, s, fn, opt)
	stop()
	path := filepath.Join(opt.Dir, s.FileName())
	if f != nil {
		costs := sweep.PlanCost(jobs, sweep.Plan(jobs, s.Count))
		var total float64
		for _, c := range costs {
			total += c
		}
		snap := prog.Snapshot()
		fmt.Fprintf(stdout, "shard %s: %d of %d units finished (%d run now, %d kept from before), estimated cost %.3g of %.3g in all; %s\n",
			s, len(f.Results), len(f.Units), snap.UnitsDone, len(f.Results)-int(snap.UnitsDone), costs[s.Index], total, path)
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return withCode(exitInterrupted, fmt.Errorf("interrupted: finished units of shard %s are kept in %s; rerun it alone with --shard %s --resume", s, path, s))
	case errors.Is(err, sweep.ErrResumeMismatch):
		return withCode(exitUsage, err)
	}
	return withCode(exitRuntime, err)
}
