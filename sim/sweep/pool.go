package sweep

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
)

// UnitFunc runs one unit and returns its outcome of type O. It must return
// promptly with ctx.Err() once ctx is cancelled; any other non-nil error is
// a runtime failure that stops the run. [Func] is UnitFunc[Outcome]; the
// validation harness runs its own outcome type through the same pool and
// shard machinery.
type UnitFunc[O any] func(ctx context.Context, u Unit) (O, error)

// ForEach runs fn on every unit of todo, in that order, on workers
// goroutines (<= 0: runtime.NumCPU()), and calls done for each finished unit
// from the calling goroutine, one at a time, so done needs no lock. It stops
// at the first failure: a unit's error (as a *UnitError), an error from
// done, or the cancellation of ctx (wrapped as "sweep interrupted"). Units
// interrupted by the cancellation are dropped, never passed to done. Run,
// RunShard and the validation harness all run their units through it.
func ForEach[O any](ctx context.Context, jobs []Job, todo []Unit, workers int, fn UnitFunc[O], done func(Unit, O) error) error {
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	type result struct {
		u   Unit
		out O
		err error
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := make(chan Unit)
	results := make(chan result)
	var wg sync.WaitGroup
	go func() {
		defer close(next)
		for _, u := range todo {
			select {
			case next <- u:
			case <-runCtx.Done():
				return
			}
		}
	}()
	for w := 0; w < min(workers, max(len(todo), 1)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := range next {
				if runCtx.Err() != nil {
					return
				}
				out, err := fn(runCtx, u)
				results <- result{u, out, err}
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

	var failure error
	for res := range results {
		if failure != nil {
			continue // drain
		}
		if res.err != nil {
			if runCtx.Err() != nil && errors.Is(res.err, runCtx.Err()) {
				continue // interrupted mid-run: not a result
			}
			job := jobs[res.u.Job]
			failure = &UnitError{Unit: res.u, Job: job.Name, Rate: job.Rates[res.u.Point], Err: res.err}
			cancel()
			continue
		}
		if err := done(res.u, res.out); err != nil {
			failure = err
			cancel()
		}
	}
	if failure != nil {
		return failure
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("sweep interrupted: %w", err)
	}
	return nil
}
