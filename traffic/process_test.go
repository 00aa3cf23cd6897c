package traffic

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/sim"
)

// z999 is the two-sided 99.9% standard normal quantile: every confidence
// interval check below fails with probability 0.001 for a correct
// implementation at an arbitrary seed (the seeds are fixed, so the outcome
// is deterministic).
const z999 = 3.2905267314918945

// within reports whether |got - want| <= z999 * se, logging the check.
func within(t *testing.T, what string, got, want, se float64) {
	t.Helper()
	t.Logf("%s: %.6g, want %.6g ± %.3g (99.9%% CI)", what, got, want, z999*se)
	if math.Abs(got-want) > z999*se {
		t.Errorf("%s = %.6g, want %.6g within %.3g (z = %.2f)", what, got, want, z999*se, (got-want)/se)
	}
}

// countPerWindow returns the number of arrivals of p in each of w windows
// of t cycles.
func countPerWindow(tb testing.TB, p Process, seed uint64, t float64, w int) []int {
	r := sim.NewStream(seed, sim.PurposeTrafficArrival, 0)
	counts := make([]int, w)
	horizon := t * float64(w)
	prev := -1.0
	for x := p.First(r); x < horizon; x = p.Next(x, r) {
		if x < 0 || x < prev {
			tb.Fatalf("%s: arrival at %v after one at %v", p.Name(), x, prev)
		}
		prev = x
		counts[int(x/t)]++
	}
	return counts
}

// meanVar returns the sample mean and (unbiased) sample variance.
func meanVar(xs []int) (m, v float64) {
	for _, x := range xs {
		m += float64(x)
	}
	m /= float64(len(xs))
	for _, x := range xs {
		v += (float64(x) - m) * (float64(x) - m)
	}
	return m, v / float64(len(xs)-1)
}

// TestPoissonWindowCounts: the number of Poisson arrivals in a window of T
// cycles has mean and variance lambda T. With W windows the sample mean has
// standard error sqrt(lambda T / W); the sample variance has standard error
// sqrt((mu4 - sigma^4)/W) = sqrt((lambda T + 2 (lambda T)^2)/W), using the
// Poisson fourth central moment mu4 = mu + 3 mu^2.
func TestPoissonWindowCounts(t *testing.T) {
	w := 200000
	if testing.Short() {
		w = 20000
	}
	for i, c := range []struct{ rate, window float64 }{{0.05, 10}, {0.5, 10}, {2.5, 10}, {0.3, 1}, {7, 1}} {
		p, err := NewPoisson(c.rate)
		if err != nil {
			t.Fatal(err)
		}
		if p.Rate() != c.rate || p.Name() != "poisson" {
			t.Errorf("Rate() = %v, Name() = %q", p.Rate(), p.Name())
		}
		counts := countPerWindow(t, p, uint64(100+i), c.window, w)
		m, v := meanVar(counts)
		mu := c.rate * c.window
		within(t, "Poisson mean count", m, mu, math.Sqrt(mu/float64(w)))
		within(t, "Poisson count variance", v, mu, math.Sqrt((mu+2*mu*mu)/float64(w)))
	}
}

// TestPoissonCountsPerCycle: at rate lambda the number of arrivals that
// belong to one cycle (floor of the time) is Poisson(lambda); at rate > 1
// most cycles hold several arrivals. Pearson chi-square against the Poisson
// pmf, p-value > 0.001.
func TestPoissonCountsPerCycle(t *testing.T) {
	const cycles = 50000
	for i, rate := range []float64{0.4, 2, 5} {
		p, _ := NewPoisson(rate)
		counts := countPerWindow(t, p, uint64(200+i), 1, cycles)
		hist := make([]int, 40)
		maxCount := 0
		for _, c := range counts {
			hist[min(c, len(hist)-1)]++
			maxCount = max(maxCount, c)
		}
		pmf := make([]float64, len(hist))
		sum := 0.0
		for k := range pmf[:len(pmf)-1] {
			lg, _ := math.Lgamma(float64(k + 1))
			pmf[k] = math.Exp(float64(k)*math.Log(rate) - rate - lg)
			sum += pmf[k]
		}
		pmf[len(pmf)-1] = 1 - sum
		pval, df := goodnessOfFit(t, hist, pmf, cycles)
		t.Logf("rate %v: arrivals per cycle chi-square df %d, p = %.3f; most in one cycle %d", rate, df, pval, maxCount)
		if pval <= 0.001 {
			t.Errorf("rate %v: arrivals per cycle are not Poisson (chi-square df %d, p = %.2g)", rate, df, pval)
		}
		if rate > 1 && maxCount < 2 {
			t.Errorf("rate %v: no cycle holds more than one arrival", rate)
		}
	}
}

