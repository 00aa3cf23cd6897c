package router

import (
	"math/bits"

	"github.com/flitsim/flitsim/sim"
)

// A plane keeps two of its routers' counts itself, where a grant and a
// release already look, instead of in each router's occupancy record
// (Router.occ), a line of its own that every grant and release updated
// (issue 20: on the 16-ary 5-cube at 0.05 leaving it gained 6% in the
// bench and 1.5% in the headline run, docs/speed.md#session16):
//
//   - the flits each link carries, counted ahead per packet at the grant
//     (LinkFlits) in the granted output VC's state, which the grant writes
//     anyway (outVCState.flits);
//   - the occupancy of the ports that lead to a router (Occupancy), as
//     sums per busy count over the whole plane. A port whose count goes
//     from c to c' in cycle t adds t to the sum of c and takes t from the
//     sum of c'; the cycles all ports spent at count c since the sums were
//     last reset are then the sum of c plus now for each port at count c
//     now (ResetOccupancy starts the sums at -now for each), and the counts
//     now are the routers' free output VCs (freeOV). Integer sums, so the
//     partitions' (Split) add up to the same whatever their number.

// count adds the flits of a packet granted output VC s, of port q of
// router r, to its link count; a count that wraps carries 2^32 into the
// router's record, so LinkFlits, which adds the two, never wraps.
func (s *outVCState) count(r *Router, q int8, flits int32) {
	f := s.flits + uint32(flits)
	if f < s.flits {
		r.occ[r.linkFlitsAt(int(q))] += 1 << 32
	}
	s.flits = f
}

// busyVCs returns the output VCs of port q that r has granted (not free).
func (r *Router) busyVCs(q int) int {
	return r.vcs - bits.OnesCount64(r.freeOV>>(uint(q*r.vcs)&63)&(1<<uint(r.vcs)-1))
}

// occupancyChange records in cycle now that a port leading to a router went
// from busy to busy+d granted output VCs.
func (pl *Plane) occupancyChange(busy, d int, now sim.Cycle) {
	pl.occ[busy&maxPlaneVCsMask] += int64(now)
	pl.occ[(busy+d)&maxPlaneVCsMask] -= int64(now)
}

const maxPlaneVCsMask = 15 // indexes occ (busy counts 0..MaxPlaneVCs) without a bounds check

// planes returns the planes whose sums make up this plane's: itself and,
// once split, its partitions.
func (pl *Plane) planes() []*Plane { return append([]*Plane{pl}, pl.split...) }

// Occupancy adds to dst[v], for v = 0..VCs, the cycles since the last
// ResetOccupancy (or the plane's start) during which exactly v output VCs
// of a port were reserved, summed over every port of the plane's routers
// that leads to a router: Router.Occupancy's counts of those ports, summed
// over the routers, from the plane's first cycle (NewPlane precedes the
// routers' first step). It must be called on the whole plane (not a
// partition) between steps; len(dst) must be at least VCs+1.
func (pl *Plane) Occupancy(now sim.Cycle, dst []int64) {
	for _, p := range pl.planes() {
		for v := 0; v <= pl.vcs; v++ {
			dst[v] += p.occ[v]
		}
	}
	pl.eachLinkedPort(func(busy int) { dst[busy] += int64(now) })
}

// ResetOccupancy restarts the occupancy counts of the plane at cycle now.
// It must be called on the whole plane (not a partition) between steps.
func (pl *Plane) ResetOccupancy(now sim.Cycle) {
	for _, p := range pl.planes() {
		clear(p.occ[:])
	}
	pl.eachLinkedPort(func(busy int) { pl.occ[busy] -= int64(now) })
}

// eachLinkedPort calls f with the busy count of every port of the plane's
// routers that leads to a router.
func (pl *Plane) eachLinkedPort(f func(busy int)) {
	for id := range pl.routers {
		r := pl.router(id)
		for m := r.linked; m != 0; m &= m - 1 {
			f(r.busyVCs(bits.TrailingZeros64(m)))
		}
	}
}
