package booksim

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/sim/network"
)

// Row kinds of a comparison.
const (
	KindZeroLoad   = "zero-load"  // the lowest load: judged in cycles (ZeroLoadCycles)
	KindLatency    = "latency"    // judged relatively below JudgedFraction
	KindSaturation = "saturation" // accepted flits/node/cycle at offered 1.0
)

// Row is one comparison of flitsim with BookSim.
type Row struct {
	Config   string
	Kind     string
	Fraction float64 // of BookSim's saturation throughput (1 for saturation)
	Offered  float64 // flits/node/cycle
	BookSim  Stat    // latency (cycles) or accepted throughput over BookSim's seeds
	// BookSimUnstable counts BookSim seeds that ended "unstable".
	BookSimUnstable int
	Flitsim         float64 // latency (cycles) or accepted flits/node/cycle
	FlitsimCI       float64 // 95% half-width of a latency, 0 for throughput
	Status          string  // flitsim's run status ("ok", "saturated", ...)
	Reason          string  // flitsim's reason when not ok
	// Error is flitsim - BookSim in cycles (zero-load) or relative to
	// BookSim (latency, saturation).
	Error  float64
	Judged bool // false: reported only (0.9 of saturation and above)
	Pass   bool
}

// Options tunes Compare.
type Options struct {
	// Fractions restricts the latency loads to these fractions of BookSim's
	// saturation (nil: every load of the reference).
	Fractions []float64
	// Saturation: also measure the saturation throughput.
	Saturation bool
	// Seed is flitsim's root seed (0 means 1).
	Seed uint64
	// MaxCycles caps flitsim's latency runs (0: 400 000).
	MaxCycles int64
	// Workers runs this many flitsim runs at once (0 means 1).
	Workers int
	// Adjust, when set, changes every flitsim configuration before it is
	// built: the one-change experiments of docs/booksim.md.
	Adjust func(*network.Config)
}

// SaturationRun is how flitsim measures a saturation throughput: offered
// load 1.0 flits/node/cycle, a fixed warm-up of 10 000 cycles, then 20 000
// measured cycles (BookSim's sim_type = throughput warms up for 3 periods
// of 1000 cycles and measures until its accepted rate converges).
var SaturationRun = sim.RunControl{Warmup: 10000, MinMeasure: 20000, MaxCycles: 30000, TargetRelCI: -1}

// Compare runs flitsim on configuration name of the reference at
// BookSim's loads and judges every point against the targets.
func Compare(ctx context.Context, ref *Reference, name string, opt Options) ([]Row, error) {
	c, ok := ref.Config(name)
	if !ok {
		return nil, fmt.Errorf("booksim: no configuration %q in the reference", name)
	}
	cv := ref.Curve(name)
	if len(cv.Loads) == 0 {
		return nil, fmt.Errorf("booksim: %s: the reference has no figures", name)
	}
	seed := opt.Seed
	if seed == 0 {
		seed = 1
	}
	maxCycles := opt.MaxCycles
	if maxCycles == 0 {
		maxCycles = 400000
	}
	var rows []Row
	for k, l := range cv.Loads {
		if opt.Fractions != nil && !contains(opt.Fractions, l.Fraction) {
			continue
		}
		kind := KindLatency
		if k == 0 {
			kind = KindZeroLoad
		}
		rows = append(rows, Row{Config: name, Kind: kind, Fraction: l.Fraction, Offered: l.Offered,
			BookSim: l.Latency, BookSimUnstable: l.Unstable})
	}
	if opt.Saturation && cv.Saturation.N > 0 { // none where BookSim's throughput run deadlocks (ref-adaptive)
		rows = append(rows, Row{Config: name, Kind: KindSaturation, Fraction: 1, Offered: 1, BookSim: cv.Saturation})
	}
	workers := max(opt.Workers, 1)
	errs := make([]error, len(rows))
	var wg sync.WaitGroup
	sem := make(chan struct{}, workers)
	for i := range rows {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			errs[i] = rows[i].run(ctx, c, seed, maxCycles, opt.Adjust)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return rows, nil
}

func contains(xs []float64, x float64) bool {
	for _, y := range xs {
		if math.Abs(x-y) < 1e-9 {
			return true
		}
	}
	return false
}

// run measures the row on flitsim and judges it.
func (r *Row) run(ctx context.Context, c Config, seed uint64, maxCycles int64, adjust func(*network.Config)) error {
	nc, err := c.Network(r.Offered, seed)
	if err != nil {
		return err
	}
	if r.Kind == KindSaturation {
		nc.Run = SaturationRun
	} else {
		nc.Run = sim.RunControl{MaxCycles: sim.Cycle(maxCycles)}
	}
	if adjust != nil {
		adjust(&nc)
	}
	n, err := network.New(nc)
	if err != nil {
		return fmt.Errorf("booksim: %s: %w", c.Name, err)
	}
	res, err := n.Run(ctx)
	if err != nil {
		return fmt.Errorf("booksim: %s at %.4f: %w", c.Name, r.Offered, err)
	}
	r.Status, r.Reason = res.Status, res.Reason
	b := r.BookSim.Mean
	switch r.Kind {
	case KindSaturation:
		r.Flitsim = res.Accepted
		r.Error = (r.Flitsim - b) / b
		r.Judged = true
		r.Pass = math.Abs(r.Error) <= SaturationTolerance
	default:
		r.Flitsim, r.FlitsimCI = res.Latency, res.LatencyCI95
		if r.Status != "ok" {
			r.Flitsim = math.NaN()
		}
		r.Judged = r.Fraction < JudgedFraction-1e-9 && r.BookSim.N > 0
		if r.Kind == KindZeroLoad {
			r.Error = r.Flitsim - b
			r.Pass = math.Abs(r.Error) <= ZeroLoadCycles && math.Abs(r.Error)/b <= LatencyTolerance
		} else {
			r.Error = (r.Flitsim - b) / b
			r.Pass = math.Abs(r.Error) <= LatencyTolerance
		}
	}
	if !r.Judged {
		r.Pass = true
	}
	return nil
}

// String formats a row for logs and tables.
func (r Row) String() string {
	unit := "%"
	e := 100 * r.Error
	if r.Kind == KindZeroLoad {
		unit, e = " cycles", r.Error
	}
	verdict := "pass"
	switch {
	case !r.Judged:
		verdict = "reported"
	case !r.Pass:
		verdict = "FAIL"
	}
	return fmt.Sprintf("%-34s %-10s %4.2f %7.4f  booksim %8.3f  flitsim %8.3f ±%.2f (%s)  error %+6.2f%s  %s",
		r.Config, r.Kind, r.Fraction, r.Offered, r.BookSim.Mean, r.Flitsim, r.FlitsimCI, r.Status, e, unit, verdict)
}
