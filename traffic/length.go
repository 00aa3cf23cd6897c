package traffic

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Length decides how long a message is, in flits (at least 1). Draw takes
// the caller's stream (the engine's PurposeTrafficLength stream of the node)
// and does not allocate. Mean is the exact mean of the distribution Draw
// samples from, in flits; Max is the largest length Draw can return, or 0
// if it is unbounded.
type Length interface {
	Name() string
	Draw(r *rand.Rand) int
	Mean() float64
	Max() int // 0 = unbounded
}

// NewFixedLength returns the length that is always flits flits (the M-flit
// messages of Draper-Ghosh and Safaei et al.). flits must be at least 1.
func NewFixedLength(flits int) (Length, error) {
	if flits < 1 {
		return nil, invalid("fixed length", "flits = %d, want >= 1", flits)
	}
	return fixedLength(flits), nil
}

type fixedLength int

func (f fixedLength) Name() string        { return "fixed" }
func (f fixedLength) Draw(*rand.Rand) int { return int(f) }
func (f fixedLength) Mean() float64       { return float64(f) }
func (f fixedLength) Max() int            { return int(f) }
func (f fixedLength) String() string      { return fmt.Sprintf("fixed(%d)", int(f)) }

// NewGeometricLength returns the geometric length on {1, 2, ...} with mean
// mean flits, optionally truncated at M = maxFlits flits (0: unbounded).
// With q = 1 - 1/mean,
//
//	Pr{X = m} = (1-q) q^(m-1),                  m >= 1        (unbounded)
//	Pr{X = m} = (1-q) q^(m-1) / (1 - q^M),      1 <= m <= M   (truncated)
//
// that is, truncation conditions on X <= M (it does not pile the tail on
// M). The untruncated variance is mean(mean-1); the truncated mean, which
// Mean returns, is
//
//	E[X | X <= M] = 1/(1-q) - M q^M / (1 - q^M)
//
// Draw inverts the distribution function, (1 - q^m) / (1 - q^M), with one
// uniform variate. mean must be finite and at least 1 (mean = 1 is the
// one-flit message) and maxFlits non-negative.
func NewGeometricLength(mean float64, maxFlits int) (Length, error) {
	if !(mean >= 1 && !math.IsInf(mean, 1)) {
		return nil, invalid("geometric length", "mean = %v, want a finite mean >= 1 flit", mean)
	}
	if maxFlits < 0 {
		return nil, invalid("geometric length", "maxFlits = %d, want >= 0 (0 = unbounded)", maxFlits)
	}
	g := &geometricLength{nominal: mean, max: maxFlits, scale: 1, mean: mean}
	if mean == 1 || maxFlits == 1 {
		g.mean = 1
		return g, nil
	}
	g.logq = math.Log1p(-1 / mean)
	if maxFlits > 0 {
		g.scale = -math.Expm1(float64(maxFlits) * g.logq) // 1 - q^maxFlits
		g.mean = truncatedGeometricMean(g.logq, maxFlits)
	}
	return g, nil
}

// truncatedGeometricMean returns E[X | X <= M] for Pr{X = m} ∝ q^(m-1),
// M = maxFlits. The closed form cancels badly when M(1-q) is small, so
// M <= 2^16 is summed directly (smallest weights first, for accuracy).
func truncatedGeometricMean(logq float64, maxFlits int) float64 {
	if maxFlits <= 1<<16 {
		var num, den float64
		for m := maxFlits; m >= 1; m-- {
			w := math.Exp(float64(m-1) * logq)
			num += float64(m) * w
			den += w
		}
		return num / den
	}
	qmax := math.Exp(float64(maxFlits) * logq)
	return -1/math.Expm1(logq) - float64(maxFlits)*qmax/-math.Expm1(float64(maxFlits)*logq)
}

type geometricLength struct {
	nominal float64 // the mean argument (untruncated mean)
	mean    float64 // exact mean of Draw
	max     int     // M, or 0 when unbounded
	logq    float64 // log q; unused when every draw is 1
	scale   float64 // 1 - q^max, or 1 when unbounded
}

func (g *geometricLength) Name() string  { return "geometric" }
func (g *geometricLength) Mean() float64 { return g.mean }
func (g *geometricLength) Max() int      { return g.max }

func (g *geometricLength) String() string {
	if g.max > 0 {
		return fmt.Sprintf("geometric(mean %g, max %d)", g.nominal, g.max)
	}
	return fmt.Sprintf("geometric(mean %g)", g.nominal)
}

func (g *geometricLength) Draw(r *rand.Rand) int {
	if g.logq == 0 {
		return 1
	}
	// 1 - U*scale lies in (q^max, 1]; its log over log q in [0, max).
	x := math.Floor(math.Log1p(-r.Float64()*g.scale) / g.logq)
	const limit = math.MaxInt32
	if x >= limit {
		x = limit - 1
	}
	m := 1 + int(x)
	if g.max > 0 && m > g.max {
		m = g.max // guards rounding at the top of the range
	}
	return m
}
