// Statistics for simulation output analysis.
//
// Overview. A flitsim run produces a stream of observations (message
// latencies in cycles, per-period throughputs, backlogs) that are
// autocorrelated and start in a transient. The types here turn that stream
// into an honest estimate:
//
//   - [Accumulator]: running mean, variance, min, max (Welford 1962), with an
//     exact parallel merge (Chan, Golub & LeVeque 1979). Used for quantities
//     whose observations are independent (replications) or for descriptive
//     statistics.
//   - [BatchMeans]: constant-memory non-overlapping batch means with batch
//     doubling, giving a 95% confidence interval on a steady-state mean of an
//     autocorrelated stream (Law & Kelton, ch. 9.5.3).
//   - [MSER5]: warm-up truncation point by the MSER-5 rule (White 1997).
//   - [Histogram]: latency distribution, exact for small values, bounded
//     relative error beyond.
//   - [TimeAverage]: time-weighted mean of a piecewise-constant quantity
//     (e.g. number of messages in the system, for Little's law checks).
//   - [Trend]: least-squares slope and its standard error, used to detect a
//     growing backlog (saturation).
//   - [StudentTQuantile]: quantiles of Student's t for the intervals.
//
// Run control built on these ([Monitor], [RunControl]) is in runcontrol.go.
//
// Conventions: a statistic of no data is NaN for the float-valued
// descriptive statistics (Mean, Min, Max, Variance) so that it cannot be
// mistaken for a measurement; estimators that feed results ([BatchMeans.CI95],
// [Monitor.Estimate]) return an explicit ok flag instead. Add-type methods are
// hot-path: they never allocate.

package sim

import (
	"fmt"
	"math"
)

// Accumulator is a running mean and variance of a stream of float64
// observations, updated by Welford's method:
//
//	n_k    = n_{k-1} + 1
//	δ      = x_k − mean_{k-1}
//	mean_k = mean_{k-1} + δ/n_k
//	M2_k   = M2_{k-1} + δ·(x_k − mean_k)
//	s²     = M2_n / (n − 1)
//
// (Welford 1962; Knuth, TAOCP vol. 2, 4.2.2), which avoids the cancellation
// of the textbook Σx² − n·mean² formula. The zero value is an empty
// accumulator ready to use. Add never allocates.
type Accumulator struct {
	n        int64
	mean, m2 float64
	sum      float64
	min, max float64
}

// Add adds observation x.
func (a *Accumulator) Add(x float64) {
	a.n++
	if a.n == 1 {
		a.mean, a.m2, a.sum, a.min, a.max = x, 0, x, x, x
		return
	}
	d := x - a.mean
	a.mean += d / float64(a.n)
	a.m2 += d * (x - a.mean)
	a.sum += x
	if x < a.min {
		a.min = x
	}
	if x > a.max {
		a.max = x
	}
}

// Merge adds all observations summarised by b to a, exactly as if they had
// been added one by one (up to rounding), by the pairwise combination of
// Chan, Golub & LeVeque (1979):
//
//	n    = n_a + n_b
//	δ    = mean_b − mean_a
//	mean = mean_a + δ·n_b/n
//	M2   = M2_a + M2_b + δ²·n_a·n_b/n
//
// b is not modified. Merging a into itself doubles every observation.
func (a *Accumulator) Merge(b *Accumulator) {
	if b.n == 0 {
		return
	}
	if a.n == 0 {
		*a = *b
		return
	}
	na, nb := float64(a.n), float64(b.n)
	n := na + nb
	d := b.mean - a.mean
	bm2, bsum, bmin, bmax := b.m2, b.sum, b.min, b.max // b may alias a
	a.mean += d * nb / n
	a.m2 += bm2 + d*d*na*nb/n
	a.sum += bsum
	a.n += b.n
	a.min = math.Min(a.min, bmin)
	a.max = math.Max(a.max, bmax)
}

// N returns the number of observations.
func (a *Accumulator) N() int64 { return a.n }

