package router

import (
	"fmt"

	"github.com/flitsim/flitsim/sim"
)

// A plane split into partitions (Split) steps one network on several
// threads (issue 20, point 2). Each partition is a Plane of its own over a
// contiguous block of 64-router words, sharing the whole plane's arrays
// (input VCs, slots, downstream table, words); it keeps its own timing
// wheel, ejections and scratch. A cycle is four phases, each run by every
// partition at once, with a barrier between them (the caller's):
//
//  1. AllocatePart: the re-evaluations due, VC allocation, switch
//     allocation of the partition's routers. They read other partitions'
//     buffers (credits) but write only their own routers' state; no
//     buffer changes in this phase.
//  2. TraversePart: the winners move. A flit for a router of the same
//     partition is written at once; one for another partition's router
//     goes to the outbox (crossFlit), and so does the re-evaluation an
//     upstream router of another partition owes when a slot it waits for
//     is freed (crossWake). Every re-evaluation (evalSA) that would run now
//     reads a downstream buffer another partition may be changing, so it
//     is deferred.
//  3. ApplyPart: each partition writes the flits sent to its routers and
//     takes the wake-ups for them, from the outboxes of partitions 0, 1,
//     ... in order.
//  4. EvalDeferred: the deferred re-evaluations, on the cycle's final
//     buffers.
//
// The result is the whole plane's, flit for flit, for any number of
// partitions: every interaction between two routers takes at least a
// cycle (LinkDelay, CreditDelay >= 1), a re-evaluation decides from state
// that no later move of the cycle can change in a way that matters (a slot
// freed in cycle t gives a credit from t+CreditDelay on, a flit written in
// t arrives at t+LinkDelay), a route is drawn from a hash of the input VC
// and cycle, not from the order in which heads arrive (Router.draw), and
// ejections are listed in router order, partition after partition. The
// network package's TestThreadsDeterministic compares runs on 1 to 4
// partitions byte for byte.
type planePart struct {
	index     int
	parts     []*Plane // every partition of the split, in order
	w0, w1    int      // the partition's words
	deferring bool     // in phases 2 and 3: evaluations due now wait for EvalDeferred
	later     []int32  // deferred evaluations, id<<6 | i
	out       [][]crossing
	wakes     [][]int32 // [partition]: id<<6 | i, input VC i of router id (that partition's) has the slot it waited for
}

// crossing is a flit written into global input VC g of another partition.
type crossing struct {
	g    int32
	flit Flit
}

// Split divides the plane into at most k partitions of contiguous words
// (at least one word of 64 routers each) and returns them, in order; the
// routers of each become its routers (their plane). It must be called
// before the first Step, and the whole plane must not be stepped again:
// the partitions step the network (AllocatePart, TraversePart, ApplyPart,
// EvalDeferred). k <= 1 returns the whole plane alone.
func (pl *Plane) Split(k int) ([]*Plane, error) {
	if pl.part != nil {
		return nil, fmt.Errorf("router: plane already split")
	}
	starts := SplitWords(len(pl.words), k)
	k = len(starts) - 1
	if k <= 1 {
		return []*Plane{pl}, nil
	}
	parts := make([]*Plane, k)
	for p := range parts {
		w0, w1 := starts[p], starts[p+1]
		r0, r1 := w0*64, min(w1*64, len(pl.routers))
		sp := new(Plane)
		*sp = *pl // the shared arrays by reference, the grant scratch copied
		sp.allocated = make([]uint64, len(pl.allocated))
		sp.wheel = make([][]int32, len(pl.wheel))
		sp.Ejected = make([]Flit, 0, (r1-r0)*pl.ports)
		sp.tails = make([]int32, 0, len(pl.grants))
		sp.occ = [len(sp.occ)]int64{} // the whole plane keeps the sums so far
		sp.part = &planePart{index: p, parts: parts, w0: w0, w1: w1, out: make([][]crossing, k), wakes: make([][]int32, k)}
		sc := newScratch(pl.n, pl.ports) // the partitions step at the same time
		for _, r := range pl.routers[r0:r1] {
			r.plane = sp
			r.useScratch(sc)
		}
		parts[p] = sp
	}
	// A link to another partition's router is marked in the downstream
	// table (crossVC): the traversal takes it as it takes a sink, off its
	// common path.
	for _, r := range pl.routers {
		for o := range r.outs {
			if dg := r.outs[o].down; dg >= 0 && pl.routers[int(dg)/pl.n].plane != r.plane {
				r.outs[o].down = crossVC(dg)
			}
		}
		for i := range r.in {
			if ivc := &r.in[i]; ivc.state == vcActive {
				ivc.down = r.outs[ivc.outVC].down // its copy of the down entry (granted)
			}
		}
	}
	pl.split = parts
	// Events NewPlane scheduled go to the wheels of their routers' partitions.
	for s, list := range pl.wheel {
		for _, x := range list {
			id := x >> 6
			if x < 0 {
				id = ^x
			}
			w := &pl.routers[id].plane.wheel[s]
			*w = append(*w, x)
		}
		pl.wheel[s] = nil
	}
	return parts, nil
}

