package reed

import (
	"math"

	"github.com/flitsim/flitsim/analytic"
)

// Parallelism is a degree of problem parallelism N and the lower bound (9)
// on the completion rate of the whole problem at N (problems per time unit).
type Parallelism struct {
	N    int
	Rate float64
}

// ParallelismBound returns Reed's (1983) lower bound on the rate at which a
// problem split into n parallel messages completes, Eq. (8) divided by n.
// With node service S_PE(n) = f(n) S_PE and link service S_CL(n) = g(n) S_CL
// (docs/models.md#reed-parallelism):
//
//	X_problem(n) >= 1 / ( S_PE(n) + S_CL(n) sum_links V_CL + (n-1) D_b(n) )    (9)
//	D_b(n) = max{ V_PE S_PE(n), V_CL^1 S_CL(n), ..., V_CL^{T-1} S_CL(n) }
//
// computed for a general workload as 1/(R_0(n) + (n-1) D_b(n)) with node
// types scaled by f(n) and link types by g(n). f(n) and g(n) must be finite
// and > 0, n >= 1 (analytic.ErrDomain).
func ParallelismBound(w Workload, f, g func(n int) float64, n int) (float64, error) {
	const model = "reed.ParallelismBound"
	if len(w.types) == 0 {
		return 0, analytic.Domain(model, "empty workload (use NewWorkload)")
	}
	if n < 1 {
		return 0, analytic.Domain(model, "N = %d < 1", n)
	}
	fn, gn := f(n), g(n)
	if !(fn > 0) || math.IsInf(fn, 0) || !(gn > 0) || math.IsInf(gn, 0) {
		return 0, analytic.Domain(model, "f(%d) = %g, g(%d) = %g, want finite and > 0", n, fn, n, gn)
	}
	s := w.scaled(fn, gn)
	return 1 / (s.R0() + float64(n-1)*s.Db()), nil
}

// OptimalParallelism maximises the bound (9) over integer N in [1, ncap]
// (Reed 1983, "Optimizing Problem Parallelism"; Reed differentiates (9), this
// searches the integers instead, which is exact for any f and g). Ties go to
// the smallest N. ncap outside [1, 2^20] and invalid f, g are refused with
// analytic.ErrDomain.
func OptimalParallelism(w Workload, f, g func(n int) float64, ncap int) (Parallelism, error) {
	if ncap < 1 || ncap > maxPopulation {
		return Parallelism{}, analytic.Domain("reed.OptimalParallelism", "N_cap = %d outside [1, 2^20]", ncap)
	}
	best := Parallelism{}
	for n := 1; n <= ncap; n++ {
		r, err := ParallelismBound(w, f, g, n)
		if err != nil {
			return Parallelism{}, err
		}
		if r > best.Rate {
			best = Parallelism{N: n, Rate: r}
		}
	}
	return best, nil
}

// OverheadScaling returns the scaling f(N) = (1 + beta (N-1)) / N: each of N
// submessages does 1/N of the work plus a fraction beta of overhead per extra
// submessage (docs/models.md#reed-parallelism). beta = 0 is ideal splitting, f = 1/N.
func OverheadScaling(beta float64) func(n int) float64 {
	return func(n int) float64 { return (1 + beta*float64(n-1)) / float64(n) }
}

// OverheadOptimum returns the optimum of (9) in closed form for
// f = g = OverheadScaling(beta), 0 <= beta <= 1 (docs/models.md#reed-parallelism). With
// c = D_b and R_0 of the unsplit workload the denominator of (9) is
//
//	beta c N + const + (1-beta)(R_0 - c)/N   =>   N* = sqrt( (1-beta)(R_0 - c) / (beta c) )
//
// It returns the continuous N* and the better of floor(N*) and ceil(N*)
// clamped to [1, ncap]. With beta = 0 the bound increases with N (no interior
// optimum): N* = +Inf and the integer optimum is ncap. beta outside [0, 1]
// or ncap < 1 is refused with analytic.ErrDomain.
func OverheadOptimum(w Workload, beta float64, ncap int) (Parallelism, float64, error) {
	const model = "reed.OverheadOptimum"
	if !(beta >= 0 && beta <= 1) {
		return Parallelism{}, 0, analytic.Domain(model, "beta = %g outside [0, 1]", beta)
	}
	if ncap < 1 || ncap > maxPopulation {
		return Parallelism{}, 0, analytic.Domain(model, "N_cap = %d outside [1, 2^20]", ncap)
	}
	if len(w.types) == 0 {
		return Parallelism{}, 0, analytic.Domain(model, "empty workload (use NewWorkload)")
	}
	c, r0 := w.Db(), w.R0()
	cont := math.Inf(1)
	if beta > 0 {
		cont = math.Sqrt((1 - beta) * (r0 - c) / (beta * c))
	}
	f := OverheadScaling(beta)
	best := Parallelism{}
	for _, x := range [2]float64{math.Floor(cont), math.Ceil(cont)} {
		n := ncap
		if x < float64(ncap) {
			n = max(int(x), 1)
		}
		r, err := ParallelismBound(w, f, f, n)
		if err != nil {
			return Parallelism{}, 0, err
		}
		if r > best.Rate || (r == best.Rate && n < best.N) {
			best = Parallelism{N: n, Rate: r}
		}
	}
	return best, cont, nil
}
