package network

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
)

// costCycles is the measured part of TestCostProfile, kept out of line so
// that a profiler (scripts/cost.sh runs callgrind) can count its
// instructions, mispredicted branches and cache misses apart from the
// warm-up.
//
//go:noinline
func costCycles(n *Network, cycles int) {
	for i := 0; i < cycles; i++ {
		n.Step()
	}
}

// TestCostProfile steps a reference speed network for scripts/cost.sh:
// FLITSIM_COST_K picks the reference case of that K (SpeedCases),
// FLITSIM_COST_CYCLES the measured cycles (after as many warm-up cycles).
// It is skipped unless FLITSIM_COST_K is set. Wall time on a shared VM
// varies by tens of percent between identical runs; instruction and miss
// counts do not, which is what this is for.
func TestCostProfile(t *testing.T) {
	k, _ := strconv.Atoi(os.Getenv("FLITSIM_COST_K"))
	if k == 0 {
		t.Skip("FLITSIM_COST_K not set (scripts/cost.sh sets it)")
	}
	cycles, err := strconv.Atoi(os.Getenv("FLITSIM_COST_CYCLES"))
	if err != nil || cycles < 1 {
		cycles = 5000
	}
	i := slices.IndexFunc(SpeedCases, func(c SpeedCase) bool { return c.K == k })
	if i < 0 {
		t.Fatalf("FLITSIM_COST_K = %d: not a reference speed case (SpeedCases)", k)
	}
	load := SpeedCases[i].Load
	fmt.Printf("cost profile: %dx%d torus at %g flits/node/cycle\n", k, k, load) // scripts/cost.sh's heading
	n, err := New(SpeedConfig(k, load))
	if err != nil {
		t.Fatal(err)
	}
	costCycles(n, cycles) // warm-up: queues and lines at steady-state size
	costCycles(n, cycles)
}
