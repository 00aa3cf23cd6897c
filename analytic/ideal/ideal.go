// Package ideal gives the ideal throughput of the networks of package
// topology/graph: the channel-load bound (Dally & Towles 2004 §3.3.1). With
// every terminal injecting λ flits per cycle and a routing function that
// spreads its packets over its paths, channel c carries γ_c λ flits per
// cycle; no channel carries more than one flit per cycle, nor does an
// injection or ejection link, so the accepted throughput per terminal is at
// most
//
//	Θ = 1 / max(1, max_c γ_c)       flits per cycle per terminal
//
// Each function below is the closed form of max_c γ_c for one topology,
// routing function and traffic pattern, derived in its doc comment; the
// tests of topology/graph check every one against the channel loads
// computed path by path (graph.ChannelLoads). The package imports no
// simulator code. Uniform traffic excludes the source itself (N-1
// destinations).
package ideal

import (
	"math"

	"github.com/flitsim/flitsim/analytic"
)

// bound returns 1 / max(1, gamma).
func bound(gamma float64) float64 { return 1 / math.Max(1, gamma) }

// DragonflyMinimalUniform is Θ of minimal (local, global, local) routing
// on a dragonfly of G = A*H+1 groups (Kim, Dally, Scott & Abts 2008) under
// uniform traffic, N = P*A*G terminals, λ flits/cycle each:
//
//	global channel g->g': every terminal of g to every one of g':  γ = P²A² / (N-1)
//	local channel i->j:   i's terminals to j's (P²), to the H groups j
//	                      reaches (P·H·PA), and arrivals at j from its H
//	                      global links bound for i (H·PA·P):            γ = P²(2AH+1) / (N-1)
func DragonflyMinimalUniform(P, A, H int) (float64, error) {
	if err := dfly("ideal.DragonflyMinimalUniform", P, A, H); err != nil {
		return 0, err
	}
	p, a, h := float64(P), float64(A), float64(H)
	n := p * a * (a*h + 1)
	return bound(math.Max(p*p*a*a, p*p*(2*a*h+1)) / (n - 1)), nil
}

// DragonflyMinimalShift is Θ of minimal routing under the group shift,
// terminal t -> t + P*A (every terminal of group g sends to group g+1, the
// worst case of Kim et al. §4.1): the one global channel g->g+1 carries
// the P*A terminals of g, γ = P·A.
func DragonflyMinimalShift(P, A, H int) (float64, error) {
	if err := dfly("ideal.DragonflyMinimalShift", P, A, H); err != nil {
		return 0, err
	}
	return bound(float64(P * A)), nil
}

// DragonflyValiantUniform is Θ of Valiant routing through a random
// intermediate group under uniform traffic, for the balanced dragonfly
// A = 2P = 2H (P >= 2), where the global channels are the bottleneck. The
// intermediate group is uniform over the G groups; drawn as the source or
// destination group, or with source and destination in one group, the
// packet routes minimally. A packet between two groups then crosses
// 2 - 2/G global channels on average, spread evenly over the G(G-1)
// channels by symmetry:
//
//	γ = N · P·A(G-1)/(N-1) · (2 - 2/G) / (G(G-1)) = 2P²A²(G-1) / ((N-1)·G)
func DragonflyValiantUniform(P, A, H int) (float64, error) {
	if err := balanced("ideal.DragonflyValiantUniform", P, A, H); err != nil {
		return 0, err
	}
	p, a, h := float64(P), float64(A), float64(H)
	g := a*h + 1
	n := p * a * g
	return bound(2 * p * p * a * a * (g - 1) / ((n - 1) * g)), nil
}

// DragonflyValiantShift is Θ of Valiant routing under the group shift, for
// the balanced dragonfly A = 2P = 2H (P >= 2) with the consecutive
// global-link arrangement (graph.DragonflySpec; under BookSim's absolute
// arrangement some local channels carry more: Θ = 1/2 for p = 2 and
// 0.487 for p = 3, computed path by path). Channel g->g+1 carries the
// minimal share of g's traffic (intermediate = source or destination
// group, probability 2/G); every other channel x->y carries phase 1 of
// x's traffic through y and phase 2 of y-1's through x, 1/G each: every
// global channel carries γ = 2PA/G, and in the balanced network no local
// channel carries more.
func DragonflyValiantShift(P, A, H int) (float64, error) {
	if err := balanced("ideal.DragonflyValiantShift", P, A, H); err != nil {
		return 0, err
	}
	return bound(2 * float64(P*A) / float64(A*H+1)), nil
}

