package configs

import (
	"strings"
	"testing"
)

// TestDeltaTopologyMapsToMultistage: topology delta loads with its
// defaults (destination-tag routing, omega wiring) and maps onto the
// engine's multistage fabric.
func TestDeltaTopologyMapsToMultistage(t *testing.T) {
	e, err := Load("delta/omega64-blocking-flit.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := e.NetworkConfig(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Multistage == nil || cfg.Multistage.Degree != 4 || cfg.Multistage.Stages != 3 || cfg.Routing != "destination-tag" ||
		!cfg.Pattern.IncludeSelf || e.Nodes() != 64 {
		t.Fatalf("mapped to %+v (multistage %+v), nodes %d", cfg, cfg.Multistage, e.Nodes())
	}
	d, err := Parse("d.yaml", []byte("network: {topology: delta, radix: 2, dimensions: 3}\ntraffic: {length: {flits: 2}}\nsweep: {unit: flits/node/cycle, rates: [0.1]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Routing != "destination-tag" || d.Network.Wiring != "omega" {
		t.Fatalf("defaults: routing %q wiring %q", d.Routing, d.Network.Wiring)
	}
}

// TestDeltaTopologyRefusals: every combination that makes no sense on a
// delta network is refused with file:line:key.
func TestDeltaTopologyRefusals(t *testing.T) {
	base := "sweep: {unit: flits/node/cycle, rates: [0.1]}\ntraffic: {length: {flits: 2}"
	for _, c := range []struct{ src, want string }{
		{"network: {topology: torus, radix: 4, dimensions: 2, wiring: omega}\n" + base + "}\n", "network.wiring: applies only to topology: delta"},
		{"network: {topology: delta, radix: 4, dimensions: 2}\nrouting: dimension-order\n" + base + "}\n", "routing: a delta network has one path"},
		{"network: {topology: torus, radix: 4, dimensions: 2}\nrouting: destination-tag\n" + base + "}\n", "destination-tag routing needs topology: delta"},
		{"network: {topology: delta, radix: 4, dimensions: 2, wiring: banyan}\n" + base + "}\n", "network.wiring: unknown value"},
		{"network: {topology: delta, radix: 4, dimensions: 2, ejection_vcs: 1}\n" + base + "}\n", "network.ejection_vcs: does not apply"},
		{"network: {topology: delta, radix: 4, dimensions: 2}\n" + base + ", pattern: decay, decay: 0.5}\n", "traffic.pattern: decay needs distances"},
		{"network: {topology: delta, radix: 4, dimensions: 2}\n" + base + ", pattern: tornado, include_self: true}\n", "traffic.include_self: applies only to pattern: uniform"},
		{"network: {topology: delta, dimensions: 2}\n" + base + "}\n", "network.radix: missing"},
	} {
		_, err := Parse("x.yaml", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "x.yaml:") {
			t.Errorf("%q:\n got %v\nwant %q with file:line", c.src, err, c.want)
		}
	}
}
