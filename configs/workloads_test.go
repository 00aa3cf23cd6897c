package configs

import (
	"os"
	"path/filepath"
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
	for _, p := range []string{"random-permutation", "halo", "worst-case"} {
		if _, err := Parse("t.yaml", []byte(edit(t, "  pattern: uniform\n", "  pattern: "+p+"\n"))); err != nil {
			t.Errorf("pattern %s: %v", p, err)
		}
	}
	delta := strings.Replace(edit(t, "  pattern: uniform\n", "  pattern: halo\n"), "  topology: torus\n  radix: 8\n  dimensions: 2\n", "  topology: delta\n  radix: 2\n  dimensions: 3\n", 1)
	checkErrs(t, delta, []wantErr{{11, "traffic.pattern", "halo needs distances"}})
	adaptive := strings.Replace(edit(t, "  pattern: uniform\n", "  pattern: worst-case\n"), "  buffer_depth: 8\n", "  buffer_depth: 8\nrouting: adaptive\n", 1)
	checkErrs(t, adaptive, []wantErr{{12, "traffic.pattern", "needs an oblivious routing"}})
}

// TestTraceKeys: a trace config loads and maps onto network.Config; a
// trace naming more nodes than the network has, a malformed trace (with
// its record number), a missing file, synthetic keys beside a trace and a
// unit that does not match are refused at load time with file, line and key.
func TestTraceKeys(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("ok.trace", "flitsim-trace 1\nnodes 64\n0 0 0 63 2\n1 5 63 0 1 0\n")
	write("big.trace", "flitsim-trace 1\nnodes 65\n0 0 64 0 2\n")
	write("bad.trace", "flitsim-trace 1\nnodes 64\n0 0 0 63 2\n1 5 63 0\n")
	cfg := func(file, extra, unit string) string {
		s := strings.Replace(base, "traffic:\n  pattern: uniform\n  length:\n    flits: 16\n", "traffic:\n  trace:\n    file: "+file+"\n    format: text\n"+extra, 1)
		return strings.Replace(s, "  unit: flits/node/cycle\n  rates: [0.1, 0.2]\n", "  unit: "+unit+"\n  rates: [1, 2]\n", 1)
	}
	parse := func(src string) (*Experiment, error) {
		return Parse(filepath.Join(dir, "x.yaml"), []byte(src))
	}
	e, err := parse(cfg("ok.trace", "", "trace-speedup"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := e.NetworkConfig(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if c.Trace == nil || len(c.Trace.Packets) != 2 || c.TraceSpeedup != 2 || c.Rate != 0 || e.Traffic.Trace.Digest == "" {
		t.Fatalf("NetworkConfig: trace %v speedup %v rate %v digest %q", c.Trace, c.TraceSpeedup, c.Rate, e.Traffic.Trace.Digest)
	}
	for _, tc := range []struct {
		src, key, msg string
	}{
		{cfg("big.trace", "", "trace-speedup"), "traffic.trace.file", "names 65 nodes, the network has only 64 terminals"},
		{cfg("bad.trace", "", "trace-speedup"), "traffic.trace.file", "record 2: 4 fields"},
		{cfg("none.trace", "", "trace-speedup"), "traffic.trace.file", "no such file"},
		{cfg("ok.trace", "", "flits/node/cycle"), "sweep.unit", "unit trace-speedup"},
		{cfg("ok.trace", "  process: poisson\n", "trace-speedup"), "traffic.process", "does not apply with traffic.trace"},
		{cfg("ok.trace", "    flit_bytes: 8\n", "trace-speedup"), "traffic.trace.flit_bytes", "applies only to format: netrace"},
	} {
		_, err := parse(tc.src)
		if err == nil || !strings.Contains(err.Error(), tc.key) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("want %s: %q, got %v", tc.key, tc.msg, err)
		}
	}
}
