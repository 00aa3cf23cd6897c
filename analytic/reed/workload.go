package reed

import (
	"math"

	"github.com/flitsim/flitsim/analytic"
)

// Kind says whether a device type is a node (processing element) or a
// communication link; optimal parallelism (docs/models.md#reed-parallelism) scales their service times
// by different functions.
type Kind int

const (
	// Node is a processing element: a message visits it once, at its
	// destination, and is served for S_PE.
	Node Kind = iota
	// Link is a communication link device, served for S_CL per crossing.
	Link
)

// DeviceType is one class of identical devices of a closed single-chain
// queueing network (Reed 1983, Figure II notation): Count devices O_t, each
// with visit ratio V_t (visits per message completion) and mean service time
// S_t per visit. Its demand V_t S_t is the service one message needs at one
// such device.
type DeviceType struct {
	Name    string
	Kind    Kind
	Count   int     // O_t >= 1
	Visit   float64 // V_t >= 0
	Service float64 // S_t >= 0, time units per visit
}

// Demand returns the service demand per message at one device, V_t S_t.
func (d DeviceType) Demand() float64 { return d.Visit * d.Service }

// Workload is the abstract workload of Reed (1983): T device types with
// counts O_t, visit ratios V_t and service times S_t (docs/models.md#reed-visits). All
// solution routines of this package (bounds, MVA, crossings, parallelism)
// take a Workload. It is immutable; build it with NewWorkload or
// NetworkWorkload.
type Workload struct {
	types []DeviceType
}

// NewWorkload validates and returns the workload of the given device types:
// at least one type, every Count >= 1, every Visit and Service finite and
// >= 0, and a positive total demand R_0; otherwise analytic.ErrDomain.
func NewWorkload(types ...DeviceType) (Workload, error) {
	const model = "reed.NewWorkload"
	if len(types) == 0 {
		return Workload{}, analytic.Domain(model, "no device types")
	}
	r0 := 0.0
	for _, t := range types {
		if t.Count < 1 {
			return Workload{}, analytic.Domain(model, "type %q: O_t = %d < 1", t.Name, t.Count)
		}
		if !(t.Visit >= 0) || math.IsInf(t.Visit, 0) || !(t.Service >= 0) || math.IsInf(t.Service, 0) {
			return Workload{}, analytic.Domain(model, "type %q: V_t = %g, S_t = %g, want finite and >= 0", t.Name, t.Visit, t.Service)
		}
		r0 += float64(t.Count) * t.Demand()
	}
	if !(r0 > 0) || math.IsInf(r0, 0) {
		return Workload{}, analytic.Domain(model, "total demand R_0 = %g, want finite and > 0", r0)
	}
	return Workload{types: append([]DeviceType(nil), types...)}, nil
}

// NetworkWorkload returns the two-type workload of a symmetric network under
// routing r with node service sPE and link service sCL (Reed 1983, Eq. (4)
// and V_CL; docs/models.md#reed-visits):
//
//	V_PE = 1/K                (each message visits one node, its destination)
//	V_CL = LV / Numlinks      (every link of the symmetric network equally loaded)
//	O_PE = K,  O_CL = Numlinks(d)
//
// Numlinks is K for the ring under HalfDuplex (Reed's reading, which gives
// V_CL = (K+1)/(4K) for uniform routing) and 2K under FullDuplex (docs/models.md#reed-simulator item 4);
// see Profile.Numlinks for the other networks. Ring, uniform,
// half duplex: demands S_PE/K and S_CL (K+1)/(4K), R_0 = S_PE + S_CL (K+1)/4.
// sPE and sCL must be finite and >= 0, not both 0 (analytic.ErrDomain).
func NetworkWorkload(r Routing, d Duplex, sPE, sCL float64) (Workload, error) {
	const model = "reed.NetworkWorkload"
	if err := checkProfile(model, r.profile); err != nil {
		return Workload{}, err
	}
	if d != HalfDuplex && d != FullDuplex {
		return Workload{}, analytic.Domain(model, "unknown duplex %d", int(d))
	}
	p := r.profile
	links := p.Numlinks(d)
	return NewWorkload(
		DeviceType{Name: "PE", Kind: Node, Count: p.k, Visit: 1 / float64(p.k), Service: sPE},
		DeviceType{Name: "CL", Kind: Link, Count: links, Visit: r.lv / float64(links), Service: sCL},
	)
}

