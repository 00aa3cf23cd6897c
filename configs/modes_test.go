package configs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/sim/closed"
	"github.com/flitsim/flitsim/sim/delta"
	"github.com/flitsim/flitsim/sim/network"
	"github.com/flitsim/flitsim/sim/slotted"
	"github.com/flitsim/flitsim/traffic"
)

// TestAllConfigFilesLoad loads every *.yaml under configs/, recursively and
// in every mode: configs/scouting (the seed-004 set-ups) and the
// configs/validation/safaei-* files included, which must also build on the
// network engine (adaptive routing, escape channels and scouting switching
// are mapped, not only parsed). Any problem fails the test.
func TestAllConfigFilesLoad(t *testing.T) {
	var files []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".yaml") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	modes := map[string]int{}
	scouting, safaei := 0, 0
	for _, f := range files {
		e, err := Load(f)
		if err != nil {
			t.Errorf("%s:\n%v", f, err)
			continue
		}
		modes[e.Mode]++
		isScouting := strings.HasPrefix(f, "scouting"+string(filepath.Separator))
		isSafaei := strings.HasPrefix(filepath.Base(f), "safaei-")
		if !isScouting && !isSafaei {
			continue
		}
		if isScouting {
			scouting++
		} else {
			safaei++
		}
		c, err := e.NetworkConfig(len(e.Sweep.Rates)-1, e.Seed)
		if err == nil {
			_, err = network.New(c)
		}
		if err != nil {
			t.Errorf("%s: engine refuses: %v", f, err)
		}
		if c.Routing != network.RoutingAdaptive {
			t.Errorf("%s: routing %q, want adaptive (seed 004 §3.1)", f, c.Routing)
		}
	}
	for _, m := range Modes() {
		if modes[m] == 0 {
			t.Errorf("no config file of mode %s", m)
		}
	}
	if scouting < 48 || safaei < 17 {
		t.Errorf("loaded %d configs/scouting files (want 48) and %d safaei validation files (want 17)", scouting, safaei)
	}
	t.Logf("loaded per mode: %v; built on the engine: %d scouting, %d safaei", modes, scouting, safaei)
}

