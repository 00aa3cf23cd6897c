package router

import (
	"testing"
	"unsafe"

	"github.com/flitsim/flitsim/sim"
)

// A 3-port test router: ports 0 and 1 are network ports, port 2 is local.
// The routing function sends destination 0 to port 0, 1 to port 1 and the
// router's own id (7) to the local port, always class 0.
const testID = 7

func testRoute(cur, dest int, buf []Candidate) []Candidate {
	if dest == cur {
		return append(buf, Candidate{Port: 2})
	}
	return append(buf, Candidate{Port: dest})
}

func newTestRouter(t *testing.T, cfg Arch) *Router {
	t.Helper()
	r, err := New(Config{Arch: cfg, ID: testID, Ports: 3, EjectVCs: cfg.VCs, Classes: 1, Route: testRoute, Rand: sim.NewStream(1, sim.PurposeRouting, testID)})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func packetFlits(id int32, dest int32, n int) []Flit {
	fs := make([]Flit, n)
	for k := range fs {
		fs[k] = Flit{Packet: id, Dest: dest, Len: int32(n)}
	}
	fs[0].Flags |= Head
	fs[n-1].Flags |= Tail
	return fs
}

func TestConfigValidate(t *testing.T) {
	good := Arch{VCs: 2, BufferDepth: 4}
	if err := good.Validate(); err != nil {
		t.Fatalf("valid config refused: %v", err)
	}
	for name, c := range map[string]Arch{
		"no VCs":         {BufferDepth: 4},
		"no buffer":      {VCs: 2},
		"negative delay": {VCs: 2, BufferDepth: 4, RoutingDelay: -1},
		"bad switching":  {VCs: 2, BufferDepth: 4, Switching: 9},
		"bad VC rule":    {VCs: 2, BufferDepth: 4, AdaptiveVC: 7},
		"booksim scouts": {VCs: 2, BufferDepth: 4, AdaptiveVC: BookSimVC, Switching: Scouting},
		"deep buffers":   {VCs: 2, BufferDepth: MaxBufferDepth + 1},
	} {
		if c.Validate() == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// New checks the router's own fields (Arch.Validate the shared ones).
	own := Config{Arch: good, ID: testID, Ports: 3, EjectVCs: 1, Classes: 1, Route: testRoute, Rand: sim.NewStream(1, sim.PurposeRouting, testID)}
	if _, err := New(own); err != nil {
		t.Fatalf("valid router config refused: %v", err)
	}
	for name, bad := range map[string]func(*Config){
		"bad arch":           func(c *Config) { c.VCs = 0 },
		"one port":           func(c *Config) { c.Ports = 1 },
		"65 ports":           func(c *Config) { c.Ports = 65 },
		"no classes":         func(c *Config) { c.Classes = 0 },
		"classes > VCs":      func(c *Config) { c.Classes = 3 },
		"no ejection VC":     func(c *Config) { c.EjectVCs = 0 },
		"ejection VCs > VCs": func(c *Config) { c.EjectVCs = 3 },
		"no route":           func(c *Config) { c.Route = nil },
		"no stream":          func(c *Config) { c.Rand = nil },
	} {
		c := own
		bad(&c)
		if _, err := New(c); err == nil {
			t.Errorf("New with %s: accepted", name)
		}
	}
	if s, err := ParseSwitching("virtual-cut-through"); err != nil || s != VirtualCutThrough {
		t.Errorf("ParseSwitching = %v, %v", s, err)
	}
	if _, err := ParseSwitching("cut"); err == nil {
		t.Error("ParseSwitching accepted an unknown name")
	}
}

// TestPipelineTiming pins the head's per-router delay RoutingDelay +
// VCAllocDelay and the body flits following back to back (the switch
// allocation and traversal delays are applied by the network on the link).
func TestPipelineTiming(t *testing.T) {
	for _, c := range []struct{ rd, vad int }{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {2, 3}} {
		r := newTestRouter(t, Arch{VCs: 1, BufferDepth: 4, RoutingDelay: c.rd, VCAllocDelay: c.vad})
		fs := packetFlits(1, 1, 3)
		sentAt := map[int32]sim.Cycle{}
		seq := int32(0)
		for cyc := sim.Cycle(10); cyc < 30; cyc++ {
			if k := int(cyc - 10); k < len(fs) {
				r.Accept(2, 0, fs[k], cyc) // one flit per cycle from cycle 10
			}
			r.Step(cyc)
			for _, d := range r.Sent {
				if d.Port != 1 || d.Flit.Packet != fs[seq].Packet || d.Flit.Flags != fs[seq].Flags { // (a flit read back from a slot keeps Len on heads only)
					t.Fatalf("rd=%d vad=%d: cycle %d sent %+v, want flit %d on port 1", c.rd, c.vad, cyc, d, seq)
				}
				sentAt[seq] = cyc
				seq++
			}
		}
		head := sim.Cycle(10 + c.rd + c.vad)
		for k := int32(0); k < 3; k++ {
			if got, want := sentAt[k], head+sim.Cycle(k); got != want {
				t.Errorf("rd=%d vad=%d: flit %d left at cycle %d, want %d", c.rd, c.vad, k, got, want)
			}
		}
	}
}

func TestCreditsStopWormholeAndReturnUpstream(t *testing.T) {
	r := newTestRouter(t, Arch{VCs: 1, BufferDepth: 4})
	fs := packetFlits(1, 1, 4)
	for _, f := range fs {
		r.Accept(0, 0, f, 0)
	}
	// Downstream has only 2 free slots.
	r.ovCredits[1*r.vcs] = 2
	sent := 0
	for c := sim.Cycle(0); c < 10; c++ {
		r.Step(c)
		sent += len(r.Sent)
		for _, cr := range r.CreditsOut {
			if cr.Port != 0 || cr.VC != 0 {
				t.Fatalf("credit returned to (%d,%d), want the input (0,0)", cr.Port, cr.VC)
			}
		}
	}
	if sent != 2 {
		t.Fatalf("sent %d flits with 2 credits", sent)
	}
	r.AddCredit(1, 0)
	r.AddCredit(1, 0)
	for c := sim.Cycle(10); c < 20; c++ {
		sent += r.Step(c)
	}
	if sent != 4 || r.Buffered() != 0 {
		t.Fatalf("after credits returned: sent %d, buffered %d", sent, r.Buffered())
	}
	if r.owner(int32(1*r.vcs)) != -1 {
		t.Fatal("output VC still owned after the tail left")
	}
}

// TestSwitchAllocatorRoundRobin: two input ports whose packets hold the two
// VCs of one output port share it flit by flit: the output arbiter never
// grants the same input twice in a row while the other waits.
func TestSwitchAllocatorRoundRobin(t *testing.T) {
	r := newTestRouter(t, Arch{VCs: 2, BufferDepth: 8})
	a := packetFlits(1, 1, 4)
	b := packetFlits(2, 1, 4)
	for k := range a {
		r.Accept(0, 0, a[k], 0)
		r.Accept(2, 0, b[k], 0)
	}
	var order []int32
	for c := sim.Cycle(0); c < 20; c++ {
		r.Step(c)
		if len(r.Sent) > 1 {
			t.Fatalf("cycle %d: %d flits through one output port", c, len(r.Sent))
		}
		for _, d := range r.Sent {
			order = append(order, d.Flit.Packet)
		}
	}
	if len(order) != 8 {
		t.Fatalf("sent %d flits, want 8", len(order))
	}
	for k := 1; k < len(order); k++ {
		if order[k] == order[k-1] {
			t.Fatalf("output grants %v: same input twice in a row while the other waited", order)
		}
	}
}

func TestVirtualCutThroughWaitsForRoomForWholePacket(t *testing.T) {
	r := newTestRouter(t, Arch{VCs: 1, BufferDepth: 4, Switching: VirtualCutThrough})
	for _, f := range packetFlits(1, 1, 3) {
		r.Accept(0, 0, f, 0)
	}
	r.ovCredits[1*r.vcs] = 2
	for c := sim.Cycle(0); c < 5; c++ {
		if r.Step(c) > 0 {
			t.Fatalf("cycle %d: head left with room for 2 of 3 flits", c)
		}
	}
	r.AddCredit(1, 0)
	sent := 0
	for c := sim.Cycle(5); c < 12; c++ {
		sent += r.Step(c)
	}
	if sent != 3 {
		t.Fatalf("sent %d of 3 flits once the room was there", sent)
	}
}

func TestStoreAndForwardWaitsForTail(t *testing.T) {
	r := newTestRouter(t, Arch{VCs: 1, BufferDepth: 4, Switching: StoreAndForward})
	fs := packetFlits(1, 1, 3)
	for k, f := range fs {
		r.Accept(0, 0, f, sim.Cycle(k))
		if r.Step(sim.Cycle(k)) > 0 && k < 2 {
			t.Fatalf("cycle %d: flit left before the tail arrived", k)
		}
	}
	sent := len(r.Sent)
	for c := sim.Cycle(3); c < 10; c++ {
		sent += r.Step(c)
	}
	if sent != 3 {
		t.Fatalf("sent %d of 3", sent)
	}
}

func TestStepDoesNotAllocate(t *testing.T) {
	r := newTestRouter(t, Arch{VCs: 2, BufferDepth: 8})
	c := sim.Cycle(0)
	var id int32
	allocs := testing.AllocsPerRun(1000, func() {
		if r.Free(0, 0) >= 2 {
			for _, f := range [2]Flit{{Packet: id, Dest: 1, Len: 2, Flags: Head}, {Packet: id, Dest: 1, Len: 2, Flags: Tail}} {
				r.Accept(0, 0, f, c)
			}
			id++
		}
		r.Step(c)
		for range r.Sent {
			r.AddCredit(1, r.Sent[0].VC)
		}
		c++
	})
	if allocs != 0 {
		t.Fatalf("Step allocates %v times per cycle", allocs)
	}
}

// TestHoldClass checks Arch.HoldClass: a head that arrived in class 1
// (VC 1 of 2, two classes) and leaves by the port it entered keeps class
// 1 where the routing function says class 0; without HoldClass, or when
// it turns to another port, it takes the routing function's class.
func TestHoldClass(t *testing.T) {
	for _, c := range []struct {
		hold         bool
		inPort, dest int
		wantVC       int
	}{
		{true, 0, 0, 1},  // straight on: class 1 held
		{false, 0, 0, 0}, // per hop: class 0
		{true, 1, 0, 0},  // turning: the routing function's class
	} {
		cfg := Arch{VCs: 2, BufferDepth: 4, HoldClass: c.hold}
		r, err := New(Config{Arch: cfg, ID: testID, Ports: 3, EjectVCs: cfg.VCs, Classes: 2, Route: testRoute, Rand: sim.NewStream(1, sim.PurposeRouting, testID)})
		if err != nil {
			t.Fatal(err)
		}
		r.Accept(c.inPort, 1, packetFlits(1, int32(c.dest), 1)[0], 0)
		got := -1
		for now := sim.Cycle(0); now < 5 && got < 0; now++ {
			r.Step(now)
			for _, d := range r.Sent {
				got = d.VC
			}
		}
		if got != c.wantVC {
			t.Errorf("hold %v, in port %d: left on VC %d, want %d", c.hold, c.inPort, got, c.wantVC)
		}
	}
}

// TestSlotPacking: a 16-byte slot gives back the flit put into it (Len on
// heads of multi-flit packets, Hops on every other flit), its stamp over
// the whole 40-bit range (negative: a never-used slot), and one more hop
// after copyHop except on such a head.
func TestSlotPacking(t *testing.T) {
	r := &Router{}
	for _, c := range []struct {
		in, out Flit
		at      sim.Cycle
	}{
		{Flit{Packet: 7, Dest: 3, Len: 16, Flags: Head}, Flit{Packet: 7, Dest: 3, Len: 16, Flags: Head}, 12},
		{Flit{Packet: 7, Dest: 3, Len: 16, Hops: 5}, Flit{Packet: 7, Dest: 3, Hops: 5}, 1 << 38},
		{Flit{Packet: 7, Dest: 3, Len: 16, Flags: Tail, Hops: 65535}, Flit{Packet: 7, Dest: 3, Flags: Tail, Hops: 65535}, 0},
		{Flit{Packet: maxPacket - 1, Dest: 1<<31 - 1, Len: 1, Flags: Head | Tail, Hops: 9}, Flit{Packet: maxPacket - 1, Dest: 1<<31 - 1, Len: 1, Flags: Head | Tail, Hops: 9}, neverFreed},
		{Flit{Packet: 0, Len: MaxPacketFlits, Flags: Head}, Flit{Len: MaxPacketFlits, Flags: Head}, -5},
	} {
		var s slot
		s.put(r.id, c.in, c.at)
		if got := s.flit(); got != c.out || s.t() != c.at {
			t.Errorf("put(%+v, %d): flit %+v at %d, want %+v at %d", c.in, c.at, got, s.t(), c.out, c.at)
		}
		var d slot
		d.copyHop(&s, c.at+3)
		want := c.out
		if c.out.Flags&(Head|Tail) != Head {
			want.Hops++
		}
		if got := d.flit(); got != want || d.t() != c.at+3 {
			t.Errorf("copyHop of %+v: %+v at %d, want %+v at %d", c.in, got, d.t(), want, c.at+3)
		}
		s.setT(c.at - 1)
		if s.t() != c.at-1 || s.flit() != c.out {
			t.Errorf("setT changed the flit or kept the stamp: %+v at %d", s.flit(), s.t())
		}
	}
	if unsafe.Sizeof(slot{}) != 16 {
		t.Errorf("slot is %d bytes, want 16", unsafe.Sizeof(slot{}))
	}
	if unsafe.Sizeof(inputVC{}) != 32 {
		t.Errorf("inputVC is %d bytes, want 32 (two to a cache line)", unsafe.Sizeof(inputVC{}))
	}
}

// TestAllArrived holds allArrived to its contract, derived per case from
// the full cycles rather than typed in: never true while the last flit is
// still ahead of the cycle (it would let a flit leave before it arrived);
// always true once it has arrived and is less than 2^31 cycles old (else
// the slot is read on every hop); either answer for older flits (reading
// the slot is then only slower). The cases straddle 2^32, where the low 32
// bits wrap, and the 2^31 age.
func TestAllArrived(t *testing.T) {
	for _, c := range []struct{ last, at sim.Cycle }{
		{10, 10}, {10, 9}, {10, 11},
		{1<<32 + 5, 1<<32 + 4}, {1<<32 + 5, 1<<32 + 5},
		{1<<32 - 1, 1 << 32}, {1 << 32, 1<<32 - 1}, {1<<32 + 3, 1<<32 - 2},
		{7, 7 + 1<<31 - 1}, {7, 7 + 1<<31}, {7, 7 + 1<<31 + 1}, {7, 7 + 1<<32},
		{1<<40 + 2, 1<<40 + 1}, {1<<40 - 9, 1<<40 + 1},
	} {
		got := (&inputVC{lastAt: uint32(c.last)}).allArrived(c.at)
		switch age := c.at - c.last; {
		case age < 0 && got:
			t.Errorf("last arrival %d, %d cycles after cycle %d: reported arrived", c.last, -age, c.at)
		case age >= 0 && age < 1<<31 && !got:
			t.Errorf("last arrival %d, %d cycles before cycle %d: not reported arrived", c.last, age, c.at)
		}
	}
}

// TestRouterHotLines holds the Router's layout to what touchRouting and
// the events of a packet's hop assume (issue 20, docs/speed.md#session24):
// a whole number of cache lines, so that in the storage's one array every
// Router starts a line; the fields VC allocation and a tail's release read
// in its first three lines; those a head's routing start reads besides in
// the fourth, which routerHotBytes ends; and the array itself starting a
// line.
func TestRouterHotLines(t *testing.T) {
	var r Router
	if s := unsafe.Sizeof(r); s%64 != 0 {
		t.Errorf("Router is %d bytes, not a whole number of 64-byte lines", s)
	}
	type field struct {
		name      string
		off, size uintptr
	}
	va := []field{ // allocateVCs, grantVC, own, mark, tailLeft, release
		{"in", unsafe.Offsetof(r.in), unsafe.Sizeof(r.in)},
		{"outs", unsafe.Offsetof(r.outs), unsafe.Sizeof(r.outs)},
		{"vaVCs", unsafe.Offsetof(r.vaVCs), unsafe.Sizeof(r.vaVCs)},
		{"freeOV", unsafe.Offsetof(r.freeOV), unsafe.Sizeof(r.freeOV)},
		{"vaPorts", unsafe.Offsetof(r.vaPorts), unsafe.Sizeof(r.vaPorts)},
		{"linked", unsafe.Offsetof(r.linked), unsafe.Sizeof(r.linked)},
		{"vcMask", unsafe.Offsetof(r.vcMask), unsafe.Sizeof(r.vcMask)},
		{"waitingVA", unsafe.Offsetof(r.waitingVA), unsafe.Sizeof(r.waitingVA)},
		{"vcs", unsafe.Offsetof(r.vcs), unsafe.Sizeof(r.vcs)},
		{"local", unsafe.Offsetof(r.local), unsafe.Sizeof(r.local)},
		{"plane", unsafe.Offsetof(r.plane), unsafe.Sizeof(r.plane)},
		{"cfg", unsafe.Offsetof(r.cfg), unsafe.Sizeof(r.cfg)},
		{"richState", unsafe.Offsetof(r.richState), unsafe.Sizeof(r.richState)},
		{"sc", unsafe.Offsetof(r.sc), unsafe.Sizeof(r.sc)},
		{"rich", unsafe.Offsetof(r.rich), unsafe.Sizeof(r.rich)},
		{"cutThrough", unsafe.Offsetof(r.cutThrough), unsafe.Sizeof(r.cutThrough)},
		{"vaFast", unsafe.Offsetof(r.vaFast), unsafe.Sizeof(r.vaFast)},
	}
	routing := []field{ // startRouting, frontSlot, computeRoute, vcRange
		{"id", unsafe.Offsetof(r.id), unsafe.Sizeof(r.id)},
		{"slots", unsafe.Offsetof(r.slots), unsafe.Sizeof(r.slots)},
		{"route", unsafe.Offsetof(r.route), unsafe.Sizeof(r.route)},
		{"classLo", unsafe.Offsetof(r.classLo), unsafe.Sizeof(r.classLo)},
		{"ejectVCs", unsafe.Offsetof(r.ejectVCs), unsafe.Sizeof(r.ejectVCs)},
		{"classes", unsafe.Offsetof(r.classes), unsafe.Sizeof(r.classes)},
	}
	for _, f := range va {
		if f.off+f.size > 3*64 {
			t.Errorf("VC allocation's field %s ends at byte %d, past the Router's third line", f.name, f.off+f.size)
		}
	}
	for _, f := range append(va, routing...) {
		if f.off+f.size > routerHotBytes {
			t.Errorf("routing's field %s ends at byte %d, past routerHotBytes (%d), which touchRouting loads", f.name, f.off+f.size, routerHotBytes)
		}
	}
	if routerHotBytes > 4*64 {
		t.Errorf("routerHotBytes is %d: more than four lines", routerHotBytes)
	}
	// A Go allocation above 32 KiB starts a page; below it, an array of
	// more than 512 bytes with pointers starts 8 bytes into its slot
	// (the runtime's malloc header), but a network that small stays in
	// the cache anyway. 64 routers are 32 KiB; hugepage.Make advises
	// from 4 MiB on.
	for _, routers := range []int{1 << 7, 1 << 10, 1 << 14} {
		st, err := NewStorage(routers, 5, Arch{VCs: 2, BufferDepth: 8}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if a := uintptr(unsafe.Pointer(&st.rs[0])); a%64 != 0 {
			t.Errorf("%d routers: the storage's Router array starts at %#x, not on a line", routers, a)
		}
	}
}
