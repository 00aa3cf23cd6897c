package sweep

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/flitsim/flitsim/sim"
)

// fakeJobs is two experiments, one with replications, one whose last point
// saturates in the fake.
func fakeJobs() []Job {
	return []Job{
		{Name: "a", Hash: "h-a", Seed: 1, RateUnit: "flits/node/cycle", Rates: []float64{0.1, 0.2, 0.3, 0.4, 0.5}, Replications: 3},
		{Name: "b", Hash: "h-b", Seed: 2, RateUnit: "messages/node/cycle", Rates: []float64{0.01, 0.02, 0.9}, Replications: 1},
	}
}

// fakeRun is a stand-in for the engine: an M/M/1-shaped latency curve
// 1/(1-rho) with noise drawn from the unit's own seed, saturation at
// rho >= 0.8, and a completion delay drawn from the seed too, so that units
// finish out of order when several workers run.
func fakeRun(jobs []Job) Func {
	return func(ctx context.Context, u Unit) (Outcome, error) {
		rng := sim.NewStream(u.Seed, sim.PurposeService, 0)
		select {
		case <-time.After(time.Duration(rng.IntN(3000)) * time.Microsecond):
		case <-ctx.Done():
			return Outcome{}, ctx.Err()
		}
		rho := jobs[u.Job].Rates[u.Point]
		if rho >= 0.8 {
			return Outcome{Status: sim.StatusSaturated, Reason: "backlog grows", Accepted: 0.8, Offered: rho, Cycles: 5000}, nil
		}
		lat := 20/(1-rho) + rng.NormFloat64()
		return Outcome{
			Status: sim.StatusOK, Latency: lat, LatencyCI95: 0.5 + rng.Float64(), NetworkLatency: lat - 3,
			NetworkLatencyCI95: 0.4, Accepted: rho * (1 - 0.01*rng.Float64()), Offered: rho, Cycles: 10000 + int64(rng.IntN(100)),
		}, nil
	}
}

