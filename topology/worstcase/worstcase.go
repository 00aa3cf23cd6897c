// Package worstcase finds the worst-case permutation of a deterministic
// routing function: the permutation traffic that puts the most load on a
// single channel, and so has the lowest saturation throughput of all
// permutations (Towles and Dally, "Worst-case traffic for oblivious
// routing functions", SPAA 2002).
//
// With deterministic routing every source-destination pair (s, d) has one
// path. A permutation pi loads channel c with
//
//	gamma_c(pi) = |{ s : the path of (s, pi(s)) crosses c }|
//
// messages per unit of injection rate, so at an injection of x flits per
// node per cycle the channel carries x gamma_c flits per cycle and the
// network saturates at x = 1/max_c gamma_c at the latest. For one channel
// the best pi is a maximum matching in the bipartite graph with an edge
// s -> d for every pair whose path crosses c (Towles and Dally's weighted
// matching with 0/1 weights); the worst case over all permutations is the
// largest such matching over the channels. Kuhn's augmenting paths find
// each matching, O(N E_c) for the E_c pairs crossing c.
package worstcase

import (
	"fmt"

	"github.com/flitsim/flitsim/topology"
)

// MaxNodes bounds the networks searched with deterministic routing (the
// loads of all N^2 pairs are stored); MaxNodesSplit bounds those whose
// routing splits a pair's traffic over several paths, where every channel
// costs an O(N^3) assignment problem.
const (
	MaxNodes      = 1024
	MaxNodesSplit = 128
)

// Result is a worst-case permutation.
type Result struct {
	// Perm is the permutation: node s sends to Perm[s]. The pairs of the
	// maximum matching on Channel cross it; the other nodes complete the
	// permutation, avoiding fixed points where they can.
	Perm []int
	// Channel is the channel the permutation loads most, and Load its
	// load gamma_c: the expected number of the permutation's messages
	// crossing it per message injected at every node, the largest over
	// every channel and permutation. At x flits/node/cycle the channel
	// carries x*Load flits per cycle, so the permutation saturates the
	// network by x = 1/Load.
	Channel int
	Load    float64
}

// entry is one source-destination pair's share of a channel's traffic.
type entry struct {
	pair int32   // s*n + d
	w    float64 // probability that a message from s to d crosses the channel
}

// Permutation returns the worst-case permutation of the oblivious routing
// r on t. r's choice among several candidates is taken as uniform (as
// router.Router draws it: dimension-order routing's tie at an offset of
// K/2, random minimal routing), which makes the channel load of a pair a
// probability; r must be minimal, so a message's path ends. Adaptive
// routing, which chooses by the network's state, has no such load and is
// refused by the caller; networks beyond MaxNodes (MaxNodesSplit when r
// ever splits) are refused here.
func Permutation(t *topology.Topology, r topology.Routing) (Result, error) {
	n := t.Nodes()
	if n > MaxNodes {
		return Result{}, fmt.Errorf("worstcase: %d nodes, at most %d (the loads of all pairs are stored)", n, MaxNodes)
	}
	byChannel := make([][]entry, t.NumChannels())
	split := false
	mass := make([]float64, n)
	var layer, next []int
	var buf []topology.Candidate
	for s := 0; s < n; s++ {
		for d := 0; d < n; d++ {
			if s == d {
				continue
			}
			// Push the message's probability mass along the candidates,
			// one hop at a time (minimal: every hop is one closer).
			mass[s] = 1
			layer = append(layer[:0], s)
			for hops := 0; len(layer) > 0; hops++ {
				if hops > n {
					return Result{}, fmt.Errorf("worstcase: %s routing from %d to %d does not arrive within %d hops", r.Name(), s, d, n)
				}
				next = next[:0]
				for _, cur := range layer {
					m := mass[cur]
					mass[cur] = 0
					if cur == d {
						continue
					}
					buf = r.Route(cur, d, buf[:0])
					if len(buf) == 0 {
						return Result{}, fmt.Errorf("worstcase: %s routing gives no candidate at router %d for destination %d", r.Name(), cur, d)
					}
					if len(buf) > 1 {
						split = true
					}
					share := m / float64(len(buf))
					for _, cand := range buf {
						c := t.Out(cur, cand.Port)
						if c < 0 {
							return Result{}, fmt.Errorf("worstcase: %s routing takes port %d of router %d, which has no channel", r.Name(), cand.Port, cur)
						}
						ch := byChannel[c]
						if k := len(ch) - 1; k >= 0 && ch[k].pair == int32(s*n+d) {
							ch[k].w += share
						} else {
							byChannel[c] = append(ch, entry{int32(s*n + d), share})
						}
						v := t.Channel(c).Dst
						if mass[v] == 0 {
							next = append(next, v)
						}
						mass[v] += share
					}
				}
				layer, next = next, layer
			}
		}
	}
	if split && n > MaxNodesSplit {
		return Result{}, fmt.Errorf("worstcase: %s routing splits traffic over several paths; with %d nodes (at most %d) the weighted matching would take too long", r.Name(), n, MaxNodesSplit)
	}
	best := Result{Channel: -1}
	var bestPerm []int32
	m := newMatcher(n)
	for c, pairs := range byChannel {
		if bound := upperBound(pairs, n); bound <= best.Load+1e-9 {
			continue // no matching on c can beat the best found
		}
		var load float64
		if split {
			load = m.assign(pairs)
		} else {
			load = float64(m.match(pairs))
		}
		if load > best.Load+1e-9 {
			best.Load, best.Channel = load, c
			bestPerm = append(bestPerm[:0], m.destOf...)
		}
	}
	best.Perm = complete(bestPerm, n)
	return best, nil
}