// Mean returns the sample mean, NaN when empty.
func (a *Accumulator) Mean() float64 {
	if a.n == 0 {
		return math.NaN()
	}
	return a.mean
}

// Variance returns the unbiased sample variance M2/(n−1), NaN with fewer
// than two observations.
func (a *Accumulator) Variance() float64 {
	if a.n < 2 {
		return math.NaN()
	}
	return a.m2 / float64(a.n-1)
}

// StdDev returns the sample standard deviation √Variance, NaN with fewer
// than two observations.
func (a *Accumulator) StdDev() float64 { return math.Sqrt(a.Variance()) }

// Min returns the smallest observation, NaN when empty.
func (a *Accumulator) Min() float64 {
	if a.n == 0 {
		return math.NaN()
	}
	return a.min
}

// Max returns the largest observation, NaN when empty.
func (a *Accumulator) Max() float64 {
	if a.n == 0 {
		return math.NaN()
	}
	return a.max
}

// Sum returns the sum of the observations (0 when empty).
func (a *Accumulator) Sum() float64 { return a.sum }

// StudentTQuantile returns the p-quantile of Student's t distribution with
// df degrees of freedom: the t with P(T ≤ t) = p. It returns −Inf for p = 0,
// +Inf for p = 1 and NaN for p outside [0, 1] or NaN; it panics if df < 1
// (a programmer error).
//
// The upper-tail probability is
//
//	P(T > t) = ½ · I_{ν/(ν+t²)}(ν/2, ½),   t ≥ 0
//
// (Abramowitz & Stegun 26.7.1 with 26.5.27), with the regularised incomplete
// beta I evaluated by its continued fraction (A&S 26.5.8) and the prefactor
// through math.Lgamma. The quantile is found by safeguarded Newton iteration
// on that tail (bracketed, falling back to bisection), started from the
// Cornish–Fisher expansion. ν = 1 (Cauchy) and ν = 2 use their closed forms
//
//	ν=1: t = tan(π(p − ½))      ν=2: t = (2p − 1)/√(2p(1−p))
//
// and ν > 10⁴ uses the Cornish–Fisher expansion to order ν⁻⁴ (A&S 26.7.5),
// whose truncation error there is far below 1e-12. Absolute accuracy is
// better than 1e-9 for |t| < 1e3.
func StudentTQuantile(p float64, df int) float64 {
	if df < 1 {
		panic(fmt.Sprintf("sim: StudentTQuantile: df = %d < 1", df))
	}
	switch {
	case math.IsNaN(p) || p < 0 || p > 1:
		return math.NaN()
	case p == 0:
		return math.Inf(-1)
	case p == 1:
		return math.Inf(1)
	case p == 0.5:
		return 0
	}
	// q is the tail probability on the side of p, computed exactly
	// (1 − p is exact for p ≥ ½ by Sterbenz's lemma).
	q, sign := p, -1.0
	if p > 0.5 {
		q, sign = 1-p, 1
	}
	v := float64(df)
	switch {
	case df == 1:
		return sign / math.Tan(math.Pi*q)
	case df == 2:
		return sign * (1 - 2*q) / math.Sqrt(2*q*(1-q))
	case v > 1e4:
		return sign * cornishFisherT(q, v)
	}
	return sign * studentTUpperQuantile(q, v)
}

// cornishFisherT is the upper-q quantile of t_ν by the Cornish–Fisher
// expansion about the normal quantile z (A&S 26.7.5):
//
//	t = z + g1/ν + g2/ν² + g3/ν³ + g4/ν⁴
//	g1 = (z³ + z)/4
//	g2 = (5z⁵ + 16z³ + 3z)/96
//	g3 = (3z⁷ + 19z⁵ + 17z³ − 15z)/384
//	g4 = (79z⁹ + 776z⁷ + 1482z⁵ − 1920z³ − 945z)/92160
func cornishFisherT(q, v float64) float64 {
	z := math.Sqrt2 * math.Erfcinv(2*q)
	z2 := z * z
	g1 := (z2 + 1) * z / 4
	g2 := ((5*z2+16)*z2 + 3) * z / 96
	g3 := (((3*z2+19)*z2+17)*z2 - 15) * z / 384
	g4 := ((((79*z2+776)*z2+1482)*z2-1920)*z2 - 945) * z / 92160
	return z + (g1+(g2+(g3+g4/v)/v)/v)/v
}

