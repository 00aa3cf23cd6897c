package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/internal/sysmem"
	"github.com/flitsim/flitsim/sim/sweep"
	"github.com/flitsim/flitsim/validation"
)

// noStackTrace fails the test when stderr shows a Go panic or runtime trace.
func noStackTrace(t *testing.T, what, stderr string) {
	t.Helper()
	for _, s := range []string{"goroutine ", "panic:", "runtime.", "fatal error"} {
		if strings.Contains(stderr, s) {
			t.Errorf("%s: stderr shows a stack trace (%q):\n%s", what, s, stderr)
		}
	}
}

// countingUnitFunc is fakeUnitFunc counting the units it runs.
func countingUnitFunc(n *atomic.Int64) func([]*configs.Experiment) (sweep.Func, error) {
	return func(exps []*configs.Experiment) (sweep.Func, error) {
		fn, err := fakeUnitFunc(exps)
		return func(ctx context.Context, u sweep.Unit) (sweep.Outcome, error) {
			n.Add(1)
			return fn(ctx, u)
		}, err
	}
}

// TestBadInputs runs the bad inputs a user hits: each gets its exit code,
// a message naming the file (and line:column where there is one), no stack
// trace, and nothing is simulated.
func TestBadInputs(t *testing.T) {
	dir := t.TempDir()
	good := writeConfig(t, dir, "good", goodConfig)
	syntax := writeConfig(t, dir, "syntax", "name: syntax\nnetwork: {topology: torus, radix: [4\n")
	missing := writeConfig(t, dir, "missing", "# comment\nname: missing\nnetwork: {topology: torus, radix: 4, dimensions: 2}\nsweep: {unit: flits/node/cycle, rates: [0.1]}\n")
	file := filepath.Join(dir, "plain-file")
	os.WriteFile(file, []byte("x"), 0o644)
	cases := []struct {
		name string
		args []string
		code int
		frag string
	}{
		{"urandom", []string{"run", "/dev/urandom"}, exitConfig, "/dev/urandom: file too large for a config"},
		{"zero", []string{"run", "/dev/zero"}, exitConfig, "/dev/zero: file too large for a config"},
		{"validate zero", []string{"validate", "/dev/zero"}, exitConfig, "/dev/zero: file too large for a config"},
		{"directory", []string{"run", dir}, exitConfig, "is a directory"},
		{"syntax", []string{"run", syntax}, exitConfig, "syntax.yaml:2:35: YAML syntax:"},
		{"missing section", []string{"run", missing}, exitConfig, "missing.yaml:2:1: traffic.length.flits: missing"},
		{"out under a file", []string{"run", good, "--out", filepath.Join(file, "o"), "-q"}, exitRuntime, "cannot be written"},
		{"validate out under a file", []string{"validate", writeConfig(t, dir, "reed", reedConfig("exponential", "0.05")), "--out", filepath.Join(file, "o"), "-q"}, exitRuntime, "cannot be written"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var units atomic.Int64
			unitFunc = countingUnitFunc(&units)
			defer func() { unitFunc = engineUnitFunc }()
			var o, e bytes.Buffer
			start := time.Now()
			code := Main(context.Background(), c.args, &o, &e)
			if code != c.code || !strings.Contains(e.String(), c.frag) {
				t.Errorf("flitsim %v: exit %d, stderr %q; want exit %d containing %q", c.args, code, e.String(), c.code, c.frag)
			}
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("took %v", d)
			}
			if units.Load() != 0 {
				t.Errorf("%d units simulated before the refusal", units.Load())
			}
			noStackTrace(t, c.name, e.String())
		})
	}
}

// TestResumeNeverDrops checks that --resume refuses (exit 2, naming what
// differs, the files untouched) a set of configs that would drop rows on
// disk, and a changed config.
func TestResumeNeverDrops(t *testing.T) {
	dir := t.TempDir()
	a := writeConfig(t, dir, "a", goodConfig)
	b := writeConfig(t, dir, "b", goodConfig)
	out := filepath.Join(dir, "out")
	if code, _, se := runMain(t, "run", a, b, "--out", out, "-q"); code != 0 {
		t.Fatalf("run a b: exit %d %s", code, se)
	}
	csv0, _ := os.ReadFile(filepath.Join(out, "results.csv"))
	json0, _ := os.ReadFile(filepath.Join(out, "results.json"))
	code, _, se := runMain(t, "run", a, "--out", out, "--resume", "-q")
	if code != exitUsage || !strings.Contains(se, "rows of b") {
		t.Errorf("resume with a only: exit %d %q, want 2 naming b", code, se)
	}
	// The config a changed (another sweep): refused, naming its hashes.
	writeConfig(t, dir, "a", strings.Replace(goodConfig, "0.05, ", "0.06, ", 1))
	code, _, se = runMain(t, "run", a, b, "--out", out, "--resume", "-q")
	if code != exitUsage || !strings.Contains(se, "config a has hash") {
		t.Errorf("resume with a changed: exit %d %q, want 2 naming a's hash", code, se)
	}
	csv1, _ := os.ReadFile(filepath.Join(out, "results.csv"))
	json1, _ := os.ReadFile(filepath.Join(out, "results.json"))
	if !bytes.Equal(csv0, csv1) || !bytes.Equal(json0, json1) {
		t.Errorf("a refused resume changed the results files")
	}
}