func dfly(model string, P, A, H int) error {
	if P < 1 || A < 1 || H < 1 {
		return analytic.Domain(model, "p=%d a=%d h=%d, want each >= 1", P, A, H)
	}
	return nil
}

func balanced(model string, P, A, H int) error {
	if err := dfly(model, P, A, H); err != nil {
		return err
	}
	if A != 2*P || H != P || P < 2 {
		return analytic.Domain(model, "p=%d a=%d h=%d is not the balanced a = 2p = 2h with p >= 2 (local channels may then be the bottleneck)", P, A, H)
	}
	return nil
}

// FlatFlyMinimalUniform is Θ of dimension-order routing on a flattened
// butterfly of K^n routers with C terminals each (Kim, Dally & Abts 2007)
// under uniform traffic, N = C·K^n. A channel of dimension i from x to x'
// carries the router pairs whose source agrees with x above i and whose
// destination agrees with x below i and with x' in i: K^i · K^(n-1-i) =
// K^(n-1) pairs of C² terminals, γ = C²K^(n-1)/(N-1) on every channel.
func FlatFlyMinimalUniform(K, n, C int) (float64, error) {
	if K < 2 || n < 1 || C < 1 {
		return 0, analytic.Domain("ideal.FlatFlyMinimalUniform", "k=%d n=%d c=%d, want k >= 2, n >= 1, c >= 1", K, n, C)
	}
	N := float64(C) * math.Pow(float64(K), float64(n))
	return bound(float64(C*C) * math.Pow(float64(K), float64(n-1)) / (N - 1)), nil
}

// FlatFlyMinimalShift is Θ of dimension-order routing under the router
// shift t -> t + C (every terminal of router r sends to router r+1): the
// first hop of router r's C terminals shares one channel, γ = C.
func FlatFlyMinimalShift(K, n, C int) (float64, error) {
	if K < 2 || n < 1 || C < 1 {
		return 0, analytic.Domain("ideal.FlatFlyMinimalShift", "k=%d n=%d c=%d, want k >= 2, n >= 1, c >= 1", K, n, C)
	}
	return bound(float64(C)), nil
}

// FlatFlyValiant is the channel-load bound of Valiant routing through a
// uniformly random intermediate router, for any traffic in which every
// terminal receives as much as it sends (uniform, any permutation): each
// phase is dimension-order routing from a router to a uniform router (or
// from a uniform router to the destination), γ = C·K^(n-1)/K^n = C/K per
// phase, γ = 2C/K in all. The simulated router ejects a packet that meets
// its destination router before its intermediate, which only removes
// load: the true Θ is at least this (the tests check it within 10%).
func FlatFlyValiant(K, n, C int) (float64, error) {
	if K < 2 || n < 1 || C < 1 {
		return 0, analytic.Domain("ideal.FlatFlyValiant", "k=%d n=%d c=%d, want k >= 2, n >= 1, c >= 1", K, n, C)
	}
	return bound(2 * float64(C) / float64(K)), nil
}

// FatTreeUniform is Θ of up*/down* routing (random up port, or
// destination-mod-k) on a k-ary n-tree (Petrini & Vanneschi 1997) under
// uniform traffic: a subtree of K^(l+1) terminals sends to the outside
// over K^(l+1) up channels a fraction (N - K^(l+1))/(N-1) < 1 of its
// traffic, evenly, and the down channels mirror it, so no channel carries
// more than a terminal link: Θ = 1 (full bisection bandwidth).
func FatTreeUniform(K, n int) (float64, error) {
	if K < 2 || n < 1 {
		return 0, analytic.Domain("ideal.FatTreeUniform", "k=%d n=%d, want k >= 2, n >= 1", K, n)
	}
	return 1, nil
}

// CMeshUniform is Θ of dimension-order routing on a concentrated K-ary
// n-mesh with C terminals per router under uniform traffic, N = C·K^n:
// the busiest channel is a middle channel of dimension 0, carrying the
// floor(K/2) routers of a row's lower half to the ceil(K/2)·K^(n-1)
// routers beyond it, γ = C²·floor(K/2)·ceil(K/2)·K^(n-1)/(N-1).
func CMeshUniform(K, n, C int) (float64, error) {
	if K < 2 || n < 1 || C < 1 {
		return 0, analytic.Domain("ideal.CMeshUniform", "k=%d n=%d c=%d, want k >= 2, n >= 1, c >= 1", K, n, C)
	}
	N := float64(C) * math.Pow(float64(K), float64(n))
	return bound(float64(C*C*(K/2)*((K+1)/2)) * math.Pow(float64(K), float64(n-1)) / (N - 1)), nil
}
