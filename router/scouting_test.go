package router

import (
	"slices"
	"testing"

	"github.com/flitsim/flitsim/sim"
)

func newScoutRouter(t *testing.T, vcs, k int) *Router {
	t.Helper()
	return newTestRouter(t, Arch{VCs: vcs, BufferDepth: 4, Switching: Scouting, ScoutingDistance: k})
}

func TestScoutingConfig(t *testing.T) {
	if s, err := ParseSwitching("scouting"); err != nil || s != Scouting || s.String() != "scouting" {
		t.Fatalf("ParseSwitching(scouting) = %v, %v", s, err)
	}
	for name, c := range map[string]Arch{
		"negative distance":         {VCs: 1, BufferDepth: 1, Switching: Scouting, ScoutingDistance: -1},
		"distance without scouting": {VCs: 1, BufferDepth: 1, ScoutingDistance: 2},
	} {
		if c.Validate() == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// controls returns and clears r.Control.
func controls(r *Router) []Control {
	out := append([]Control(nil), r.Control...)
	r.Control = r.Control[:0]
	return out
}

// TestScoutingGateAndAcks: a header entering on port 0 at position 1 with
// K = 2 is granted output VC (1, 0), moves on and acknowledges HW = 2
// upstream; its data, arriving behind it, is held until an acknowledgement
// shows HW >= 1+1+K = 4, then leaves back to back. Acknowledgements go
// further upstream only while the data is not here.
func TestScoutingGateAndAcks(t *testing.T) {
	r := newScoutRouter(t, 1, 2)
	p := Probe{Packet: 3, Dest: 1, Len: 3, Pos: 1, HW: 1, Tag: 99}
	r.AcceptProbe(0, 0, p, 0)
	r.Step(0)
	cs := controls(r)
	if len(cs) != 2 || cs[0].Kind != Ack || cs[0].Port != 0 || cs[0].Probe.HW != 2 ||
		cs[1].Kind != ProbeForward || cs[1].Port != 1 || cs[1].VC != 0 || cs[1].Probe.Pos != 2 || cs[1].Probe.HW != 2 {
		t.Fatalf("controls %+v, want Ack(HW 2) on port 0 then the header forward on (1,0) at Pos 2", cs)
	}
	// An acknowledgement of HW 3 before the data arrives is passed upstream.
	r.AcceptAck(1, 0, Probe{Packet: 3, HW: 3, Tag: 99}, 1)
	if cs := controls(r); len(cs) != 1 || cs[0].Kind != Ack || cs[0].Probe.HW != 3 {
		t.Fatalf("controls %+v, want the Ack passed upstream", cs)
	}
	// One for another header (tag) is dropped.
	r.AcceptAck(1, 0, Probe{Packet: 3, HW: 9, Tag: 98}, 1)
	if cs := controls(r); len(cs) != 0 {
		t.Fatalf("stale Ack passed on: %+v", cs)
	}
	for k, f := range packetFlits(3, 1, 3) {
		r.Accept(0, 0, f, sim.Cycle(2+k))
		if r.Step(sim.Cycle(2+k)) != 0 {
			t.Fatalf("cycle %d: data left with HW 3 < 4", 2+k)
		}
	}
	r.AcceptAck(1, 0, Probe{Packet: 3, HW: 4, Tag: 99}, 10)
	if cs := controls(r); len(cs) != 0 {
		t.Fatalf("Ack passed beyond the data: %+v", cs)
	}
	for c := sim.Cycle(10); c < 13; c++ {
		if r.Step(c) != 1 || r.Sent[0].Port != 1 {
			t.Fatalf("cycle %d: sent %+v, want one flit per cycle on port 1 once HW = 4", c, r.Sent)
		}
	}
	if r.Buffered() != 0 || r.owner(int32(1*r.vcs)) != -1 {
		t.Fatal("tail left but the VC is still held")
	}
}

// TestScoutingBacktrack: with both VCs of the only productive port taken, a
// header at position 3 with HW 3 and K = 2 backtracks (3-1 >= 3-2): its
// input VC is freed and a negative acknowledgement names it. A header at
// position 3 with HW 5 may not (2 < 3) and waits; at the source a header
// never backtracks. A negative acknowledgement arriving at the output VC of
// a header that moved on frees the VC and routes that header again.
func TestScoutingBacktrack(t *testing.T) {
	r := newScoutRouter(t, 2, 2)
	// Two headers take both VCs of port 1.
	r.AcceptProbe(0, 0, Probe{Packet: 1, Dest: 1, Len: 2, Pos: 1, HW: 1, Tag: 1}, 0)
	r.AcceptProbe(0, 1, Probe{Packet: 2, Dest: 1, Len: 2, Pos: 4, HW: 5, Tag: 2}, 0)
	r.Step(0)
	controls(r)
	if r.owner(int32(r.vcs)) < 0 || r.owner(int32(r.vcs+1)) < 0 {
		t.Fatal("the two headers did not take both VCs of port 1")
	}
	// A header launched at the source (local port) finds both VCs held
	// and waits: a header never backtracks from the source.
	for _, f := range packetFlits(5, 1, 2) {
		r.Accept(2, 0, f, 1) // source header, blocked
	}
	r.Step(1)
	r.Step(2)
	if cs := controls(r); len(cs) != 0 {
		t.Fatalf("source header: controls %+v, want it to wait", cs)
	}
	// Negative acknowledgement for packet 1's VC: released, header routed again.
	o1 := -1
	for v := 0; v < 2; v++ {
		if r.scout[r.owner(int32(r.vcs+v))].tag == 1 {
			o1 = v
		}
	}
	r.AcceptBacktrack(1, o1, Probe{Packet: 1, Pos: 1, HW: 2, Tag: 1}, 3)
	if r.owner(int32(r.vcs+o1)) != -1 || r.in[0].state != vcRouting || r.scout[0].excl != 1 || r.scout[0].hw != 2 {
		t.Fatalf("after the negative ack: owner %d, state %d, excl %d, hw %d", r.owner(int32(r.vcs+o1)), r.in[0].state, r.scout[0].excl, r.scout[0].hw)
	}
	// Header 1's only port is now excluded and it may backtrack again
	// (0 >= 2-2): it does, and the source header takes the freed VC.
	r.Step(3)
	cs := controls(r)
	if len(cs) != 2 || cs[0].Kind != ProbeBack || cs[0].Port != 0 || cs[0].VC != 0 || cs[0].Probe.Pos != 0 || cs[0].Probe.Tag != 1 ||
		cs[1].Kind != ProbeForward || cs[1].Probe.Packet != 5 || cs[1].Port != 1 || cs[1].VC != o1 {
		t.Fatalf("controls %+v, want header 1 to backtrack through (0,0) to position 0 and the source header to take (1,%d)", cs, o1)
	}
	if r.in[0].state != vcIdle {
		t.Fatalf("input VC (0,0) state %d after the backtrack, want idle", r.in[0].state)
	}

	// Position 3, HW 5, K = 2: may not backtrack (2 < 3); waits.
	r2 := newScoutRouter(t, 1, 2)
	r2.outs[r2.vcs].owner = int16(2 * r2.vcs) // port 1's only VC held by the local input VC
	r2.AcceptProbe(0, 0, Probe{Packet: 7, Dest: 1, Len: 1, Pos: 3, HW: 5, Tag: 7}, 0)
	r2.Step(0)
	if cs := controls(r2); len(cs) != 0 || r2.in[0].state != vcRouting {
		t.Fatalf("HW 5 at position 3: controls %+v, state %d; want it to wait", cs, r2.in[0].state)
	}
	// Position 3, HW 3: backtracks.
	r3 := newScoutRouter(t, 1, 2)
	r3.outs[r3.vcs].owner = int16(2 * r3.vcs)
	r3.AcceptProbe(0, 0, Probe{Packet: 7, Dest: 1, Len: 1, Pos: 3, HW: 3, Tag: 7}, 0)
	r3.Step(0)
	if cs := controls(r3); len(cs) != 1 || cs[0].Kind != ProbeBack || cs[0].Probe.Pos != 2 {
		t.Fatalf("HW 3 at position 3: controls %+v, want a negative acknowledgement to position 2", cs)
	}
}

// twoWayRoute admits ports 0 and 1 (class 1 each) and, as escape, port 1
// class 0, for any destination other than the router itself.
func twoWayRoute(cur, dest int, buf []Candidate) []Candidate {
	if dest == cur {
		return append(buf, Candidate{Port: 2})
	}
	return append(buf, Candidate{Port: 0, Class: 1}, Candidate{Port: 1, Class: 1}, Candidate{Port: 1})
}

// TestAdaptiveSelection: a header takes a free VC of either adaptive port,
// each about half the time; with one port's adaptive VCs all held it takes
// the other; the escape VC only when no adaptive VC is free.
func TestAdaptiveSelection(t *testing.T) {
	cfg := Config{Arch: Arch{VCs: 3, BufferDepth: 4}, ID: testID, Ports: 3, EjectVCs: 3, Classes: 2,
		ClassVCs: []int{0, 1, 3}, Adaptive: true, EscapeClasses: 1, Route: twoWayRoute} // VC 0 escape, VCs 1-2 adaptive
	mk := func(seed uint64) *Router {
		c := cfg
		c.Rand = sim.NewStream(seed, sim.PurposeRouting, testID)
		r, err := New(c)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for name, bad := range map[string]func(*Config){
		"empty class":                  func(c *Config) { c.ClassVCs = []int{0, 3, 3} },
		"bounds short of the VCs":      func(c *Config) { c.ClassVCs = []int{0, 1, 2} },
		"no adaptive class":            func(c *Config) { c.EscapeClasses = 2 },
		"escape classes, not adaptive": func(c *Config) { c.Adaptive = false },
		"negative escape classes":      func(c *Config) { c.EscapeClasses = -1 },
	} {
		c := cfg
		c.Rand = sim.NewStream(1, sim.PurposeRouting, testID)
		bad(&c)
		if _, err := New(c); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	count := map[[2]int]int{}
	for trial := 0; trial < 400; trial++ {
		r := mk(uint64(trial))
		r.Accept(2, 0, Flit{Packet: 1, Dest: 1, Len: 1, Flags: Head | Tail}, 0)
		r.Step(0)
		d := r.Sent[0]
		count[[2]int{d.Port, d.VC}]++
	}
	for _, pv := range [][2]int{{0, 1}, {0, 2}, {1, 1}, {1, 2}} {
		if c := count[pv]; c < 60 || c > 140 { // binomial(400, 1/4): mean 100, sd 8.7
			t.Errorf("VC %v taken %d of 400 times, want about 100: %v", pv, c, count)
		}
	}
	if count[[2]int{0, 0}]+count[[2]int{1, 0}] != 0 {
		t.Errorf("escape or class-0 VC taken while adaptive VCs were free: %v", count)
	}
	// Port 0's adaptive VCs held: port 1's adaptive VCs only.
	r := mk(1)
	r.outs[1].owner, r.outs[2].owner = 0, 0
	r.Accept(2, 0, Flit{Packet: 1, Dest: 1, Len: 1, Flags: Head | Tail}, 0)
	r.Step(0)
	if d := r.Sent[0]; d.Port != 1 || d.VC == 0 {
		t.Fatalf("sent on %d/%d, want port 1 adaptive VC", d.Port, d.VC)
	}
	// Every adaptive VC held: the escape VC (1,0).
	r = mk(1)
	for _, o := range []int{1, 2, 4, 5} {
		r.outs[o].owner = 0
	}
	r.Accept(2, 0, Flit{Packet: 1, Dest: 1, Len: 1, Flags: Head | Tail}, 0)
	r.Step(0)
	if d := r.Sent[0]; d.Port != 1 || d.VC != 0 {
		t.Fatalf("sent on %d/%d, want the escape VC 1/0", d.Port, d.VC)
	}
}

// TestOccupancyCountsReservedVCs: a packet holding an output VC of port 1
// from its grant to its tail shows as cycles with one busy VC.
func TestOccupancyCountsReservedVCs(t *testing.T) {
	r := newTestRouter(t, Arch{VCs: 2, BufferDepth: 8})
	r.ResetOccupancy(0)
	for _, f := range packetFlits(1, 1, 4) {
		r.Accept(0, 0, f, 0)
	}
	for c := sim.Cycle(0); c < 10; c++ {
		r.Step(c)
	}
	occ := make([]int64, 3*3)
	r.Occupancy(10, occ)
	// Granted in cycle 0, tail left in cycle 3: busy over [0, 4).
	if occ[1*3+1] != 4 || occ[1*3+0] != 6 || occ[1*3+2] != 0 {
		t.Fatalf("port 1 occupancy %v, want [6 4 0]", occ[3:6])
	}
	if occ[2*3+0] != 10 {
		t.Fatalf("local port occupancy %v, want [10 0 0]", occ[6:9])
	}
}

// TestOccupancyTwoBusyVCs: two packets holding both output VCs of port 1
// at once show as cycles with two busy VCs, and a reset in the middle keeps
// the count of VCs busy at that moment. (The figures are those of the
// three-array accounting before the one-record change, main fcf8eaa.)
func TestOccupancyTwoBusyVCs(t *testing.T) {
	r := newTestRouter(t, Arch{VCs: 2, BufferDepth: 8})
	r.ResetOccupancy(0)
	for _, f := range packetFlits(1, 1, 4) {
		r.Accept(0, 0, f, 0)
	}
	for _, f := range packetFlits(2, 1, 4) {
		r.Accept(0, 1, f, 0)
	}
	occ := make([]int64, 3*3)
	for c := sim.Cycle(0); c < 20; c++ {
		if c == 3 {
			r.Occupancy(3, occ)
			r.ResetOccupancy(3)
		}
		r.Step(c)
	}
	first := append([]int64(nil), occ[3:6]...)
	clear(occ)
	r.Occupancy(20, occ)
	t.Logf("port 1 before the reset %v, after %v", first, occ[3:6])
	if want := []int64{0, 1, 2}; !slices.Equal(first, want) {
		t.Errorf("port 1 occupancy over [0, 3) %v, want %v", first, want)
	}
	if want := []int64{12, 1, 4}; !slices.Equal(occ[3:6], want) {
		t.Errorf("port 1 occupancy over [3, 20) %v, want %v", occ[3:6], want)
	}
}
