package configs

import (
	"strings"
	"testing"
)

// TestOnOffKeys: process onoff needs burst_length and duty_cycle, checks
// their domain (the off period of at least a cycle, the peak rate of at
// most one message per cycle) with file, line and key, refuses them with
// another process, and maps them onto network.Config.
func TestOnOffKeys(t *testing.T) {
	onoff := func(extra string) string {
		return edit(t, "  pattern: uniform\n", "  pattern: uniform\n  process: onoff\n"+extra)
	}
	checkErrs(t, onoff(""), []wantErr{
		{10, "traffic.burst_length", "missing"},
		{10, "traffic.duty_cycle", "missing"},
	})
	checkErrs(t, onoff("  burst_length: 0.5\n  duty_cycle: 1.5\n"), []wantErr{
		{13, "traffic.burst_length", "out of range [1, 2^40]"},
		{14, "traffic.duty_cycle", "out of range (0, 1]"},
	})
	checkErrs(t, onoff("  burst_length: 2\n  duty_cycle: 0.9\n"), []wantErr{
		{13, "traffic.burst_length", "mean off period"},
	})
	// 0.2 flits/node/cycle of 16-flit messages = 0.0125 messages/node/cycle > duty 0.01.
	checkErrs(t, onoff("  burst_length: 200\n  duty_cycle: 0.01\n"), []wantErr{
		{19, "sweep.rates[1]", "at most duty_cycle 0.01 messages/node/cycle"},
	})
	checkErrs(t, edit(t, "  pattern: uniform\n", "  pattern: uniform\n  burst_length: 10\n"), []wantErr{
		{12, "traffic.burst_length", "applies only to process: onoff"},
	})
	e, err := Parse("t.yaml", []byte(onoff("  burst_length: 20\n  duty_cycle: 0.25\n")))
	if err != nil {
		t.Fatal(err)
	}
	c, err := e.NetworkConfig(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if c.Process != "onoff" || c.Burst != 20 || c.Duty != 0.25 || c.Rate != 0.2/16 {
		t.Errorf("NetworkConfig: process %q burst %v duty %v rate %v", c.Process, c.Burst, c.Duty, c.Rate)
	}
}

// TestNewPatternKeys: random-permutation and halo load in mode network,
// halo is refused on a delta network, and both are refused in mode closed.
func TestNewPatternKeys(t *testing.T) {
	for _, p := range []string{"random-permutation", "halo"} {
		if _, err := Parse("t.yaml", []byte(edit(t, "  pattern: uniform\n", "  pattern: "+p+"\n"))); err != nil {
			t.Errorf("pattern %s: %v", p, err)
		}
	}
	delta := strings.Replace(edit(t, "  pattern: uniform\n", "  pattern: halo\n"), "  topology: torus\n  radix: 8\n  dimensions: 2\n", "  topology: delta\n  radix: 2\n  dimensions: 3\n", 1)
	checkErrs(t, delta, []wantErr{{11, "traffic.pattern", "halo needs distances"}})
}
