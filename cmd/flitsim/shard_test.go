package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/sim/sweep"
)

// shardConfigs are two small experiments on the real engine: a 4×4 torus
// swept into saturation with 3 replications per point (so replications of
// one point land in different shards), and an 8×8 torus run to its cycle cap
// (no CI target) so that each of its runs takes long enough to kill a shard
// between two of them.
var shardConfigs = map[string]string{
	"small": `name: small
network: {topology: torus, radix: 4, dimensions: 2}
traffic: {length: {flits: 4}}
sweep: {unit: flits/node/cycle, rates: [0.1, 0.3, 0.5, 0.95]}
run: {warmup: 1000, min_measure: 4000, max_cycles: 20000, replications: 3}
`,
	"big": `name: big
network: {topology: torus, radix: 8, dimensions: 2}
traffic: {length: {flits: 16}}
sweep: {unit: flits/node/cycle, rates: [0.05, 0.15, 0.25]}
run: {warmup: 1000, min_measure: 4000, max_cycles: 30000, target_rel_ci: -1, replications: 2}
`,
}

// flitsimProc runs the built binary; env adds variables.
type flitsimProc struct {
	bin string
	t   *testing.T
}

func (p flitsimProc) cmd(env []string, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	c := exec.Command(p.bin, args...)
	c.Env = append(os.Environ(), env...)
	var o, e bytes.Buffer
	c.Stdout, c.Stderr = &o, &e
	return c, &o, &e
}

func (p flitsimProc) run(env []string, args ...string) (code int, stdout, stderr string) {
	p.t.Helper()
	c, o, e := p.cmd(env, args...)
	err := c.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		p.t.Fatalf("flitsim %v: %v", args, err)
	}
	return c.ProcessState.ExitCode(), o.String(), e.String()
}

// shardResults returns how many units shard file path holds (-1: unreadable).
func shardResults(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return -1
	}
	var f sweep.ShardFile[sweep.Outcome]
	if json.Unmarshal(b, &f) != nil {
		return -1
	}
	return len(f.Results)
}

