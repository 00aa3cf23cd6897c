package hypercube

import (
	"math"

	"github.com/flitsim/flitsim/analytic"
)

// MaxDim is the largest hypercube dimension accepted by [New]; 2^MaxDim
// nodes still fit in an int.
const MaxDim = 62

// Cube is a binary n-cube under the slotted model of Jacquet and
// Mühlethaler (seed 003, §III; docs/models.md#jacquet-inputs). Obtain one from [New]; the
// zero Cube is not valid.
type Cube struct {
	n int
}

// New returns the n-dimensional cube, 1 <= n <= MaxDim; otherwise an error
// wrapping analytic.ErrDomain.
func New(n int) (Cube, error) {
	if n < 1 || n > MaxDim {
		return Cube{}, analytic.Domain("hypercube.New", "n = %d, want 1 <= n <= %d", n, MaxDim)
	}
	return Cube{n: n}, nil
}

// Dim returns n.
func (c Cube) Dim() int { return c.n }

// Nodes returns N = 2^n.
func (c Cube) Nodes() int { return 1 << c.n }

// notSelf returns 1 - 2^{-n}, the probability mass of the N-1 possible
// destinations.
func (c Cube) notSelf() float64 { return -math.Expm1(-float64(c.n) * math.Ln2) }

// binom returns 2^{-n} C(n, k), the binomial(n, 1/2) mass at k.
func (c Cube) binom(k int) float64 {
	if k < 0 || k > c.n {
		return 0
	}
	if k > c.n-k {
		k = c.n - k
	}
	b := math.Ldexp(1, -c.n)
	for j := 1; j <= k; j++ {
		b = b * float64(c.n-j+1) / float64(j)
	}
	return b
}

// HopProb returns the probability that a packet makes exactly k hops, its
// destination being uniform over the N-1 other nodes (§III.1;
// docs/models.md#jacquet-distance):
//
//	P(k) = 2^{-n} C(n,k) / (1 - 2^{-n}),   k = 1..n   (0 otherwise)
func (c Cube) HopProb(k int) float64 {
	if k < 1 || k > c.n {
		return 0
	}
	return c.binom(k) / c.notSelf()
}

// MeanHops returns the mean distance d, which is also the mean number of
// emissions and of receptions per packet (§III.1):
//
//	d = sum_k k P(k) = n / (2 (1 - 2^{-n}))
func (c Cube) MeanHops() float64 { return float64(c.n) / (2 * c.notSelf()) }

// VisitProb returns the probability that a random hop-service is made by a
// packet currently at distance k (§III.2; docs/models.md#jacquet-poisson):
//
//	v_k = sum_{k'=k}^{n} 2^{-n} C(n,k') / (n/2),   sum_k v_k = 1
func (c Cube) VisitProb(k int) float64 {
	if k < 1 || k > c.n {
		return 0
	}
	tail := 0.0
	for j := c.n; j >= k; j-- {
		tail += c.binom(j)
	}
	return tail / (float64(c.n) / 2)
}

// Blocking returns the probability that a given neighbour is unavailable
// in a slot (§III.1; docs/models.md#jacquet-distance), busy sending or receiving from one of
// its n-1 other neighbours:
//
//	p = lambda [ d + (1 - 1/n) d ] = lambda (n - 1/2) / (1 - 2^{-n})
//
// It is not checked against 1 here ([Cube.At] does).
func (c Cube) Blocking(lambda float64) float64 {
	return lambda * (float64(c.n) - 0.5) / c.notSelf()
}

// oneMinusPow returns 1 - p^k accurately for p close to 1.
func oneMinusPow(p float64, k int) float64 {
	if p == 0 {
		return 1
	}
	return -math.Expm1(float64(k) * math.Log(p))
}

// HopService returns X_k, the mean total service (slots) of a packet that
// must make k hops, each hop at distance j succeeding in a slot with
// probability 1 - p^j (§III.1; docs/models.md#jacquet-capacity):
//
//	X_k = sum_{j=1}^{k} 1/(1 - p^j)
//
// It panics unless 0 <= p < 1 and k >= 0 (a programmer error: p comes
// from [Cube.At], which refuses p >= 1).
func HopService(p float64, k int) float64 {
	checkPK("HopService", p, k)
	s := 0.0
	for j := 1; j <= k; j++ {
		s += 1 / oneMinusPow(p, j)
	}
	return s
}

// HopSecond returns Q_k, the sum of the second moments of the k geometric
// hop services (§III.2; docs/models.md#jacquet-poisson):
//
//	Q_k = sum_{j=1}^{k} (1 + p^j)/(1 - p^j)^2
//
// It panics unless 0 <= p < 1 and k >= 0.
func HopSecond(p float64, k int) float64 {
	checkPK("HopSecond", p, k)
	s := 0.0
	for j := 1; j <= k; j++ {
		om := oneMinusPow(p, j)
		s += (2 - om) / (om * om)
	}
	return s
}