// TestModeExamples pins what the paper-mode examples resolve to: the
// values of their files and the defaults they leave out.
func TestModeExamples(t *testing.T) {
	e, err := Load("closed/reed-ring15-decreasing.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// "decreasing" is Reed's name of the decay pattern.
	if e.Traffic.Pattern != "decay" || e.Traffic.Decay != 0.5 || e.Network.Radix != 15 || e.Network.Dimensions != 1 ||
		e.Closed != (Closed{Duplex: "half", Placement: "round-robin", PE: Service{"exponential", 1}, Link: Service{"exponential", 1}, LinkDraw: "per-hop"}) ||
		len(e.Sweep.Rates) != 30 || e.Sweep.Unit != UnitPopulation || e.Nodes() != 15 {
		t.Errorf("reed-ring15-decreasing resolved to %+v", e)
	}
	exps, err := LoadAll([]string{"delta/figure6-resubmit-source.yaml", "delta/figure6-retry-previous.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, x := range exps {
		names = append(names, x.Name)
		if len(x.Delta.QueueLength) != 1 || x.Run.MaxTime != 200000 || x.Run.BacklogLimit != 100 || x.Nodes() != 64 {
			t.Errorf("%s: %+v", x.Name, x.Delta)
		}
	}
	want := "delta-figure6-resubmit-source-L1 delta-figure6-resubmit-source-L2 delta-figure6-resubmit-source-L4 delta-figure6-resubmit-source-L8 " +
		"delta-figure6-retry-previous-L1 delta-figure6-retry-previous-L2 delta-figure6-retry-previous-L4 delta-figure6-retry-previous-L8"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("variants:\n got %s\nwant %s", got, want)
	}
	s, err := Load("slotted/fig1-n16.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if s.Slotted != (Slotted{Dimensions: 4, Choice: "free"}) || s.Traffic.Process != "poisson" || s.Nodes() != 16 || s.Run.MaxCycles != 1048576 {
		t.Errorf("fig1-n16 resolved to %+v", s)
	}
}

// Mode bases: valid experiments the cases below edit. Line numbers are
// given beside each.
const closedBase = `
name: c
mode: closed
network:
  topology: ring
  radix: 15
closed:
  pe: {distribution: exponential, mean: 1}
  link: {distribution: exponential, mean: 1}
traffic:
  pattern: uniform
sweep:
  unit: population
  rates: [1, 2, 3]
`

// closedBase lines: 2 name, 3 mode, 4 network, 5 topology, 6 radix, 7 closed,
// 8 pe, 9 link, 10 traffic, 11 pattern, 12 sweep, 13 unit, 14 rates; 15 is
// the first appended line.

const deltaBase = `
name: d
mode: delta
delta:
  degree: 4
  stages: 3
  queue_length: 4
  rejection: resubmit-source
sweep:
  unit: rho
  rates: [0.1, 0.5]
`

// deltaBase lines: 2 name, 3 mode, 4 delta, 5 degree, 6 stages,
// 7 queue_length, 8 rejection, 9 sweep, 10 unit, 11 rates; 12 appended.

const slottedBase = `
name: s
mode: slotted
slotted:
  dimensions: 4
traffic:
  process: poisson
sweep:
  unit: packets/node/slot
  rates: [0.05, 0.1]
`

// slottedBase lines: 2 name, 3 mode, 4 slotted, 5 dimensions, 6 traffic,
// 7 process, 8 sweep, 9 unit, 10 rates; 11 appended.

// modeCase is one edited file and the problems it must give.
type modeCase struct {
	name  string
	src   string
	want  []wantErr
	class string // unknown (key), type (wrong), range (out of), combination (impossible)
}

func sub(t *testing.T, src, old, repl string) string {
	t.Helper()
	if strings.Count(src, old) != 1 {
		t.Fatalf("sub: %q occurs %d times", old, strings.Count(src, old))
	}
	return strings.Replace(src, old, repl, 1)
}

// TestModeErrors checks that every class of problem in each mode section is
// refused with file:line:key, and nothing else is reported.
func TestModeErrors(t *testing.T) {
	for _, b := range []string{closedBase, deltaBase, slottedBase} {
		if _, err := Parse("x.yaml", []byte(b)); err != nil {
			t.Fatalf("base does not load: %v\n%s", err, b)
		}
	}
	cases := []modeCase{
		// mode closed
		{"closed unknown key", sub(t, closedBase, "  pe: {", "  pes: {"), []wantErr{{8, "closed.pes", `did you mean "pe"`}}, "unknown"},
		{"closed wrong type", sub(t, closedBase, "mean: 1}\n  link", "mean: fast}\n  link"), []wantErr{{8, "closed.pe.mean", "expected a number"}}, "type"},
		{"closed key in the wrong section", closedBase + "  duplex: both\n", []wantErr{{15, "sweep.duplex", "unknown key"}}, "unknown"},
		{"closed out of range", sub(t, closedBase, "closed:\n", "closed:\n  duplex: both\n"), []wantErr{{8, "closed.duplex", `unknown value "both" (one of: half, full)`}}, "range"},
		{"closed population", sub(t, closedBase, "[1, 2, 3]", "[1, 2.5, 0]"), []wantErr{
			{14, "sweep.rates[1]", "whole number of messages"}, {14, "sweep.rates[2]", "must be > 0"}}, "range"},
		{"closed negative mean", sub(t, closedBase, "{distribution: exponential, mean: 1}\n  link", "{distribution: exponential, mean: -1}\n  link"),
			[]wantErr{{8, "closed.pe.mean", "out of range (0, "}}, "range"},
		{"closed ring radix", sub(t, closedBase, "radix: 15", "radix: 2"), []wantErr{{6, "network.radix", "out of range [3, "}}, "range"},
		{"closed router section", closedBase + "router:\n  vcs: 2\n", []wantErr{{15, "router", "does not apply to mode: closed"}}, "combination"},
		{"closed length", sub(t, closedBase, "  pattern: uniform\n", "  pattern: uniform\n  length: {flits: 4}\n"),
			[]wantErr{{12, "traffic.length", "does not apply to mode: closed"}}, "combination"},
		{"closed include_self", sub(t, closedBase, "  pattern: uniform\n", "  pattern: uniform\n  include_self: true\n"),
			[]wantErr{{12, "traffic.include_self", "does not apply to mode: closed"}}, "combination"},
		{"closed flit_time without geometric", sub(t, closedBase, "closed:\n", "closed:\n  flit_time: 2\n"),
			[]wantErr{{8, "closed.flit_time", "applies only to link.distribution: geometric"}}, "combination"},
		{"closed pe none with mean", sub(t, closedBase, "pe: {distribution: exponential, mean: 1}", "pe: {distribution: none, mean: 1}"),
			[]wantErr{{8, "closed.pe.mean", "takes no time"}}, "combination"},
		{"closed bus with dimensions", sub(t, closedBase, "  topology: ring\n", "  topology: bus\n  dimensions: 2\n"),
			[]wantErr{{6, "network.dimensions", "a bus has 1 dimension"}}, "combination"},
		{"closed max_cycles", closedBase + "run:\n  max_cycles: 1000\n", []wantErr{{16, "run.max_cycles", "use max_time"}}, "combination"},
		{"closed rate unit of another mode", sub(t, closedBase, "unit: population", "unit: rho"), []wantErr{{13, "sweep.unit", "belongs to mode delta"}}, "combination"},
		{"closed model of another mode", closedBase + "models: [reed-mva:printed, jacquet]\n", []wantErr{{15, "models[1]", "describes mode slotted"}}, "combination"},
		{"closed delta section", closedBase + "delta:\n  degree: 2\n", []wantErr{{15, "delta", "section delta applies only to mode: delta"}}, "combination"},
		{"closed engine run control", closedBase + "run:\n  min_batches: 1\n", []wantErr{{15, "run", "the closed engine refuses this"}}, "combination"},
		// mode delta
		{"delta unknown key", sub(t, deltaBase, "  degree: 4\n", "  degre: 4\n"), []wantErr{{5, "delta.degre", `did you mean "degree"`}}, "unknown"},
		{"delta wrong type", sub(t, deltaBase, "queue_length: 4", "queue_length: four"), []wantErr{{7, "delta.queue_length", "expected an integer"}}, "type"},
		{"delta wrong type in list", sub(t, deltaBase, "queue_length: 4", "queue_length: [2, x]"), []wantErr{{7, "delta.queue_length[1]", "expected an integer"}}, "type"},
		{"delta out of range", sub(t, deltaBase, "  degree: 4\n", "  degree: 1\n  mu: 0\n"), []wantErr{
			{5, "delta.degree", "out of range [2, 64]"}, {6, "delta.mu", "out of range (0, "}}, "range"},
		{"delta queue lengths", sub(t, deltaBase, "queue_length: 4", "queue_length: [2, 0, 2]"), []wantErr{
			{7, "delta.queue_length[1]", "out of range"}, {7, "delta.queue_length[2]", "repeats delta.queue_length[0]"}}, "range"},
		{"delta unknown rejection", sub(t, deltaBase, "resubmit-source", "bounce"), []wantErr{{8, "delta.rejection", `unknown value "bounce"`}}, "range"},
		{"delta resubmit delay with retry", sub(t, deltaBase, "rejection: resubmit-source", "rejection: retry-previous\n  resubmit_delay: 2"),
			[]wantErr{{9, "delta.resubmit_delay", "applies only to rejection: resubmit-source"}}, "combination"},
		{"delta retry buffer with drop", sub(t, deltaBase, "rejection: resubmit-source", "rejection: drop\n  retry_buffer: queue"),
			[]wantErr{{9, "delta.retry_buffer", "no effect under rejection: drop"}}, "combination"},
		{"delta slotted rates", sub(t, sub(t, deltaBase, "  rejection: resubmit-source\n", "  rejection: resubmit-source\n  time: slotted\n  mu: 0.5\n"), "[0.1, 0.5]", "[0.1, 3]"),
			[]wantErr{{13, "sweep.rates[1]", "at most 1 packet per cycle"}}, "combination"},
		{"delta slotted mu", sub(t, deltaBase, "  rejection: resubmit-source\n", "  rejection: resubmit-source\n  time: slotted\n  mu: 2\n"),
			[]wantErr{{10, "delta.mu", "at most one packet per cycle"}}, "combination"},
		{"delta network section", deltaBase + "network:\n  topology: ring\n", []wantErr{{12, "network", "does not apply to mode: delta"}}, "combination"},
		{"delta traffic and max_warmup", deltaBase + "traffic:\n  pattern: uniform\nrun:\n  max_warmup: 10\n", []wantErr{
			{12, "traffic", "does not apply to mode: delta"}, {15, "run.max_warmup", "does not apply to mode: delta"}}, "combination"},
		{"delta unit", sub(t, deltaBase, "unit: rho", "unit: messages/node/cycle"), []wantErr{{10, "sweep.unit", "belongs to mode network"}}, "combination"},
		{"delta engine run control", deltaBase + "run:\n  warmup: 100\n  max_time: 100\n", []wantErr{{12, "run", "the delta engine refuses this: delta: run.warmup = 100 leaves nothing of run.max_time = 100"}}, "combination"},
		{"delta warmup beyond max_time", deltaBase + "run:\n  warmup: 200\n  max_time: 100\n", []wantErr{{13, "run.warmup", "200 exceeds run.max_time 100"}}, "combination"},
		// mode slotted
		{"slotted unknown key", sub(t, slottedBase, "  dimensions: 4\n", "  dimensions: 4\n  dim: 3\n"), []wantErr{{6, "slotted.dim", "unknown key"}}, "unknown"},
		{"slotted wrong type", sub(t, slottedBase, "dimensions: 4", "dimensions: [4]"), []wantErr{{5, "slotted.dimensions", "expected an integer"}}, "type"},
		{"slotted out of range", sub(t, slottedBase, "dimensions: 4", "dimensions: 21"), []wantErr{{5, "slotted.dimensions", "out of range [1, 20]"}}, "range"},
		{"slotted missing dimensions", sub(t, slottedBase, "  dimensions: 4\n", "  choice: blind\n"), []wantErr{{4, "slotted.dimensions", "missing"}}, "range"},
		{"slotted choice", sub(t, slottedBase, "  dimensions: 4\n", "  dimensions: 4\n  choice: greedy\n"), []wantErr{{6, "slotted.choice", `unknown value "greedy"`}}, "range"},
		{"slotted bernoulli rate", sub(t, sub(t, slottedBase, "process: poisson", "process: bernoulli"), "[0.05, 0.1]", "[0.05, 1.5]"),
			[]wantErr{{10, "sweep.rates[1]", "at most 1 packet per slot"}}, "combination"},
		{"slotted pattern", sub(t, slottedBase, "  process: poisson\n", "  process: poisson\n  pattern: transpose\n"),
			[]wantErr{{8, "traffic.pattern", "uniform destinations only"}}, "combination"},
		{"slotted include_self", sub(t, slottedBase, "  process: poisson\n", "  process: poisson\n  include_self: true\n"),
			[]wantErr{{8, "traffic.include_self", "does not apply to mode: slotted"}}, "combination"},
		{"slotted router, max_time, deadlock", slottedBase + "router: {vcs: 2}\nrun: {max_time: 10, deadlock_cycles: 5}\n", []wantErr{
			{11, "router", "does not apply to mode: slotted"}, {12, "run.deadlock_cycles", "cannot deadlock"}, {12, "run.max_time", "use max_cycles"}}, "combination"},
		{"slotted negative target", slottedBase + "run:\n  target_rel_ci: -1\n", []wantErr{{12, "run.target_rel_ci", "always stops on its precision target"}}, "combination"},
		{"slotted engine run control", slottedBase + "run:\n  max_cycles: 2000\n", []wantErr{{11, "run", "the slotted engine refuses this"}}, "combination"},
		// mode network refuses the paper sections
		{"network closed section", base + "closed:\n  duplex: half\nrun:\n  max_time: 5\n", []wantErr{
			{17, "closed", "section closed applies only to mode: closed (mode is network)"}, {20, "run.max_time", "use max_cycles"}}, "combination"},
	}
	classes := map[string]int{}
	for _, c := range cases {
		classes[c.class]++
		t.Run(c.name, func(t *testing.T) { checkErrs(t, c.src, c.want) })
	}
	for _, cl := range []string{"unknown", "type", "range", "combination"} {
		if classes[cl] < 3 {
			t.Errorf("only %d cases of class %s", classes[cl], cl)
		}
	}
}

// TestModeHashCanonical checks the hash in the paper modes: spelled-out
// defaults, key order, "decreasing" for "decay" and a one-item list for a
// scalar do not change it; any value that changes the run does. The
// mode-network hash of quickstart.yaml is pinned: the paper sections must
// not enter the canonical encoding of a network experiment.
func TestModeHashCanonical(t *testing.T) {
	h := func(src string) string {
		t.Helper()
		e, err := Parse("a.yaml", []byte(src))
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		return e.Hash()
	}
	groups := []struct {
		base   string
		same   []string
		differ []string
	}{
		{closedBase,
			[]string{
				sub(t, closedBase, "closed:\n", "closed:\n  duplex: half\n  placement: round-robin\n  link_draw: per-hop\n") + "run: {replications: 1}\nseed: 9\n",
				sub(t, closedBase, "traffic:\n  pattern: uniform\n", ""),
			},
			[]string{
				sub(t, closedBase, "closed:\n", "closed:\n  duplex: full\n"),
				sub(t, closedBase, "[1, 2, 3]", "[1, 2, 4]"),
				closedBase + "run: {max_time: 100000}\n",
			}},
		{deltaBase,
			[]string{
				sub(t, deltaBase, "queue_length: 4", "queue_length: [4]"),
				sub(t, deltaBase, "  rejection: resubmit-source\n", "  rejection: resubmit-source\n  wiring: omega\n  mu: 1\n  service: exponential\n  time: continuous\n  retry_buffer: source\n  resubmit_delay: 0\n"),
			},
			[]string{
				sub(t, deltaBase, "queue_length: 4", "queue_length: 2"),
				sub(t, deltaBase, "  rejection: resubmit-source\n", "  rejection: resubmit-source\n  mu: 2\n"),
				deltaBase + "run: {backlog_limit: 50}\n",
			}},
		{slottedBase,
			[]string{sub(t, slottedBase, "  dimensions: 4\n", "  dimensions: 4\n  choice: free\n"), sub(t, slottedBase, "traffic:\n  process: poisson\n", "")},
			[]string{sub(t, slottedBase, "dimensions: 4", "dimensions: 5"), sub(t, slottedBase, "process: poisson", "process: bernoulli")}},
	}
	for gi, g := range groups {
		h0 := h(g.base)
		for i, s := range g.same {
			if h(s) != h0 {
				t.Errorf("group %d: variant %d changed the hash", gi, i)
			}
		}
		for i, s := range g.differ {
			if h(s) == h0 {
				t.Errorf("group %d: change %d kept the hash", gi, i)
			}
		}
	}
	dec := sub(t, closedBase, "  pattern: uniform\n", "  pattern: decreasing\n  decay: 0.5\n")
	if h(dec) != h(strings.Replace(dec, "decreasing", "decay", 1)) {
		t.Errorf("pattern decreasing and decay hash differently")
	}
	// Drop mode: a spelled-out retry_buffer: source changes nothing.
	drop := sub(t, deltaBase, "rejection: resubmit-source", "rejection: drop")
	if h(drop) != h(sub(t, drop, "rejection: drop", "rejection: drop\n  retry_buffer: source")) {
		t.Errorf("retry_buffer: source changed the hash of a drop-mode experiment")
	}
	// Pinned before the paper modes existed (commit 11df73e).
	q, err := Load("quickstart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := q.Hash(), "d686479bddfe71c7ad010336f0a92bcae7c35086283809369a0acd13bd3c2030"; got != want {
		t.Errorf("quickstart.yaml hash %s, want %s (mode network hashes must not move)", got, want)
	}
}

// TestVariants checks that a delta file listing several queue lengths is
// the same as one file per L under the variant's name: same config, same
// hash, and the variant seed is the file's.
func TestVariants(t *testing.T) {
	multi, err := Parse("m.yaml", []byte(sub(t, deltaBase, "queue_length: 4", "queue_length: [2, 8]")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := multi.DeltaConfig(0, 1); err == nil {
		t.Errorf("DeltaConfig of a two-L experiment did not fail")
	}
	vs := multi.Variants()
	if len(vs) != 2 {
		t.Fatalf("%d variants, want 2", len(vs))
	}
	for i, l := range []string{"2", "8"} {
		single, err := Parse("s.yaml", []byte(sub(t, sub(t, deltaBase, "queue_length: 4", "queue_length: "+l), "name: d", "name: d-L"+l)))
		if err != nil {
			t.Fatal(err)
		}
		if vs[i].Name != "d-L"+l || vs[i].Hash() != single.Hash() {
			t.Errorf("variant %d: name %s hash %s, want d-L%s hash %s", i, vs[i].Name, vs[i].Hash(), l, single.Hash())
		}
	}
	if multi.Delta.QueueLength[0] != 2 || len(multi.Delta.QueueLength) != 2 {
		t.Errorf("Variants changed the experiment it was called on: %v", multi.Delta.QueueLength)
	}
	// Two files expanding to the same name are refused by LoadAll.
	dir := t.TempDir()
	a := filepath.Join(dir, "a.yaml")
	b := filepath.Join(dir, "b.yaml")
	if err := os.WriteFile(a, []byte(sub(t, deltaBase, "queue_length: 4", "queue_length: [2, 8]")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte(sub(t, sub(t, deltaBase, "queue_length: 4", "queue_length: 8"), "name: d", "name: d-L8")), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = LoadAll([]string{a, b})
	var es Errors
	if !errors.As(err, &es) || len(es) != 1 || !strings.Contains(es[0].Error(), `"d-L8" is also used by `+a) {
		t.Errorf("LoadAll of clashing variant names: %v", err)
	}
}

// TestModeConfigs checks each mapper field by field against the file, the
// unit conversion (delta: lambda = rho * mu) and the per-unit seed, and that
// the mode's engine accepts the result.
func TestModeConfigs(t *testing.T) {
	c, err := Parse("c.yaml", []byte(sub(t, closedBase, "  pattern: uniform\n", "  pattern: locality\n  radius: 2\n  phi: 0.5\n")+
		"run: {warmup: 50, period: 20, min_measure: 400, max_time: 9000, target_rel_ci: 0.02, min_batches: 8, max_batches: 32}\n"))
	if err != nil {
		t.Fatal(err)
	}
	cc, err := c.ClosedConfig(2, 77)
	if err != nil {
		t.Fatal(err)
	}
	wantC := closed.Config{
		Network: "ring", Radix: 15, Dims: 1, Duplex: "half",
		Pattern:    traffic.PatternSpec{Name: "locality", Radius: 2, Phi: 0.5},
		Population: 3, Placement: "round-robin",
		PE: closed.Service{Distribution: "exponential", Mean: 1}, Link: closed.Service{Distribution: "exponential", Mean: 1},
		LinkDraw: "per-hop", Seed: 77,
		Run: closed.Run{Warmup: 50, Period: 20, MinMeasure: 400, MaxTime: 9000, TargetRelCI: 0.02, MinBatches: 8, MaxBatches: 32},
	}
	if !reflect.DeepEqual(cc, wantC) {
		t.Errorf("ClosedConfig:\n got %+v\nwant %+v", cc, wantC)
	}
	if _, err := closed.New(cc); err != nil {
		t.Errorf("closed.New refuses the mapped config: %v", err)
	}

	d, err := Parse("d.yaml", []byte(sub(t, deltaBase, "  rejection: resubmit-source\n",
		"  rejection: resubmit-source\n  mu: 2\n  wiring: butterfly\n  resubmit_delay: 0.5\n  retry_buffer: queue\n")+
		"run: {warmup: 10, period: 5, min_measure: 100, max_time: 5000, target_rel_ci: -1, backlog_limit: 30}\n"))
	if err != nil {
		t.Fatal(err)
	}
	dc, err := d.DeltaConfig(1, 99)
	if err != nil {
		t.Fatal(err)
	}
	wantD := delta.Config{
		Degree: 4, Stages: 3, Wiring: "butterfly", QueueLength: 4,
		Rate: 0.5 * 2, Mu: 2, Service: "exponential", Time: "continuous", Rejection: "resubmit-source",
		ResubmitDelay: 0.5, RetryBuffer: "queue", Seed: 99,
		Run: delta.Run{Warmup: 10, Period: 5, MinMeasure: 100, MaxTime: 5000, TargetRelCI: -1, MaxBacklog: 30 * 64},
	}
	if !reflect.DeepEqual(dc, wantD) {
		t.Errorf("DeltaConfig:\n got %+v\nwant %+v", dc, wantD)
	}
	if _, err := delta.New(dc); err != nil {
		t.Errorf("delta.New refuses the mapped config: %v", err)
	}

	s, err := Parse("s.yaml", []byte(sub(t, slottedBase, "  dimensions: 4\n", "  dimensions: 4\n  choice: blind\n")+
		"run: {warmup: 1000, max_warmup: 50000, period: 64, min_measure: 5000, max_cycles: 100000, target_rel_ci: 0.03, min_batches: 12, max_batches: 40, backlog_limit: 64}\n"))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := s.SlottedConfig(0, 5)
	if err != nil {
		t.Fatal(err)
	}
	wantS := slotted.Config{
		Dim: 4, Rate: 0.05, Arrivals: "poisson", Choice: "blind", Seed: 5,
		Run: slotted.RunControl{Warmup: 1000, MaxWarmup: 50000, Period: 64, MinMeasure: 5000, MaxSlots: 100000,
			TargetRelCI: 0.03, MinBatches: 12, MaxBatches: 40, BacklogLimit: 64},
	}
	if !reflect.DeepEqual(sc, wantS) {
		t.Errorf("SlottedConfig:\n got %+v\nwant %+v", sc, wantS)
	}
	if _, err := slotted.New(sc); err != nil {
		t.Errorf("slotted.New refuses the mapped config: %v", err)
	}

	// Each mapper refuses an experiment of another mode.
	if _, err := c.DeltaConfig(0, 1); err == nil {
		t.Errorf("DeltaConfig of a closed experiment did not fail")
	}
	if _, err := d.SlottedConfig(0, 1); err == nil {
		t.Errorf("SlottedConfig of a delta experiment did not fail")
	}
	if _, err := s.ClosedConfig(0, 1); err == nil {
		t.Errorf("ClosedConfig of a slotted experiment did not fail")
	}
	if _, err := s.NetworkConfig(0, 1); err == nil {
		t.Errorf("NetworkConfig of a slotted experiment did not fail")
	}
}
