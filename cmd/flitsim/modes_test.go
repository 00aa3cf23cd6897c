package main

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/sim/sweep"
)

// Small configs of the paper modes, a few hundred milliseconds each.
const (
	closedSmall = `name: closed-small
mode: closed
network: {topology: ring, radix: 5}
closed: {pe: {distribution: exponential, mean: 1}, link: {distribution: exponential, mean: 1}}
sweep: {unit: population, rates: [1, 4]}
run: {target_rel_ci: 0.03}
models: [reed]
`
	deltaSmall = `name: delta-small
mode: delta
delta: {degree: 2, stages: 2, queue_length: [2, 4], rejection: resubmit-source}
sweep: {unit: rho, rates: [0.1, 0.4]}
run: {target_rel_ci: 0.05, replications: 2}
models: [makrucki]
`
	slottedSmall = `name: slotted-small
mode: slotted
slotted: {dimensions: 3}
traffic: {process: poisson}
sweep: {unit: packets/node/slot, rates: [0.02, 0.1]}
run: {min_measure: 4000, max_cycles: 200000, target_rel_ci: 0.03}
models: [jacquet]
`
)

// runModes runs the three small configs with the real engines and returns
// the rows and the bytes of results.csv.
func runModes(t *testing.T, dir, workers string) ([]sweep.Row, []byte) {
	t.Helper()
	files := []string{
		writeConfig(t, dir, "closed-small", closedSmall),
		writeConfig(t, dir, "delta-small", deltaSmall),
		writeConfig(t, dir, "slotted-small", slottedSmall),
	}
	out := filepath.Join(dir, "out-w"+workers)
	var o, e bytes.Buffer
	args := append([]string{"run"}, files...)
	args = append(args, "--out", out, "--workers", workers, "--quiet")
	if code := Main(context.Background(), args, &o, &e); code != 0 {
		t.Fatalf("flitsim run: exit %d\n%s", code, e.String())
	}
	rows, err := sweep.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	csv, err := os.ReadFile(filepath.Join(out, sweep.CSVFile))
	if err != nil {
		t.Fatal(err)
	}
	return rows, csv
}

// TestModesEndToEnd runs one small config per paper mode through
// flitsim run and checks that every row is ok and carries the mode's
// quantities in the documented columns, against identities each must
// satisfy:
//
//	closed   latency * accepted = R0 * X0 = N                (Little's law, Reed Eq. (4))
//	         N = 1: R0 = S_PE + LV S_CL = 1 + 1.5 = 2.5      (a lone message never queues; LV = (1+1+2+2)/4 on a 5-ring)
//	delta    accepted = NTP = n rho mu = 4 rho                (every packet is delivered: resubmission loses none)
//	         latency >= network_latency                        (PDT includes the source wait)
//	slotted  accepted = lambda                                 (stable point: throughput equals the offered rate)
//	         latency >= d = n / (2 (1 - 2^-n)) = 12/7          (zero-load delay, Jacquet–Mühlethaler §III.1)
//
// Tolerances are 4 half-widths of each run's own CI (or 5% where the
// column has none), so a correct engine fails about never.
func TestModesEndToEnd(t *testing.T) {
	rows, csv := runModes(t, t.TempDir(), "2")
	t.Logf("results.csv:\n%s", csv)
	want := []struct {
		config string
		rate   float64
		unit   string
	}{
		{"closed-small", 1, "population"}, {"closed-small", 4, "population"},
		{"delta-small-L2", 0.1, "rho"}, {"delta-small-L2", 0.4, "rho"},
		{"delta-small-L4", 0.1, "rho"}, {"delta-small-L4", 0.4, "rho"},
		{"slotted-small", 0.02, "packets/node/slot"}, {"slotted-small", 0.1, "packets/node/slot"},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	for i, w := range want {
		r := rows[i]
		if r.Config != w.config || r.Rate != w.rate || r.RateUnit != w.unit || r.Status != sim.StatusOK {
			t.Errorf("row %d: %s %g %s %s (%s), want %s %g %s ok", i, r.Config, r.Rate, r.RateUnit, r.Status, r.Reason, w.config, w.rate, w.unit)
			continue
		}
		if r.Latency == nil || r.LatencyCI95 == nil || r.Accepted == nil || len(r.Extra) == 0 {
			t.Errorf("row %d (%s %g): missing latency, CI, accepted or the mode's extra figures: %+v", i, r.Config, r.Rate, r)
			continue
		}
		lat, ci, acc := *r.Latency, *r.LatencyCI95, *r.Accepted
		switch r.RateUnit {
		case "population":
			if r.NetworkLatency != nil || r.Offered != nil {
				t.Errorf("closed row %d: network_latency and offered should be empty", i)
			}
			if n := w.rate; math.Abs(lat*acc-n) > 0.05*n {
				t.Errorf("closed N=%g: R0*X0 = %g, want N", n, lat*acc)
			}
			if w.rate == 1 && math.Abs(lat-2.5) > 4*ci {
				t.Errorf("closed N=1: R0 = %g ± %g, want 2.5", lat, ci)
			}
		case "rho":
			// Issue 6: rejection probability and mean queue length of every
			// stage, each with its CI, in the outputs.
			extra := map[string]sweep.RowMetric{}
			for _, m := range r.Extra {
				extra[m.Name] = m
			}
			for _, name := range []string{"p_L[1]", "p_L[2]", "E[N][1] packets", "E[N][2] packets"} {
				if m, ok := extra[name]; !ok || m.Value == nil || m.CI95 == nil {
					t.Errorf("delta %s rho=%g: extra %q missing or without CI: %+v", r.Config, w.rate, name, r.Extra)
				}
			}
			if want := 4 * w.rate; math.Abs(acc-want) > 0.05*want {
				t.Errorf("delta %s rho=%g: NTP %g, want %g", r.Config, w.rate, acc, want)
			}
			if r.NetworkLatency == nil || *r.NetworkLatency > lat {
				t.Errorf("delta %s rho=%g: PDT %g below its network part %v", r.Config, w.rate, lat, r.NetworkLatency)
			}
		case "packets/node/slot":
			if math.Abs(acc-w.rate) > 0.05*w.rate {
				t.Errorf("slotted lambda=%g: throughput %g", w.rate, acc)
			}
			if d := 12.0 / 7; lat < d-4*ci {
				t.Errorf("slotted lambda=%g: delay %g ± %g below the zero-load %g", w.rate, lat, ci, d)
			}
		}
	}
}

// TestModesWorkersIdentical checks that the paper modes, replications
// included, give byte-identical results with 1 and 2 workers.
func TestModesWorkersIdentical(t *testing.T) {
	dir := t.TempDir()
	_, one := runModes(t, dir, "1")
	_, two := runModes(t, dir, "2")
	if !bytes.Equal(one, two) {
		t.Errorf("--workers 1 and 2 differ:\n%s\nvs\n%s", one, two)
	}
}
