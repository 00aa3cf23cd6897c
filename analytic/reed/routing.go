package reed

import (
	"github.com/flitsim/flitsim/analytic"
	"github.com/flitsim/flitsim/analytic/queue"
)

// Routing is a message-routing distribution on a symmetric network
// (Reed 1983, "Message Routing Distributions"; docs/models.md#reed-routing): Phi(l), the
// probability that a message crosses exactly l links, l = 1..l_max, and the
// mean number of link visits per message, Eq. (1):
//
//	LV = sum_{l=1}^{l_max} l Phi(l)
//
// Phi depends on the destination only through its distance, so every node of
// the symmetric network sends the same traffic and every link of one type
// carries the same load (Reed 1983, after Eq. (2)). A destination at distance
// l is one of the Reach(l) nodes at that distance, chosen uniformly.
//
// Routing values are immutable; build them with Uniform, Locality or Decay.
type Routing struct {
	name    string
	profile Profile
	phi     []float64 // phi[l], l = 0..l_max, phi[0] = 0
	lv      float64
}

func newRouting(name string, p Profile, phi []float64) Routing {
	lv := 0.0
	for l, f := range phi {
		lv += float64(l) * f
	}
	return Routing{name: name, profile: p, phi: phi, lv: lv}
}

func checkProfile(model string, p Profile) error {
	if p.k < 2 || len(p.reach) < 2 {
		return analytic.Domain(model, "profile %q is not a built network (use NewProfile, Ring, Bus, Torus or Hypercube)", p.name)
	}
	return nil
}

// Uniform returns uniform message routing, every other node equally likely
// (Reed 1983, uniform routing):
//
//	Phi(l) = Reach(l) / (K - 1)
//	LV_uniform = sum_l l Reach(l) / (K - 1)        (ring, odd K: (K+1)/4)
func Uniform(p Profile) (Routing, error) {
	if err := checkProfile("reed.Uniform", p); err != nil {
		return Routing{}, err
	}
	phi := make([]float64, len(p.reach))
	for l := 1; l < len(phi); l++ {
		phi[l] = float64(p.reach[l]) / float64(p.k-1)
	}
	// LV by the closed form rather than the Phi sum of newRouting:
	// sum_l l Reach(l) is an integer, so one division keeps LV exact (4,
	// not 3.9999999999999996, for the 15-node ring).
	return Routing{name: "uniform", profile: p, phi: phi, lv: p.uniformLV()}, nil
}

// Locality returns sphere-of-locality routing (Reed 1983, Eq. (2)
// neighbourhood): with probability phi a uniformly chosen node among the
// LocSize(L) nodes within radius L, otherwise a uniformly chosen node among
// the K - LocSize(L) - 1 outside it:
//
//	Phi(l) = phi Reach(l) / LocSize(L)                   1 <= l <= L
//	Phi(l) = (1-phi) Reach(l) / (K - LocSize(L) - 1)     L < l <= l_max
//
// Domain (analytic.ErrDomain otherwise): phi in [0, 1] and
// 1 <= L <= l_max - 1, so that the outside set is not empty; L = l_max is
// accepted only with phi = 1. Eq. (2) is printed correctly in the report
// (only its ring specialisation is not, see RingLocalityLV), so this function
// has no Variant.
func Locality(p Profile, phi float64, radius int) (Routing, error) {
	const model = "reed.Locality"
	if err := checkProfile(model, p); err != nil {
		return Routing{}, err
	}
	if !(phi >= 0 && phi <= 1) {
		return Routing{}, analytic.Domain(model, "phi = %g outside [0, 1]", phi)
	}
	lmax := p.LMax()
	switch {
	case radius == lmax && phi == 1:
	case radius < 1 || radius > lmax-1:
		return Routing{}, analytic.Domain(model, "L = %d outside [1, l_max-1] = [1, %d] (L = l_max needs phi = 1)", radius, lmax-1)
	}
	loc := float64(p.LocSize(radius))
	out := float64(p.k - p.LocSize(radius) - 1)
	phis := make([]float64, lmax+1)
	for l := 1; l <= lmax; l++ {
		if l <= radius {
			phis[l] = phi * float64(p.reach[l]) / loc
		} else {
			phis[l] = (1 - phi) * float64(p.reach[l]) / out
		}
	}
	return newRouting("locality", p, phis), nil
}