// TestOutLocked checks that a second writer of the same --out is refused
// at once with the holder's process id, while the first runs; shards of
// one run share a directory without refusing each other.
func TestOutLocked(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "a", goodConfig)
	out := filepath.Join(dir, "out")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "FLITSIM_TEST_MAIN=1", "FLITSIM_FAKE_DELAY_MS=200",
		"FLITSIM_ARGS=run "+cfg+" --out "+out+" --workers 1 -q")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lockFile := filepath.Join(out, sweep.LockName("results"))
	pid := strconv.Itoa(cmd.Process.Pid)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if b, _ := os.ReadFile(lockFile); strings.TrimSpace(string(b)) == pid {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the first run did not take the lock in 30 s")
		}
	}
	for _, args := range [][]string{
		{"run", cfg, "--out", out, "-q"},
		{"run", cfg, "--out", out, "--resume", "-q"},
	} {
		start := time.Now()
		code, _, se := runMain(t, args...)
		if code != exitUsage || !strings.Contains(se, "locked by process "+pid) {
			t.Errorf("second writer %v: exit %d %q, want 2 naming process %s", args, code, se, pid)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("second writer refused after %v, want at once", d)
		}
	}
	// A shard of a run writes its own file: not refused by the run's lock.
	if code, _, se := runMain(t, "run", cfg, "--out", out, "--shard", "0/2", "-q"); code != 0 {
		t.Errorf("shard 0/2 beside a running run: exit %d %s", code, se)
	}
	cmd.Process.Signal(syscall.SIGINT)
	cmd.Wait()
	// After the holder has gone (here interrupted), the lock is free.
	if code, _, se := runMain(t, "run", cfg, "--out", out, "--resume", "-q"); code != 0 {
		t.Errorf("resume after the holder exited: exit %d %s", code, se)
	}
}

// precheckConfig is a bidirectional torus listing a model that needs a
// unidirectional one and a malformed variant name.
const precheckConfig = `name: %s
network: {topology: torus, radix: 4, dimensions: 2}
traffic: {length: {flits: 4}}
sweep: {unit: flits/node/cycle, rates: [0.05, 0.1]}
models:
  - dally1990
  - draper-ghosh:nonsense
`

// TestValidatePrecheck checks that validate refuses models that cannot
// apply before it simulates anything: exit 3, file:line:column of each
// models: entry.
func TestValidatePrecheck(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "pre", precheckConfig)
	var sims atomic.Int64
	simulateUnit = func(ctx context.Context, s *validation.Setup, p int) validation.PointResult {
		sims.Add(1)
		return validation.SimulateUnit(ctx, s, p)
	}
	defer func() { simulateUnit = validation.SimulateUnit }()
	out := filepath.Join(dir, "out")
	code, _, se := runMain(t, "validate", cfg, "--out", out, "-q")
	for _, frag := range []string{
		"pre.yaml:6:5: models[0]: model \"dally1990\" does not apply to this experiment: Dally 1990 needs a unidirectional",
		"pre.yaml:7:5: models[1]: model \"draper-ghosh:nonsense\" does not apply to this experiment: unknown model",
	} {
		if !strings.Contains(se, frag) {
			t.Errorf("stderr lacks %q:\n%s", frag, se)
		}
	}
	if code != exitConfig || sims.Load() != 0 {
		t.Errorf("exit %d after %d simulated points, want 3 before any", code, sims.Load())
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a refused validate created %s", out)
	}
	noStackTrace(t, "precheck", se)
}

