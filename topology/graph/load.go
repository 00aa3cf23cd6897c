package graph

// ChannelLoads returns the expected load of every channel, in flits per
// cycle, when every terminal injects one flit per cycle with destination d
// drawn with probability prob(src)[d], each packet's start state drawn
// uniformly from Starts and each hop taken uniformly among Route's
// candidates (what the router does without adaptive selection), with
// loads = nil. It also returns the largest ejection load of a terminal.
// The channel-load bound on throughput (Dally & Towles 2004 §3.3.1) is
// then 1 / max(1, max channel load, max ejection load) flits per cycle
// per terminal: see Bound.
//
// Flows are summed per (source router, destination) first, and per
// destination router when the function's routes depend on the router only.
func ChannelLoads(n *Network, r Routing, prob func(src int, p []float64)) (channel []float64, eject float64) {
	R, N := n.routers, len(n.termR)
	dests := destinations(n, r)
	rep := make([]int32, N) // the destination explored for terminal d
	for _, ds := range dests {
		for _, d := range ds {
			rep[d] = int32(d)
		}
	}
	if _, one := r.(routerLevel); one {
		for d, q := range n.termR {
			rep[d] = int32(dests[q][0])
		}
	}
	flow := make([]float64, R*N)
	ej := make([]float64, N)
	p := make([]float64, N)
	for s := 0; s < N; s++ {
		clear(p)
		prob(s, p)
		sr := int(n.termR[s])
		for d, x := range p {
			if x == 0 {
				continue
			}
			flow[sr*N+int(rep[d])] += x
			ej[d] += x
		}
	}
	for _, x := range ej {
		eject = max(eject, x)
	}
	channel = make([]float64, len(n.chans))
	var starts []State
	var walk func(q, dst int, st State, w float64)
	walk = func(q, dst int, st State, w float64) {
		if q == int(n.termR[dst]) {
			return
		}
		cands, st2 := r.Route(q, dst, st, nil, make([]Candidate, 0, n.maxPorts+1))
		w /= float64(len(cands))
		for _, c := range cands {
			ch := n.out[q*n.maxPorts+c.Port]
			channel[ch] += w
			walk(n.chans[ch].Dst, dst, st2, w)
		}
	}
	for sr := 0; sr < R; sr++ {
		for dst := 0; dst < N; dst++ {
			f := flow[sr*N+dst]
			if f == 0 || sr == int(n.termR[dst]) {
				continue
			}
			starts = r.Starts(dests[sr][0], dst, starts[:0])
			for _, st := range starts {
				walk(sr, dst, st, f/float64(len(starts)))
			}
		}
	}
	return channel, eject
}

// Bound returns the channel-load bound on the accepted throughput in
// flits per cycle per terminal, 1 / max(1, max channel load, ejection
// load), for loads from ChannelLoads (injection and ejection links carry
// one flit per cycle).
func Bound(channel []float64, eject float64) float64 {
	m := max(1, eject)
	for _, x := range channel {
		m = max(m, x)
	}
	return 1 / m
}

// Uniform fills p with the uniform distribution over the other terminals
// (a ChannelLoads prob function for n).
func Uniform(n *Network) func(src int, p []float64) {
	N := len(n.termR)
	return func(src int, p []float64) {
		for d := range p {
			if d != src {
				p[d] = 1 / float64(N-1)
			}
		}
	}
}

// Shift is the permutation src -> (src + by) mod Nodes(): with by = P*A on a
// dragonfly every terminal sends to the same terminal of the next group
// (the worst case of minimal routing, Kim et al. 2008 §4.1).
func Shift(n *Network, by int) func(src int, p []float64) {
	N := len(n.termR)
	return func(src int, p []float64) { p[((src+by)%N+N)%N] = 1 }
}