// studentTUpperQuantile solves P(T > t) = q for t ≥ 0 (0 < q < ½) by
// bracketed Newton iteration.
func studentTUpperQuantile(q, v float64) float64 {
	t := cornishFisherT(q, v)
	if !(t > 0) || math.IsInf(t, 0) {
		t = 1
	}
	lo, hi := 0.0, math.Inf(1)
	lpdf := studentTLogNorm(v)
	for i := 0; i < 200; i++ {
		f := studentTUpperTail(t, v) - q // decreasing in t
		if f == 0 {
			return t
		}
		if f > 0 {
			lo = t
		} else {
			hi = t
		}
		pdf := math.Exp(lpdf - (v+1)/2*math.Log1p(t*t/v))
		next := t + f/pdf
		if !(next > lo && next < hi) { // Newton left the bracket: bisect
			if math.IsInf(hi, 1) {
				next = 2*t + 1
			} else {
				next = lo + (hi-lo)/2
			}
		}
		if math.Abs(next-t) <= 1e-14*math.Max(1, t) {
			return next
		}
		t = next
	}
	return t
}

// studentTLogNorm is log of the normalising constant of the t density,
// Γ((ν+1)/2) / (Γ(ν/2)·√(νπ)).
func studentTLogNorm(v float64) float64 {
	a, _ := math.Lgamma((v + 1) / 2)
	b, _ := math.Lgamma(v / 2)
	return a - b - 0.5*math.Log(v*math.Pi)
}

// studentTUpperTail is P(T > t) for t ≥ 0, A&S 26.7.1 via 26.5.27.
func studentTUpperTail(t, v float64) float64 {
	t2 := t * t
	x := v / (v + t2)
	y := t2 / (v + t2) // 1 − x without cancellation
	return 0.5 * regIncBeta(v/2, 0.5, x, y)
}

// regIncBeta is the regularised incomplete beta function I_x(a, b), with
// y = 1 − x supplied by the caller to avoid cancellation. It uses the
// continued fraction A&S 26.5.8 directly when x < (a+1)/(a+b+2), where it
// converges fast, and the symmetry I_x(a,b) = 1 − I_y(b,a) otherwise.
func regIncBeta(a, b, x, y float64) float64 {
	if x <= 0 {
		return 0
	}
	if y <= 0 {
		return 1
	}
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	front := math.Exp(a*math.Log(x) + b*math.Log(y) - (la + lb - lab))
	if x < (a+1)/(a+b+2) {
		return front * betaContFrac(a, b, x) / a
	}
	return 1 - front*betaContFrac(b, a, y)/b
}

// betaContFrac evaluates the continued fraction of A&S 26.5.8,
//
//	I_x(a,b) = x^a y^b / (a B(a,b)) · 1/(1+ d1/(1+ d2/(1+ …)))
//	d_{2m+1} = −(a+m)(a+b+m) x / ((a+2m)(a+2m+1))
//	d_{2m}   =  m(b−m) x / ((a+2m−1)(a+2m))
//
// by the modified Lentz method (Thompson & Barnett 1986).
func betaContFrac(a, b, x float64) float64 {
	const tiny = 1e-300
	const eps = 1e-16
	nonTiny := func(v float64) float64 {
		if math.Abs(v) < tiny {
			return tiny
		}
		return v
	}
	c := 1.0
	d := 1 / nonTiny(1-(a+b)*x/(a+1))
	h := d
	// step applies one Lentz update with partial numerator num and returns
	// the factor it multiplies the convergent h by.
	step := func(num float64) float64 {
		d = nonTiny(1 + num*d)
		c = nonTiny(1 + num/c)
		d = 1 / d
		return d * c
	}
	for m := 1; m <= 10000; m++ {
		fm := float64(m)
		m2 := 2 * fm
		h *= step(fm * (b - fm) * x / ((a + m2 - 1) * (a + m2)))              // d_{2m}
		del := step(-(a + fm) * (a + b + fm) * x / ((a + m2) * (a + m2 + 1))) // d_{2m+1}
		h *= del
		if math.Abs(del-1) < eps {
			break
		}
	}
	return h
}