// TestValidateInterruptResume interrupts an unsharded validate with SIGINT
// and checks that the finished points are kept (exit 130), that --resume
// without --shard runs only the rest, and that the report equals an
// uninterrupted one.
func TestValidateInterruptResume(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "reed", strings.Replace(reedConfig("exponential", "0.05"), "rates: [4, 8]", "rates: [2, 3, 4, 5, 6, 8]", 1))
	full := filepath.Join(dir, "full")
	if code, _, se := runMain(t, "validate", cfg, "--out", full, "-q"); code != 0 && code != exitValidation {
		t.Fatalf("uninterrupted validate: exit %d %s", code, se)
	}
	want, _ := os.ReadFile(filepath.Join(full, "report.md"))

	out := filepath.Join(dir, "out")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "FLITSIM_TEST_MAIN=1", "FLITSIM_FAKE_DELAY_MS=300",
		"FLITSIM_ARGS=validate "+cfg+" --out "+out+" --workers 1 -q")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	shardFile := filepath.Join(out, "shard-0-of-1.json")
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if b, _ := os.ReadFile(shardFile); bytes.Count(b, []byte(`"unit":`)) >= 2 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no two points finished in 60 s")
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != exitInterrupted || !strings.Contains(stderr.String(), "--resume") {
		t.Fatalf("interrupted validate: exit %d %q, want 130 suggesting --resume", code, stderr.String())
	}
	b, _ := os.ReadFile(shardFile)
	kept := bytes.Count(b, []byte(`"unit":`))
	if kept < 2 {
		t.Fatalf("kept %d points, want at least 2", kept)
	}
	var sims atomic.Int64
	simulateUnit = func(ctx context.Context, s *validation.Setup, p int) validation.PointResult {
		sims.Add(1)
		return validation.SimulateUnit(ctx, s, p)
	}
	defer func() { simulateUnit = validation.SimulateUnit }()
	code, _, se := runMain(t, "validate", cfg, "--out", out, "--resume", "-q")
	if code != 0 && code != exitValidation {
		t.Fatalf("resume: exit %d %s", code, se)
	}
	var f struct {
		Units []int `json:"units"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if got, wantSims := sims.Load(), int64(len(f.Units)-kept); got != wantSims {
		t.Errorf("resume simulated %d points, want the %d not kept", got, wantSims)
	}
	got, _ := os.ReadFile(filepath.Join(out, "report.md"))
	if !bytes.Equal(got, want) {
		os.WriteFile("/tmp/f21/want.md", want, 0o644)
		os.WriteFile("/tmp/f21/got.md", got, 0o644)
		t.Errorf("resumed report differs from the uninterrupted one")
	}
}

// slowSimulateUnit is validation.SimulateUnit after FLITSIM_FAKE_DELAY_MS
// (or until ctx is cancelled), so a signal can arrive mid-validate.
func slowSimulateUnit(ctx context.Context, s *validation.Setup, p int) validation.PointResult {
	if d, err := time.ParseDuration(os.Getenv("FLITSIM_FAKE_DELAY_MS") + "ms"); err == nil {
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return validation.PointResult{Err: ctx.Err().Error()}
		}
	}
	return validation.SimulateUnit(ctx, s, p)
}

// TestMemoryRefusal checks the memory check before a run: a network
// larger than the machine is an invalid config (exit 3, at the network:
// key, naming the estimate and the limit), one larger than the memory free
// now a runtime refusal (exit 4), and workers are lowered to what fits;
// nothing is simulated in the refusals.
func TestMemoryRefusal(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "a", goodConfig) // a 4x4 torus: about 0.2 MiB
	defer func() { memoryLimit = func() (sysmem.Limit, error) { return sysmem.Read("/") } }()
	cases := []struct {
		limit sysmem.Limit
		code  int
		frag  string
	}{
		{sysmem.Limit{Bytes: 64 << 10, Source: "test", Available: 64 << 10}, exitConfig, "a.yaml:2:1: network: the network needs an estimated 0 MiB to build (16 routers × "},
		{sysmem.Limit{Bytes: 64 << 20, Source: "test", Available: 64 << 10}, exitRuntime, "a.yaml: the network needs an estimated 0 MiB to build (16 routers × "},
		{sysmem.Limit{Bytes: 64 << 20, Source: "test", Available: 200 << 10}, exitOK, "running 1 networks at once instead of 4"}, // one 4x4 torus (about 150 KiB) fits, two do not
	}
	for _, c := range cases {
		memoryLimit = func() (sysmem.Limit, error) { return c.limit, nil }
		var units atomic.Int64
		unitFunc = countingUnitFunc(&units)
		var o, e bytes.Buffer
		code := Main(context.Background(), []string{"run", cfg, "--out", filepath.Join(dir, "out"), "-q", "-j", "4"}, &o, &e)
		unitFunc = engineUnitFunc
		if code != c.code || !strings.Contains(e.String(), c.frag) {
			t.Errorf("limit %+v: exit %d %q, want %d containing %q", c.limit, code, e.String(), c.code, c.frag)
		}
		if code != exitOK && units.Load() != 0 {
			t.Errorf("limit %+v: %d units run before the refusal", c.limit, units.Load())
		}
	}
}

// TestEngineBuildsOnce checks that each run builds its network once: the
// engine check's network of unit (job, 0, 0) is the one that unit runs.
func TestEngineBuildsOnce(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "a", "name: a\nnetwork: {topology: torus, radix: 4, dimensions: 2}\ntraffic: {length: {flits: 4}}\nsweep: {unit: flits/node/cycle, rates: [0.05, 0.1]}\nrun: {warmup: 200, period: 100, min_measure: 1000, max_cycles: 5000}\n")
	exps, err := configs.LoadAll([]string{cfg})
	if err != nil {
		t.Fatal(err)
	}
	builds := 0
	newRunnerHook = func() { builds++ }
	defer func() { newRunnerHook = func() {} }()
	fn, err := engineUnitFunc(exps)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range sweep.Units([]sweep.Job{{Name: "a", Rates: exps[0].Sweep.Rates, Replications: 1, Seed: exps[0].Seed}}) {
		if _, err := fn(context.Background(), u); err != nil {
			t.Fatal(err)
		}
	}
	if builds != 2 {
		t.Errorf("%d networks built for 2 runs, want 2", builds)
	}
}
