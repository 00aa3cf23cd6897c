package delta

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/flitsim/flitsim/analytic"
	"github.com/flitsim/flitsim/analytic/queue"
	"github.com/flitsim/flitsim/internal/pin"
)

// moments integrates t^0 and t^1 times the density by Simpson's rule over
// [0, 80/min(lambda, mu)], beyond which the tail is below e^{-80}.
func moments(t *testing.T, lambda, mu float64, L int, e EmptyProb) (mass, mean float64) {
	t.Helper()
	const steps = 40000
	h := 80 / math.Min(lambda, mu) / steps
	for i := 0; i <= steps; i++ {
		x := float64(i) * h
		f, err := InterdepartureDensity(x, lambda, mu, L, e)
		if err != nil {
			t.Fatal(err)
		}
		w := 2.0
		switch {
		case i == 0 || i == steps:
			w = 1
		case i%2 == 1:
			w = 4
		}
		mass += w * f
		mean += w * x * f
	}
	return mass * h / 3, mean * h / 3
}

// docs/models.md#makrucki-interdeparture: the density integrates to 1; with the exact
// departure-epoch empty probability pi_0 (EmptyAtDeparture) its mean is
// exactly 1/lambda_eff = 1/(lambda(1-p_L)); with the report's p_0 (erratum E6,
// docs/errata.md#e6) the mean is w/lambda + (1-w)/mu, w = 1/(1-rho^{L+1}), which differs.
func TestInterdepartureMoments(t *testing.T) {
	for _, L := range []int{1, 2, 8} {
		for _, rho := range []float64{0.3, 0.8, 1, 1.7} {
			mu := 1.5
			lambda := rho * mu
			name := fmt.Sprintf("L=%d rho=%v ", L, rho)
			q, err := queue.NewMM1L(lambda, mu, L)
			if err != nil {
				t.Fatal(err)
			}
			m, mean := moments(t, lambda, mu, L, EmptyAtDeparture)
			pin.CheckRel(t, name+"mass (pi_0)", m, 1, 1e-10)
			pin.CheckRel(t, name+"mean (pi_0) = 1/lambda_eff", mean, 1/q.Accepted(), 1e-9)
			if got, err := InterdepartureMean(lambda, mu, L, EmptyAtDeparture); err != nil {
				t.Fatal(err)
			} else {
				pin.CheckRel(t, name+"InterdepartureMean (pi_0)", got, 1/q.Accepted(), 1e-12)
			}
			m, mean = moments(t, lambda, mu, L, EmptyTimeAverage)
			pin.CheckRel(t, name+"mass (p_0)", m, 1, 1e-10)
			var want float64
			if rho == 1 {
				want = (1/float64(L+1))*2/mu + (float64(L)/float64(L+1))/mu // (3.2)
			} else {
				w := 1 / (1 - math.Pow(rho, float64(L+1)))
				want = w/lambda + (1-w)/mu
			}
			pin.CheckRel(t, name+"mean (p_0)", mean, want, 1e-9)
			if got, err := InterdepartureMean(lambda, mu, L, EmptyTimeAverage); err != nil {
				t.Fatal(err)
			} else {
				pin.CheckRel(t, name+"InterdepartureMean (p_0)", got, want, 1e-12)
			}
		}
	}
}

// Eq. (3.1) tends to Eq. (3.2) as rho -> 1 (evaluated without cancellation):
// at rho = 1 +- 1e-9 both agree with (3.2) to about 1e-8 relative.
func TestInterdepartureContinuity(t *testing.T) {
	for _, L := range []int{1, 4, 19} {
		for _, x := range []float64{0, 0.3, 1, 4, 12} {
			at1, _ := InterdepartureDensity(x, 1, 1, L, EmptyTimeAverage)
			fl := float64(L)
			want := (1/(fl+1))*x*math.Exp(-x) + (fl/(fl+1))*math.Exp(-x) // (3.2), mu = 1
			pin.CheckRel(t, "(3.2)", at1, want, 1e-15)
			for _, d := range []float64{-1e-9, 1e-9} {
				f, _ := InterdepartureDensity(x, 1+d, 1, L, EmptyTimeAverage)
				pin.CheckRel(t, fmt.Sprintf("L=%d t=%v rho=1%+g", L, x, d), f, want, 1e-7)
			}
		}
	}
}

func TestInterdepartureErrors(t *testing.T) {
	for _, c := range []struct {
		t, lambda, mu float64
		L             int
		e             EmptyProb
	}{
		{-1, 1, 1, 2, 0}, {1, 0, 1, 2, 0}, {1, 1, 0, 2, 0}, {1, 1, 1, 0, 0}, {1, 1, 1, 2, 5}, {math.NaN(), 1, 1, 2, 0},
	} {
		if _, err := InterdepartureDensity(c.t, c.lambda, c.mu, c.L, c.e); !errors.Is(err, analytic.ErrDomain) {
			t.Errorf("%+v: err = %v, want ErrDomain", c, err)
		}
		if _, err := InterdepartureMean(c.lambda, c.mu, c.L, c.e); c.t >= 0 && !errors.Is(err, analytic.ErrDomain) {
			t.Errorf("mean %+v: err = %v, want ErrDomain", c, err)
		}
	}
}
