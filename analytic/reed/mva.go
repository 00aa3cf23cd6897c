package reed

import (
	"math"

	"github.com/flitsim/flitsim/analytic"
)

// maxPopulation bounds the MVA population so results stay a reasonable size.
const maxPopulation = 1 << 20

// MVAPoint is the exact MVA solution at population N (Reed 1983, Figure II):
// the message completion rate X_0 (messages per time unit), the cycle time
// R_0 = N/X_0, and per device type t the response time per visit R_t, the
// mean queue length n_t (waiting plus in service) and the utilisation U_t of
// one type-t device.
type MVAPoint struct {
	N           int
	X0, R0      float64
	Resp, Queue []float64
	Utilisation []float64
}

// MVA solves the closed single-chain product-form network exactly for
// N = 1..nmax by the mean value analysis of Reed (1983) Figure II, which
// solves one device per type (all O_t devices of a type are identical by
// symmetry), O(nmax T):
//
//	n_t(0) = 0
//	R_t(N) = S_t (1 + n_t(N-1))          response time per visit, one type-t device
//	R_0(N) = sum_t O_t V_t R_t(N)        system response (cycle) time
//	X_0(N) = N / R_0(N)                  message completion rate
//	X_t(N) = V_t X_0(N)                  throughput of one type-t device
//	n_t(N) = X_t(N) R_t(N)               mean queue length of one type-t device
//	U_t(N) = X_0(N) V_t S_t  <= 1
//
// Invariant: sum_t O_t n_t(N) = N. Assumes load-independent FCFS exponential
// (or processor-sharing) servers, a single class and state-independent
// routing (docs/models.md#mva, docs/models.md#reed-domain). The result has nmax entries, element i
// for N = i+1. nmax outside [1, 2^20] is refused with analytic.ErrDomain.
func (w Workload) MVA(nmax int) ([]MVAPoint, error) {
	if nmax < 1 || nmax > maxPopulation {
		return nil, analytic.Domain("reed.MVA", "N_max = %d outside [1, 2^20]", nmax)
	}
	if len(w.types) == 0 {
		return nil, analytic.Domain("reed.MVA", "empty workload (use NewWorkload)")
	}
	nt := len(w.types)
	back := make([]float64, 3*nt*nmax)
	pts := make([]MVAPoint, nmax)
	prev := make([]float64, nt) // n_t(N-1)
	for i := range pts {
		n := i + 1
		buf := back[3*nt*i : 3*nt*(i+1) : 3*nt*(i+1)]
		p := MVAPoint{N: n, Resp: buf[:nt:nt], Queue: buf[nt : 2*nt : 2*nt], Utilisation: buf[2*nt:]}
		r0 := 0.0
		for t, d := range w.types {
			p.Resp[t] = d.Service * (1 + prev[t])
			r0 += float64(d.Count) * d.Visit * p.Resp[t]
		}
		p.R0 = r0
		p.X0 = float64(n) / r0
		for t, d := range w.types {
			p.Queue[t] = d.Visit * p.X0 * p.Resp[t]
			p.Utilisation[t] = p.X0 * d.Demand()
			prev[t] = p.Queue[t]
		}
		pts[i] = p
	}
	return pts, nil
}

// X0 returns the exact MVA message completion rate X_0(n) alone, in O(n T)
// time and O(T) space.
func (w Workload) X0(n int) (float64, error) {
	if n < 1 || n > maxPopulation {
		return 0, analytic.Domain("reed.X0", "N = %d outside [1, 2^20]", n)
	}
	if len(w.types) == 0 {
		return 0, analytic.Domain("reed.X0", "empty workload (use NewWorkload)")
	}
	q := make([]float64, len(w.types))
	x0 := 0.0
	for k := 1; k <= n; k++ {
		r0 := 0.0
		for t, d := range w.types {
			r0 += float64(d.Count) * d.Visit * d.Service * (1 + q[t])
		}
		x0 = float64(k) / r0
		for t, d := range w.types {
			q[t] = x0 * d.Visit * d.Service * (1 + q[t])
		}
	}
	return x0, nil
}

// Station is one queueing device of a general closed network: its visit
// ratio (visits per message completion) and mean service time per visit.
type Station struct {
	Name    string
	Visit   float64
	Service float64
}

// Stations expands the workload into its sum_t O_t individual devices, in
// type order, for GeneralMVA.
func (w Workload) Stations() []Station {
	var s []Station
	for _, t := range w.types {
		for range t.Count {
			s = append(s, Station{Name: t.Name, Visit: t.Visit, Service: t.Service})
		}
	}
	return s
}

// GeneralPoint is the exact MVA solution of a general network at population
// N: X_0, R_0 and the mean queue length of every station.
type GeneralPoint struct {
	N      int
	X0, R0 float64
	Queue  []float64
}

// GeneralMVA solves a closed single-chain product-form network of
// load-independent queueing stations, each with its own visit ratio and
// service time, by the standard exact MVA (Reiser and Lavenberg 1980), with
// no symmetry assumption, O(nmax M) for M stations:
//
//	R_i(N) = S_i (1 + n_i(N-1)),  X_0(N) = N / sum_i V_i R_i(N),  n_i(N) = X_0(N) V_i R_i(N)
//
// It is the reference the per-type algorithm of Figure II (Workload.MVA) is
// checked against. Stations need finite V_i, S_i >= 0 and a positive total
// demand; nmax in [1, 2^20]; otherwise analytic.ErrDomain.
func GeneralMVA(stations []Station, nmax int) ([]GeneralPoint, error) {
	const model = "reed.GeneralMVA"
	if nmax < 1 || nmax > maxPopulation {
		return nil, analytic.Domain(model, "N_max = %d outside [1, 2^20]", nmax)
	}
	d := 0.0
	for _, s := range stations {
		if !(s.Visit >= 0) || math.IsInf(s.Visit, 0) || !(s.Service >= 0) || math.IsInf(s.Service, 0) {
			return nil, analytic.Domain(model, "station %q: V = %g, S = %g, want finite and >= 0", s.Name, s.Visit, s.Service)
		}
		d += s.Visit * s.Service
	}
	if !(d > 0) {
		return nil, analytic.Domain(model, "total demand %g, want > 0", d)
	}
	m := len(stations)
	back := make([]float64, m*nmax)
	pts := make([]GeneralPoint, nmax)
	prev := make([]float64, m)
	resp := make([]float64, m)
	for i := range pts {
		n := i + 1
		r0 := 0.0
		for j, s := range stations {
			resp[j] = s.Service * (1 + prev[j])
			r0 += s.Visit * resp[j]
		}
		x0 := float64(n) / r0
		q := back[m*i : m*(i+1) : m*(i+1)]
		for j, s := range stations {
			q[j] = x0 * s.Visit * resp[j]
		}
		copy(prev, q)
		pts[i] = GeneralPoint{N: n, X0: x0, R0: r0, Queue: q}
	}
	return pts, nil
}