func readFiles(t *testing.T, dir string) (csvB, jsonB []byte) {
	t.Helper()
	c, err := os.ReadFile(filepath.Join(dir, CSVFile))
	if err != nil {
		t.Fatal(err)
	}
	j, err := os.ReadFile(filepath.Join(dir, JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	return c, j
}

// TestDeterministicAcrossWorkers checks that the results files are
// byte-identical for 1, 2 and 8 workers.
func TestDeterministicAcrossWorkers(t *testing.T) {
	jobs := fakeJobs()
	var refCSV, refJSON []byte
	for _, w := range []int{1, 2, 8} {
		dir := t.TempDir()
		rows, err := Run(context.Background(), jobs, fakeRun(jobs), Options{Workers: w, Dir: dir, Version: "test"})
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 8 {
			t.Fatalf("workers %d: %d rows, want 8", w, len(rows))
		}
		c, j := readFiles(t, dir)
		if refCSV == nil {
			refCSV, refJSON = c, j
			continue
		}
		if !bytes.Equal(c, refCSV) || !bytes.Equal(j, refJSON) {
			t.Errorf("workers %d: output differs from workers 1:\n%s\nvs\n%s", w, c, refCSV)
		}
	}
	if !bytes.HasPrefix(refCSV, []byte("config,source,rate,rate_unit,latency,latency_ci95,network_latency,network_latency_ci95,accepted,offered,status,")) {
		t.Errorf("CSV header: %s", bytes.SplitN(refCSV, []byte("\n"), 2)[0])
	}
	if !bytes.Contains(refCSV, []byte("\nb,sim,0.9,messages/node/cycle,,,,,0.8,0.9,saturated,backlog grows,1,5000,2,h-b,test,\n")) {
		t.Errorf("saturated row missing or malformed:\n%s", refCSV)
	}
}

// TestResumeAfterCancel kills a sweep midway (cancels its context after a
// few points), checks the files on disk are complete and hold only finished
// points, resumes, and checks the resumed run skips them and ends with the
// same bytes as an uninterrupted run.
func TestResumeAfterCancel(t *testing.T) {
	jobs := fakeJobs()
	full := t.TempDir()
	if _, err := Run(context.Background(), jobs, fakeRun(jobs), Options{Workers: 2, Dir: full, Version: "v"}); err != nil {
		t.Fatal(err)
	}
	wantCSV, wantJSON := readFiles(t, full)

	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int64
	base := fakeRun(jobs)
	killer := func(c context.Context, u Unit) (Outcome, error) {
		if calls.Add(1) == 8 {
			cancel() // Ctrl-C while later units are in flight
		}
		return base(c, u)
	}
	start := time.Now()
	rows, err := Run(ctx, jobs, killer, Options{Workers: 2, Dir: dir, Version: "v"})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("cancellation took %v", d)
	}
	if len(rows) == 0 || len(rows) >= 8 {
		t.Fatalf("interrupted run kept %d points, want some but not all", len(rows))
	}
	disk, err := ReadJSON(dir)
	if err != nil || len(disk) != len(rows) {
		t.Fatalf("on disk: %d rows, err %v; returned %d", len(disk), err, len(rows))
	}

	var resumed atomic.Int64
	counting := func(c context.Context, u Unit) (Outcome, error) {
		resumed.Add(1)
		return base(c, u)
	}
	all := len(Units(jobs))
	skipped := 0
	for _, r := range rows {
		skipped += r.Replications
	}
	if _, err := Run(context.Background(), jobs, counting, Options{Workers: 2, Dir: dir, Version: "v", Resume: true}); err != nil {
		t.Fatal(err)
	}
	if got, want := int(resumed.Load()), all-skipped; got != want {
		t.Errorf("resumed run ran %d units, want %d (%d skipped)", got, want, skipped)
	}
	c, j := readFiles(t, dir)
	if !bytes.Equal(c, wantCSV) || !bytes.Equal(j, wantJSON) {
		t.Errorf("resumed output differs from uninterrupted:\n%s\nvs\n%s", c, wantCSV)
	}

	// Resuming under another version, seed or config is refused.
	other := fakeJobs()
	other[0].Hash = "changed"
	_, err = Run(context.Background(), other, counting, Options{Dir: dir, Version: "v", Resume: true})
	if !errors.Is(err, ErrResumeMismatch) {
		t.Errorf("changed hash: err = %v, want ErrResumeMismatch", err)
	}
	_, err = Run(context.Background(), jobs, counting, Options{Dir: dir, Version: "v2", Resume: true})
	if !errors.Is(err, ErrResumeMismatch) {
		t.Errorf("changed version: err = %v, want ErrResumeMismatch", err)
	}
}

// TestUnitFailure checks that a failing unit stops the sweep with a
// *UnitError naming it, and finished points stay on disk.
func TestUnitFailure(t *testing.T) {
	jobs := fakeJobs()
	base := fakeRun(jobs)
	boom := errors.New("engine exploded")
	fn := func(c context.Context, u Unit) (Outcome, error) {
		if u.Job == 1 && u.Point == 1 {
			return Outcome{}, boom
		}
		return base(c, u)
	}
	dir := t.TempDir()
	rows, err := Run(context.Background(), jobs, fn, Options{Workers: 1, Dir: dir, Version: "v"})
	var ue *UnitError
	if !errors.As(err, &ue) || !errors.Is(err, boom) || ue.Job != "b" || ue.Rate != 0.02 {
		t.Fatalf("err = %v, want UnitError for b at 0.02", err)
	}
	// With one worker, units run in order: all of job a and b's first point.
	if len(rows) != 6 {
		t.Errorf("%d rows kept, want 6", len(rows))
	}
	disk, _ := ReadJSON(dir)
	if len(disk) != len(rows) {
		t.Errorf("%d rows on disk, %d returned", len(disk), len(rows))
	}
}

// TestCombine checks the replication combination against hand-computed
// values: means 10, 12, 14 have s = 2, so
//
//	h = t_{0.975,2} · 2/√3,  t_{0.975,2} = 0.95/√(2·0.975·0.025) = 4.302652729749464
//
// (closed form of Student's t for 2 degrees of freedom).
func TestCombine(t *testing.T) {
	job := Job{Name: "x", Hash: "h", Seed: 9, RateUnit: "flits/node/cycle", Rates: []float64{0.3}, Replications: 3}
	outs := []Outcome{
		{Status: sim.StatusOK, Latency: 10, LatencyCI95: 1, NetworkLatency: 8, Accepted: 0.29, Offered: 0.3, Cycles: 100},
		{Status: sim.StatusOK, Latency: 12, LatencyCI95: 1, NetworkLatency: 9, Accepted: 0.30, Offered: 0.3, Cycles: 200},
		{Status: sim.StatusOK, Latency: 14, LatencyCI95: 1, NetworkLatency: 10, Accepted: 0.31, Offered: 0.3, Cycles: 300},
	}
	r := Combine(job, 0, outs, "v")
	const tol = 1e-12 // relative; a few float64 operations
	wantH := 4.302652729749464 * 2 / math.Sqrt(3)
	checks := []struct {
		what      string
		got, want float64
	}{
		{"latency", *r.Latency, 12},
		{"latency_ci95", *r.LatencyCI95, wantH},
		{"network_latency", *r.NetworkLatency, 9},
		{"network_latency_ci95", *r.NetworkLatencyCI95, 4.302652729749464 * 1 / math.Sqrt(3)},
		{"accepted", *r.Accepted, 0.3},
	}
	for _, c := range checks {
		if math.Abs(c.got-c.want) > tol*math.Abs(c.want) {
			t.Errorf("%s = %.17g, want %.17g", c.what, c.got, c.want)
		}
	}
	if r.Cycles != 600 || r.Replications != 3 || r.Status != sim.StatusOK || r.Seed != 9 {
		t.Errorf("row = %+v", r)
	}

	// One replication: the run's own batch-means CI.
	one := Combine(Job{Name: "x", Rates: []float64{0.3}, Replications: 1}, 0, outs[:1], "v")
	if *one.LatencyCI95 != 1 || *one.Latency != 10 {
		t.Errorf("single replication: latency %v ± %v, want 10 ± 1", *one.Latency, *one.LatencyCI95)
	}

	// The worst status wins and a non-ok point has no latency.
	mixed := []Outcome{outs[0], {Status: sim.StatusSaturated, Reason: "backlog", Accepted: 0.5}, {Status: sim.StatusDeadlock, Reason: "stuck"}}
	m := Combine(job, 0, mixed, "v")
	if m.Status != sim.StatusDeadlock || m.Reason != "replication 2: stuck" || m.Latency != nil || m.LatencyCI95 != nil {
		t.Errorf("mixed: status %q reason %q latency %v", m.Status, m.Reason, m.Latency)
	}
	if unk := Combine(Job{Name: "x", Rates: []float64{1}, Replications: 1}, 0, []Outcome{{Status: "cap"}}, "v"); unk.Status != sim.StatusDeadlock {
		t.Errorf("unknown status reported as %q", unk.Status)
	}
	// NaN never reaches the files.
	nan := Combine(Job{Name: "x", Rates: []float64{1}, Replications: 1}, 0, []Outcome{{Status: sim.StatusOK, Latency: math.NaN()}}, "v")
	if nan.Latency != nil || !bytes.Contains(EncodeJSON([]Row{nan}), []byte(`"latency": null`)) {
		t.Errorf("NaN latency not written as null")
	}
}

// TestUnitSeeds checks that a unit's seed depends only on (job seed, point,
// replication): adding replications or jobs keeps existing seeds, and seeds
// are distinct.
func TestUnitSeeds(t *testing.T) {
	one := Units([]Job{{Seed: 5, Rates: []float64{1, 2}, Replications: 1}})
	three := Units([]Job{{Seed: 7, Rates: []float64{9}, Replications: 1}, {Seed: 5, Rates: []float64{1, 2}, Replications: 3}})
	if one[1].Seed != three[4].Seed || three[4].Point != 1 || three[4].Replication != 0 {
		t.Errorf("seed of (point 1, rep 0) changed when replications and jobs were added")
	}
	seen := map[uint64]bool{}
	for i, u := range three {
		if u.Index != i {
			t.Errorf("unit %d has index %d", i, u.Index)
		}
		if seen[u.Seed] {
			t.Errorf("duplicate seed %d", u.Seed)
		}
		seen[u.Seed] = true
	}
}

// TestProgress checks the counters the renderer reads.
func TestProgress(t *testing.T) {
	jobs := fakeJobs()
	var p Progress
	var buf bytes.Buffer
	stop := p.Render(&buf, time.Hour) // draws only the final line
	if _, err := Run(context.Background(), jobs, fakeRun(jobs), Options{Workers: 2, Progress: &p}); err != nil {
		t.Fatal(err)
	}
	stop()
	s := p.Snapshot()
	if s.PointsDone != 8 || s.PointsTotal != 8 || s.UnitsDone != 18 || s.UnitsTotal != 18 || s.Cycles < 160000 {
		t.Errorf("snapshot %+v", s)
	}
	if !bytes.Contains(buf.Bytes(), []byte("points 8/8  runs 18/18")) {
		t.Errorf("rendered %q", buf.String())
	}
}

// TestProgressInsidePoint: while a unit runs, the snapshot shows the
// cycles its engine stored into the context's meter, its rate and the time
// left to its cap; the status line carries them; the unit leaves the list
// when it ends.
func TestProgressInsidePoint(t *testing.T) {
	jobs := []Job{{Name: "long", Hash: "h", Seed: 1, RateUnit: "flits/node/cycle", Rates: []float64{0.3}, Replications: 1}}
	stored, release := make(chan struct{}), make(chan struct{})
	fn := func(ctx context.Context, u Unit) (Outcome, error) {
		time.Sleep(20 * time.Millisecond)
		sim.MeterFrom(ctx).Store(250_000, 1_000_000)
		close(stored)
		<-release
		return Outcome{Status: sim.StatusOK, Latency: 1, Cycles: 300_000}, nil
	}
	var p Progress
	p.Width = 200
	done := make(chan error)
	go func() {
		_, err := Run(context.Background(), jobs, fn, Options{Workers: 1, Progress: &p})
		done <- err
	}()
	<-stored
	s := p.Snapshot()
	if len(s.Running) != 1 {
		t.Fatalf("running %+v, want one unit", s.Running)
	}
	u := s.Running[0]
	if u.Label != "long @ 0.3" || u.Cycles != 250_000 || u.Limit != 1_000_000 || u.CyclesPerSec <= 0 ||
		u.CyclesPerSec > 250_000/0.02 || u.LeftAtMost < 3*u.Elapsed-time.Millisecond {
		t.Errorf("unit progress %+v", u)
	}
	line := p.line()
	for _, frag := range []string{"250.0k cycles", "long @ 0.3: 250.0k/1.00M cycles, ", " cycles/s, <= "} {
		if !strings.Contains(line, frag) {
			t.Errorf("line %q lacks %q", line, frag)
		}
	}
	p.Width = 20
	if got := []rune(p.line()); len(got) != 19 {
		t.Errorf("line cut to %d runes at width 20, want 19", len(got))
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if s := p.Snapshot(); len(s.Running) != 0 || s.Cycles != 300_000 {
		t.Errorf("after the run: %+v", s)
	}
}

// TestExtraMetrics: a single replication keeps its own CI; several get the
// mean and the Student-t CI across replications; the CSV renders
// "name=value±ci95" and an absent CI as "name=value"; a shard file round
// trip keeps every value bit for bit, NaN included.
func TestExtraMetrics(t *testing.T) {
	job := Job{Name: "x", Hash: "h", Seed: 1, RateUnit: "rho", Rates: []float64{0.5}, Replications: 2}
	one := Outcome{Status: sim.StatusOK, Latency: 3, Extra: []Metric{{"p_reject[0]", 0.1, 0.01}, {"queue[0] packets", 0.5, math.NaN()}}}
	row := Combine(job, 0, []Outcome{one}, "v")
	if got := row.extraField(); got != "p_reject[0]=0.1±0.01; queue[0] packets=0.5" {
		t.Fatalf("one replication: extra %q", got)
	}
	two := one
	two.Extra = []Metric{{"p_reject[0]", 0.3, 0.01}, {"queue[0] packets", 0.7, math.NaN()}}
	row = Combine(job, 0, []Outcome{one, two}, "v")
	// mean 0.2, s = 0.1414, h = t_{0.975,1} s/sqrt(2) = 12.7062*0.1 = 1.27062
	if m := row.Extra[0]; *m.Value != 0.2 || math.Abs(*m.CI95-1.2706204736) > 1e-8 {
		t.Fatalf("two replications: %v ± %v", *m.Value, *m.CI95)
	}
	// Lists that differ after their first entry (a programmer error) keep
	// replication 0's values whole, none combined.
	odd := two
	odd.Extra = []Metric{{"p_reject[0]", 0.3, 0.01}, {"queue[1] packets", 0.7, math.NaN()}}
	row = Combine(job, 0, []Outcome{one, odd}, "v")
	if got := row.extraField(); got != "p_reject[0]=0.1±0.01; queue[0] packets=0.5" {
		t.Fatalf("mismatched lists: extra %q, want replication 0's", got)
	}
	b, err := json.Marshal(one)
	if err != nil {
		t.Fatal(err)
	}
	var back Outcome
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Extra) != 2 || back.Extra[0] != one.Extra[0] || back.Extra[1].Name != "queue[0] packets" || !math.IsNaN(back.Extra[1].CI95) {
		t.Fatalf("round trip: %+v from %s", back.Extra, b)
	}
}

// TestDecodeStrictRefusesUnknownFields: an Outcome (and so a shard file
// from another flitsim version) with a field this version does not know is
// an error, not silently dropped data; the same text without it decodes.
func TestDecodeStrictRefusesUnknownFields(t *testing.T) {
	const known = `{"status":"ok","latency":3,"latency_ci95":"NaN","network_latency":2,"network_latency_ci95":0.5,"accepted":0.1,"offered":0.1,"cycles":100`
	var o Outcome
	if err := json.Unmarshal([]byte(known+`}`), &o); err != nil || o.Latency != 3 || o.Cycles != 100 {
		t.Fatalf("known fields: %+v, %v", o, err)
	}
	if err := json.Unmarshal([]byte(known+`,"queue_depth":7}`), &o); err == nil || !strings.Contains(err.Error(), "queue_depth") {
		t.Errorf("unknown field accepted: %v", err)
	}
}
