package configs

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/router"
	"github.com/flitsim/flitsim/sim/network"
	"github.com/flitsim/flitsim/topology"
)

// TestNetworkConfig checks the mapping field by field on one experiment,
// including the flits -> messages rate conversion (0.2 flits/node/cycle of
// 16-flit messages is 0.0125 messages/node/cycle).
func TestNetworkConfig(t *testing.T) {
	src := replaceOnce(t, base, "router:\n  vcs: 2\n  buffer_depth: 8\n", "") +
		"switching: {technique: virtual-cut-through}\nrouter:\n  vcs: 3\n  buffer_depth: 16\n  vc_alloc_delay: 2\nrun: {max_cycles: 90000, replications: 2}\nseed: 5\n"
	e, err := Parse("m.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c, err := e.NetworkConfig(1, 77)
	if err != nil {
		t.Fatal(err)
	}
	if c.Topology != (topology.Spec{Kind: topology.Torus, K: 8, N: 2, Bidirectional: true}) {
		t.Errorf("topology %+v", c.Topology)
	}
	if c.Router.VCs != 3 || c.Router.BufferDepth != 16 || c.Router.VCAllocDelay != 2 || c.Router.Switching != router.VirtualCutThrough {
		t.Errorf("router %+v", c.Router)
	}
	if c.Run.BacklogLimit != 0 {
		t.Errorf("backlog limit %v without run.backlog_limit", c.Run.BacklogLimit)
	}
	// run.backlog_limit is per node; the engine's limit is on all source
	// queues together (64 nodes here).
	e.Run.BacklogLimit = 50
	if c2, _ := e.NetworkConfig(1, 77); c2.Run.BacklogLimit != 50*64 {
		t.Errorf("backlog_limit 50 per node maps to %v, want 3200 for 64 nodes", c2.Run.BacklogLimit)
	}
	if c.Rate != 0.2/16 || c.Seed != 77 || c.Run.MaxCycles != 90000 || c.Length.Flits != 16 || c.Process != "bernoulli" || c.Routing != "dimension-order" {
		t.Errorf("config %+v", c)
	}
	if _, err := network.New(c); err != nil {
		t.Errorf("engine refuses the mapped config: %v", err)
	}
}

func replaceOnce(t *testing.T, s, old, repl string) string {
	t.Helper()
	i := -1
	for j := 0; j+len(old) <= len(s); j++ {
		if s[j:j+len(old)] == old {
			if i >= 0 {
				t.Fatalf("%q occurs twice", old)
			}
			i = j
		}
	}
	if i < 0 {
		t.Fatalf("%q not found", old)
	}
	return s[:i] + repl + s[i+len(old):]
}

// TestExamplesBuild checks that the engine accepts every example config:
// what the loader lets through, the engine can build.
func TestExamplesBuild(t *testing.T) {
	files, _ := filepath.Glob("*.yaml")
	for _, f := range files {
		e, err := Load(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		c, err := e.NetworkConfig(len(e.Sweep.Rates)-1, e.Seed)
		if err == nil {
			_, err = network.New(c)
		}
		if err != nil {
			t.Errorf("%s: engine refuses: %v", f, err)
		}
	}
}

// TestPreset checks router.preset: booksim-iq fills every key it covers
// with network.BookSimIQ's value for the topology (torus: 2-cycle
// channels), a key written in the file overrides it, and the mapped config
// is the preset applied; an unknown preset and an unknown tie_break or
// dateline are refused at their keys.
func TestPreset(t *testing.T) {
	src := replaceOnce(t, base, "router:\n  vcs: 2\n  buffer_depth: 8\n", "router:\n  vcs: 2\n  buffer_depth: 8\n  preset: booksim-iq\n  vc_alloc_delay: 3\n")
	e, err := Parse("p.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c, err := e.NetworkConfig(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := c
	network.BookSimIQ(topology.Torus).Apply(&want)
	want.Router.VCAllocDelay = 3 // written in the file
	if c.Router != want.Router || c.LinkLatency != 2 || c.CreditDelay != 2 || c.InjectionLatency != 2 || c.EjectionLatency != 1 ||
		c.Ties != topology.TiesBalanced || !c.Router.HoldClass || !c.Pattern.IncludeSelf {
		t.Errorf("preset booksim-iq mapped to %+v", c)
	}
	if e.Router.TieBreak != "balanced" || e.Router.Dateline != "hold" {
		t.Errorf("resolved tie_break %q, dateline %q", e.Router.TieBreak, e.Router.Dateline)
	}
	plain, err := Parse("q.yaml", []byte(base))
	if err != nil {
		t.Fatal(err)
	}
	if pc, _ := plain.NetworkConfig(0, 1); pc.Router.HoldClass || pc.Ties != topology.TiesBalanced || pc.Pattern.IncludeSelf {
		t.Errorf("without a preset: %+v", pc)
	}
	for _, c := range []struct{ add, key string }{
		{"  preset: booksim\n", "router.preset"},
		{"  tie_break: minus\n", "router.tie_break"},
		{"  dateline: late\n", "router.dateline"},
	} {
		_, err := Parse("x.yaml", []byte(replaceOnce(t, base, "  buffer_depth: 8\n", "  buffer_depth: 8\n"+c.add)))
		if err == nil || !strings.Contains(err.Error(), c.key) {
			t.Errorf("%q: error %v, want one at %s", c.add, err, c.key)
		}
	}
	tp, err := Parse("t.yaml", []byte(replaceOnce(t, base, "  buffer_depth: 8\n", "  buffer_depth: 8\n  tie_break: plus\n")))
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := tp.NetworkConfig(0, 1); c.Ties != topology.TiesPlus {
		t.Errorf("tie_break: plus mapped to %v", c.Ties)
	}
}

// TestStickyEscapeKey checks router.sticky_escape: it reaches
// router.Arch.StickyEscape, and without escape VCs it is refused at its
// key.
func TestStickyEscapeKey(t *testing.T) {
	adaptive := replaceOnce(t, base, "  vcs: 2\n  buffer_depth: 8\n", "  vcs: 4\n  buffer_depth: 8\n  escape_vcs: 2\n  sticky_escape: true\n") + "routing: adaptive\n"
	e, err := Parse("s.yaml", []byte(adaptive))
	if err != nil {
		t.Fatal(err)
	}
	if c, err := e.NetworkConfig(0, 1); err != nil || !c.Router.StickyEscape {
		t.Errorf("sticky_escape: true mapped to StickyEscape %v (%v)", c.Router.StickyEscape, err)
	}
	_, err = Parse("x.yaml", []byte(replaceOnce(t, base, "  buffer_depth: 8\n", "  buffer_depth: 8\n  sticky_escape: true\n")))
	if err == nil || !strings.Contains(err.Error(), "router.sticky_escape") {
		t.Errorf("sticky_escape without escape VCs: error %v, want one at router.sticky_escape", err)
	}
}

// TestAdaptiveVCKey checks router.adaptive_vc: booksim reaches
// router.Arch.AdaptiveVC, unset and whole-packet are the default, and an
// unknown value, a routing other than adaptive and scouting switching are
// refused at the key's line and column.
func TestAdaptiveVCKey(t *testing.T) {
	adaptive := base + "routing: adaptive\n"
	for _, c := range []struct {
		add  string
		want router.AdaptiveVC
	}{
		{"", router.WholePacket},
		{"  adaptive_vc: whole-packet\n", router.WholePacket},
		{"  adaptive_vc: booksim\n", router.BookSimVC},
	} {
		e, err := Parse("a.yaml", []byte(replaceOnce(t, adaptive, "  buffer_depth: 8\n", "  buffer_depth: 8\n"+c.add)))
		if err != nil {
			t.Fatal(err)
		}
		if nc, err := e.NetworkConfig(0, 1); err != nil || nc.Router.AdaptiveVC != c.want {
			t.Errorf("%q mapped to AdaptiveVC %s (%v), want %s", c.add, nc.Router.AdaptiveVC, err, c.want)
		}
	}
	for _, c := range []struct{ src, want string }{
		{replaceOnce(t, adaptive, "  buffer_depth: 8\n", "  buffer_depth: 8\n  adaptive_vc: duato\n"), "x.yaml:10:3: router.adaptive_vc"},
		{replaceOnce(t, base, "  buffer_depth: 8\n", "  buffer_depth: 8\n  adaptive_vc: booksim\n"), "x.yaml:10:3: router.adaptive_vc"},
		{replaceOnce(t, adaptive, "  buffer_depth: 8\n", "  buffer_depth: 8\n  adaptive_vc: booksim\n") + "switching: {technique: scouting}\n", "x.yaml:10:3: router.adaptive_vc"},
	} {
		_, err := Parse("x.yaml", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one at %s", err, c.want)
		}
	}
}
