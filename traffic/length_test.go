package traffic

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/sim"
)

// geometricPMF returns Pr{X = m}, m = 0..top, of the geometric length with
// mean mean truncated at max (max = 0: unbounded; top must then be large
// enough for the tail to be negligible), straight from the definition
// Pr{X = m} ∝ q^(m-1), q = 1 - 1/mean, normalised by summation.
func geometricPMF(mean float64, max, top int) []float64 {
	q := 1 - 1/mean
	pmf := make([]float64, top+1)
	var sum float64
	for m := top; m >= 1; m-- {
		if max > 0 && m > max {
			continue
		}
		pmf[m] = math.Pow(q, float64(m-1))
		sum += pmf[m]
	}
	if max == 0 {
		sum = mean // sum_{m>=1} q^(m-1) = 1/(1-q) exactly
	}
	for m := range pmf {
		pmf[m] /= sum
	}
	return pmf
}

// moments returns the mean, variance and fourth central moment of pmf.
func moments(pmf []float64) (mean, variance, mu4 float64) {
	for m, p := range pmf {
		mean += float64(m) * p
	}
	for m, p := range pmf {
		d := float64(m) - mean
		variance += d * d * p
		mu4 += d * d * d * d * p
	}
	return
}

// TestGeometricLengthMean pins Mean() against reference values: the
// untruncated mean is the argument; truncated means are E[X | X <= max]
// evaluated in exact rational arithmetic (Python fractions, q = 3/4:
// sum m q^(m-1) / sum q^(m-1) over m = 1..8 = 3.109995760915642) or, for
// the cases without a printed value, by summing the definition
// (relative tolerance 1e-12).
func TestGeometricLengthMean(t *testing.T) {
	cases := []struct {
		mean float64
		max  int
		want float64 // 0: sum the definition
	}{
		{4, 0, 4},
		{1, 0, 1},
		{1, 5, 1},
		{7.5, 1, 1},
		{4, 8, 3.109995760915642},
		{2, 2, 4. / 3}, // q = 1/2: (1 + 2/2)/(1 + 1/2)
		{16, 64, 0},
		{1e6, 3, 0},
		{1000, 100000, 0},     // closed-form branch (max > 2^16)
		{3e4, 1 << 17, 0},     // closed-form branch, max(1-q) ≈ 4.4
		{1.0001, 1 << 20, 0},  // closed-form branch, q^max ≈ 2.5e-46
		{1 << 20, 1 << 17, 0}, // closed-form branch, max(1-q) = 1/8
	}
	for _, c := range cases {
		l, err := NewGeometricLength(c.mean, c.max)
		if err != nil {
			t.Fatal(err)
		}
		want := c.want
		if want == 0 {
			top := c.max
			var num, den float64
			q := 1 - 1/c.mean
			for m := top; m >= 1; m-- {
				w := math.Pow(q, float64(m-1))
				num += float64(m) * w
				den += w
			}
			want = num / den
		}
		if got := l.Mean(); math.Abs(got-want) > 1e-12*want {
			t.Errorf("geometric(mean %v, max %d).Mean() = %.16g, want %.16g", c.mean, c.max, got, want)
		}
		if l.Max() != c.max || l.Name() != "geometric" {
			t.Errorf("Max() = %d, Name() = %q", l.Max(), l.Name())
		}
	}
}

// TestGeometricLengthDraws samples Draw and checks the sample mean and
// variance against the distribution's (standard errors sqrt(var/n) and
// sqrt((mu4 - var^2)/n)), the support, and the pmf by chi-square
// (p-value > 0.001). The untruncated variance is mean(mean-1).
func TestGeometricLengthDraws(t *testing.T) {
	n := 400000
	if testing.Short() {
		n = 100000
	}
	for i, c := range []struct {
		mean float64
		max  int
	}{{1.5, 0}, {4, 0}, {20, 0}, {4, 8}, {20, 10}, {1e6, 3}, {1, 0}} {
		l, _ := NewGeometricLength(c.mean, c.max)
		top := c.max
		if top == 0 {
			top = int(60 * c.mean) // tail q^top < e^-60
		}
		pmf := geometricPMF(c.mean, c.max, top)
		mean, variance, mu4 := moments(pmf)
		if c.max == 0 && math.Abs(variance-c.mean*(c.mean-1)) > 1e-9*c.mean*c.mean {
			t.Errorf("reference variance %v, want mean(mean-1) = %v", variance, c.mean*(c.mean-1))
		}
		if math.Abs(mean-l.Mean()) > 1e-9*mean {
			t.Errorf("mean %v: Mean() = %v, pmf mean %v", c.mean, l.Mean(), mean)
		}
		r := sim.NewStream(uint64(400+i), sim.PurposeTrafficLength, 0)
		counts := make([]int, top+1)
		xs := make([]int, n)
		for j := range xs {
			x := l.Draw(r)
			if x < 1 || (c.max > 0 && x > c.max) {
				t.Fatalf("geometric(mean %v, max %d): drew %d", c.mean, c.max, x)
			}
			xs[j] = x
			counts[min(x, top)]++
		}
		m, v := meanVar(xs)
		se := math.Max(math.Sqrt(variance/float64(n)), 1e-12)
		within(t, "geometric length mean", m, mean, se)
		within(t, "geometric length variance", v, variance, math.Max(math.Sqrt((mu4-variance*variance)/float64(n)), 1e-12))
		if pval, df := goodnessOfFit(t, counts, pmf, n); pval <= 0.001 {
			t.Errorf("geometric(mean %v, max %d): Draw does not follow the pmf (chi-square df %d, p = %.2g)", c.mean, c.max, df, pval)
		}
	}
}

