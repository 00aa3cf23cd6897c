package network

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/router"
	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/sim/delta"
	"github.com/flitsim/flitsim/topology/multistage"
	"github.com/flitsim/flitsim/traffic"
)

// TestMultistageBlockingVersusLossModel is the comparison issue 6 point 4
// asks for: the n = 64, b = 4, z = 3 omega network of Makrucki & Mudge's
// Figure 6 (seed 001) at several loads, once as the paper's packet-level
// loss-and-retry model (sim/delta: output queues of L = 4 packets,
// rejected packets resubmitted at the source; exponential service of mean
// 1/mu = M cycles as in the report, and slotted fixed service of exactly M
// cycles) and once as the flit-level blocking network (wormhole, credit
// back-pressure, nothing lost), both fed with single-packet messages of
// M = 4 flits to uniform destinations, self included.
//
// Units are made common: load rho = flits offered per terminal per cycle
// (delta: lambda = rho/M packets per source per cycle, mu = 1/M per cycle,
// so the report's rho = lambda/mu is the same number); latency in cycles
// (delta PDT, flit Latency); throughput in flits accepted per terminal per
// cycle (delta NTP*M/n, flit Accepted). The flit-level router is the
// one-cycle router (HopDelay 0, one-cycle links and credits), its input
// buffers hold the L*M = 16 flits of an output queue of the model, as one
// VC of 16 flits (head-of-line blocking at the input) or 4 VCs of 4.
//
// Nothing is asserted beyond sanity — this test reports. The blocking
// network's accepted throughput never exceeds one flit per terminal per
// cycle (n flits per cycle in all: one per sink), it rejects nothing (the
// per-cycle conservation check of Config.Debug is on: every generated flit
// is delivered or still in the network) and it never deadlocks.
func TestMultistageBlockingVersusLossModel(t *testing.T) {
	if testing.Short() {
		t.Skip("comparison runs take about 10 s; run without -short")
	}
	const M, nt = 4, 64
	sp := multistage.Spec{Degree: 4, Stages: 3, Wiring: multistage.Omega}
	flitCfg := func(rho float64, vcs, depth int) Config {
		s := sp
		return Config{
			Multistage: &s, Router: router.Arch{VCs: vcs, BufferDepth: depth},
			Pattern: traffic.PatternSpec{Name: "uniform", IncludeSelf: true},
			Process: "poisson", Rate: rho / M, Length: LengthSpec{Flits: M},
			Seed: 1, Run: quickRun(100000), Debug: true,
		}
	}
	deltaCfg := func(rho float64, slotted bool) delta.Config {
		c := delta.Config{Degree: 4, Stages: 3, Wiring: "omega", QueueLength: 4,
			Rate: rho / M, Mu: 1.0 / M, Rejection: delta.ResubmitSource, Seed: 1,
			Run: delta.Run{TargetRelCI: 0.02}}
		if slotted {
			c.Time, c.Service = delta.Slotted, delta.Fixed
		}
		return c
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "n=64 b=4 z=3 omega, M=%d flits, uniform (self included); latency in cycles, throughput in flits/terminal/cycle\n", M)
	fmt.Fprintf(&sb, "%5s | %-30s | %-30s | %-22s | %-22s\n", "rho", "loss model, exp service (paper)", "loss model, slotted fixed", "blocking, V=1 x 16", "blocking, V=4 x 4")
	fmt.Fprintf(&sb, "%5s | %-30s | %-30s | %-22s | %-22s\n", "", "PDT   thru   rejected/emitted", "PDT   thru   rejected/emitted", "latency  thru", "latency  thru")
	for _, rho := range []float64{0.1, 0.3, 0.5, 0.7, 0.9} {
		fmt.Fprintf(&sb, "%5.2f", rho)
		for _, slotted := range []bool{false, true} {
			s, err := delta.New(deltaCfg(rho, slotted))
			if err != nil {
				t.Fatal(err)
			}
			r, err := s.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var rej int64
			for _, k := range r.Totals.Rejected {
				rej += k
			}
			frac := float64(rej) / float64(max(r.Totals.Emitted, 1))
			if r.Status == sim.StatusOK {
				fmt.Fprintf(&sb, " | %6.2f %5.3f %-16.3f", r.PDT.Mean, r.NTP.Mean*M/nt, frac)
			} else {
				thru := float64(r.Totals.Delivered) * M / nt / r.End
				fmt.Fprintf(&sb, " | %6s %5.3f %-16s", "sat", thru, fmt.Sprintf("%.3f (whole run)", frac))
			}
		}
		for _, b := range []struct{ vcs, depth int }{{1, 16}, {4, 4}} {
			cfg := flitCfg(rho, b.vcs, b.depth)
			res := mustRun(t, cfg)
			switch res.Status {
			case sim.StatusOK:
				fmt.Fprintf(&sb, " | %7.2f  %5.3f       ", res.Latency, res.Accepted)
				if res.Accepted > 1 {
					t.Errorf("rho %.2f V=%d: accepted %.4f flits/terminal/cycle > 1", rho, b.vcs, res.Accepted)
				}
			case sim.StatusSaturated:
				thru := saturationThroughput(t, cfg)
				fmt.Fprintf(&sb, " | %7s  %5.3f       ", "sat", thru)
				if thru > 1 {
					t.Errorf("rho %.2f V=%d: saturation throughput %.4f flits/terminal/cycle > 1", rho, b.vcs, thru)
				}
			default:
				t.Errorf("rho %.2f V=%d: status %s (%s)", rho, b.vcs, res.Status, res.Reason)
			}
		}
		sb.WriteString("\n")
	}
	t.Log("\n" + sb.String())
}

// saturationThroughput measures the accepted rate of a saturated network
// directly: flits delivered per terminal per cycle over cycles 5000-25000,
// the sources being backlogged throughout. The conservation check is off
// here: it walks the source queues, which grow without bound.
func saturationThroughput(t *testing.T, cfg Config) float64 {
	t.Helper()
	cfg.Debug = false
	n, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	flits := 0
	n.OnDeliver(func(d Delivery) {
		if n.Now() >= 5000 {
			flits += d.Flits
		}
	})
	for n.Now() < 25000 {
		n.Step()
	}
	return float64(flits) / 20000 / float64(n.Multistage().Terminals())
}
