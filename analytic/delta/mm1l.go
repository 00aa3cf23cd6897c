package delta

// mm1l is the M/M/1/L station of Makrucki–Mudge §3.1 (MODELS.md §2.2):
// Poisson arrivals of rate lambda, exponential service of rate mu, room for
// L packets including the one in service.
//
// It is private to this package until analytic/queue lands; it then merges
// into queue.MM1L. Every quantity is computed from the finite geometric
// sums
//
//	p_k = rho^k / sum_{j=0}^{L} rho^j                                (1.1)
//
// rather than from the closed forms, which have a removable singularity at
// rho = 1 and lose all precision near it. For rho > 1 the sums are taken in
// powers of 1/rho (the common factor rho^L cancels), so no term exceeds 1
// and nothing overflows for large L.
type mm1l struct {
	rho float64 // offered load lambda/mu, >= 0
	L   int     // capacity including the packet in service, >= 1
}

// geomSum returns sum_{j=0}^{m} x^j for 0 <= x <= 1 (at most m+1 terms,
// each <= 1, so the sum is exact to a few ulps).
func geomSum(x float64, m int) float64 {
	s, t := 0.0, 1.0
	for j := 0; j <= m; j++ {
		s += t
		t *= x
	}
	return s
}

// p0 is the time-average probability of an empty station,
//
//	p_0 = 1 / sum_{j=0}^{L} rho^j = (1-rho)/(1-rho^{L+1})            (1.1), k = 0
func (q mm1l) p0() float64 {
	if q.rho <= 1 {
		return 1 / geomSum(q.rho, q.L)
	}
	r := 1 / q.rho
	// p_0 = r^L / sum_{j=0}^{L} r^j
	return pow(r, q.L) / geomSum(r, q.L)
}

// pL is the blocking probability seen by an arrival (PASTA),
//
//	p_L = rho^L / sum_{j=0}^{L} rho^j = (1-rho) rho^L/(1-rho^{L+1})  (1.1), k = L
func (q mm1l) pL() float64 {
	if q.rho <= 1 {
		return pow(q.rho, q.L) / geomSum(q.rho, q.L)
	}
	return 1 / geomSum(1/q.rho, q.L)
}

// meanN is the time-average occupancy E[N] = sum_k k p_k (Eq. 2).
func (q mm1l) meanN() float64 {
	num, den := 0.0, 0.0
	if q.rho <= 1 {
		t := 1.0
		for k := 0; k <= q.L; k++ {
			num += float64(k) * t
			den += t
			t *= q.rho
		}
		return num / den
	}
	// rho^k = rho^L r^{L-k}: iterate k downwards from L.
	r, t := 1/q.rho, 1.0
	for k := q.L; k >= 0; k-- {
		num += float64(k) * t
		den += t
		t *= r
	}
	return num / den
}

// meanT is the mean sojourn of an accepted packet, by Little's law with the
// accepted rate lambda(1-p_L) (reading R8):
//
//	E[T] = E[N] / (lambda (1-p_L))
//	     = sum_{k=1}^{L} k rho^{k-1} / ( mu sum_{k=0}^{L-1} rho^k )
//
// The second form is finite at rho = 0 (E[T] = 1/mu) and at rho = 1
// (E[T] = (L+1)/(2 mu)).
func (q mm1l) meanT(mu float64) float64 {
	num, den := 0.0, 0.0
	if q.rho <= 1 {
		t := 1.0 // rho^{k-1}
		for k := 1; k <= q.L; k++ {
			num += float64(k) * t
			den += t
			t *= q.rho
		}
		return num / (mu * den)
	}
	// Divide both sums by rho^{L-1}: rho^{k-1} -> r^{L-k}.
	r, t := 1/q.rho, 1.0
	for k := q.L; k >= 1; k-- {
		num += float64(k) * t
		den += t
		t *= r
	}
	return num / (mu * den)
}

// pow returns x^m for a small non-negative integer m by repeated squaring.
func pow(x float64, m int) float64 {
	r := 1.0
	for m > 0 {
		if m&1 == 1 {
			r *= x
		}
		x *= x
		m >>= 1
	}
	return r
}
