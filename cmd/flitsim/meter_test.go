package main

import (
	"context"
	"io"
	"testing"

	"github.com/flitsim/flitsim/sim"
)

// TestEnginesStoreProgress: every mode's engine stores the time it has
// reached, and its cap, into the context's meter while it runs (the
// progress inside a point); what it stored never exceeds the run's end.
func TestEnginesStoreProgress(t *testing.T) {
	for _, path := range []string{"../../configs/quickstart.yaml", "../../configs/closed/reed-ring15-uniform.yaml",
		"../../configs/delta/figure6-retry-previous.yaml", "../../configs/slotted/fig1-n16.yaml"} {
		exps, err := loadExperiments([]string{path}, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		e := exps[0]
		run, err := newRunner(e, 0, e.Seed)
		if err != nil {
			t.Fatal(err)
		}
		var m sim.Meter
		out, err := run(sim.WithMeter(context.Background(), &m))
		if err != nil {
			t.Fatal(err)
		}
		now, limit := m.Load()
		if now <= 0 || now > out.Cycles || limit < out.Cycles {
			t.Errorf("%s (%s): meter at %d of cap %d; the run ended at %d", path, e.Mode, now, limit, out.Cycles)
		}
	}
}