// SplitWords returns how Split divides words 64-router words into at most
// k partitions: partition p holds words [starts[p], starts[p+1]); there are
// min(k, words) partitions (at least one).
func SplitWords(words, k int) (starts []int) {
	k = max(min(k, words), 1)
	starts = make([]int, k+1)
	for p := range starts {
		starts[p] = p * words / k
	}
	return starts
}

// AllocatePart runs phase 1 of cycle now (see planePart): Step's
// allocation half on the partition's words.
func (pl *Plane) AllocatePart(now sim.Cycle) {
	pl.allocateWords(now, pl.part.w0, pl.part.w1)
}

// TraversePart runs phase 2 of cycle now and returns the flits moved.
func (pl *Plane) TraversePart(now sim.Cycle) int {
	pp := pl.part
	for k := range pp.out {
		pp.out[k] = pp.out[k][:0]
		pp.wakes[k] = pp.wakes[k][:0]
	}
	pp.deferring = true
	return pl.traverseAllocated(now)
}

// ApplyPart runs phase 3 of cycle now: the flits other partitions sent to
// this one's routers, then the wake-ups they owe them, partition by
// partition in order.
func (pl *Plane) ApplyPart(now sim.Cycle) {
	me := pl.part.index
	at := now + pl.link
	for _, src := range pl.part.parts {
		for _, c := range src.part.out[me] {
			pl.accept(int(c.g), c.flit, at)
		}
	}
	for _, src := range pl.part.parts {
		for _, x := range src.part.wakes[me] {
			pl.atID(now+pl.credit, int(x>>6), x&63)
		}
	}
}

// EvalDeferred runs phase 4: the re-evaluations phases 2 and 3 deferred,
// in the order they were asked for.
func (pl *Plane) EvalDeferred() {
	pp := pl.part
	pp.deferring = false
	for k, x := range pp.later {
		if pl.touchAhead && k&63 == 0 {
			pl.touchEvals(pp.later[k:min(k+64, len(pp.later))])
		}
		pl.evalVC(int(x>>6), x&63, pl.cur)
	}
	pp.later = pp.later[:0]
}

// crossVC marks global input VC g, fed by a router of another partition,
// in the downstream table; downVC reads an entry of the table as a global
// input VC (-1 for a sink).
func crossVC(g int32) int32 { return -2 - g }

func downVC(d int32) int {
	if d < -1 {
		return int(-2 - d)
	}
	return int(d)
}

// crossFlit puts the flit that just left global input VC g (its slot
// before the head; an anonymous body is a Flit with no flags, whose slot
// nothing reads) for global input VC dg of another partition's router in
// the outbox, one hop further.
func (pl *Plane) crossFlit(g, dg int, body bool) {
	var f Flit
	if !body {
		ivc := &pl.ivc[g]
		d := uint(pl.depth)
		f = pl.slots[pl.slotIndex(g, wrap(uint(ivc.head)+d-1, d), ivc.remain == 0)].flit() // (the flit that left was the tail when none of its packet remains)
		f.Hops++
	}
	pp := pl.part
	k := pp.of(dg / pl.n)
	pp.out[k] = append(pp.out[k], crossing{g: int32(dg), flit: f})
}

// foreign reports whether router id is another partition's than pl's
// (pl a partition of a split plane: Split), whose thread may be writing
// it while pl's runs.
func (pl *Plane) foreign(id int) bool {
	pp := pl.part
	return pp != nil && (id>>6 < pp.w0 || id>>6 >= pp.w1)
}

// of returns the index of the partition holding router id, from the
// partitions' words (not from the Router, whose line a crossing flit
// would otherwise load).
func (pp *planePart) of(id int) int {
	w := id >> 6
	for k, q := range pp.parts {
		if w < q.part.w1 {
			return k
		}
	}
	panic(fmt.Sprintf("router: router %d beyond the split's words", id))
}

// crossWake asks the partition of router id, upstream of another
// partition's router, to re-evaluate its input VC i after the barrier: a
// slot that VC waited for was freed (wakeFeeder).
func (pl *Plane) crossWake(id int, i int32) {
	pp := pl.part
	k := pp.of(id)
	pp.wakes[k] = append(pp.wakes[k], int32(id)<<6|i)
}
