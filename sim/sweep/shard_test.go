package sweep

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/flitsim/flitsim/sim"
)

func TestParseShard(t *testing.T) {
	cases := []struct {
		spec  string
		count int
		env   map[string]string
		want  Shard
		err   string // fragment of the error, "" for success
	}{
		{"0/1", 0, nil, Shard{0, 1}, ""},
		{"2/8", 0, nil, Shard{2, 8}, ""},
		{"2/8", 8, nil, Shard{2, 8}, ""},
		{"2/8", 4, nil, Shard{}, "disagrees with --shard-count 4"},
		{"8/8", 0, nil, Shard{}, "index 8 outside 0..7"},
		{"-1/8", 0, nil, Shard{}, "index -1 outside"},
		{"0/0", 0, nil, Shard{}, "shard count 0"},
		{"3", 0, nil, Shard{}, "want i/n"},
		{"a/b", 0, nil, Shard{}, "integers"},
		// Slurm --array=0-7: task ids 0..7.
		{"auto", 0, map[string]string{EnvSlurmTaskID: "5", EnvSlurmTaskCount: "8", EnvSlurmTaskMin: "0"}, Shard{5, 8}, ""},
		// Slurm --array=1-8: shard = id - min.
		{"auto", 0, map[string]string{EnvSlurmTaskID: "8", EnvSlurmTaskCount: "8", EnvSlurmTaskMin: "1"}, Shard{7, 8}, ""},
		// Slurm --array=0-14:2 (8 tasks): shard = (id - min) / step.
		{"auto", 0, map[string]string{EnvSlurmTaskID: "6", EnvSlurmTaskCount: "8", EnvSlurmTaskMin: "0", EnvSlurmTaskStep: "2"}, Shard{3, 8}, ""},
		{"auto", 0, map[string]string{EnvSlurmTaskID: "5", EnvSlurmTaskCount: "8", EnvSlurmTaskStep: "2"}, Shard{}, "not on the array"},
		// With --shard-count the task id is the index: task 5 of an
		// 8-task array resubmitted alone (--array=5: count 1, min 5).
		{"auto", 8, map[string]string{EnvSlurmTaskID: "5", EnvSlurmTaskCount: "1", EnvSlurmTaskMin: "5"}, Shard{5, 8}, ""},
		{"auto", 4, map[string]string{EnvSlurmTaskID: "5", EnvSlurmTaskCount: "1"}, Shard{}, "index 5 outside 0..3"},
		{"auto", 0, map[string]string{EnvSlurmTaskID: "5"}, Shard{}, "SLURM_ARRAY_TASK_COUNT is not"},
		{"auto", 6, map[string]string{EnvSlurmTaskID: "5"}, Shard{5, 6}, ""},
		{"auto", 0, map[string]string{EnvSlurmTaskID: "x", EnvSlurmTaskCount: "8"}, Shard{}, `SLURM_ARRAY_TASK_ID="x" is not an integer`},
		// Slurm wins over a stray JOB_COMPLETION_INDEX.
		{"auto", 0, map[string]string{EnvSlurmTaskID: "1", EnvSlurmTaskCount: "2", EnvK8sIndex: "0"}, Shard{1, 2}, ""},
		// Kubernetes Indexed Job: the count comes from --shard-count.
		{"auto", 4, map[string]string{EnvK8sIndex: "3"}, Shard{3, 4}, ""},
		{"auto", 0, map[string]string{EnvK8sIndex: "3"}, Shard{}, "needs --shard-count"},
		{"auto", 3, map[string]string{EnvK8sIndex: "3"}, Shard{}, "index 3 outside 0..2"},
		{"auto", 0, nil, Shard{}, "neither SLURM_ARRAY_TASK_ID"},
	}
	for _, c := range cases {
		got, err := ParseShard(c.spec, c.count, func(k string) string { return c.env[k] })
		if c.err == "" {
			if err != nil || got != c.want {
				t.Errorf("ParseShard(%q, %d, %v) = %v, %v; want %v", c.spec, c.count, c.env, got, err, c.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("ParseShard(%q, %d, %v) error %v, want one containing %q", c.spec, c.count, c.env, err, c.err)
		}
	}
	if s := (Shard{2, 8}); s.String() != "2/8" || s.FileName() != "shard-2-of-8.json" {
		t.Errorf("names: %s %s", s, s.FileName())
	}
}

// TestPlanLPT checks the dealing on Graham's tight example for LPT (1969,
// §4): costs 3,3,2,2,2 on 2 machines give makespan 7 where 6 is optimal,
// the ratio 7/6 = 4/3 − 1/(3·2) of the bound.
func TestPlanLPT(t *testing.T) {
	jobs := []Job{{Name: "g", Rates: []float64{1, 2}, Replications: 1, Cost: []float64{3, 2}},
		{Name: "h", Rates: []float64{1, 2, 3}, Replications: 1, Cost: []float64{2, 3, 2}}}
	plan := Plan(jobs, 2)
	if got := PlanCost(jobs, plan); !slices.Equal(got, []float64{7, 5}) {
		t.Errorf("LPT loads %v, want [7 5]", got)
	}
	// Dealt in decreasing cost, ties by unit index: 0(3) 3(3) 1(2) 2(2) 4(2).
	idx := func(us []Unit) (s []int) {
		for _, u := range us {
			s = append(s, u.Index)
		}
		return s
	}
	if a, b := idx(plan[0]), idx(plan[1]); !slices.Equal(a, []int{0, 1, 4}) || !slices.Equal(b, []int{3, 2}) {
		t.Errorf("plan %v %v, want [0 1 4] [3 2]", a, b)
	}
}

// TestPlanProperties checks on many shapes that every unit is dealt exactly
// once, that the plan is deterministic, that equal costs spread the units
// within one of each other, and the list-scheduling bound (Graham 1966)
//
//	C_max ≤ total/n + max cost,
//
// which every greedy least-loaded dealing meets.
func TestPlanProperties(t *testing.T) {
	rng := sim.NewStream(3, sim.PurposeService, 0)
	for trial := 0; trial < 200; trial++ {
		var jobs []Job
		for j := 0; j < 1+rng.IntN(4); j++ {
			job := Job{Name: "j", Seed: uint64(j), Replications: 1 + rng.IntN(4)}
			for p := 0; p < 1+rng.IntN(6); p++ {
				job.Rates = append(job.Rates, float64(p+1))
				if trial%2 == 0 {
					job.Cost = append(job.Cost, 0.5+rng.Float64()*10)
				}
			}
			jobs = append(jobs, job)
		}
		n := 1 + rng.IntN(9)
		plan := Plan(jobs, n)
		if !slices.EqualFunc(plan, Plan(jobs, n), slices.Equal) {
			t.Fatalf("trial %d: plan not deterministic", trial)
		}
		seen := map[int]int{}
		var total, maxCost float64
		for _, us := range plan {
			for _, u := range us {
				seen[u.Index]++
				c := jobs[u.Job].UnitCost(u.Point)
				total += c
				maxCost = max(maxCost, c)
			}
		}
		all := Units(jobs)
		if len(seen) != len(all) {
			t.Fatalf("trial %d: %d units dealt, want %d", trial, len(seen), len(all))
		}
		for i, k := range seen {
			if k != 1 {
				t.Fatalf("trial %d: unit %d dealt %d times", trial, i, k)
			}
		}
		loads := PlanCost(jobs, plan)
		if m := slices.Max(loads); m > total/float64(n)+maxCost+1e-9 {
			t.Errorf("trial %d: makespan %g above total/n + max = %g", trial, m, total/float64(n)+maxCost)
		}
		if jobs[0].Cost == nil && slices.Max(loads)-slices.Min(loads) > 1 {
			t.Errorf("trial %d: equal costs dealt unevenly: %v", trial, loads)
		}
	}
}

// runShards runs every shard of an n-way split of jobs into dir.
func runShards(t *testing.T, jobs []Job, n int, dir, version string) {
	t.Helper()
	for i := 0; i < n; i++ {
		f, err := RunShard(context.Background(), jobs, Shard{i, n}, fakeRun(jobs), ShardOptions{Kind: "run", Workers: 2, Dir: dir, Version: version})
		if err != nil {
			t.Fatal(err)
		}
		if !f.Complete() {
			t.Fatalf("shard %d/%d incomplete", i, n)
		}
	}
}

// TestShardMergeIdentical checks that merging the shards of an n-way split
// gives results.csv and results.json byte-identical to an unsharded run,
// for splits from 1 shard to more shards than units (empty shards), with
// replications of one point spread over several shards.
func TestShardMergeIdentical(t *testing.T) {
	jobs := fakeJobs()
	for i := range jobs {
		for _, r := range jobs[i].Rates {
			jobs[i].Cost = append(jobs[i].Cost, 1+r)
		}
	}
	full := t.TempDir()
	if _, err := Run(context.Background(), jobs, fakeRun(jobs), Options{Workers: 2, Dir: full, Version: "v"}); err != nil {
		t.Fatal(err)
	}
	wantCSV, wantJSON := readFiles(t, full)
	for _, n := range []int{1, 2, 3, 7, 18, 25} {
		dir := t.TempDir()
		runShards(t, jobs, n, dir, "v")
		set, err := ReadShards[Outcome]("run", dir)
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		out := t.TempDir()
		if err := WriteFiles(out, MergeRows(set)); err != nil {
			t.Fatal(err)
		}
		c, j := readFiles(t, out)
		if !bytes.Equal(c, wantCSV) || !bytes.Equal(j, wantJSON) {
			t.Errorf("n=%d: merged output differs from unsharded:\n%s\nvs\n%s", n, c, wantCSV)
		}
		if n == 3 {
			split := false // some point's replications lie in different shards
			for _, us := range Plan(jobs, n) {
				for _, u := range us {
					if u.Replication > 0 && !slices.ContainsFunc(us, func(v Unit) bool { return v.Job == u.Job && v.Point == u.Point && v.Replication == 0 }) {
						split = true
					}
				}
			}
			if !split {
				t.Errorf("n=3 splits no point's replications: the test does not exercise Combine across shards")
			}
		}
	}
}

// TestShardResume kills a shard midway (cancels it after a few units),
// checks the finished units are on disk, resumes it alone, and checks that
// only the rest ran, that the file equals an uninterrupted shard's, and
// that the other shards' files were not touched.
func TestShardResume(t *testing.T) {
	jobs := fakeJobs()
	ref := t.TempDir()
	runShards(t, jobs, 3, ref, "v")
	want, _ := os.ReadFile(filepath.Join(ref, "shard-1-of-3.json"))

	dir := t.TempDir()
	runShards(t, jobs, 3, dir, "v")
	other, _ := os.ReadFile(filepath.Join(dir, "shard-0-of-3.json"))
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int64
	base := fakeRun(jobs)
	killer := func(c context.Context, u Unit) (Outcome, error) {
		if calls.Add(1) == 3 {
			cancel()
		}
		return base(c, u)
	}
	s := Shard{1, 3}
	f, err := RunShard(ctx, jobs, s, killer, ShardOptions{Kind: "run", Workers: 1, Dir: dir, Version: "v"})
	if !errors.Is(err, context.Canceled) || f.Complete() || len(f.Results) == 0 {
		t.Fatalf("killed shard: err %v, %d of %d units", err, len(f.Results), len(f.Units))
	}
	_, err = ReadShards[Outcome]("run", dir)
	var se *ShardSetError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "shard-1-of-3.json (shard 1/3): incomplete") || !strings.Contains(err.Error(), "--shard 1/3 --resume") {
		t.Errorf("merge of an incomplete shard: %v", err)
	}
	kept := len(f.Results)
	var ran atomic.Int64
	counting := func(c context.Context, u Unit) (Outcome, error) { ran.Add(1); return base(c, u) }
	f, err = RunShard(context.Background(), jobs, s, counting, ShardOptions{Kind: "run", Workers: 2, Dir: dir, Version: "v", Resume: true})
	if err != nil || !f.Complete() {
		t.Fatalf("resume: %v", err)
	}
	if int(ran.Load()) != len(f.Units)-kept {
		t.Errorf("resume ran %d units, want %d (%d kept)", ran.Load(), len(f.Units)-kept, kept)
	}
	got, _ := os.ReadFile(filepath.Join(dir, s.FileName()))
	if !bytes.Equal(got, want) {
		t.Errorf("resumed shard file differs from an uninterrupted one")
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "shard-0-of-3.json")); !bytes.Equal(now, other) {
		t.Errorf("resuming shard 1 changed shard 0's file")
	}
	// Resuming under another seed or shard count is refused.
	changed := fakeJobs()
	changed[1].Seed = 99
	if _, err := RunShard(context.Background(), changed, s, counting, ShardOptions{Kind: "run", Dir: dir, Version: "v", Resume: true}); !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), "config b has seed 2, not 99") {
		t.Errorf("resume with another seed: %v", err)
	}
}

