package slotted

import (
	"context"
	"fmt"
	"math"

	"github.com/flitsim/flitsim/sim"
)

// Search is the outcome of SaturationSearch: the bracket [Stable, Saturated]
// around the largest sustainable generation rate, packets/node/slot.
type Search struct {
	// Stable is the largest rate whose run did not end sim.StatusSaturated
	// (0 if none was run: the lower end of the initial bracket was 0). Its
	// run is ok or, near capacity where a run of the configured length
	// cannot narrow the delay CI to its bound, sim.StatusUnconverged: no
	// growth of the backlog was seen, which is what the search is about.
	Stable float64
	// Saturated is the smallest rate whose run ended sim.StatusSaturated, or the
	// hard bound 1/(2d) if the search never had to run above it.
	Saturated float64
	// StableResult is the run at Stable (zero if Stable is 0).
	StableResult Result
	// Runs is the number of simulations made.
	Runs int
}

// HardBound returns 1/(2d) packets/node/slot, d = n/(2(1 − 2^−n)) the mean
// distance: every packet needs d sends and d receptions and a node does one
// of the two per slot, so no rate at or above it is sustainable.
func HardBound(dim int) float64 {
	d := float64(dim) / (2 * (1 - math.Ldexp(1, -dim)))
	return 1 / (2 * d)
}

// SaturationSearch finds the largest stable λ by bisection on whether Run
// ends saturated: with cfg.Rate replaced by each trial rate and everything else
// (seed included) unchanged, so the search is deterministic given cfg.
//
// The initial bracket is [lo, hi]; lo = 0 is taken as stable without a run
// and hi = 0 means HardBound(cfg.Dim), taken as saturated without a run.
// Otherwise the run at lo must end ok and the run at hi saturated, or an
// error says which did not. Bisection stops when Saturated − Stable ≤ tol
// (packets/node/slot; tol = 0 means (hi − lo)/64).
//
// Near the true capacity a run's verdict depends on its length
// (cfg.Run.MaxSlots): the slower the backlog grows, the longer it takes to
// see, so the bracket is that of the configured run length, and its upper
// end may sit a little above the true capacity.
func SaturationSearch(ctx context.Context, cfg Config, lo, hi, tol float64) (Search, error) {
	if cfg.Dim < 1 || cfg.Dim > MaxDim {
		return Search{}, fmt.Errorf("slotted: Dim = %d, want 1..%d", cfg.Dim, MaxDim)
	}
	if hi == 0 {
		hi = HardBound(cfg.Dim)
	}
	if !(lo >= 0 && hi > lo) || math.IsInf(hi, 0) {
		return Search{}, fmt.Errorf("slotted: search bracket [%v, %v], want 0 <= lo < hi < Inf", lo, hi)
	}
	if tol == 0 {
		tol = (hi - lo) / 64
	}
	if !(tol > 0) {
		return Search{}, fmt.Errorf("slotted: search tolerance %v, want > 0", tol)
	}
	var out Search
	run := func(rate float64) (Result, error) {
		c := cfg
		c.Rate = rate
		sm, err := New(c)
		if err != nil {
			return Result{}, err
		}
		out.Runs++
		return sm.Run(ctx)
	}
	out.Stable, out.Saturated = lo, hi
	if lo > 0 {
		r, err := run(lo)
		if err != nil {
			return out, err
		}
		if r.Status == sim.StatusSaturated {
			return out, fmt.Errorf("slotted: search lower end %v is already saturated: %s", lo, r.Reason)
		}
		out.StableResult = r
	}
	if hi != HardBound(cfg.Dim) {
		r, err := run(hi)
		if err != nil {
			return out, err
		}
		if r.Status != sim.StatusSaturated {
			return out, fmt.Errorf("slotted: search upper end %v is stable; raise it (at most HardBound = %v)", hi, HardBound(cfg.Dim))
		}
	}
	for out.Saturated-out.Stable > tol {
		mid := out.Stable + (out.Saturated-out.Stable)/2
		r, err := run(mid)
		if err != nil {
			return out, err
		}
		if r.Status != sim.StatusSaturated {
			out.Stable, out.StableResult = mid, r
		} else {
			out.Saturated = mid
		}
	}
	return out, nil
}
