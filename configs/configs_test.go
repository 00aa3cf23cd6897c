package configs

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/router"
	"github.com/flitsim/flitsim/sim/network"
)

// base is a valid experiment the cases below edit.
const base = `
name: t
network:
  topology: torus
  radix: 8
  dimensions: 2
router:
  vcs: 2
  buffer_depth: 8
traffic:
  pattern: uniform
  length:
    flits: 16
sweep:
  unit: flits/node/cycle
  rates: [0.1, 0.2]
`

// TestExamplesLoad checks that every YAML file shipped in configs/ loads.
func TestExamplesLoad(t *testing.T) {
	files, err := filepath.Glob("*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 8 {
		t.Fatalf("found %d example configs, want at least 8", len(files))
	}
	patterns := map[string]bool{}
	for _, f := range files {
		e, err := Load(f)
		if err != nil {
			t.Errorf("%s:\n%v", f, err)
			continue
		}
		patterns[e.Traffic.Pattern] = true
		if e.Name+".yaml" != f {
			t.Errorf("%s: name %q should match the file name", f, e.Name)
		}
	}
	for _, p := range []string{"uniform", "locality", "decay", "transpose", "bit-complement", "bit-reverse", "shuffle", "tornado", "neighbour", "hotspot"} {
		if !patterns[p] {
			t.Errorf("no example config uses pattern %s", p)
		}
	}
}

// TestDefaults checks the resolved values of omitted keys.
func TestDefaults(t *testing.T) {
	e, err := Parse("dir/my-exp.yaml", []byte(strings.Replace(base, "name: t\n", "", 1)))
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		what      string
		got, want any
	}{
		{"name", e.Name, "my-exp"},
		{"mode", e.Mode, "network"},
		{"seed", e.Seed, uint64(1)},
		{"bidirectional", e.Network.Bidirectional, true},
		{"link_latency", e.Network.LinkLatency, 1},
		{"credit_delay", e.Network.CreditDelay, 1},
		{"routing", e.Routing, "dimension-order"},
		{"switching", e.Switching.Technique, "wormhole"},
		{"process", e.Traffic.Process, "bernoulli"},
		{"length", e.Traffic.Length.Distribution, "fixed"},
		{"replications", e.Run.Replications, 1},
		{"nodes", e.Nodes(), 64},
		{"msg rate", e.MessageRate(1), 0.2 / 16},
		{"flit rate", e.FlitRate(1), 0.2},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.what, c.got, c.want)
		}
	}
}

// edit returns base with the line containing old replaced by repl (which
// may span several lines); old must occur exactly once.
func edit(t *testing.T, old, repl string) string {
	t.Helper()
	if strings.Count(base, old) != 1 {
		t.Fatalf("edit: %q occurs %d times in base", old, strings.Count(base, old))
	}
	return strings.Replace(base, old, repl, 1)
}

// wantErr is one expected problem: its line (0: any) and key, and a
// fragment of its message.
type wantErr struct {
	line int
	key  string
	frag string
}

func checkErrs(t *testing.T, src string, want []wantErr) {
	t.Helper()
	_, err := Parse("x.yaml", []byte(src))
	if err == nil {
		t.Fatalf("no error, want %d problems\n%s", len(want), src)
	}
	var es Errors
	if !errors.As(err, &es) {
		t.Fatalf("error %T is not Errors: %v", err, err)
	}
	if len(es) != len(want) {
		t.Errorf("got %d problems, want %d:\n%v", len(es), len(want), err)
	}
	for _, w := range want {
		found := false
		for _, e := range es {
			if e.File == "x.yaml" && e.Key == w.key && (w.line == 0 || e.Line == w.line) && strings.Contains(e.Error(), w.frag) {
				found = true
			}
		}
		if !found {
			t.Errorf("missing problem line %d key %s %q in:\n%v", w.line, w.key, w.frag, err)
		}
	}
}

