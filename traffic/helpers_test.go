package traffic

import (
	"fmt"
	"math"
	"testing"
)

// cube is the test Space: a k-ary n-cube, id = sum c_i k^i. wrap selects a
// torus (else a mesh); uni makes the torus unidirectional (distance
// (b-a) mod k per dimension). cube{15, 1, true, false} is Reed's 15-node
// bidirectional ring; cube{2, n, true, false} is the binary n-cube.
type cube struct {
	k, n      int
	wrap, uni bool
}

func (c cube) Nodes() int {
	t := 1
	for i := 0; i < c.n; i++ {
		t *= c.k
	}
	return t
}

func (c cube) Radix() int { return c.k }
func (c cube) Dims() int  { return c.n }

func (c cube) Distance(a, b int) int {
	d := 0
	for i := 0; i < c.n; i++ {
		x, y := a%c.k, b%c.k
		a, b = a/c.k, b/c.k
		switch {
		case c.uni:
			d += ((y-x)%c.k + c.k) % c.k
		case c.wrap:
			h := abs(y - x)
			d += min(h, c.k-h)
		default:
			d += abs(y - x)
		}
	}
	return d
}

func (c cube) String() string {
	kind := "mesh"
	if c.uni {
		kind = "uni-torus"
	} else if c.wrap {
		kind = "torus"
	}
	return fmt.Sprintf("%d-ary %d-%s", c.k, c.n, kind)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

var ring15 = cube{k: 15, n: 1, wrap: true}

// gammaQ is the regularised upper incomplete gamma function Q(a, x) =
// Gamma(a, x)/Gamma(a): the power series of P = 1 - Q for x < a+1, else
// Legendre's continued fraction for Q evaluated by the modified Lentz
// method (Abramowitz and Stegun 6.5.29 and 6.5.31).
func gammaQ(a, x float64) float64 {
	if x <= 0 {
		return 1
	}
	lg, _ := math.Lgamma(a)
	front := math.Exp(-x + a*math.Log(x) - lg)
	if x < a+1 {
		term := 1 / a
		sum := term
		for n := 1; n < 10000; n++ {
			term *= x / (a + float64(n))
			sum += term
			if term < sum*1e-16 {
				break
			}
		}
		return 1 - front*sum
	}
	const tiny = 1e-300
	b := x + 1 - a
	c := 1 / tiny
	d := 1 / b
	h := d
	for i := 1; i < 10000; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = b + an/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-16 {
			break
		}
	}
	return front * h
}

// chiSquarePValue returns Pr{chi^2_df > stat}.
func chiSquarePValue(stat float64, df int) float64 { return gammaQ(float64(df)/2, stat/2) }

// TestChiSquarePValue pins the p-value routine the goodness-of-fit tests
// rest on. Critical values from the standard chi-square table (e.g. NIST
// Engineering Statistics Handbook 1.3.6.7.4); tolerance 1e-6 absolute.
func TestChiSquarePValue(t *testing.T) {
	cases := []struct {
		df   int
		x, p float64
	}{
		{1, 3.841458820694124, 0.05},
		{1, 10.827566170662733, 0.001},
		{5, 11.070497693516351, 0.05},
		{10, 18.307038053275146, 0.05},
		{10, 2.558212432, 0.99},
		{30, 59.70306, 0.001},
		{100, 124.3421134, 0.05},
	}
	for _, c := range cases {
		if got := chiSquarePValue(c.x, c.df); math.Abs(got-c.p) > 1e-6 {
			t.Errorf("p(chi2_%d > %v) = %.9f, want %v", c.df, c.x, got, c.p)
		}
	}
	// Identity: with 2 degrees of freedom Q(1, x/2) = exp(-x/2).
	for _, x := range []float64{0.1, 1, 2, 5, 20, 60} {
		if got, want := chiSquarePValue(x, 2), math.Exp(-x/2); math.Abs(got-want) > 1e-14 {
			t.Errorf("p(chi2_2 > %v) = %v, want exp(-x/2) = %v", x, got, want)
		}
	}
}

// goodnessOfFit runs Pearson's chi-square test of counts against the
// probabilities p for n draws. Cells with expected count below 5 are pooled
// into one cell. A draw into a cell of probability 0 is reported as an
// error. It returns the p-value.
func goodnessOfFit(t *testing.T, counts []int, p []float64, n int) (pval float64, df int) {
	t.Helper()
	var stat, poolObs, poolExp float64
	cells := 0
	for i, c := range counts {
		e := p[i] * float64(n)
		if p[i] == 0 {
			if c != 0 {
				t.Errorf("cell %d has probability 0 but %d draws", i, c)
			}
			continue
		}
		if e < 5 {
			poolObs += float64(c)
			poolExp += e
			continue
		}
		stat += (float64(c) - e) * (float64(c) - e) / e
		cells++
	}
	if poolExp > 0 {
		stat += (poolObs - poolExp) * (poolObs - poolExp) / poolExp
		cells++
	}
	if cells < 2 {
		return 1, 0
	}
	return chiSquarePValue(stat, cells-1), cells - 1
}