// TestMergeProblems checks that missing, duplicated, mismatched and foreign
// shard files are each reported by name, all together.
func TestMergeProblems(t *testing.T) {
	jobs := fakeJobs()
	a, b := t.TempDir(), t.TempDir()
	runShards(t, jobs, 4, a, "v")
	// b: a copy of shard 2 (duplicate), shard 3 of another version, and
	// shard 1 of another config hash; shard 0 only in a... and then removed.
	cp := func(name string) {
		data, _ := os.ReadFile(filepath.Join(a, name))
		os.WriteFile(filepath.Join(b, name), data, 0o644)
	}
	cp("shard-2-of-4.json")
	other := fakeJobs()
	other[0].Hash = "h-a-edited"
	if _, err := RunShard(context.Background(), other, Shard{1, 4}, fakeRun(other), ShardOptions{Kind: "run", Dir: b, Version: "v"}); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(a, "shard-1-of-4.json"))
	os.Remove(filepath.Join(a, "shard-3-of-4.json"))
	if _, err := RunShard(context.Background(), jobs, Shard{3, 4}, fakeRun(jobs), ShardOptions{Kind: "run", Dir: b, Version: "w"}); err != nil {
		t.Fatal(err)
	}
	_, err := ReadShards[Outcome]("run", a, b)
	var se *ShardSetError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v, want *ShardSetError", err)
	}
	msg := err.Error()
	for _, frag := range []string{
		filepath.Join(b, "shard-1-of-4.json") + " (shard 1/4): from another run: config a has hash h-a-edited, not h-a",
		filepath.Join(b, "shard-3-of-4.json") + " (shard 3/4): from another run: version w, not v",
		"shard 2/4 is duplicated: " + filepath.Join(a, "shard-2-of-4.json") + " and " + filepath.Join(b, "shard-2-of-4.json"),
		"shard 1/4 is missing (no shard-1-of-4.json",
		"shard 3/4 is missing",
	} {
		if !strings.Contains(msg, frag) {
			t.Errorf("error lacks %q:\n%s", frag, msg)
		}
	}
	if len(se.Problems) != 5 {
		t.Errorf("%d problems, want 5:\n%s", len(se.Problems), msg)
	}
	// The same directory twice is the same files, not duplicates.
	c := t.TempDir()
	runShards(t, jobs, 2, c, "v")
	if _, err := ReadShards[Outcome]("run", c, c); err != nil {
		t.Errorf("same dir twice: %v", err)
	}
	if _, err := ReadShards[Outcome]("validate", c); err == nil || !strings.Contains(err.Error(), "written by flitsim run, not validate") {
		t.Errorf("wrong kind: %v", err)
	}
	if _, err := ReadShards[Outcome]("run", t.TempDir()); err == nil || !strings.Contains(err.Error(), "no shard files") {
		t.Errorf("empty dir: %v", err)
	}
}