func checkPK(f string, p float64, k int) {
	if !(p >= 0 && p < 1) || k < 0 {
		panic("hypercube." + f + ": need 0 <= p < 1 and k >= 0")
	}
}

// Load is the independence approximation at one generation rate (§III.1,
// §III.2; docs/models.md#jacquet-distance to docs/models.md#jacquet-poisson). Rates are per node per slot, times in slots.
type Load struct {
	Lambda float64 // generation rate, packets / slot / node
	P      float64 // p, blocking probability of a neighbour
	// X is the mean total service of a packet, sum_k P(k) X_k (slots).
	X float64
	// Q is the normalised second-moment sum sum_k P(k) Q_k (erratum E9, docs/errata.md#e9;
	// the report's unnormalised Q is Q (1 - 2^{-n})).
	Q float64
	// X1 = X/d is the mean of one hop-service, sum_k v_k/(1-p^k).
	X1 float64
	// X2 = Q/d is the second moment of one hop-service,
	// sum_k v_k (1+p^k)/(1-p^k)^2 (erratum E12, docs/errata.md#e12: the report's per-hop "X",
	// "Q" inside q'(1) and M are these).
	X2 float64
	// S = sum_k v_k p^{2k}/(1-p^k)^2, the last coefficient of A''(1)/2.
	S float64
}

// At returns the [Load] at generation rate lambda >= 0. An error wraps
// analytic.ErrDomain for a negative or non-finite lambda and
// analytic.ErrSaturated when p >= 1 (every neighbour always busy). At
// does not test lambda X < 1; the delay models do.
func (c Cube) At(lambda float64) (Load, error) {
	if !(lambda >= 0) || math.IsInf(lambda, 1) {
		return Load{}, analytic.Domain("hypercube.Load", "lambda = %v, want 0 <= lambda < inf", lambda)
	}
	p := c.Blocking(lambda)
	if p >= 1 {
		return Load{}, analytic.Saturated("hypercube.Load", "p = lambda (n - 1/2)/(1 - 2^-n) = %v >= 1 (n = %d, lambda = %v)", p, c.n, lambda)
	}
	// One downward pass over k: tail = sum_{k' >= k} 2^{-n} C(n,k'),
	// v_k = tail/(n/2), and X = d x1, Q = d x2 (exchange of the sums
	// sum_k P(k) sum_{j<=k} f(j) = sum_j f(j) sum_{k>=j} P(k)).
	half := float64(c.n) / 2
	b := math.Ldexp(1, -c.n) // 2^{-n} C(n, n)
	tail, x1, x2, s := 0.0, 0.0, 0.0, 0.0
	for k := c.n; k >= 1; k-- {
		tail += b
		v := tail / half
		om, pk := oneMinusPow(p, k), math.Pow(p, float64(k))
		x1 += v / om
		x2 += v * (1 + pk) / (om * om)
		s += v * pk * pk / (om * om)
		b = b * float64(k) / float64(c.n-k+1) // -> 2^{-n} C(n, k-1)
	}
	d := c.MeanHops()
	return Load{Lambda: lambda, P: p, X: d * x1, Q: d * x2, X1: x1, X2: x2, S: s}, nil
}

// Capacity is the maximum sustainable generation rate and the state of the
// approximation there.
type Capacity struct {
	Lambda float64 // lambda_max, packets / slot / node
	P      float64 // p at lambda_max
	X      float64 // X at lambda_max (= 1/lambda_max)
}

// LambdaMax returns the largest stable generation rate (§III.1;
// docs/models.md#jacquet-capacity), the unique root of
//
//	lambda X(p(lambda)) = 1
//
// lambda X increases strictly from 0 at lambda = 0 to +inf as p -> 1, i.e.
// as lambda -> (1 - 2^{-n})/(n - 1/2); the root is found by bisection on
// that interval down to adjacent floating-point numbers (far below the
// 1e-12 of docs/models.md#jacquet-pins). Capacity.Lambda is the lower of the two: the
// largest float64 rate at which lambda X < 1 still holds, so every delay
// model is finite there and saturated at the next float. Example:
// lambda_max(n = 4) = 0.187130351326.
func (c Cube) LambdaMax() Capacity {
	lo, hi := 0.0, c.notSelf()/(float64(c.n)-0.5)
	for {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		l, err := c.At(mid)
		if err != nil || mid*l.X >= 1 {
			hi = mid
		} else {
			lo = mid
		}
	}
	l, _ := c.At(lo)
	return Capacity{Lambda: lo, P: l.P, X: l.X}
}

// stable returns At(lambda) or ErrSaturated when lambda X >= 1.
func (c Cube) stable(model string, lambda float64) (Load, error) {
	l, err := c.At(lambda)
	if err != nil {
		return Load{}, err
	}
	if lambda*l.X >= 1 {
		return Load{}, analytic.Saturated(model, "lambda X = %v >= 1 (n = %d, lambda = %v)", lambda*l.X, c.n, lambda)
	}
	return l, nil
}
