package network

import (
	"context"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/topology"
	"github.com/flitsim/flitsim/topology/worstcase"
	"github.com/flitsim/flitsim/traffic"
)

// TestWorstCasePattern: pattern worst-case follows the permutation
// topology/worstcase computes for the network's own routing, its most
// loaded channel carries Load times the injection rate in a run (within
// 5% at a low load: the measured channel count is a sample), and
// adaptive routing is refused.
func TestWorstCasePattern(t *testing.T) {
	cfg := SpeedConfig(4, 0.1)
	cfg.Pattern = traffic.PatternSpec{Name: traffic.WorstCase}
	cfg.Run.MaxCycles, cfg.Run.MaxWarmup = 60000, 20000
	n, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	wc, err := worstcase.Permutation(n.Topology(), topology.NewDimensionOrderTies(n.Topology(), cfg.Ties))
	if err != nil {
		t.Fatal(err)
	}
	for s, d := range wc.Perm {
		if got := n.pattern.Dest(s, nil); got != d {
			t.Fatalf("Dest(%d) = %d, want the worst-case permutation's %d", s, got, d)
		}
	}
	res, err := n.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := wc.Load * res.Offered
	got := res.ChannelUtil[wc.Channel]
	t.Logf("4x4 torus DOR: worst-case load %v on channel %d; at %.4f flits/node/cycle it carries %.4f flits/cycle, predicted %.4f (max over channels %.4f)",
		wc.Load, wc.Channel, res.Offered, got, want, res.MaxChannelUtil)
	if res.Status != sim.StatusOK || got < 0.95*want || got > 1.05*want {
		t.Errorf("status %q: channel %d carries %v flits/cycle, want %v ± 5%%", res.Status, wc.Channel, got, want)
	}
	cfg.Routing = RoutingAdaptive
	if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "oblivious") {
		t.Errorf("adaptive: %v", err)
	}
}
