package sweep

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/sim"
)

// SourceSim is the source column of simulated rows; models use "model:<name>".
const SourceSim = "sim"

// Job is one experiment to sweep. Its JSON form is the job's entry in a
// shard file header (see [ShardHeader]).
type Job struct {
	Name         string    `json:"name"`         // config name, the config column
	Hash         string    `json:"config_hash"`  // config hash (configs.Experiment.Hash)
	Seed         uint64    `json:"seed"`         // root seed
	RateUnit     string    `json:"rate_unit"`    // unit of Rates, the rate_unit column
	Rates        []float64 `json:"rates"`        // offered loads, one point each
	Replications int       `json:"replications"` // runs per point, >= 1
	// Cost is the estimated relative cost of one run at each point, used
	// only to deal units to shards ([Plan]); nil means every point costs
	// the same. It never changes a result.
	Cost []float64 `json:"cost,omitempty"`
	// File and Source are the config file's path and text, for commands
	// whose merge must rebuild the experiment (flitsim validate re-evaluates
	// the models and renders the report from them); empty for flitsim run.
	File   string `json:"file,omitempty"`
	Source string `json:"source,omitempty"`
}

// Unit is one run: replication Replication of point Point of job Job.
type Unit struct {
	Job, Point, Replication int
	// Index is the unit's position in the run's unit order
	// (jobs, then points, then replications).
	Index int
	// Seed is the root seed of the run, derived as the package doc says.
	Seed uint64
}

// Outcome is what one run reports. Latencies are in cycles, Accepted and
// Offered in flits/node/cycle (each mode's reading of the columns is in
// docs/config.md). Extra holds the mode's further measurements, in a fixed
// order per mode.
type Outcome struct {
	Status, Reason                     string
	Latency, LatencyCI95               float64
	NetworkLatency, NetworkLatencyCI95 float64
	Accepted, Offered                  float64
	Cycles                             int64
	Extra                              []Metric
}

// Metric is one further measured quantity of a run (a per-stage rejection
// probability, a utilisation, X0): its name (with the unit where it is not
// obvious, e.g. "queue[2] packets"), mean and the half-width of its 95%
// confidence interval (NaN when the mode gives no interval).
type Metric struct {
	Name        string
	Value, CI95 float64
}

// Func runs one unit of a flit-level sweep (see [UnitFunc]).
type Func = UnitFunc[Outcome]

// Options controls a sweep.
type Options struct {
	// Workers is the number of units run at once (0: runtime.NumCPU()).
	Workers int
	// Dir receives results.csv and results.json ("" writes nothing).
	Dir string
	// Resume keeps the rows already in Dir/results.json and skips their units.
	Resume bool
	// Version is the flitsim version written in every row.
	Version string
	// Progress, if not nil, is updated as units finish.
	Progress *Progress
}

// UnitError is a runtime failure of one unit.
type UnitError struct {
	Unit Unit
	Job  string
	Rate float64
	Err  error
}

// Error names the job, rate and replication that failed.
func (e *UnitError) Error() string {
	return fmt.Sprintf("%s at rate %g, replication %d: %v", e.Job, e.Rate, e.Unit.Replication, e.Err)
}

// Unwrap returns the unit's error.
func (e *UnitError) Unwrap() error { return e.Err }

// UnitSeed returns the seed of replication rep of point of a job with root
// seed root (see the package doc).
func UnitSeed(root uint64, point, rep int) uint64 {
	ps := sim.DeriveSeed(root, sim.PurposeSweepPoint, uint64(point))
	return sim.DeriveSeed(ps, sim.PurposeReplication, uint64(rep))
}

// Units returns every unit of jobs in index order.
func Units(jobs []Job) []Unit {
	var us []Unit
	for j, job := range jobs {
		for p := range job.Rates {
			for r := 0; r < job.Replications; r++ {
				us = append(us, Unit{Job: j, Point: p, Replication: r, Index: len(us), Seed: UnitSeed(job.Seed, p, r)})
			}
		}
	}
	return us
}