// upperBound bounds the weight of any matching of pairs: each source and
// each destination contributes at most its heaviest pair.
func upperBound(pairs []entry, n int) float64 {
	bs := make([]float64, n)
	bd := make([]float64, n)
	for _, e := range pairs {
		s, d := int(e.pair)/n, int(e.pair)%n
		bs[s] = max(bs[s], e.w)
		bd[d] = max(bd[d], e.w)
	}
	var a, b float64
	for i := range bs {
		a += bs[i]
		b += bd[i]
	}
	return min(a, b)
}

// matcher finds maximum bipartite matchings between n sources and n
// destinations: by Kuhn's augmenting paths when every pair weighs 1
// (match), by the Hungarian method otherwise (assign).
type matcher struct {
	n      int
	adj    [][]int32 // per source: destinations it may take
	srcOf  []int32   // per destination: matched source, -1
	destOf []int32   // per source: matched destination, -1
	seen   []int32   // per destination: the search that visited it
	stamp  int32
}

func newMatcher(n int) *matcher {
	return &matcher{n: n, adj: make([][]int32, n), srcOf: make([]int32, n), destOf: make([]int32, n), seen: make([]int32, n)}
}

// match returns the size of a maximum matching of the pairs (s*n+d),
// leaving it in destOf.
func (m *matcher) match(pairs []entry) int {
	for s := range m.adj {
		m.adj[s] = m.adj[s][:0]
		m.destOf[s], m.srcOf[s] = -1, -1
	}
	for _, e := range pairs {
		s, d := e.pair/int32(m.n), e.pair%int32(m.n)
		m.adj[s] = append(m.adj[s], d)
	}
	size := 0
	for s := 0; s < m.n; s++ {
		if len(m.adj[s]) == 0 {
			continue
		}
		m.stamp++
		if m.augment(int32(s)) {
			size++
		}
	}
	return size
}

// augment looks for an augmenting path from source s.
func (m *matcher) augment(s int32) bool {
	for _, d := range m.adj[s] {
		if m.seen[d] == m.stamp {
			continue
		}
		m.seen[d] = m.stamp
		if m.srcOf[d] < 0 || m.augment(m.srcOf[d]) {
			m.srcOf[d], m.destOf[s] = s, d
			return true
		}
	}
	return false
}

// complete extends a partial matching (destOf[s] = -1 for an unmatched
// source) to a permutation: the unmatched sources take the unused
// destinations in order, cyclically shifted by the first shift that
// leaves no node sending to itself (if any does).
func complete(destOf []int32, n int) []int {
	perm := make([]int, n)
	used := make([]bool, n)
	var srcs, dsts []int
	for s := 0; s < n; s++ {
		if destOf != nil && destOf[s] >= 0 {
			perm[s] = int(destOf[s])
			used[destOf[s]] = true
		} else {
			srcs = append(srcs, s)
		}
	}
	for d := 0; d < n; d++ {
		if !used[d] {
			dsts = append(dsts, d)
		}
	}
	shift := 0
	for k := 0; k < len(srcs); k++ {
		ok := true
		for i, s := range srcs {
			if dsts[(i+k)%len(dsts)] == s {
				ok = false
				break
			}
		}
		if ok {
			shift = k
			break
		}
	}
	for i, s := range srcs {
		perm[s] = dsts[(i+shift)%len(dsts)]
	}
	return perm
}

// assign returns the largest total weight of a permutation over the
// weighted pairs (the assignment problem, solved by the Hungarian method
// with potentials in O(n^3), as a minimum-cost assignment of the negated
// weights) and leaves the pairs of positive weight it uses in destOf.
func (m *matcher) assign(pairs []entry) float64 {
	n := m.n
	w := make([]float64, n*n)
	for _, e := range pairs {
		w[e.pair] = e.w
	}
	const inf = 1e300
	u := make([]float64, n+1)
	v := make([]float64, n+1)
	p := make([]int, n+1) // p[j]: source (1-based) assigned to destination j, 0 none
	way := make([]int, n+1)
	minv := make([]float64, n+1)
	used := make([]bool, n+1)
	for i := 1; i <= n; i++ {
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j], used[j] = inf, false
		}
		for {
			used[j0] = true
			i0, delta, j1 := p[j0], inf, 0
			for j := 1; j <= n; j++ {
				if used[j] {
					continue
				}
				cur := -w[(i0-1)*n+j-1] - u[i0] - v[j]
				if cur < minv[j] {
					minv[j], way[j] = cur, j0
				}
				if minv[j] < delta {
					delta, j1 = minv[j], j
				}
			}
			for j := 0; j <= n; j++ {
				if used[j] {
					u[p[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
			if p[j0] == 0 {
				break
			}
		}
		for j0 != 0 {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
		}
	}
	total := 0.0
	for s := range m.destOf {
		m.destOf[s] = -1
	}
	for j := 1; j <= n; j++ {
		s, d := p[j]-1, j-1
		if x := w[s*n+d]; x > 0 {
			total += x
			m.destOf[s] = int32(d)
		}
	}
	return total
}