// Line numbers in base: 1 is empty, 2 name, 3 network, 4 topology, 5 radix,
// 6 dimensions, 7 router, 8 vcs, 9 buffer_depth, 10 traffic, 11 pattern,
// 12 length, 13 flits, 14 sweep, 15 unit, 16 rates.
func TestUnknownKeys(t *testing.T) {
	checkErrs(t, edit(t, "  vcs: 2\n", "  vc: 2\n  colour: red\n"), []wantErr{
		{8, "router.vc", `did you mean "vcs"`},
		{9, "router.colour", "unknown key"},
	})
	checkErrs(t, base+"extra: 1\n", []wantErr{{17, "extra", "unknown key"}})
	checkErrs(t, edit(t, "  vcs: 2\n", "  vcs: 2\n  vcs: 3\n"), []wantErr{{9, "router.vcs", "duplicate key (first at line 8)"}})
}

func TestWrongTypes(t *testing.T) {
	checkErrs(t, edit(t, "  vcs: 2\n", "  vcs: two\n"), []wantErr{{8, "router.vcs", `expected an integer, got the string "two"`}})
	checkErrs(t, edit(t, "  radix: 8\n", "  radix: 8.5\n"), []wantErr{{5, "network.radix", "expected an integer"}})
	checkErrs(t, edit(t, "  rates: [0.1, 0.2]\n", "  rates: 0.1\n"), []wantErr{{16, "sweep.rates", "expected a list"}})
	checkErrs(t, edit(t, "  rates: [0.1, 0.2]\n", "  rates: [0.1, fast]\n"), []wantErr{{16, "sweep.rates[1]", "expected a number"}})
	checkErrs(t, edit(t, "  topology: torus\n", "  topology: [torus]\n"), []wantErr{{4, "network.topology", "expected a string"}})
	checkErrs(t, edit(t, "router:\n", "router: 3\nx:\n"), []wantErr{{7, "router", "expected a mapping"}, {8, "x", "unknown key"}})
	checkErrs(t, base+"seed: -1\n", []wantErr{{17, "seed", "non-negative integer"}})
	checkErrs(t, "net: [\n", []wantErr{{0, "", "YAML syntax"}})
	checkErrs(t, base+"---\nname: u\n", []wantErr{{0, "", "only one YAML document"}})
	checkErrs(t, "", []wantErr{{1, "", "empty"}})
}

func TestOutOfRange(t *testing.T) {
	checkErrs(t, edit(t, "  vcs: 2\n  buffer_depth: 8\n", "  vcs: 0\n  buffer_depth: -1\n"), []wantErr{
		{8, "router.vcs", "out of range [1, 64]"},
		{9, "router.buffer_depth", "out of range"},
	})
	checkErrs(t, edit(t, "  rates: [0.1, 0.2]\n", "  rates: [0.1, -0.2, 0, 0.1]\n"), []wantErr{
		{16, "sweep.rates[1]", "must be > 0"},
		{16, "sweep.rates[2]", "must be > 0"},
		{16, "sweep.rates[3]", "repeats sweep.rates[0]"},
	})
	checkErrs(t, edit(t, "  unit: flits/node/cycle\n", "  unit: packets\n"), []wantErr{{15, "sweep.unit", "unknown value"}})
	checkErrs(t, edit(t, "  unit: flits/node/cycle\n", ""), []wantErr{{14, "sweep.unit", "missing"}})
	checkErrs(t, edit(t, "  rates: [0.1, 0.2]\n", "  rates: [20]\n"), []wantErr{{16, "sweep.rates[0]", "at most 1 message per cycle"}})
	checkErrs(t, base+"run:\n  replications: 0\n  target_rel_ci: 1.5\n", []wantErr{
		{18, "run.replications", "out of range"},
		{19, "run.target_rel_ci", "out of range"},
	})
	checkErrs(t, edit(t, "  pattern: uniform\n", "  pattern: locality\n  radius: 2\n  phi: 1.5\n"), []wantErr{{13, "traffic.phi", "out of range [0, 1]"}})
	// A clash with the engine's run-control defaults (max_warmup defaults
	// to 50 periods = 50000 cycles) is found at load time too.
	checkErrs(t, base+"run:\n  max_cycles: 40000\n", []wantErr{{17, "run", "max_warmup = 50000 must be below max_cycles = 40000"}})
	checkErrs(t, base+"mode: scouting\n", []wantErr{{17, "mode", "write mode: network"}})
	checkErrs(t, base+"run:\n  cap_rel_ci: 1.5\n  max_drain: -1\n", []wantErr{
		{19, "run.max_drain", "out of range"},
		{18, "run.cap_rel_ci", "out of range"},
	})
	checkErrs(t, base+"run:\n  target_rel_ci: 0.05\n  cap_rel_ci: 0.02\n", []wantErr{{19, "run.cap_rel_ci", "below target_rel_ci"}})
}