// TimeAverage is the time-weighted mean of a piecewise-constant quantity
// v(t), such as the number of messages in the system:
//
//	mean(T) = (1/(T − t0)) ∫_{t0}^{T} v(t) dt
//
// Times are in any consistent unit (cycles as float64 in flitsim). The zero
// value observes from t = 0 with v = 0. Set never allocates.
type TimeAverage struct {
	t0, last float64 // observation start, time of the last change
	v        float64 // current value
	area     float64 // ∫_{t0}^{last} v dt
}

// Reset starts observing at time t with value v, discarding the past.
func (a *TimeAverage) Reset(t, v float64) {
	*a = TimeAverage{t0: t, last: t, v: v}
}

// Set records that the value changes to v at time t. It panics if t is
// earlier than the previous change (a programmer error: time never runs
// backwards).
func (a *TimeAverage) Set(t, v float64) {
	if t < a.last {
		panic(fmt.Sprintf("sim: TimeAverage.Set at t=%g before last change at %g", t, a.last))
	}
	a.area += a.v * (t - a.last)
	a.last, a.v = t, v
}

// Mean returns the time average over [t0, until], where t0 is the time of
// the last Reset. With until == t0 it returns the current value. It panics
// if until is before the last change.
func (a *TimeAverage) Mean(until float64) float64 {
	if until < a.last {
		panic(fmt.Sprintf("sim: TimeAverage.Mean until t=%g before last change at %g", until, a.last))
	}
	if until == a.t0 {
		return a.v
	}
	return (a.area + a.v*(until-a.last)) / (until - a.t0)
}

// Trend is an ordinary least-squares line y = α + β·x through a stream of
// points, kept as running co-moments (the bivariate form of Welford's
// update) so that it needs no storage:
//
//	Sxx = Σ(x − x̄)²   Sxy = Σ(x − x̄)(y − ȳ)   Syy = Σ(y − ȳ)²
//	β   = Sxy / Sxx
//	se(β) = √( (Syy − β·Sxy) / ((n − 2)·Sxx) )
//
// (e.g. Draper & Smith, Applied Regression Analysis, §1.4). flitsim uses it
// on per-period backlogs to tell a growing backlog (saturation) from a
// stable one. The zero value is empty and ready to use; Add never allocates.
type Trend struct {
	n             int64
	mx, my        float64
	sxx, sxy, syy float64
}

// Add adds the point (x, y).
func (t *Trend) Add(x, y float64) {
	t.n++
	n := float64(t.n)
	dx := x - t.mx
	dy := y - t.my
	t.mx += dx / n
	t.my += dy / n
	t.sxx += dx * (x - t.mx)
	t.sxy += dx * (y - t.my)
	t.syy += dy * (y - t.my)
}

// Slope returns the least-squares slope β and its standard error. ok is
// false with fewer than three points or when all x are equal. A perfect fit
// has stderr 0.
func (t *Trend) Slope() (slope, stderr float64, ok bool) {
	if t.n < 3 || t.sxx <= 0 {
		return 0, 0, false
	}
	slope = t.sxy / t.sxx
	rss := t.syy - slope*t.sxy
	if rss < 0 { // rounding on a perfect fit
		rss = 0
	}
	stderr = math.Sqrt(rss / (float64(t.n-2) * t.sxx))
	return slope, stderr, true
}

// N returns the number of points added.
func (t *Trend) N() int64 { return t.n }

// Reset empties the trend.
func (t *Trend) Reset() { *t = Trend{} }