// Types returns a copy of the device types.
func (w Workload) Types() []DeviceType { return append([]DeviceType(nil), w.types...) }

// T returns the number of device types.
func (w Workload) T() int { return len(w.types) }

// Devices returns the total number of devices M = sum_t O_t.
func (w Workload) Devices() int {
	m := 0
	for _, t := range w.types {
		m += t.Count
	}
	return m
}

// R0 returns the total demand of one message, its response time with no
// queueing (Reed 1983, Eq. (5) and (7)):
//
//	R_0 = sum_t O_t V_t S_t
func (w Workload) R0() float64 {
	s := 0.0
	for _, t := range w.types {
		s += float64(t.Count) * t.Demand()
	}
	return s
}

// Db returns the bottleneck demand (Reed 1983, Eq. (5)):
//
//	V_b S_b = max_t V_t S_t
func (w Workload) Db() float64 {
	b := 0.0
	for _, t := range w.types {
		b = max(b, t.Demand())
	}
	return b
}

// Da returns the average demand per device (Reed 1983, Eq. (7)):
//
//	V_a S_a = R_0 / sum_t O_t
func (w Workload) Da() float64 { return w.R0() / float64(w.Devices()) }

// Bounds is a pair of bounds on the message completion rate X_0(N),
// messages per time unit.
type Bounds struct {
	Lower, Upper float64
}

// Asymptotic returns the asymptotic bounds on X_0(n) for n >= 1 messages.
// The upper bound is Reed (1983) Eq. (5) (Denning and Buzen 1978); the lower
// bound is the companion operational bound (a message waits at worst behind
// all n-1 others at every visit, R(n) <= n R_0; Lazowska et al. 1984, §5.2):
//
//	1/R_0  <=  X_0(n)  <=  min{ 1/D_b, n/R_0 }                         (5)
//
// Both hold for any closed network with these demands, product form or not.
// n < 1 is refused with analytic.ErrDomain.
func (w Workload) Asymptotic(n int) (Bounds, error) {
	if n < 1 {
		return Bounds{}, analytic.Domain("reed.Asymptotic", "N = %d < 1", n)
	}
	if len(w.types) == 0 {
		return Bounds{}, analytic.Domain("reed.Asymptotic", "empty workload (use NewWorkload)")
	}
	r0 := w.R0()
	return Bounds{Lower: 1 / r0, Upper: math.Min(1/w.Db(), float64(n)/r0)}, nil
}

// BalancedJobBounds returns the balanced job bounds on X_0(n), n >= 1, of a
// closed single-class load-independent network (Reed 1983, Eq. (7);
// Zahorjan et al. 1982):
//
//	n / (R_0 + (n-1) D_b)  <=  X_0(n)  <=  min{ 1/D_b, n / (R_0 + (n-1) D_a) }   (7)
//
// They lie inside the asymptotic bounds (5). Unlike (5) they assume a
// separable (product-form) network. n < 1 is refused with analytic.ErrDomain.
func (w Workload) BalancedJobBounds(n int) (Bounds, error) {
	if n < 1 {
		return Bounds{}, analytic.Domain("reed.BalancedJobBounds", "N = %d < 1", n)
	}
	if len(w.types) == 0 {
		return Bounds{}, analytic.Domain("reed.BalancedJobBounds", "empty workload (use NewWorkload)")
	}
	return w.bjb(float64(n)), nil
}

// bjb evaluates (7) at a real population n >= 1 (used by the crossings).
func (w Workload) bjb(n float64) Bounds {
	r0, db, da := w.R0(), w.Db(), w.Da()
	return Bounds{
		Lower: n / (r0 + (n-1)*db),
		Upper: math.Min(1/db, n/(r0+(n-1)*da)),
	}
}

// scaled returns the workload with node service times multiplied by f and
// link service times by g (docs/models.md#reed-parallelism).
func (w Workload) scaled(f, g float64) Workload {
	ts := make([]DeviceType, len(w.types))
	for i, t := range w.types {
		if t.Kind == Node {
			t.Service *= f
		} else {
			t.Service *= g
		}
		ts[i] = t
	}
	return Workload{types: ts}
}