func TestFixedLength(t *testing.T) {
	l, err := NewFixedLength(16)
	if err != nil {
		t.Fatal(err)
	}
	r := sim.NewStream(1, sim.PurposeTrafficLength, 0)
	for i := 0; i < 100; i++ {
		if x := l.Draw(r); x != 16 {
			t.Fatalf("Draw() = %d, want 16", x)
		}
	}
	if l.Mean() != 16 || l.Max() != 16 || l.Name() != "fixed" {
		t.Errorf("Mean() = %v, Max() = %d, Name() = %q", l.Mean(), l.Max(), l.Name())
	}
}

func TestLengthErrors(t *testing.T) {
	for _, f := range []int{0, -3} {
		if _, err := NewFixedLength(f); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), ">= 1") {
			t.Errorf("NewFixedLength(%d): error %v", f, err)
		}
	}
	for _, c := range []struct {
		mean float64
		max  int
		says string
	}{{0.99, 0, "mean"}, {0, 0, "mean"}, {math.NaN(), 0, "mean"}, {math.Inf(1), 0, "mean"}, {4, -1, "max"}} {
		if _, err := NewGeometricLength(c.mean, c.max); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("NewGeometricLength(%v, %d): error %v, want ErrInvalid about %s", c.mean, c.max, err, c.says)
		}
	}
}

// TestDrawDoesNotAllocate: Draw is on the engine's hot path.
func TestDrawDoesNotAllocate(t *testing.T) {
	r := sim.NewStream(1, sim.PurposeTrafficLength, 0)
	f, _ := NewFixedLength(4)
	g, _ := NewGeometricLength(4, 0)
	gt, _ := NewGeometricLength(4, 16)
	for _, l := range []Length{f, g, gt} {
		if a := testing.AllocsPerRun(1000, func() { _ = l.Draw(r) }); a != 0 {
			t.Errorf("%s: Draw allocates %v per call", l.Name(), a)
		}
	}
}

// TestRates converts offered load between units: 0.4 flits/node/cycle of
// 8-flit messages is 0.05 messages/node/cycle, and back (exact in binary
// floating point for these values).
func TestRates(t *testing.T) {
	l8, _ := NewFixedLength(8)
	g, _ := NewGeometricLength(4, 8)
	if got := MessagesPerCycle(0.4, FlitsPerNodeCycle, l8); got != 0.05 {
		t.Errorf("MessagesPerCycle(0.4 flits, 8 flits) = %v, want 0.05", got)
	}
	if got := MessagesPerCycle(0.05, MessagesPerNodeCycle, nil); got != 0.05 {
		t.Errorf("MessagesPerCycle(0.05 msgs) = %v", got)
	}
	if got := FlitsPerCycle(0.05, MessagesPerNodeCycle, l8); got != 0.4 {
		t.Errorf("FlitsPerCycle(0.05 msgs, 8 flits) = %v, want 0.4", got)
	}
	// Round trip through the truncated geometric mean, 1e-15 relative.
	for _, x := range []float64{0.01, 0.3, 0.9} {
		back := FlitsPerCycle(MessagesPerCycle(x, FlitsPerNodeCycle, g), MessagesPerNodeCycle, g)
		if math.Abs(back-x) > 1e-15*x {
			t.Errorf("round trip of %v flits/node/cycle gives %v", x, back)
		}
	}
	if MessagesPerNodeCycle.String() != "msgs/node/cycle" || FlitsPerNodeCycle.String() != "flits/node/cycle" {
		t.Errorf("String() = %q, %q", MessagesPerNodeCycle, FlitsPerNodeCycle)
	}
	defer func() {
		if recover() == nil {
			t.Error("MessagesPerCycle with an unknown unit did not panic")
		}
	}()
	MessagesPerCycle(1, RateUnit(7), l8)
}