// TestValidationVerdictKeys: report_only needs its reason, expect_no_data
// needs its reason, max_offset needs subtract_offset.
func TestValidationVerdictKeys(t *testing.T) {
	m := base + "models: [draper-ghosh]\nvalidation:\n"
	checkErrs(t, m+"  report_only: true\n", []wantErr{{19, "validation.report_only", "needs validation.reason"}})
	checkErrs(t, m+"  expect_no_data: \" \"\n", []wantErr{{19, "validation.expect_no_data", "needs the reason"}})
	// An explicit false would be ignored against a family default of true
	// (draper-ghosh subtracts the offset): refused, not ignored.
	checkErrs(t, m+"  subtract_offset: false\n  report_only: false\n", []wantErr{
		{19, "validation.subtract_offset", "cannot switch off"},
		{20, "validation.report_only", "cannot switch off"},
	})
	checkErrs(t, m+"  max_offset: 0.2\n  saturation_tolerance: 0\n", []wantErr{
		{19, "validation.max_offset", "subtract_offset is not set"},
		{20, "validation.saturation_tolerance", "out of range"},
	})
	e, err := Parse("x.yaml", []byte(m+"  report_only: true\n  reason: \"a relaxed assumption\"\n  expect_no_data: \"every load beyond the domain\"\n"))
	if err != nil || e.Validation.Reason != "a relaxed assumption" || e.Validation.ExpectNoData != "every load beyond the domain" {
		t.Fatalf("%v %+v", err, e)
	}
}

