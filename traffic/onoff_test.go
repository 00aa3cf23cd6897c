package traffic

import (
	"errors"
	"math"
	"testing"

	"github.com/flitsim/flitsim/sim"
)

// onOffCases spans short and long bursts, low and high duty cycles, a peak
// rate of one message per cycle (p = 1), a negative second eigenvalue
// (burst 1: the chain alternates more than it stays) and duty 1 (Bernoulli).
var onOffCases = []struct{ rate, burst, duty float64 }{
	{0.1, 20, 0.25},
	{0.25, 20, 0.25}, // p = 1
	{0.05, 5, 0.1},
	{0.3, 1, 0.5}, // a = b = 1: r = -1
	{0.4, 50, 0.8},
	{0.2, 8, 1}, // Bernoulli(0.2)
}

// independentWindows counts the arrivals of p in [0, T) for w independent
// sources (one stream each), so the counts are i.i.d. and their law is that
// of N_T from the stationary start.
func independentWindows(tb testing.TB, p Process, seed uint64, T, w int) []int {
	counts := make([]int, w)
	for i := range counts {
		r := sim.NewStream(seed, sim.PurposeTrafficArrival, uint64(i))
		prev := -1.0
		for x := p.First(r); x < float64(T); x = p.Next(x, r) {
			if x != math.Floor(x) || x <= prev {
				tb.Fatalf("%s: arrival at %v after one at %v (want increasing integer cycles)", p.Name(), x, prev)
			}
			prev = x
			counts[i]++
		}
	}
	return counts
}

// fourthMoment returns the sample fourth central moment about m.
func fourthMoment(xs []int, m float64) float64 {
	s := 0.0
	for _, x := range xs {
		d := float64(x) - m
		s += d * d * d * d
	}
	return s / float64(len(xs))
}

// TestOnOffWindowCounts checks the count of messages in T cycles against
// the closed forms of NewOnOff: the mean rate*T (standard error
// sqrt(Var N_T / W)) and the variance Var N_T (standard error of the sample
// variance sqrt((mu4 - sigma^4)/W) with the sample fourth moment), over W
// independent stationary sources, for windows shorter than, equal to and
// longer than a burst.
func TestOnOffWindowCounts(t *testing.T) {
	w := 40000
	if testing.Short() {
		w = 10000
	}
	for i, c := range onOffCases {
		p, err := NewOnOff(c.rate, c.burst, c.duty)
		if err != nil {
			t.Fatal(err)
		}
		if p.Rate() != c.rate || p.Name() != "onoff" {
			t.Errorf("Rate() = %v, Name() = %q, want %v, onoff", p.Rate(), p.Name(), c.rate)
		}
		for j, T := range []int{1, 7, 40, 200} {
			counts := independentWindows(t, p, uint64(700+10*i+j), T, w)
			m, v := meanVar(counts)
			mean := OnOffCountMean(c.rate, T)
			variance := OnOffCountVariance(c.rate, c.burst, c.duty, T)
			t.Logf("rate %v burst %v duty %v T %d: mean %.4f (closed form %.4f), variance %.4f (closed form %.4f, Bernoulli %.4f)",
				c.rate, c.burst, c.duty, T, m, mean, v, variance, float64(T)*c.rate*(1-c.rate))
			within(t, "on/off mean count", m, mean, math.Sqrt(variance/float64(w)))
			within(t, "on/off count variance", v, variance, math.Sqrt((fourthMoment(counts, m)-v*v)/float64(w)))
		}
	}
}

// TestOnOffLongRunRate: over one long run of a single source the fraction
// of cycles with a message is the configured rate: the offered load is
// exact. The standard error is sqrt(Var N_T)/T with the closed form.
func TestOnOffLongRunRate(t *testing.T) {
	T := 2000000
	if testing.Short() {
		T = 400000
	}
	for i, c := range onOffCases {
		p, _ := NewOnOff(c.rate, c.burst, c.duty)
		counts := countPerWindow(t, p, uint64(800+i), float64(T), 1)
		within(t, "on/off messages per cycle", float64(counts[0])/float64(T), c.rate,
			math.Sqrt(OnOffCountVariance(c.rate, c.burst, c.duty, T))/float64(T))
	}
}

// TestOnOffVarianceClosedForm checks the series S(T) against its direct
// sum and the duty-1 case against Bernoulli.
func TestOnOffVarianceClosedForm(t *testing.T) {
	for _, c := range onOffCases {
		for _, T := range []int{1, 2, 3, 17, 100} {
			got := OnOffCountVariance(c.rate, c.burst, c.duty, T)
			want := float64(T) * c.rate * (1 - c.rate)
			if c.duty < 1 {
				p := c.rate / c.duty
				r := 1 - 1/c.burst - c.duty/(c.burst*(1-c.duty))
				for k := 1; k < T; k++ {
					want += 2 * p * p * c.duty * (1 - c.duty) * float64(T-k) * math.Pow(r, float64(k))
				}
			}
			if math.Abs(got-want) > 1e-9*math.Max(1, want) {
				t.Errorf("%+v T %d: variance %v, direct sum %v", c, T, got, want)
			}
		}
	}
}

func TestOnOffErrors(t *testing.T) {
	for _, c := range []struct{ rate, burst, duty float64 }{
		{0, 10, 0.5}, {-1, 10, 0.5}, {math.NaN(), 10, 0.5}, {0.1, 10, 0}, {0.1, 10, 1.5},
		{0.1, 0.5, 0.5}, {0.1, math.Inf(1), 0.5}, {0.6, 10, 0.5}, {0.1, 2, 0.9},
	} {
		if _, err := NewOnOff(c.rate, c.burst, c.duty); !errors.Is(err, ErrInvalid) {
			t.Errorf("NewOnOff(%v, %v, %v): error %v, want ErrInvalid", c.rate, c.burst, c.duty, err)
		}
	}
}

func TestOnOffDoesNotAllocate(t *testing.T) {
	r := sim.NewStream(1, sim.PurposeTrafficArrival, 0)
	p, _ := NewOnOff(0.1, 20, 0.25)
	x := p.First(r)
	if a := testing.AllocsPerRun(1000, func() { x = p.Next(x, r) }); a != 0 {
		t.Errorf("Next allocates %v per call", a)
	}
}