// TestBernoulli: arrival times are integers, at most one per cycle, the
// fraction of cycles with an arrival is p (standard error sqrt(p(1-p)/C)),
// gaps are geometric on {1, 2, ...} and the first arrival is geometric on
// {0, 1, ...} (chi-square, p-value > 0.001).
func TestBernoulli(t *testing.T) {
	cycles := 200000
	if testing.Short() {
		cycles = 50000
	}
	for i, prob := range []float64{0.02, 0.3, 0.75, 1} {
		b, err := NewBernoulli(prob)
		if err != nil {
			t.Fatal(err)
		}
		if b.Rate() != prob || b.Name() != "bernoulli" {
			t.Errorf("Rate() = %v, Name() = %q", b.Rate(), b.Name())
		}
		r := sim.NewStream(uint64(300+i), sim.PurposeTrafficArrival, 0)
		const maxGap = 60
		gaps := make([]int, maxGap+1) // gaps[g] for g < maxGap; gaps[maxGap] pools g >= maxGap
		n := 0
		prev := -1.0
		for x := b.First(r); x < float64(cycles); x = b.Next(x, r) {
			if x != math.Floor(x) || x < 0 {
				t.Fatalf("p = %v: arrival time %v is not a cycle number", prob, x)
			}
			if x <= prev {
				t.Fatalf("p = %v: two arrivals in cycle %v", prob, x)
			}
			if prev >= 0 {
				gaps[min(int(x-prev), maxGap)]++
			}
			prev = x
			n++
		}
		c := float64(cycles)
		within(t, "Bernoulli arrivals per cycle", float64(n)/c, prob, math.Max(math.Sqrt(prob*(1-prob)/c), 1e-12))

		geom := func(g int) float64 { return math.Pow(1-prob, float64(g-1)) * prob } // g >= 1
		pmf := make([]float64, maxGap+1)
		for g := 1; g < maxGap; g++ {
			pmf[g] = geom(g)
		}
		pmf[maxGap] = math.Pow(1-prob, maxGap-1)
		pval, df := goodnessOfFit(t, gaps, pmf, n-1)
		t.Logf("p = %v: gaps chi-square df %d, p = %.3f", prob, df, pval)
		if pval <= 0.001 {
			t.Errorf("p = %v: gaps are not geometric (chi-square df %d, p = %.2g)", prob, df, pval)
		}

		const firsts = 20000
		first := make([]int, maxGap+1)
		for j := 0; j < firsts; j++ {
			first[min(int(b.First(r)), maxGap)]++
		}
		for c := 0; c < maxGap; c++ {
			pmf[c] = geom(c + 1)
		}
		pmf[maxGap] = math.Pow(1-prob, maxGap)
		if pval, df := goodnessOfFit(t, first, pmf, firsts); pval <= 0.001 {
			t.Errorf("p = %v: first arrival is not geometric (chi-square df %d, p = %.2g)", prob, df, pval)
		}
	}
}

// TestCycleOf pins the generation-time convention: a message generated at
// time t belongs to cycle floor(t).
func TestCycleOf(t *testing.T) {
	for _, c := range []struct {
		t    float64
		want sim.Cycle
	}{{0, 0}, {0.999999, 0}, {1, 1}, {41.5, 41}, {1e12 + 0.25, 1e12}} {
		if got := CycleOf(c.t); got != c.want {
			t.Errorf("CycleOf(%v) = %d, want %d", c.t, got, c.want)
		}
	}
}

func TestProcessErrors(t *testing.T) {
	for _, p := range []float64{0, -0.1, 1.0000001, math.NaN(), math.Inf(1)} {
		if _, err := NewBernoulli(p); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "outside (0, 1]") {
			t.Errorf("NewBernoulli(%v): error %v, want ErrInvalid outside (0, 1]", p, err)
		}
	}
	for _, rate := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if _, err := NewPoisson(rate); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "positive finite") {
			t.Errorf("NewPoisson(%v): error %v, want ErrInvalid", rate, err)
		}
	}
}

// TestProcessDoesNotAllocate: First and Next are on the engine's hot path.
func TestProcessDoesNotAllocate(t *testing.T) {
	r := sim.NewStream(1, sim.PurposeTrafficArrival, 0)
	b, _ := NewBernoulli(0.3)
	p, _ := NewPoisson(1.5)
	for _, proc := range []Process{b, p} {
		x := proc.First(r)
		if a := testing.AllocsPerRun(1000, func() { x = proc.Next(x, r) }); a != 0 {
			t.Errorf("%s: Next allocates %v per call", proc.Name(), a)
		}
	}
}