// Combine merges the outcomes of one point's replications (in replication
// order) into its row, as the package doc says. The status is the worst of
// the replications (deadlock, then saturated, then unconverged, then
// out-of-domain, then ok);
// a point that is not ok has no latency, only accepted and offered.
func Combine(job Job, point int, outs []Outcome, version string) Row {
	row := Row{
		Config: job.Name, Source: SourceSim, Rate: job.Rates[point], RateUnit: job.RateUnit,
		Status: sim.StatusOK, Replications: len(outs), Seed: job.Seed, ConfigHash: job.Hash, Version: version,
	}
	rank := map[string]int{sim.StatusOK: 0, sim.StatusOutOfDomain: 1, sim.StatusUnconverged: 2, sim.StatusSaturated: 3, sim.StatusDeadlock: 4}
	var acc, off float64
	for i, o := range outs {
		st := o.Status
		if _, known := rank[st]; !known {
			st = sim.StatusDeadlock // an unknown status is never reported as ok
			if o.Reason == "" {
				o.Reason = fmt.Sprintf("unknown status %q", o.Status)
			}
		}
		if rank[st] > rank[row.Status] {
			row.Status = st
			row.Reason = o.Reason
			if len(outs) > 1 && o.Reason != "" {
				row.Reason = fmt.Sprintf("replication %d: %s", i, o.Reason)
			}
		} else if row.Reason == "" && st == row.Status && o.Reason != "" {
			row.Reason = o.Reason
		}
		acc += o.Accepted
		off += o.Offered
		row.Cycles += o.Cycles
	}
	n := float64(len(outs))
	row.Accepted = finite(acc / n)
	row.Offered = finite(off / n)
	if row.Status != sim.StatusOK {
		return row
	}
	lat := make([]float64, len(outs))
	net := make([]float64, len(outs))
	for i, o := range outs {
		lat[i], net[i] = o.Latency, o.NetworkLatency
	}
	if len(outs) == 1 {
		row.Latency = finite(outs[0].Latency)
		row.LatencyCI95 = finite(outs[0].LatencyCI95)
		row.NetworkLatency = finite(outs[0].NetworkLatency)
		row.NetworkLatencyCI95 = finite(outs[0].NetworkLatencyCI95)
		row.Extra = combineExtra(outs)
		return row
	}
	m, h := meanCI(lat)
	row.Latency, row.LatencyCI95 = finite(m), finite(h)
	m, h = meanCI(net)
	row.NetworkLatency, row.NetworkLatencyCI95 = finite(m), finite(h)
	row.Extra = combineExtra(outs)
	return row
}

// combineExtra combines the Extra metrics of ok replications by position
// (every replication of a point runs the same mode, so the lists match):
// one replication keeps its own CI, several get the mean and the CI across
// replications, as the latency does. A list that does not match replication
// 0's is a programmer error and keeps replication 0's values.
func combineExtra(outs []Outcome) []RowMetric {
	first := outs[0].Extra
	if len(first) == 0 {
		return nil
	}
	out := make([]RowMetric, len(first))
	for k, m := range first {
		out[k] = RowMetric{Name: m.Name, Value: finite(m.Value), CI95: finite(m.CI95)}
	}
	if len(outs) == 1 {
		return out
	}
	sameNames := func(a, b Metric) bool { return a.Name == b.Name }
	for _, o := range outs[1:] {
		if !slices.EqualFunc(o.Extra, first, sameNames) {
			return out
		}
	}
	xs := make([]float64, len(outs))
	for k := range first {
		for i, o := range outs {
			xs[i] = o.Extra[k].Value
		}
		mean, h := meanCI(xs)
		out[k].Value, out[k].CI95 = finite(mean), finite(h)
	}
	return out
}

// meanCI returns the mean of xs (len >= 2) and the half-width of its 95%
// Student-t confidence interval:
//
//	h = t_{0.975, n−1} · s / √n,  s² = Σ (x − mean)² / (n − 1)
func meanCI(xs []float64) (mean, half float64) {
	var sum float64
	for _, x := range xs {
		sum += x
	}
	n := float64(len(xs))
	mean = sum / n
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	s := math.Sqrt(ss / (n - 1))
	return mean, sim.StudentTQuantile(0.975, len(xs)-1) * s / math.Sqrt(n)
}

