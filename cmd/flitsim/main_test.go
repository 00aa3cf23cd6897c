package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/sim/sweep"
)

// fakeUnitFunc stands in for the engine: a latency curve 30/(1 - rate/0.5)
// with noise from the unit's own seed, saturation at rate >= 0.5
// flits/node/cycle, and a delay of FLITSIM_FAKE_DELAY_MS per unit so a
// signal can arrive mid-sweep.
func fakeUnitFunc(exps []*configs.Experiment) (sweep.Func, error) {
	delay := 2 * time.Millisecond
	if ms := os.Getenv("FLITSIM_FAKE_DELAY_MS"); ms != "" {
		d, err := time.ParseDuration(ms + "ms")
		if err == nil {
			delay = d
		}
	}
	return func(ctx context.Context, u sweep.Unit) (sweep.Outcome, error) {
		sim.MeterFrom(ctx).Store(500, 1000) // half-way, as an engine reports once per period
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return sweep.Outcome{}, ctx.Err()
		}
		e := exps[u.Job]
		rho := e.FlitRate(u.Point) / 0.5
		if rho >= 1 {
			return sweep.Outcome{Status: sim.StatusSaturated, Reason: "fake saturation", Accepted: 0.5, Offered: e.FlitRate(u.Point), Cycles: 1000}, nil
		}
		rng := sim.NewStream(u.Seed, sim.PurposeService, 0)
		lat := 30/(1-rho) + rng.NormFloat64()
		return sweep.Outcome{Status: sim.StatusOK, Latency: lat, LatencyCI95: 1, NetworkLatency: lat - 2, NetworkLatencyCI95: 1,
			Accepted: e.FlitRate(u.Point), Offered: e.FlitRate(u.Point), Cycles: 1000}, nil
	}, nil
}

// TestMain lets the test binary act as the flitsim command (with the fake
// engine) when FLITSIM_TEST_MAIN is set, so a test can send it a real
// SIGINT.
func TestMain(m *testing.M) {
	if os.Getenv("FLITSIM_TEST_MAIN") == "1" {
		unitFunc = fakeUnitFunc
		simulateUnit = slowSimulateUnit
		os.Args = append([]string{"flitsim"}, strings.Fields(os.Getenv("FLITSIM_ARGS"))...)
		main()
		return
	}
	os.Exit(m.Run())
}

const goodConfig = `name: %s
network: {topology: torus, radix: 4, dimensions: 2}
traffic: {length: {flits: 4}}
sweep:
  unit: flits/node/cycle
  rates: [0.05, 0.1, 0.2, 0.3, 0.4, 0.45, 0.6]
run: {replications: 2}
`