func TestImpossibleCombinations(t *testing.T) {
	checkErrs(t, edit(t, "  vcs: 2\n", "  vcs: 1\n"), []wantErr{{8, "router.vcs", "dateline needs 2 VC classes"}})
	checkErrs(t, edit(t, "  topology: torus\n  radix: 8\n", "  topology: hypercube\n  radix: 4\n"), []wantErr{{5, "network.radix", "hypercube has radix 2"}})
	checkErrs(t, edit(t, "  radix: 8\n", "  radix: 2\n"), []wantErr{{5, "network.radix", "needs radix >= 3"}})
	checkErrs(t, base+"switching:\n  scouting_distance: 2\n", []wantErr{{18, "switching.scouting_distance", "applies only to technique: scouting"}})
	checkErrs(t, base+"switching:\n  technique: virtual-cut-through\n", []wantErr{{9, "router.buffer_depth", "below the longest message (16 flits)"}})
	checkErrs(t, edit(t, "    flits: 16\n", "    distribution: geometric\n    mean: 4\n")+"switching:\n  technique: store-and-forward\n",
		[]wantErr{{12, "traffic.length.max", "needs a max"}})
	checkErrs(t, strings.Replace(edit(t, "  dimensions: 2\n", "  dimensions: 3\n"), "pattern: uniform", "pattern: transpose", 1),
		[]wantErr{{11, "traffic.pattern", "even number of dimensions, got 3"}})
	checkErrs(t, strings.Replace(edit(t, "  radix: 8\n", "  radix: 6\n"), "pattern: uniform", "pattern: bit-reverse", 1),
		[]wantErr{{11, "traffic.pattern", "power-of-two node count, got 36"}})
	checkErrs(t, edit(t, "  pattern: uniform\n", "  pattern: locality\n  radius: 8\n  phi: 0.9\n"),
		[]wantErr{{12, "traffic.radius", "radius 8 is the whole network (diameter 8)"}})
	checkErrs(t, edit(t, "  pattern: uniform\n", "  pattern: uniform\n  decay: 0.5\n"),
		[]wantErr{{12, "traffic.decay", "applies only to pattern: decay"}})
	checkErrs(t, base+"models: [draper-ghosh, gauss, draper-ghosh]\n", []wantErr{
		{17, "models[1]", `unknown model "gauss"`},
		{17, "models[2]", "listed twice"},
	})
	// Adaptive routing, escape channels and scouting (network.Config.Routing,
	// EscapeVCs, router.Scouting): what the engine refuses is refused here,
	// with file, line and key.
	adaptive := strings.Replace(base, "  buffer_depth: 8\n", "  buffer_depth: 8\nrouting: adaptive\n", 1)
	checkErrs(t, strings.Replace(base, "  buffer_depth: 8\n", "  buffer_depth: 8\n  escape_vcs: 2\n", 1),
		[]wantErr{{10, "router.escape_vcs", "apply only to routing: adaptive (routing is dimension-order)"}})
	checkErrs(t, strings.Replace(adaptive, "  buffer_depth: 8\n", "  buffer_depth: 8\n  escape_vcs: 2\n", 1),
		[]wantErr{{10, "router.escape_vcs", "must be below router.vcs 2"}})
	checkErrs(t, strings.Replace(adaptive, "  vcs: 2\n  buffer_depth: 8\n", "  vcs: 4\n  buffer_depth: 8\n  escape_vcs: 1\n", 1),
		[]wantErr{{10, "router.escape_vcs", "on a torus: the escape channels are the two dateline classes"}})
	checkErrs(t, strings.Replace(adaptive, "  vcs: 2\n  buffer_depth: 8\n", "  vcs: 4\n  buffer_depth: 8\n  escape_vcs: -2\n", 1),
		[]wantErr{{10, "router.escape_vcs", "out of range [0, 64]"}})
	checkErrs(t, adaptive+"switching:\n  technique: wormhole\n  scouting_distance: 1\n",
		[]wantErr{{20, "switching.scouting_distance", "applies only to technique: scouting"}})
	checkErrs(t, adaptive+"switching:\n  technique: scouting\n  scouting_distance: -1\n",
		[]wantErr{{20, "switching.scouting_distance", "out of range"}})
	// V = 1 on a torus stays refused for random-minimal routing; adaptive
	// V = 1 is the paper's configuration and loads (TestAdaptiveScoutingLoad).
	checkErrs(t, strings.Replace(strings.Replace(adaptive, "  vcs: 2\n", "  vcs: 1\n", 1), "routing: adaptive", "routing: random-minimal", 1),
		[]wantErr{{8, "router.vcs", "dateline needs 2 VC classes"}})
}