// TestShardProcesses is the multi-process shard-and-merge test of issue 10:
// it builds flitsim once, runs an unsharded sweep, runs the same sweep as 3
// separate shard processes (one with --shard i/n, one as a Slurm array task,
// one as a Kubernetes Indexed Job pod), kills one shard with SIGKILL after
// its first finished unit, checks that merge then refuses naming that shard
// and writes nothing, reruns the killed shard alone with --resume (only its
// unfinished units run, the other shard files are untouched), merges, and
// compares results.csv and results.json byte for byte with the unsharded
// run. Last, merge must name a missing shard and a shard of another seed.
func TestShardProcesses(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go tool is needed to build flitsim: %v", err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "flitsim")
	build := exec.Command(goTool, "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	p := flitsimProc{bin, t}
	var cfgs []string
	for _, name := range []string{"small", "big"} {
		cfgs = append(cfgs, writeConfig(t, dir, name, shardConfigs[name]))
	}
	args := func(extra ...string) []string { return append(append([]string{"run"}, cfgs...), extra...) }

	full := filepath.Join(dir, "full")
	start := time.Now()
	if code, _, se := p.run(nil, args("--out", full, "-j", "2", "-q")...); code != 0 {
		t.Fatalf("unsharded run: exit %d: %s", code, se)
	}
	t.Logf("unsharded run: %v", time.Since(start).Round(time.Millisecond))
	wantCSV, _ := os.ReadFile(filepath.Join(full, sweep.CSVFile))
	wantJSON, _ := os.ReadFile(filepath.Join(full, sweep.JSONFile))

	// Three shard processes at once, each with one worker.
	sh := filepath.Join(dir, "shards")
	start = time.Now()
	c0, _, e0 := p.cmd(nil, args("--shard", "0/3", "--out", sh, "-j", "1")...)
	c1, _, e1 := p.cmd([]string{"SLURM_ARRAY_TASK_ID=2", "SLURM_ARRAY_TASK_COUNT=3", "SLURM_ARRAY_TASK_MIN=1"}, args("--shard", "auto", "--out", sh, "-j", "1")...)
	c2, _, e2 := p.cmd([]string{"JOB_COMPLETION_INDEX=2"}, args("--shard", "auto", "--shard-count", "3", "--out", sh, "-j", "1")...)
	for _, c := range []*exec.Cmd{c0, c1, c2} {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	killed := filepath.Join(sh, "shard-1-of-3.json")
	deadline := time.Now().Add(60 * time.Second)
	for shardResults(killed) < 1 {
		if time.Now().After(deadline) {
			c1.Process.Kill()
			t.Fatalf("shard 1 finished no unit in 60 s: %s", e1)
		}
		time.Sleep(5 * time.Millisecond)
	}
	c1.Process.Kill() // SIGKILL: no chance to clean up, like a lost node
	c1.Wait()
	for i, c := range []*exec.Cmd{c0, c2} {
		if err := c.Wait(); err != nil {
			t.Fatalf("shard %d: %v: %s%s", 2*i, err, e0, e2)
		}
	}
	t.Logf("3 shard processes (one killed): %v", time.Since(start).Round(time.Millisecond))
	var kf sweep.ShardFile[sweep.Outcome]
	if b, err := os.ReadFile(killed); err != nil || json.Unmarshal(b, &kf) != nil || kf.Complete() {
		t.Fatalf("killed shard: %v, %d of %d units: the kill did not land between units", err, len(kf.Results), len(kf.Units))
	}
	kept := len(kf.Results)

	// Merge refuses the incomplete shard by name and writes nothing.
	code, _, se := p.run(nil, "merge", sh)
	if code != exitShards || !strings.Contains(se, "shard-1-of-3.json (shard 1/3): incomplete") {
		t.Fatalf("merge with a killed shard: exit %d: %s", code, se)
	}
	if _, err := os.Stat(filepath.Join(sh, sweep.CSVFile)); !os.IsNotExist(err) {
		t.Fatalf("merge wrote results despite an incomplete shard")
	}

	// Rerun the killed shard alone; the others are not touched.
	before := map[string][]byte{}
	stamps := map[string]time.Time{}
	for _, f := range []string{"shard-0-of-3.json", "shard-2-of-3.json"} {
		before[f], _ = os.ReadFile(filepath.Join(sh, f))
		st, _ := os.Stat(filepath.Join(sh, f))
		stamps[f] = st.ModTime()
	}
	code, so, se := p.run([]string{"SLURM_ARRAY_TASK_ID=2", "SLURM_ARRAY_TASK_COUNT=3", "SLURM_ARRAY_TASK_MIN=1"}, args("--shard", "auto", "--out", sh, "--resume")...)
	if code != 0 {
		t.Fatalf("resume shard 1: exit %d: %s", code, se)
	}
	m := regexp.MustCompile(`shard 1/3: (\d+) of (\d+) units finished \((\d+) run now, (\d+) kept from before\)`).FindStringSubmatch(so)
	if m == nil {
		t.Fatalf("resume summary: %q", so)
	}
	n := func(s string) int { v, _ := strconv.Atoi(s); return v }
	if n(m[1]) != n(m[2]) || n(m[4]) != kept || n(m[3]) != n(m[2])-kept {
		t.Errorf("resume: %s, want the %d kept units not run again", m[0], kept)
	}
	for f, b := range before {
		now, _ := os.ReadFile(filepath.Join(sh, f))
		st, _ := os.Stat(filepath.Join(sh, f))
		if !bytes.Equal(now, b) || !st.ModTime().Equal(stamps[f]) {
			t.Errorf("resuming shard 1 touched %s", f)
		}
	}

	// Merge: byte-identical to the unsharded run.
	code, so, se = p.run(nil, "merge", sh, "-q")
	if code != 0 || !strings.Contains(so, "merged 3 shards (7 points, 18 runs)") {
		t.Fatalf("merge: exit %d: %s%s", code, so, se)
	}
	gotCSV, _ := os.ReadFile(filepath.Join(sh, sweep.CSVFile))
	gotJSON, _ := os.ReadFile(filepath.Join(sh, sweep.JSONFile))
	if !bytes.Equal(gotCSV, wantCSV) || !bytes.Equal(gotJSON, wantJSON) {
		t.Errorf("merged results differ from the unsharded run:\n%s\nvs\n%s", gotCSV, wantCSV)
	}
	t.Logf("merged results.csv (identical to the unsharded run):\n%s", gotCSV)

	// A missing shard and a shard of another seed are named; nothing written.
	bad := filepath.Join(dir, "bad")
	os.MkdirAll(bad, 0o755)
	for _, f := range []string{"shard-0-of-3.json", "shard-1-of-3.json"} {
		b, _ := os.ReadFile(filepath.Join(sh, f))
		os.WriteFile(filepath.Join(bad, f), b, 0o644)
	}
	other := filepath.Join(dir, "other")
	if code, _, se := p.run(nil, args("--shard", "1/3", "--seed", "7", "--out", other)...); code != 0 {
		t.Fatalf("shard with another seed: exit %d: %s", code, se)
	}
	code, _, se = p.run(nil, "merge", bad, other, "--out", filepath.Join(dir, "merged"))
	for _, frag := range []string{
		"shard 2/3 is missing",
		filepath.Join(other, "shard-1-of-3.json") + " (shard 1/3): from another run: config small has seed 7, not 1",
	} {
		if code != exitShards || !strings.Contains(se, frag) {
			t.Errorf("merge of a bad set: exit %d, stderr lacks %q:\n%s", code, frag, se)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "merged")); !os.IsNotExist(err) {
		t.Errorf("merge of a bad set created its output directory")
	}
}

// TestUnitCosts checks the cost model on the quick-start shape: costs grow
// with load and with the network, and are N·(0.1 + r/r_max).
func TestUnitCosts(t *testing.T) {
	dir := t.TempDir()
	e, err := configs.Load(writeConfig(t, dir, "big", shardConfigs["big"]))
	if err != nil {
		t.Fatal(err)
	}
	got := unitCosts(e)
	want := []float64{64 * (0.1 + 0.05/0.25), 64 * (0.1 + 0.15/0.25), 64 * (0.1 + 1)}
	for i := range want {
		if d := got[i] - want[i]; d > 1e-12 || d < -1e-12 {
			t.Errorf("cost[%d] = %g, want %g", i, got[i], want[i])
		}
	}
}

// TestShardFlags checks the usage errors of --shard.
func TestShardFlags(t *testing.T) {
	dir := t.TempDir()
	good := writeConfig(t, dir, "good", goodConfig)
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	t.Setenv("JOB_COMPLETION_INDEX", "")
	cases := []struct {
		args []string
		code int
		frag string
	}{
		{[]string{"run", good, "--shard", "3/3"}, exitUsage, "index 3 outside 0..2"},
		{[]string{"run", good, "--shard", "auto"}, exitUsage, "neither SLURM_ARRAY_TASK_ID"},
		{[]string{"run", good, "--shard-count", "3"}, exitUsage, "--shard-count without --shard"},
		{[]string{"merge"}, exitUsage, "no shard directory"},
		{[]string{"merge", dir}, exitShards, "no shard files"},
		{[]string{"merge", filepath.Join(dir, "nope")}, exitShards, "no such file"},
	}
	for _, c := range cases {
		code, _, stderr := runMain(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.frag) {
			t.Errorf("flitsim %v: exit %d, stderr %q; want exit %d containing %q", c.args, code, stderr, c.code, c.frag)
		}
	}
	// With the fake engine in-process: shards of a run merge to its bytes.
	full := filepath.Join(dir, "full")
	if code, _, se := runMain(t, "run", good, "--out", full, "-q"); code != 0 {
		t.Fatal(se)
	}
	sh := filepath.Join(dir, "sh")
	for i := 0; i < 4; i++ {
		if code, _, se := runMain(t, "run", good, "--shard", strconv.Itoa(i)+"/4", "--out", sh); code != 0 {
			t.Fatal(se)
		}
	}
	if code, _, se := runMain(t, "merge", sh); code != 0 {
		t.Fatal(se)
	}
	a, _ := os.ReadFile(filepath.Join(full, sweep.CSVFile))
	b, _ := os.ReadFile(filepath.Join(sh, sweep.CSVFile))
	if !bytes.Equal(a, b) {
		t.Errorf("in-process merge differs:\n%s\nvs\n%s", b, a)
	}
}