func writeConfig(t *testing.T, dir, name, src string) string {
	t.Helper()
	p := filepath.Join(dir, name+".yaml")
	if err := os.WriteFile(p, []byte(strings.ReplaceAll(src, "%s", name)), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func runMain(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	unitFunc = fakeUnitFunc
	defer func() { unitFunc = engineUnitFunc }()
	var o, e bytes.Buffer
	code = Main(context.Background(), args, &o, &e)
	return code, o.String(), e.String()
}

func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	good := writeConfig(t, dir, "good", goodConfig)
	bad := writeConfig(t, dir, "bad", "name: bad\nnetwork: {topology: torus, radix: 4, dimensions: 2}\nrouter: {vcs: 1, colour: red}\nsweep: {unit: flits/node/cycle, rates: [0.1, 0.1]}\n")
	cases := []struct {
		args []string
		code int
		frag string
	}{
		{nil, exitUsage, "no command"},
		{[]string{"frobnicate"}, exitUsage, "unknown command"},
		{[]string{"run"}, exitUsage, "no config file"},
		{[]string{"run", good, "--wrokers", "2"}, exitUsage, "unknown flag"},
		{[]string{"run", good, "--workers", "0"}, exitUsage, "run: --workers 0, want >= 1"},
		{[]string{"validate", good, "-j", "0"}, exitUsage, "validate: --workers 0, want >= 1"},
		{[]string{"model", good}, exitOK, "no models: listed"},
		{[]string{"model"}, exitUsage, "no config file"},
		{[]string{"validate", good}, exitConfig, "no models: listed"},
		{[]string{"validate", bad}, exitConfig, "bad.yaml:3:18: router.colour: unknown key"},
		{[]string{"run", bad, "--out", filepath.Join(dir, "o1")}, exitConfig, "bad.yaml:3:18: router.colour: unknown key"},
		{[]string{"run", filepath.Join(dir, "nope.yaml")}, exitConfig, "no such file"},
		{[]string{"run", good, "--out", filepath.Join(dir, "o2"), "-q"}, exitOK, ""},
		{[]string{"version"}, exitOK, ""},
	}
	for _, c := range cases {
		code, _, stderr := runMain(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.frag) {
			t.Errorf("flitsim %v: exit %d, stderr %q; want exit %d containing %q", c.args, code, stderr, c.code, c.frag)
		}
	}
	// Every problem of the bad config is reported, with file:line and key.
	_, _, stderr := runMain(t, "run", bad)
	for _, frag := range []string{"bad.yaml:3:18: router.colour", "bad.yaml:4:46: ", "sweep.rates[1]: rate 0.1 repeats", "traffic.length.flits: missing", "router.vcs"} {
		if !strings.Contains(stderr, frag) {
			t.Errorf("stderr lacks %q:\n%s", frag, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "o1")); !os.IsNotExist(err) {
		t.Errorf("an invalid config created the output directory")
	}
}

// TestRunWorkersIdentical checks that the CLI output files are
// byte-identical for --workers 1 and 4, and that the table is printed.
func TestRunWorkersIdentical(t *testing.T) {
	dir := t.TempDir()
	a := writeConfig(t, dir, "a", goodConfig)
	b := writeConfig(t, dir, "b", goodConfig)
	var ref []byte
	for _, w := range []string{"1", "4"} {
		out := filepath.Join(dir, "out"+w)
		code, stdout, stderr := runMain(t, "run", a, b, "--workers", w, "--out", out, "--seed", "42")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if !strings.Contains(stdout, "saturated") || !strings.Contains(stdout, "latency") {
			t.Errorf("table:\n%s", stdout)
		}
		if stderr != "" {
			t.Errorf("stderr not silent off a terminal: %q", stderr)
		}
		got, err := os.ReadFile(filepath.Join(out, "results.csv"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(got, []byte(",42,")) {
			t.Errorf("--seed 42 not in rows")
		}
		if ref == nil {
			ref = got
		} else if !bytes.Equal(got, ref) {
			t.Errorf("--workers %s output differs", w)
		}
	}
}

// TestInterruptAndResume runs the command as a real process, sends SIGINT
// once the first points are on disk, checks exit code 130 and that the
// finished points are kept, then resumes and compares with an
// uninterrupted run.
func TestInterruptAndResume(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "a", goodConfig)
	full := filepath.Join(dir, "full")
	if code, _, stderr := runMain(t, "run", cfg, "--out", full, "--workers", "2"); code != 0 {
		t.Fatalf("uninterrupted run: exit %d %s", code, stderr)
	}
	want, _ := os.ReadFile(filepath.Join(full, "results.csv"))

	out := filepath.Join(dir, "out")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "FLITSIM_TEST_MAIN=1", "FLITSIM_FAKE_DELAY_MS=150",
		"FLITSIM_ARGS=run "+cfg+" --out "+out+" --workers 2")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		rows, _ := sweep.ReadJSON(out)
		if len(rows) >= 2 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no point finished in 10 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	sent := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	if d := time.Since(sent); d > 2*time.Second {
		t.Errorf("exit took %v after SIGINT", d)
	}
	if code := cmd.ProcessState.ExitCode(); code != exitInterrupted {
		t.Fatalf("exit code %d (%v), want 130; stderr %s", code, err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "--resume") {
		t.Errorf("stderr does not suggest --resume: %s", stderr.String())
	}
	kept, err := sweep.ReadJSON(out)
	if err != nil || len(kept) == 0 || len(kept) >= 7 {
		t.Fatalf("kept %d rows (err %v), want some but not all 7", len(kept), err)
	}
	if code, _, se := runMain(t, "run", cfg, "--out", out, "--resume", "--workers", "2"); code != 0 {
		t.Fatalf("resume: exit %d %s", code, se)
	}
	got, _ := os.ReadFile(filepath.Join(out, "results.csv"))
	if !bytes.Equal(got, want) {
		t.Errorf("resumed results differ from uninterrupted:\n%s\nvs\n%s", got, want)
	}
	// Resuming with another seed is refused as a usage error.
	if code, _, se := runMain(t, "run", cfg, "--out", out, "--resume", "--seed", "9"); code != exitUsage || !strings.Contains(se, "do not match") {
		t.Errorf("resume with another seed: exit %d %s", code, se)
	}
}

// TestEngineWorkersIdentical runs a small sweep on the real network engine
// with --workers 1 and 2 and checks byte-identical results.
func TestEngineWorkersIdentical(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "small", `name: small
network: {topology: torus, radix: 4, dimensions: 2}
traffic: {length: {flits: 4}}
sweep: {unit: flits/node/cycle, rates: [0.1, 0.3, 0.95]}
run: {warmup: 1000, min_measure: 4000, max_cycles: 20000, replications: 2}
`)
	var ref []byte
	for _, w := range []string{"1", "2"} {
		out := filepath.Join(dir, "w"+w)
		var o, e bytes.Buffer
		if code := Main(context.Background(), []string{"run", cfg, "--out", out, "--workers", w}, &o, &e); code != 0 {
			t.Fatalf("exit %d: %s", code, e.String())
		}
		got, err := os.ReadFile(filepath.Join(out, "results.csv"))
		if err != nil {
			t.Fatal(err)
		}
		if ref == nil {
			ref = got
			t.Logf("results.csv:\n%s", got)
		} else if !bytes.Equal(got, ref) {
			t.Errorf("--workers %s differs:\n%s\nvs\n%s", w, got, ref)
		}
	}
	rows, _ := sweep.ReadJSON(filepath.Join(dir, "w1"))
	if len(rows) != 3 || rows[0].Status != "ok" || rows[2].Status != "saturated" {
		t.Errorf("rows: %+v", rows)
	}
}
