package slotted_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/analytic/hypercube"
	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/sim/slotted"
)

// cube returns the analytic model of the n-cube (docs/models.md#jacquet).
func cube(t testing.TB, n int) hypercube.Cube {
	t.Helper()
	c, err := hypercube.New(n)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// run builds and runs cfg, failing the test on an error.
func run(t testing.TB, cfg slotted.Config) slotted.Result {
	t.Helper()
	s, err := slotted.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// mustOK fails unless r is a stable run with a usable delay CI.
func mustOK(t testing.TB, r slotted.Result) {
	t.Helper()
	if r.Status != sim.StatusOK || !r.Delay.CIOK() {
		t.Fatalf("n=%d λ=%v: status %q (%s), delay CI ok %v", r.Dim, r.Rate, r.Status, r.Reason, r.Delay.CIOK())
	}
}

// ci999 returns the half-width of the 99.9% interval of e: the checks of
// this package (some 40 of them) use it so that their family-wise rate of
// false failures stays below 5%; the 95% interval of Result would fail one
// check in twenty by design.
func ci999(e sim.Estimate) float64 {
	if !e.CIOK() {
		return math.Inf(1)
	}
	df := e.Batches - 1
	return e.HalfWidth * sim.StudentTQuantile(0.9995, df) / sim.StudentTQuantile(0.975, df)
}

// within checks |e.Mean − want| ≤ h + slack, h the 99.9% half-width, and
// logs the figures.
func within(t testing.TB, what string, e sim.Estimate, want, slack float64) {
	t.Helper()
	diff, h := math.Abs(e.Mean-want), ci999(e)
	t.Logf("%-28s sim %.5f ± %.5f (95%%)  ref %.5f  |diff| %.5f  allowed %.5f", what, e.Mean, e.HalfWidth, want, diff, h+slack)
	if !e.CIOK() || diff > h+slack {
		t.Errorf("%s: sim %v ± %v (95%%, CI ok %v), want %v within the 99.9%% CI %v + %v", what, e.Mean, e.HalfWidth, e.CIOK(), want, h, slack)
	}
}

func TestNewRejectsEveryBadField(t *testing.T) {
	ok := slotted.Config{Dim: 4, Rate: 0.1}
	cases := []struct {
		name string
		mod  func(*slotted.Config)
		want string
	}{
		{"dim 0", func(c *slotted.Config) { c.Dim = 0 }, "Dim = 0"},
		{"dim too big", func(c *slotted.Config) { c.Dim = slotted.MaxDim + 1 }, "Dim = 21"},
		{"rate 0", func(c *slotted.Config) { c.Rate = 0 }, "Rate = 0"},
		{"rate NaN", func(c *slotted.Config) { c.Rate = math.NaN() }, "Rate = NaN"},
		{"rate Inf", func(c *slotted.Config) { c.Rate = math.Inf(1) }, "Rate = +Inf"},
		{"bernoulli rate > 1", func(c *slotted.Config) { c.Rate, c.Arrivals = 1.5, slotted.ArrivalsBernoulli }, "at most one packet per slot"},
		{"arrivals", func(c *slotted.Config) { c.Arrivals = "batch" }, `unknown Arrivals "batch"`},
		{"choice", func(c *slotted.Config) { c.Choice = "greedy" }, `unknown Choice "greedy"`},
		{"warmup < 0", func(c *slotted.Config) { c.Run.Warmup = -1 }, "Run.Warmup = -1"},
		{"warmup >= max", func(c *slotted.Config) { c.Run.Warmup, c.Run.MaxSlots = 100, 100 }, "leaves no measurement"},
		{"period", func(c *slotted.Config) { c.Run.Period = -3 }, "Run.Period = -3"},
		{"min measure", func(c *slotted.Config) { c.Run.MinMeasure = -1 }, "Run.MinMeasure = -1"},
		{"max slots", func(c *slotted.Config) { c.Run.MaxSlots, c.Run.MaxWarmup = -1, 5 }, "Run.MaxSlots = -1"},
		{"max warmup", func(c *slotted.Config) { c.Run.MaxWarmup = 1 << 21 }, "Run.MaxWarmup = 2097152"},
		{"target", func(c *slotted.Config) { c.Run.TargetRelCI = 1.5 }, "Run.TargetRelCI = 1.5"},
		{"min batches", func(c *slotted.Config) { c.Run.MinBatches, c.Run.MaxBatches = 1, 64 }, "Run.MinBatches = 1"},
		{"max batches odd", func(c *slotted.Config) { c.Run.MaxBatches = 63 }, "Run.MaxBatches = 63"},
		{"backlog", func(c *slotted.Config) { c.Run.BacklogLimit = -2 }, "Run.BacklogLimit = -2"},
		{"warm-up too short for MSER-5", func(c *slotted.Config) { c.Run.MaxSlots = 8000 }, "automatic warm-up needs"},
	}
	for _, tc := range cases {
		c := ok
		tc.mod(&c)
		_, err := slotted.New(c)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	// All problems at once.
	_, err := slotted.New(slotted.Config{Rate: -1, Arrivals: "x", Choice: "y", Run: slotted.RunControl{Period: -1}})
	for _, w := range []string{"Dim = 0", "Rate = -1", `Arrivals "x"`, `Choice "y"`, "Period = -1"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("joined error %v lacks %q", err, w)
		}
	}
	if _, err := slotted.New(ok); err != nil {
		t.Errorf("valid config rejected: %v", err)
	}
}

func TestDefaultsAreDocumented(t *testing.T) {
	s, err := slotted.New(slotted.Config{Dim: 3, Rate: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	got := s.Config()
	want := slotted.Config{Dim: 3, Rate: 0.1, Arrivals: slotted.ArrivalsPoisson, Choice: slotted.ChoiceFree,
		Run: slotted.RunControl{MaxWarmup: slotted.DefaultMaxSlots / 2, Period: slotted.DefaultPeriod,
			MinMeasure: slotted.DefaultMinMeasure, MaxSlots: slotted.DefaultMaxSlots, TargetRelCI: slotted.DefaultTargetRelCI,
			MinBatches: slotted.DefaultMinBatches, MaxBatches: slotted.DefaultMaxBatches, BacklogLimit: slotted.DefaultBacklogLimit}}
	if got != want {
		t.Errorf("defaults\n got %+v\nwant %+v", got, want)
	}
}

// Same Config and seed give a bit-identical Result, from a fresh Sim and
// from a second Run of the same Sim; another seed gives another sample path.
func TestDeterministic(t *testing.T) {
	cfg := slotted.Config{Dim: 4, Rate: 0.09, Seed: 7, Run: slotted.RunControl{MaxSlots: 60000}}
	s, err := slotted.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := s.Run(context.Background())
	b, _ := s.Run(context.Background())
	c := run(t, cfg)
	if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(a, c) {
		t.Errorf("same seed, different results:\n%+v\n%+v\n%+v", a, b, c)
	}
	cfg.Seed = 8
	if d := run(t, cfg); d.Delay.Mean == a.Delay.Mean {
		t.Errorf("seeds 7 and 8 give the same mean delay %v", d.Delay.Mean)
	}
}

// At λ → 0 a packet never waits: its integer delay is its hop count, whose
// mean is d = n/(2(1 − 2^−n)) (seed 003 §III.1; docs/models.md#jacquet-distance, docs/models.md#jacquet-simulator). At a
// small λ the delay exceeds d only by the measured contention wait, which is
// O(λ); the comparison allows for exactly that.
func TestZeroLoadDelayIsMeanDistance(t *testing.T) {
	const n, lambda = 4, 0.001 // p = 0.00375
	d := cube(t, n).MeanHops() // 32/15
	choices := []string{slotted.ChoiceFree, slotted.ChoiceBlind}
	if testing.Short() {
		choices = choices[:1]
	}
	for _, choice := range choices {
		r := run(t, slotted.Config{Dim: n, Rate: lambda, Seed: 11, Choice: choice,
			Run: slotted.RunControl{TargetRelCI: 0.005, MaxSlots: 1 << 23}})
		mustOK(t, r)
		if r.Wait.Mean < 0 || r.Wait.Mean > 0.02*d {
			t.Errorf("%s: wait %v slots at λ = %v, want in [0, 2%% of d] (it is O(λ))", choice, r.Wait.Mean, lambda)
		}
		within(t, choice+" hops vs d", r.Hops, d, 0)
		within(t, choice+" delay vs d", r.Delay, d, r.Wait.Mean+ci999(r.Wait))
	}
}

// The busy fraction is the model's p = λ(n − 1/2)/(1 − 2^−n) (seed 003
// §III.1): in steady state it is exactly (2n−1)/n times the hop rate λd, so
// no tolerance beyond the CI is needed.
func TestBusyFractionIsModelP(t *testing.T) {
	for _, tc := range []struct {
		n    int
		frac float64 // of λ_max
	}{{4, 0.1}, {4, 0.25}, {6, 0.25}} {
		c := cube(t, tc.n)
		lambda := tc.frac * c.LambdaMax().Lambda
		r := run(t, slotted.Config{Dim: tc.n, Rate: lambda, Seed: 3})
		mustOK(t, r)
		within(t, "busy vs p", r.Busy, c.Blocking(lambda), 0)
	}
}

// Below saturation every packet generated is delivered: accepted throughput
// equals the offered λ, and Little's law ties backlog, throughput and the
// integer delay (a packet is queued at the start of exactly Delay slots).
func TestThroughputAndLittle(t *testing.T) {
	for _, tc := range []struct {
		n    int
		frac float64
	}{{4, 0.25}, {4, 0.5}, {4, 0.75}, {6, 0.5}} {
		c := cube(t, tc.n)
		lambda := tc.frac * c.LambdaMax().Lambda
		r := run(t, slotted.Config{Dim: tc.n, Rate: lambda, Seed: 5})
		mustOK(t, r)
		within(t, "throughput vs λ", r.Throughput, lambda, 0)
		within(t, "offered vs λ", r.Offered, lambda, 0)
		if !r.Delay.CIOK() || !r.Throughput.CIOK() {
			t.Fatalf("n=%d at %.2f λmax: no CI for delay or throughput, Little's law untested", tc.n, tc.frac)
		}
		little := r.Throughput.Mean * r.Delay.Mean
		slack := r.Throughput.Mean*r.Delay.HalfWidth + r.Delay.Mean*r.Throughput.HalfWidth
		within(t, "backlog vs λ·delay", r.Backlog, little, slack)
	}
}

// With Bernoulli arrivals a packet is generated at the start of its slot,
// so every continuous delay is its integer delay + 1.
func TestBernoulliArrivals(t *testing.T) {
	c := cube(t, 4)
	lambda := 0.5 * c.LambdaMax().Lambda
	r := run(t, slotted.Config{Dim: 4, Rate: lambda, Seed: 9, Arrivals: slotted.ArrivalsBernoulli})
	mustOK(t, r)
	if diff := r.DelayContinuous.Mean - r.Delay.Mean; math.Abs(diff-1) > 1e-9 {
		t.Errorf("continuous − integer delay = %v, want 1", diff)
	}
	within(t, "bernoulli throughput vs λ", r.Throughput, lambda, 0)
	within(t, "bernoulli busy vs p", r.Busy, c.Blocking(lambda), 0)
}

// The blind policy waits whenever its one chosen neighbour is busy, the free
// policy only when all k are: its hops take longer, and so does delivery.
func TestBlindChoiceIsSlower(t *testing.T) {
	lambda := 0.5 * cube(t, 4).LambdaMax().Lambda
	free := run(t, slotted.Config{Dim: 4, Rate: lambda, Seed: 2})
	blind := run(t, slotted.Config{Dim: 4, Rate: lambda, Seed: 2, Choice: slotted.ChoiceBlind})
	mustOK(t, free)
	mustOK(t, blind)
	t.Logf("hop service free %.4f ± %.4f, blind %.4f ± %.4f; delay free %.3f, blind %.3f",
		free.HopService.Mean, free.HopService.HalfWidth, blind.HopService.Mean, blind.HopService.HalfWidth,
		free.Delay.Mean, blind.Delay.Mean)
	if free.HopService.Mean+ci999(free.HopService) >= blind.HopService.Mean-ci999(blind.HopService) {
		t.Errorf("blind hop service %v not above free %v", blind.HopService, free.HopService)
	}
	if free.Delay.Mean+ci999(free.Delay) >= blind.Delay.Mean-ci999(blind.Delay) {
		t.Errorf("blind delay %v not above free %v", blind.Delay, free.Delay)
	}
}

// Past capacity the run says "saturated" with a reason, carries no delay,
// shows throughput below the offered load, and still encodes as JSON (no
// NaN anywhere).
func TestSaturatedRunsSaySo(t *testing.T) {
	c := cube(t, 4)
	for _, rate := range []float64{1.2 * c.LambdaMax().Lambda, 2 * slotted.HardBound(4)} {
		r := run(t, slotted.Config{Dim: 4, Rate: rate, Seed: 1})
		t.Logf("λ = %.4f: %s: %s (thr %.4f, offered %.4f)", rate, r.Status, r.Reason, r.Throughput.Mean, r.Offered.Mean)
		if r.Status != sim.StatusSaturated || r.Reason == "" {
			t.Errorf("λ = %v: status %q reason %q, want saturated with a reason", rate, r.Status, r.Reason)
		}
		if r.Delay != (sim.Estimate{}) || r.DelayContinuous != (sim.Estimate{}) {
			t.Errorf("λ = %v: saturated run reports a delay %+v", rate, r.Delay)
		}
		if !(r.Throughput.Mean < r.Offered.Mean) || r.Throughput.Mean >= slotted.HardBound(4) {
			t.Errorf("λ = %v: throughput %v, offered %v: want below offered and the bound 1/(2d)", rate, r.Throughput.Mean, r.Offered.Mean)
		}
		if _, err := json.Marshal(r); err != nil {
			t.Errorf("λ = %v: result does not encode: %v", rate, err)
		}
	}
}

func TestRunHonoursCancellation(t *testing.T) {
	s, err := slotted.New(slotted.Config{Dim: 4, Rate: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Run(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Run on a cancelled context: %v, want context.Canceled", err)
	}
}

// The simulated capacity lies at or a little above the model's λ_max:
// docs/models.md#jacquet-pins finds the 4-cube stable at 1.0 λ_max and unstable at 1.1 λ_max. The
// search is a pure function of its Config.
func TestSaturationSearch(t *testing.T) {
	lmax := cube(t, 4).LambdaMax().Lambda
	cfg := slotted.Config{Dim: 4, Seed: 1, Run: slotted.RunControl{MaxSlots: 100000}}
	tol := 0.002
	if testing.Short() {
		cfg.Run.MaxSlots, tol = 50000, 0.004
	}
	s, err := slotted.SaturationSearch(context.Background(), cfg, 0, 0, tol)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("largest stable λ %.5f (%.3f λ_max), smallest saturated %.5f (%.3f λ_max), %d runs",
		s.Stable, s.Stable/lmax, s.Saturated, s.Saturated/lmax, s.Runs)
	if s.Saturated-s.Stable > tol || s.StableResult.Status == sim.StatusSaturated || s.StableResult.Rate != s.Stable {
		t.Errorf("search %+v: bracket wider than %v or stable end not ok", s, tol)
	}
	if s.Stable < lmax || s.Saturated > 1.1*lmax {
		t.Errorf("bracket [%v, %v] outside [λ_max, 1.1 λ_max] = [%v, %v]", s.Stable, s.Saturated, lmax, 1.1*lmax)
	}
	if _, err := slotted.SaturationSearch(context.Background(), cfg, 1.2*lmax, 0, tol); err == nil {
		t.Error("search from a saturated lower end did not fail")
	}
	if _, err := slotted.SaturationSearch(context.Background(), cfg, 0, 0.5*lmax, tol); err == nil {
		t.Error("search with a stable upper end did not fail")
	}
	if testing.Short() {
		return
	}
	again, err := slotted.SaturationSearch(context.Background(), cfg, 0, 0, tol)
	if err != nil || !reflect.DeepEqual(s, again) {
		t.Errorf("search not deterministic: %+v vs %+v (%v)", s, again, err)
	}
}
