package configs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const dragonflyBase = `name: df
network:
  topology: dragonfly
  concentration: 2
router:
  vcs: 3
routing: valiant
traffic:
  pattern: group-shift
  length: {distribution: fixed, flits: 4}
sweep:
  unit: flits/node/cycle
  rates: [0.1]
`

// TestGraphTopologyKeys: the graph topologies' keys are checked with file,
// line and key; a dragonfly config maps onto network.Config with the
// network built once.
func TestGraphTopologyKeys(t *testing.T) {
	e, err := Parse("df.yaml", []byte(dragonflyBase))
	if err != nil {
		t.Fatal(err)
	}
	if e.Nodes() != 72 {
		t.Errorf("nodes %d, want 2*4*9 = 72", e.Nodes())
	}
	c, err := e.NetworkConfig(0, 1)
	if err != nil || c.Graph == nil || c.Graph.Dragonfly().A != 4 || c.Routing != "valiant" {
		t.Fatalf("config %+v, %v", c.Graph, err)
	}
	checkErrs(t, strings.Replace(dragonflyBase, "  vcs: 3\n", "  vcs: 2\n", 1), []wantErr{
		{6, "router.vcs", "valiant routing on a dragonfly uses 3 VC classes"},
	})
	checkErrs(t, strings.Replace(dragonflyBase, "routing: valiant", "routing: dimension-order", 1), []wantErr{
		{7, "routing", "(one of: minimal, valiant, ugal-l, ugal-g)"},
	})
	checkErrs(t, strings.Replace(dragonflyBase, "  concentration: 2\n", "  radix: 4\n", 1), []wantErr{
		{4, "network.radix", "does not apply to topology: dragonfly"},
		{0, "network.concentration", "a dragonfly needs"},
	})
	checkErrs(t, strings.Replace(dragonflyBase, "  concentration: 2\n", "  concentration: 2\n  group_size: 60\n", 1), []wantErr{
		{0, "network", "has 7260 routers, at most 4096"},
	})
	checkErrs(t, strings.Replace(dragonflyBase, "topology: dragonfly\n  concentration: 2", "topology: torus\n  radix: 4\n  dimensions: 2\n  concentration: 2", 1), []wantErr{
		{6, "network.concentration", "does not apply to topology: torus"},
		{0, "traffic.pattern", "group-shift needs a network whose terminals come in groups"},
		{0, "routing", "unknown value \"valiant\""},
	})
	checkErrs(t, strings.Replace(dragonflyBase, "pattern: group-shift", "pattern: transpose", 1), []wantErr{
		{0, "traffic.pattern", "transpose"},
	})
}

// TestGraphFileKeys: a graph file is read relative to the config; its own
// errors carry the graph file's name and line; shortest-path routing with
// too few VCs is refused naming the cycle.
func TestGraphFileKeys(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("ring.net", "router a b c d e f\nlink a b\nlink b c\nlink c d\nlink d e\nlink e f\nlink f a\nterminal a\nterminal b\nterminal c\nterminal d\nterminal e\nterminal f\n")
	write("bad.net", "router a b\nlink a c\n")
	cfg := func(file string, vcs int) string {
		return "name: g\nnetwork:\n  topology: graph\n  file: " + file + "\nrouter:\n  vcs: " + string(rune('0'+vcs)) +
			"\ntraffic:\n  pattern: uniform\n  length: {distribution: fixed, flits: 4}\nsweep:\n  unit: flits/node/cycle\n  rates: [0.1]\n"
	}
	e, err := Load(write("ok.yaml", cfg("ring.net", 3)))
	if err != nil {
		t.Fatal(err)
	}
	if e.Nodes() != 6 || e.Routing != "shortest-path" {
		t.Fatalf("nodes %d routing %q", e.Nodes(), e.Routing)
	}
	// The hash follows the graph file's contents, not only its path: the
	// same config over an edited file (one link slower) must hash apart,
	// or --resume would keep results of the old network.
	before := e.Hash()
	write("ring.net", "router a b c d e f\nlink a b 3\nlink b c\nlink c d\nlink d e\nlink e f\nlink f a\nterminal a\nterminal b\nterminal c\nterminal d\nterminal e\nterminal f\n")
	edited, err := Load(filepath.Join(dir, "ok.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if edited.Hash() == before {
		t.Errorf("hash %s unchanged after the graph file changed", before)
	}
	_, err = Load(write("vcs.yaml", cfg("ring.net", 1)))
	if err == nil || !strings.Contains(err.Error(), "router.vcs") || !strings.Contains(err.Error(), "cycle") {
		t.Errorf("1 VC on a ring of 6: %v", err)
	}
	_, err = Load(write("bad.yaml", cfg("bad.net", 2)))
	if err == nil || !strings.Contains(err.Error(), "network.file") || !strings.Contains(err.Error(), "bad.net:2: unknown router \"c\"") {
		t.Errorf("bad graph file: %v", err)
	}
	_, err = Load(write("missing.yaml", cfg("none.net", 2)))
	if err == nil || !strings.Contains(err.Error(), "network.file") {
		t.Errorf("missing graph file: %v", err)
	}
}