// TestOutcomeJSONExact checks that an Outcome survives the shard file's
// JSON bit for bit, signed zero, infinities and extremes included (a NaN
// comes back as a NaN, which is all Combine looks at).
func TestOutcomeJSONExact(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 0.1, 1.0 / 3, math.NaN(), math.Inf(1), math.Inf(-1),
		math.SmallestNonzeroFloat64, math.MaxFloat64, -123.456e-200, 5e-324}
	for _, v := range vals {
		o := Outcome{Status: sim.StatusOK, Reason: "r", Latency: v, LatencyCI95: -v, NetworkLatency: v, NetworkLatencyCI95: v, Accepted: v, Offered: v, Cycles: 7}
		b, err := json.Marshal(o)
		if err != nil {
			t.Fatalf("%v: %v", v, err)
		}
		var back Outcome
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		for i, pair := range [][2]float64{{o.Latency, back.Latency}, {o.LatencyCI95, back.LatencyCI95}, {o.Accepted, back.Accepted}, {o.Offered, back.Offered}} {
			same := math.Float64bits(pair[0]) == math.Float64bits(pair[1]) || math.IsNaN(pair[0]) && math.IsNaN(pair[1])
			if !same {
				t.Errorf("field %d: %v came back as %v (%s)", i, pair[0], pair[1], b)
			}
		}
		if back.Status != o.Status || back.Reason != o.Reason || back.Cycles != o.Cycles {
			t.Errorf("%+v came back as %+v", o, back)
		}
	}
	var o Outcome
	if err := json.Unmarshal([]byte(`{"status":"ok","latency":"lots"}`), &o); err == nil {
		t.Errorf("a non-number string was accepted as a latency")
	}
}