// TestAdaptiveScoutingLoad checks the accepted combinations and their
// mapping onto network.Config, built by network.New: the paper's V = 1
// adaptive torus without escape channels, Duato escape channels on a torus
// (even) and a mesh (odd allowed), adaptive routing on a hypercube (the
// engine accepts it), scouting with K = 0 (wormhole) and K = 3.
func TestAdaptiveScoutingLoad(t *testing.T) {
	for _, c := range []struct {
		name, topo, router, sw string
		escape, K              int
		sw0                    router.Switching
	}{
		{"paper V=1 torus", "  topology: torus\n  radix: 8\n  dimensions: 2\n", "  vcs: 1\n  buffer_depth: 2\n", "technique: scouting, scouting_distance: 3", 0, 3, router.Scouting},
		{"torus escape", "  topology: torus\n  radix: 8\n  dimensions: 2\n", "  vcs: 6\n  buffer_depth: 2\n  escape_vcs: 2\n", "technique: scouting, scouting_distance: 1", 2, 1, router.Scouting},
		{"mesh escape 1", "  topology: mesh\n  radix: 4\n  dimensions: 2\n", "  vcs: 2\n  buffer_depth: 2\n  escape_vcs: 1\n", "technique: wormhole", 1, 0, router.Wormhole},
		{"hypercube", "  topology: hypercube\n  dimensions: 4\n", "  vcs: 2\n  buffer_depth: 2\n", "technique: scouting, scouting_distance: 0", 0, 0, router.Scouting},
	} {
		src := "name: t\nnetwork:\n" + c.topo + "router:\n" + c.router + "routing: adaptive\nswitching: {" + c.sw + "}\n" +
			"traffic: {pattern: uniform, length: {flits: 16}}\nsweep: {unit: messages/node/cycle, rates: [0.001]}\n"
		e, err := Parse(c.name+".yaml", []byte(src))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		nc, err := e.NetworkConfig(0, 1)
		if err != nil {
			t.Fatal(err)
		}
		if nc.Routing != network.RoutingAdaptive || nc.EscapeVCs != c.escape || nc.Router.Switching != c.sw0 || nc.Router.ScoutingDistance != c.K {
			t.Errorf("%s: mapped to routing %q escape %d switching %v K %d, want adaptive %d %v %d",
				c.name, nc.Routing, nc.EscapeVCs, nc.Router.Switching, nc.Router.ScoutingDistance, c.escape, c.sw0, c.K)
		}
		if _, err := network.New(nc); err != nil {
			t.Errorf("%s: engine refuses the mapped config: %v", c.name, err)
		}
	}
}

// TestEscapeVCsHash checks that escape_vcs is left out of the canonical
// encoding when 0, so the hash of every experiment written before the key
// existed is unchanged, and that a non-zero value changes the hash.
func TestEscapeVCsHash(t *testing.T) {
	a, err := Parse("a.yaml", []byte(base))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(mustJSON(t, a), "escape_vcs") {
		t.Errorf("escape_vcs in the canonical encoding of an experiment without it: %s", mustJSON(t, a))
	}
	src := strings.Replace(base, "  vcs: 2\n  buffer_depth: 8\n", "  vcs: 4\n  buffer_depth: 8\n", 1) + "routing: adaptive\n"
	b, err := Parse("b.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse("c.yaml", []byte(strings.Replace(src, "  buffer_depth: 8\n", "  buffer_depth: 8\n  escape_vcs: 2\n", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if b.Hash() == c.Hash() {
		t.Error("escape_vcs: 2 does not change the hash")
	}
}