// Decay returns decreasing-probability routing (Reed 1983, Eq. (3)
// neighbourhood), geometric in the distance with ratio d, 0 < d <= 1 (d = 1 is
// the uniform-in-distance limit). Corrected (docs/models.md#reed-routing, erratum E2, docs/errata.md#e2):
//
//	Phi(l) = (1 - d) d^{l-1} / (1 - d^{l_max}) = d^{l-1} / sum_{j=0}^{l_max-1} d^j
//
// computed as the right-hand side (positive terms only: exact at and near
// d = 1). Printed, as in the report:
//
//	Phi(l) = (d - 1) d^l / (d^{l_max} - 1)     (= d times the corrected Phi)
//
// which is not normalised: it sums to d, so its CDF ends at d and its LV is d
// times too small. Choose a destination at distance l uniformly among the
// Reach(l) nodes there. d outside (0, 1] is refused with analytic.ErrDomain.
func Decay(p Profile, d float64, v Variant) (Routing, error) {
	const model = "reed.Decay"
	if err := checkProfile(model, p); err != nil {
		return Routing{}, err
	}
	if !(d > 0 && d <= 1) {
		return Routing{}, analytic.Domain(model, "d = %g outside (0, 1]", d)
	}
	if !v.valid() {
		return Routing{}, analytic.Domain(model, "unknown variant %d", int(v))
	}
	lmax := p.LMax()
	phis := make([]float64, lmax+1)
	norm, pw := 0.0, 1.0
	for l := 1; l <= lmax; l++ {
		phis[l] = pw
		norm += pw
		pw *= d
	}
	scale := 1 / norm
	if v == Printed {
		scale *= d
	}
	for l := 1; l <= lmax; l++ {
		phis[l] *= scale
	}
	name := "decay"
	if v == Printed {
		name = "decay (printed)"
	}
	return newRouting(name, p, phis), nil
}

// Name returns "uniform", "locality", "decay" or "decay (printed)".
func (r Routing) Name() string { return r.name }

// Profile returns the network the distribution is defined on.
func (r Routing) Profile() Profile { return r.profile }

// Phi returns the probability of crossing exactly l links (0 outside
// 1..l_max).
func (r Routing) Phi(l int) float64 {
	if l < 1 || l >= len(r.phi) {
		return 0
	}
	return r.phi[l]
}

// CDF returns sum_{j=1}^{l} Phi(j), the ordinate of Reed's Figure I.
func (r Routing) CDF(l int) float64 {
	s := 0.0
	for j := 1; j <= l && j < len(r.phi); j++ {
		s += r.phi[j]
	}
	return s
}

// LV returns the mean number of link visits per message, Eq. (1):
//
//	LV = sum_{l=1}^{l_max} l Phi(l)
func (r Routing) LV() float64 { return r.lv }

// UniformLV returns LV under uniform routing in closed form (Reed 1983):
//
//	LV_uniform = sum_{l=1}^{l_max} l Reach(l) / (K - 1)
func UniformLV(p Profile) (float64, error) {
	if err := checkProfile("reed.UniformLV", p); err != nil {
		return 0, err
	}
	return p.uniformLV(), nil
}

// LocalityLV returns LV under sphere-of-locality routing by the closed form
// of Reed (1983) Eq. (2), with A_L = sum_{l=1}^{L} l Reach(l):
//
//	LV_local = phi A_L / LocSize(L)
//	         + (1-phi) [LV_uniform (K-1) - A_L] / (K - LocSize(L) - 1)
//
// The domain is that of Locality.
func LocalityLV(p Profile, phi float64, radius int) (float64, error) {
	if _, err := Locality(p, phi, radius); err != nil {
		return 0, err
	}
	a := float64(p.distanceSum(radius))
	loc := float64(p.LocSize(radius))
	lv := phi * a / loc
	if phi < 1 {
		lvu := float64(p.distanceSum(p.LMax()))
		lv += (1 - phi) * (lvu - a) / float64(p.k-p.LocSize(radius)-1)
	}
	return lv, nil
}

