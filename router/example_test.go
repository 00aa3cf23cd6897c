package router_test

import (
	"fmt"

	"github.com/flitsim/flitsim/router"
	"github.com/flitsim/flitsim/sim"
)

// ExampleNewPlane wires three routers in a line (port 0 leads right, port 1
// is the local port), lets one Plane allocate all of them, and sends a
// 4-flit packet from router 0 to router 2. With a BookSim-like pipeline
// (one cycle each for routing, VC allocation and switch allocation; the
// fabric's link delay 2 is switch allocation + a 1-cycle link), a head
// written into a router in cycle a has its route in a+1, its output VC
// from a+2, wins the switch in a+2 and is in the next router in a+4. The
// head, written into router 0 in cycle 0, so leaves router 2 for its sink
// in cycle 2+4+4 = 10, and the other flits follow one per cycle.
func ExampleNewPlane() {
	route := func(cur, dest int, buf []router.Candidate) []router.Candidate {
		if cur == dest {
			return append(buf, router.Candidate{Port: 1})
		}
		return append(buf, router.Candidate{Port: 0})
	}
	cfg := router.Arch{VCs: 2, BufferDepth: 4, RoutingDelay: 1, VCAllocDelay: 1, SwitchAllocDelay: 1}
	wake := make([]uint64, 1)
	fab := &router.Fabric{LinkDelay: 2, CreditDelay: 1, Wake: &wake}
	rs := make([]*router.Router, 3)
	for id := range rs {
		r, err := router.New(router.Config{Arch: cfg, ID: id, Ports: 2, EjectVCs: 2, Classes: 1, Route: route, Rand: sim.NewStream(1, sim.PurposeRouting, uint64(id))})
		if err != nil {
			panic(err)
		}
		if err := r.Attach(fab); err != nil {
			panic(err)
		}
		rs[id] = r
	}
	for id := 0; id+1 < len(rs); id++ {
		if err := rs[id].Connect(0, rs[id+1], 0); err != nil {
			panic(err)
		}
	}
	pl, err := router.NewPlane(fab, rs, 0)
	if err != nil {
		panic(err)
	}
	sent := 0
	for now := sim.Cycle(0); now < 20; now++ {
		if sent < 4 && rs[0].CanAccept(1, 0, now) { // the NIC feeds local input VC 0
			f := router.Flit{Packet: 7, Dest: 2, Len: 4}
			if sent == 0 {
				f.Flags |= router.Head
			}
			if sent == 3 {
				f.Flags |= router.Tail
			}
			rs[0].Accept(1, 0, f, now)
			sent++
		}
		pl.Step(now)
		for _, f := range pl.Ejected {
			fmt.Printf("cycle %d: flit of packet %d leaves router 2 (head %v, tail %v)", now, f.Packet, f.IsHead(), f.IsTail())
			if f.IsTail() { // a tail carries the links its packet crossed (Flit.Hops)
				fmt.Printf(" after %d links", f.Hops)
			}
			fmt.Println()
		}
	}
	// Output:
	// cycle 10: flit of packet 7 leaves router 2 (head true, tail false)
	// cycle 11: flit of packet 7 leaves router 2 (head false, tail false)
	// cycle 12: flit of packet 7 leaves router 2 (head false, tail false)
	// cycle 13: flit of packet 7 leaves router 2 (head false, tail true) after 2 links
}
