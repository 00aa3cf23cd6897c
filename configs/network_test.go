package configs

import (
	"path/filepath"
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
