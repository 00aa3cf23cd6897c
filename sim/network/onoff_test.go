package network

import (
	"context"
	"math"
	"testing"

	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/traffic"
)

// TestOnOffInNetwork: the engine's on/off sources offer the configured
// load (the measured offered load within 4 standard errors of the count
// variance of traffic.OnOffCountVariance over the measured node-cycles),
// and their bursts raise the latency above the Bernoulli network's at the
// same load.
func TestOnOffInNetwork(t *testing.T) {
	const load, burst, duty = 0.2, 40.0, 0.25 // flits/node/cycle, 16-flit messages
	run := func(process string) Result {
		cfg := SpeedConfig(4, load)
		cfg.Process = process
		if process == "onoff" {
			cfg.Burst, cfg.Duty = burst, duty
		}
		cfg.Run.MaxCycles, cfg.Run.MaxWarmup = 60000, 20000
		n, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		res, err := n.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	on, bern := run("onoff"), run("bernoulli")
	rate := load / 16
	T := int(on.MeasureCycles)
	// Offered flits per node per cycle: 16 * (sum of 16 independent N_T) / (16 T).
	se := 16 * math.Sqrt(16*traffic.OnOffCountVariance(rate, burst, duty, T)) / (16 * float64(T))
	t.Logf("on/off: offered %.4f (want %.4f ± %.4f), latency %.2f; Bernoulli: offered %.4f, latency %.2f", on.Offered, load, 4*se, on.Latency, bern.Offered, bern.Latency)
	if on.Status != sim.StatusOK || math.Abs(on.Offered-load) > 4*se {
		t.Errorf("on/off status %q, offered %v, want %v within %v", on.Status, on.Offered, load, 4*se)
	}
	if !(on.Latency > bern.Latency) {
		t.Errorf("on/off latency %v not above Bernoulli's %v at the same load", on.Latency, bern.Latency)
	}
}