// finite returns &v, or nil when v is NaN or infinite (never written as a number).
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// Run sweeps jobs with fn and returns the rows of every finished point in
// (job, point) order. It returns a *UnitError if a unit failed, ctx.Err()
// (wrapped) if ctx was cancelled, or an error from reading or writing the
// results; in every case the rows of the points that finished are returned
// and are on disk.
func Run(ctx context.Context, jobs []Job, fn Func, opt Options) ([]Row, error) {
	if err := checkJobs(jobs); err != nil {
		return nil, err
	}
	// Global point index of (job, point).
	firstPoint := make([]int, len(jobs)+1)
	for j, job := range jobs {
		firstPoint[j+1] = firstPoint[j] + len(job.Rates)
	}
	rows := make([]*Row, firstPoint[len(jobs)])
	if opt.Resume && opt.Dir != "" {
		if err := resume(opt.Dir, jobs, firstPoint, rows, opt.Version); err != nil {
			return nil, err
		}
	}
	var todo []Unit
	for _, u := range Units(jobs) {
		if rows[firstPoint[u.Job]+u.Point] == nil {
			todo = append(todo, u)
		}
	}
	pending := 0
	for _, r := range rows {
		if r == nil {
			pending++
		}
	}
	if opt.Progress != nil {
		opt.Progress.begin(len(rows), len(rows)-pending, len(todo))
	}
	flush := func() error {
		if opt.Dir == "" {
			return nil
		}
		return WriteFiles(opt.Dir, finished(rows))
	}
	if err := flush(); err != nil {
		return nil, err
	}

	outs := make([][]Outcome, len(rows))
	got := make([]int, len(rows))
	err := ForEach(ctx, jobs, todo, opt.Workers, track(opt.Progress, jobs, fn), func(u Unit, out Outcome) error {
		gp := firstPoint[u.Job] + u.Point
		job := jobs[u.Job]
		if outs[gp] == nil {
			outs[gp] = make([]Outcome, job.Replications)
		}
		outs[gp][u.Replication] = out
		got[gp]++
		if opt.Progress != nil {
			opt.Progress.unitDone(out.Cycles)
		}
		if got[gp] < job.Replications {
			return nil
		}
		row := Combine(job, u.Point, outs[gp], opt.Version)
		rows[gp] = &row
		outs[gp] = nil
		if opt.Progress != nil {
			opt.Progress.pointDone()
		}
		return flush()
	})
	return finished(rows), err
}

// track returns fn reporting each running unit to p (fn itself when p is
// nil): the unit's context carries the meter its engine stores into.
func track[O any](p *Progress, jobs []Job, fn UnitFunc[O]) UnitFunc[O] {
	if p == nil {
		return fn
	}
	return func(ctx context.Context, u Unit) (O, error) {
		ctx, a := p.startUnit(ctx, unitLabel(jobs[u.Job], u))
		defer p.endUnit(a)
		return fn(ctx, u)
	}
}

// unitLabel names a unit in the progress line: "config @ rate", with
// "#r" for replication r when the job has several.
func unitLabel(j Job, u Unit) string {
	l := j.Name + " @ " + strconv.FormatFloat(j.Rates[u.Point], 'g', -1, 64)
	if j.Replications > 1 {
		l += " #" + strconv.Itoa(u.Replication+1)
	}
	return l
}

// finished returns the non-nil rows in order.
func finished(rows []*Row) []Row {
	out := make([]Row, 0, len(rows))
	for _, r := range rows {
		if r != nil {
			out = append(out, *r)
		}
	}
	return out
}

// ErrResumeMismatch is returned (wrapped) when the results on disk were made
// by a different config, seed or version than the run being resumed.
var ErrResumeMismatch = errors.New("results on disk do not match this run")

// resume fills rows from dir/results.json.
func resume(dir string, jobs []Job, firstPoint []int, rows []*Row, version string) error {
	old, err := ReadJSON(dir)
	if err != nil {
		return err
	}
	byName := map[string]int{}
	for j, job := range jobs {
		byName[job.Name] = j
	}
	// Every row on disk must belong to this run: the files are rewritten
	// with this run's rows only, so a row of another config (or a model
	// row) would be dropped without a word.
	var foreign []string
	seen := map[string]bool{}
	for _, r := range old {
		_, ok := byName[r.Config]
		key := r.Config
		if r.Source != SourceSim {
			key = r.Config + " (" + r.Source + ")"
		}
		if (!ok || r.Source != SourceSim) && !seen[key] {
			seen[key] = true
			foreign = append(foreign, key)
		}
	}
	if len(foreign) > 0 {
		return fmt.Errorf("resume %s: %w: it holds rows of %s, which this run does not include (resuming would drop them); run the same configs again, or use another --out",
			dir, ErrResumeMismatch, strings.Join(foreign, ", "))
	}
	for _, r := range old {
		j := byName[r.Config]
		job := jobs[j]
		if r.ConfigHash != job.Hash || r.Seed != job.Seed || r.Version != version {
			return fmt.Errorf("resume %s: %w: config %s has hash %.12s seed %d version %s on disk, %.12s seed %d version %s now; use another --out or drop --resume",
				dir, ErrResumeMismatch, r.Config, r.ConfigHash, r.Seed, r.Version, job.Hash, job.Seed, version)
		}
		for i, rate := range job.Rates {
			if rate == r.Rate && r.Replications == job.Replications {
				row := r
				rows[firstPoint[j]+i] = &row
			}
		}
	}
	return nil
}
