package traffic

import "math/rand/v2"

// halo is the nearest-neighbour halo exchange of a stencil code: every
// source sends to its one-hop neighbours, uniformly,
//
//	Pr{dest = j} = 1/|H(src)|,   j in H(src) = {j != src : Distance(src, j) = 1 or Distance(j, src) = 1}
//
// On a k-ary n-cube H(src) is the 2n nodes c ± e_i (mod k) (fewer when
// k <= 2, where +1 and -1 coincide), on a mesh the up to 2n coordinate
// neighbours that exist (a boundary node has fewer), on a hypercube the n
// nodes differing in one bit; on a unidirectional ring or torus the
// upstream neighbour counts too (one hop from it), as in the application
// the exchange is symmetric. It is the traffic of the nearest-neighbour
// phase of iterative solvers, where each message travels one hop: the
// best case of any minimal routing and the worst for a network whose
// bisection is all that matters.
type halo struct {
	n     int
	start []int32 // H(src) = nbr[start[src]:start[src+1]]
	nbr   []int32
}

func newHalo(space Space) (Pattern, error) {
	const name = Halo
	n := space.Nodes()
	if n < 2 {
		return nil, invalid(name, "needs at least 2 nodes, space has %d", n)
	}
	if n > maxTableNodes {
		return nil, invalid(name, "finding one-hop neighbours takes N^2 distance calls; N = %d exceeds the limit %d", n, maxTableNodes)
	}
	h := &halo{n: n, start: make([]int32, n+1)}
	for s := 0; s < n; s++ {
		for d := 0; d < n; d++ {
			if d != s && (space.Distance(s, d) == 1 || space.Distance(d, s) == 1) {
				h.nbr = append(h.nbr, int32(d))
			}
		}
		if int32(len(h.nbr)) == h.start[s] {
			return nil, invalid(name, "node %d has no node one hop away", s)
		}
		h.start[s+1] = int32(len(h.nbr))
	}
	return h, nil
}

func (h *halo) Name() string { return Halo }

func (h *halo) Dest(src int, r *rand.Rand) int {
	a, b := h.start[src], h.start[src+1]
	return int(h.nbr[a+int32(r.IntN(int(b-a)))])
}

func (h *halo) Probabilities(src int, p []float64) {
	checkLen(p, h.n)
	clear(p)
	nb := h.nbr[h.start[src]:h.start[src+1]]
	for _, j := range nb {
		p[j] = 1 / float64(len(nb))
	}
}
