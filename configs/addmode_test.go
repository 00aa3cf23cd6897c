package configs

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/sim/sweep"
)

// echoSim is the engine of a made-up mode, "echo": its latency is twice
// the offered rate, and it refuses rates above 10.
type echoSim struct{ rate float64 }

type echoResult struct{ latency float64 }

func newEcho(rate float64) (*echoSim, error) {
	if rate > 10 {
		return nil, errors.New("echo: rate above 10")
	}
	return &echoSim{rate}, nil
}

func (s *echoSim) Run(context.Context) (echoResult, error) { return echoResult{2 * s.rate}, nil }

// TestAddAMode adds a mode as docs/architecture.md says, one row of the
// mode table around its engine, and checks that the loader, the front
// ends' run (Experiment.NewRun: flitsim run), the harness's run and
// measurement (Mode.Start, Measure: flitsim validate) and the load-time
// engine check all reach it through that row and nothing else.
func TestAddAMode(t *testing.T) {
	saved := modeTable
	defer func() { modeTable = saved }()
	modeTable = append(append([]modeRow(nil), saved...), modeRow{
		name: "echo", units: []string{"echoes"},
		resolve:   func(*Experiment, *reporter) {},
		check:     func(e *Experiment, r *reporter) { validateSweep(e, r, false) },
		checkRate: func(*Experiment, *reporter, int, string, float64, bool) {},
		timeCap:   "max_cycles",
		notRead:   []string{"network", "router", "routing", "switching", "traffic", "closed", "delta", "slotted"},
		nodes:     func(*Experiment) int { return 1 },
		engine: engineOf(newEcho,
			func(r echoResult) sweep.Outcome { return sweep.Outcome{Status: sim.StatusOK, Latency: r.latency} },
			func(_ float64, r echoResult, _ string, set SetQuantity) { set(QLatency, r.latency, math.NaN(), false) },
			func(e *Experiment) (float64, error) { return 0, nil },
			func(_ float64, _ int, rate float64, _ uint64) (float64, string, error) { return rate, "", nil }),
		builtAtLoad: true,
		compared:    Compared{QLatency, "echo units", QAccepted, "echoes"},
	})
	modeTable[len(modeTable)-1].engineCheck = buildsPoint0(modeTable[len(modeTable)-1].engine)

	e, err := Parse("echo.yaml", []byte("mode: echo\nsweep:\n  unit: echoes\n  rates: [1, 3]\n"))
	if err != nil {
		t.Fatalf("a mode added as one row does not load: %v", err)
	}
	run, err := e.NewRun(1, 7)
	if err != nil {
		t.Fatal(err)
	}
	r, err := run(context.Background())
	if err != nil || r.Outcome.Latency != 6 {
		t.Errorf("flitsim run's path: outcome %+v, %v; want latency 6", r.Outcome, err)
	}
	m, ok := LookupMode("echo")
	if !ok {
		t.Fatal("LookupMode(echo): not found")
	}
	native, err := m.Native(e)
	if err != nil {
		t.Fatal(err)
	}
	hrun, ood, err := m.Start(native, 0, 1, 7)
	if err != nil || ood != "" {
		t.Fatalf("harness start: %q, %v", ood, err)
	}
	hr, _ := hrun(context.Background())
	got := map[string]float64{}
	m.Measure(hr, "echoes", func(q string, mean, _ float64, _ bool) { got[q] = mean })
	if got[QLatency] != 2 || m.Compared().LatencyUnit != "echo units" {
		t.Errorf("harness path: measured %v, compared %+v", got, m.Compared())
	}
	// The load-time engine check builds point 0 through the row: a rate
	// the engine refuses is refused at load, naming the mode's engine.
	if _, err := Parse("echo.yaml", []byte("mode: echo\nsweep:\n  unit: echoes\n  rates: [11]\n")); err == nil {
		t.Error("a rate the echo engine refuses was loaded")
	}
}

// TestReads: a key is read unless the mode's row lists it, or its section,
// as not read.
func TestReads(t *testing.T) {
	for _, c := range []struct {
		mode, key string
		want      bool
	}{
		{"network", "run.threads", true},
		{"closed", "run.threads", false},
		{"delta", "router.vcs", false}, // the section router is listed whole
		{"closed", "closed.pe.mean", true},
		{"network", "closed.pe.mean", false},
	} {
		if got := (&Experiment{Mode: c.mode}).Reads(c.key); got != c.want {
			t.Errorf("mode %s Reads(%q) = %v, want %v", c.mode, c.key, got, c.want)
		}
	}
}