func mustJSON(t *testing.T, e *Experiment) string {
	t.Helper()
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestAllAtOnce checks that problems of every class in one file are all
// reported, in line order, each naming file, line and key.
func TestAllAtOnce(t *testing.T) {
	src := edit(t, "  vcs: 2\n  buffer_depth: 8\n", "  vcs: 1\n  buffer_depth: 0\n  depth: 3\n")
	src = strings.Replace(src, "radix: 8", "radix: eight", 1)
	checkErrs(t, src, []wantErr{
		{5, "network.radix", "expected an integer"},
		{9, "router.buffer_depth", "out of range"},
		{10, "router.depth", "unknown key"},
	})
	// The bad radix is not also reported as out of range, and checks that
	// need the topology (vcs on a torus) are skipped rather than guessed.
	src = edit(t, "  vcs: 2\n  buffer_depth: 8\n", "  vcs: 1\n  buffer_depth: 0\n")
	src = strings.Replace(src, "pattern: uniform", "pattern: transpose", 1)
	src = strings.Replace(src, "dimensions: 2", "dimensions: 3", 1)
	_, err := Parse("x.yaml", []byte(src))
	want := "x.yaml:8:3: router.vcs: torus with dimension-order routing and wormhole switching needs vcs >= 2 (the wrap-around cycle deadlocks; the dateline needs 2 VC classes), got 1\n" +
		"x.yaml:9:3: router.buffer_depth: 0 is out of range [1, 32767]\n" +
		"x.yaml:11:3: traffic.pattern: transpose swaps the two halves of a node's coordinates: it needs an even number of dimensions, got 3"
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

// TestHashCanonical checks that the hash ignores comments, key order,
// spelled-out defaults, the file name and the seed, and changes with any
// resolved value.
func TestHashCanonical(t *testing.T) {
	h := func(name, src string) string {
		t.Helper()
		e, err := Parse(name, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return e.Hash()
	}
	h0 := h("a.yaml", base)
	same := []string{
		"# a comment\n" + base + "# trailing\n",
		base + "seed: 99\n",
		base + "routing: dimension-order\nmode: network\nrun:\n  replications: 1\n",
		strings.Replace(base, "  radix: 8\n  dimensions: 2\n", "  dimensions: 2\n  radix: 8   # k\n", 1),
		// defaults written out: the same resolved experiment
		strings.Replace(base, "vcs: 2\n", "vcs: 2\n  tie_break: balanced\n  dateline: per-hop\n  sticky_escape: false\n  adaptive_vc: whole-packet\n", 1),
	}
	for i, s := range same {
		if got := h("b/other.yaml", s); got != h0 {
			t.Errorf("variant %d changed the hash", i)
		}
	}
	differ := []string{
		strings.Replace(base, "vcs: 2", "vcs: 3", 1),
		strings.Replace(base, "[0.1, 0.2]", "[0.2, 0.1]", 1),
		strings.Replace(base, "name: t", "name: u", 1),
		strings.Replace(base, "vcs: 2\n", "vcs: 2\n  tie_break: plus\n", 1),
		strings.Replace(base, "vcs: 2\n", "vcs: 2\n  dateline: hold\n", 1),
		strings.Replace(base, "vcs: 2\n", "vcs: 3\n  escape_vcs: 2\n  sticky_escape: true\n", 1) + "routing: adaptive\n",
		strings.Replace(base, "vcs: 2\n", "vcs: 2\n  adaptive_vc: booksim\n", 1) + "routing: adaptive\n",
	}
	for i, s := range differ {
		if got := h("a.yaml", s); got == h0 {
			t.Errorf("change %d kept the hash", i)
		}
	}
	if len(h0) != 64 {
		t.Errorf("hash %q is not 64 hex digits", h0)
	}
}

// TestLoadAll checks that problems of several files are reported together
// and that duplicate experiment names are refused.
func TestLoadAll(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.yaml", base)
	b := write("b.yaml", strings.Replace(base, "vcs: 2", "vcs: x", 1))
	c := write("c.yaml", base)
	_, err := LoadAll([]string{a, b, c, filepath.Join(dir, "missing.yaml")})
	var es Errors
	if !errors.As(err, &es) || len(es) != 3 {
		t.Fatalf("want 3 problems, got %v", err)
	}
	for i, frag := range []string{"b.yaml:8:3: router.vcs", "c.yaml:1:1: name: experiment name \"t\" is also used", "missing.yaml: open"} {
		if !strings.Contains(es[i].Error(), frag) {
			t.Errorf("problem %d = %q, want it to contain %q", i, es[i].Error(), frag)
		}
	}
	exps, err := LoadAll([]string{a})
	if err != nil || len(exps) != 1 {
		t.Fatalf("LoadAll(a) = %v, %v", exps, err)
	}
}