// DecayLV returns LV under decreasing-probability routing by the closed form
// of Reed (1983) Eq. (3), which depends on the network only through l_max.
// Corrected (docs/models.md#reed-routing, erratum E2, docs/errata.md#e2):
//
//	LV_decay = [(d l_max - l_max - 1) d^{l_max} + 1] / ((d - 1)(d^{l_max} - 1))
//	         = 1/(1-d) - l_max d^{l_max}/(1 - d^{l_max});   (l_max+1)/2 at d = 1
//
// Printed: the same times a leading factor d. The second line is the mean of
// a geometric distribution truncated to 1..l_max, i.e. one plus the mean
// number in an M/M/1/(l_max-1) queue at rho = d, and is evaluated by
// queue.MM1L, which has no cancellation as d -> 1. Domain: l_max >= 1,
// 0 < d <= 1.
func DecayLV(lmax int, d float64, v Variant) (float64, error) {
	const model = "reed.DecayLV"
	if lmax < 1 {
		return 0, analytic.Domain(model, "l_max = %d < 1", lmax)
	}
	if !(d > 0 && d <= 1) {
		return 0, analytic.Domain(model, "d = %g outside (0, 1]", d)
	}
	if !v.valid() {
		return 0, analytic.Domain(model, "unknown variant %d", int(v))
	}
	lv := 1.0
	if lmax > 1 {
		q, err := queue.NewMM1L(d, 1, lmax-1)
		if err != nil {
			return 0, err
		}
		lv += q.MeanNumber()
	}
	if v == Printed {
		lv *= d
	}
	return lv, nil
}

// RingUniformLV returns LV of uniform routing on a bidirectional ring of
// k >= 3 nodes in closed form (Reed 1983 for odd k; the even case adds the
// antipode at distance k/2):
//
//	odd k:   LV = (K + 1) / 4
//	even k:  LV = K^2 / (4 (K - 1))
func RingUniformLV(k int) (float64, error) {
	if k < 3 {
		return 0, analytic.Domain("reed.RingUniformLV", "K = %d < 3", k)
	}
	kf := float64(k)
	if k%2 == 1 {
		return (kf + 1) / 4, nil
	}
	return kf * kf / (4 * (kf - 1)), nil
}

// RingLocalityLV returns LV of sphere-of-locality routing on a bidirectional
// ring of k >= 3 nodes in closed form (LocSize = 2L, A_L = L(L+1)).
// Corrected (docs/models.md#reed-routing, erratum E1, docs/errata.md#e1), with sum_l l Reach(l) = (K^2-1)/4
// for odd K and K^2/4 for even K:
//
//	odd K:   LV = phi (L+1)/2 + (1-phi) [(K^2 - 1) - 4L(L+1)] / (4 (K - 2L - 1))
//	even K:  LV = phi (L+1)/2 + (1-phi) [K^2 - 4L(L+1)] / (4 (K - 2L - 1))
//
// Printed (Reed 1983, ring specialisation of Eq. (2); the report treats odd K
// only and the formula is evaluated literally for any K):
//
//	LV = phi (L+1)/2 + (1-phi) [(K-1)^2 - 4L(L+1)] / (4K (K - 2L - 1))
//
// The printed form contradicts Eq. (2): for K = 15, phi = 0.5, L = 2 it gives
// 0.8933, below the minimum distance 1. Domain: phi in [0, 1],
// 1 <= L <= floor(K/2) - 1.
func RingLocalityLV(k int, phi float64, radius int, v Variant) (float64, error) {
	const model = "reed.RingLocalityLV"
	if k < 3 {
		return 0, analytic.Domain(model, "K = %d < 3", k)
	}
	if !(phi >= 0 && phi <= 1) {
		return 0, analytic.Domain(model, "phi = %g outside [0, 1]", phi)
	}
	if radius < 1 || radius > k/2-1 {
		return 0, analytic.Domain(model, "L = %d outside [1, floor(K/2)-1] = [1, %d]", radius, k/2-1)
	}
	if !v.valid() {
		return 0, analytic.Domain(model, "unknown variant %d", int(v))
	}
	kf, lf := float64(k), float64(radius)
	inner := phi * (lf + 1) / 2
	if v == Printed {
		return inner + (1-phi)*((kf-1)*(kf-1)-4*lf*(lf+1))/(4*kf*(kf-2*lf-1)), nil
	}
	total := kf * kf // 4 sum_l l Reach(l), even K
	if k%2 == 1 {
		total = kf*kf - 1
	}
	return inner + (1-phi)*(total-4*lf*(lf+1))/(4*(kf-2*lf-1)), nil
}

// RingDecayLV returns LV of decreasing-probability routing on a ring of
// k >= 3 nodes: DecayLV with l_max = floor(K/2) (Reed 1983, after Eq. (3)).
func RingDecayLV(k int, d float64, v Variant) (float64, error) {
	if k < 3 {
		return 0, analytic.Domain("reed.RingDecayLV", "K = %d < 3", k)
	}
	return DecayLV(k/2, d, v)
}
