package traffic

import "math/rand/v2"

// GroupSize is implemented by a Space whose nodes come in consecutive
// blocks of equal size: the terminals of a dragonfly group, of a router
// with several terminals. GroupShift moves by one block.
type GroupSize interface {
	GroupSize() int
}

// groupShift is the permutation src -> (src + B) mod N with B the space's
// GroupSize: every node of block g sends to the node in the same place of
// block g+1. On a dragonfly (B = p·a terminals per group) it is the worst
// case of minimal routing, all of a group's traffic on the one global
// channel to the next group (Kim, Dally, Scott & Abts 2008 §4.1); on a
// flattened butterfly or concentrated mesh (B = terminals per router)
// every router's terminals share one first channel.
type groupShift struct {
	n, by int
}

func newGroupShift(space Space) (Pattern, error) {
	n := space.Nodes()
	gs, ok := space.(GroupSize)
	if !ok || gs.GroupSize() < 1 {
		return nil, invalid(GroupShift, "needs a network whose nodes come in groups (dragonfly, flattened butterfly, fat tree, concentrated mesh)")
	}
	by := gs.GroupSize()
	if by >= n || n%by != 0 {
		return nil, invalid(GroupShift, "group size %d does not divide the %d nodes into at least 2 groups", by, n)
	}
	return &groupShift{n: n, by: by}, nil
}

func (p *groupShift) Name() string { return GroupShift }

func (p *groupShift) Dest(src int, _ *rand.Rand) int {
	d := src + p.by
	if d >= p.n {
		d -= p.n
	}
	return d
}

func (p *groupShift) Probabilities(src int, pr []float64) {
	checkLen(pr, p.n)
	clear(pr)
	pr[p.Dest(src, nil)] = 1
}
