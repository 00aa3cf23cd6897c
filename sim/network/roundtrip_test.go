package network

import (
	"testing"

	"github.com/flitsim/flitsim/sim"
)

// TestRoundTrip pins the round trip on a plain and a slow pipeline.
func TestRoundTrip(t *testing.T) {
	c := SpeedConfig(4, 0.1) // routing, VC and switch allocation 1 each; link and credit 1
	if got := c.RoundTrip(); got != 6 {
		t.Errorf("speed config: %d, want 1+1+1+0+1+1+1 = 6", got)
	}
	c.LinkLatency, c.CreditDelay, c.EjectionLatency = 10, 4, 12
	if got := c.RoundTrip(); got != 1+1+1+12+4+1 {
		t.Errorf("slow links: %d, want 20 (the ejection line is the slowest link)", got)
	}
}

// TestHugeDeadlockCyclesStillDeadlock is the second case: the ring
// of TestDeadlockIsDetected really deadlocks, but with deadlock_cycles far
// beyond the run the backlog rule stopped it first and it read
// "saturated". The run stops with the network stalled, so it is reported
// as the deadlock it is.
func TestHugeDeadlockCyclesStillDeadlock(t *testing.T) {
	cfg := deadlockRing(4, 2, 8, 0.04, 1)
	cfg.Run = quickRun(100000) // with its backlog rule, which stopped the run first
	cfg.Run.DeadlockCycles = 1 << 40
	res := mustRun(t, cfg)
	if res.Status != sim.StatusDeadlock || len(res.Blocked) == 0 {
		t.Fatalf("status %s (%s), want deadlock", res.Status, res.Reason)
	}
	t.Logf("%s at cycle %d: %s", res.Status, res.Cycles, res.Reason)
}
