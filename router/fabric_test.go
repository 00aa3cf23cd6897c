package router

import (
	"testing"

	"github.com/flitsim/flitsim/sim"
)

// twoRouters wires router 0's port 0 to router 1's port 0 in a fabric with
// the given link and credit delays; port 1 is each router's local port.
// One VC of depth 4 and a zero-delay pipeline, so only the lines set the
// timing.
func twoRouters(t *testing.T, link, credit sim.Cycle) (a, b *Router, wake *[]uint64) {
	t.Helper()
	route := func(cur, dest int, buf []Candidate) []Candidate {
		if dest == cur {
			return append(buf, Candidate{Port: 1})
		}
		return append(buf, Candidate{Port: 0})
	}
	cfg := Arch{VCs: 1, BufferDepth: 4}
	set := make([]uint64, 1)
	fab := &Fabric{LinkDelay: link, CreditDelay: credit, Wake: &set}
	var rs [2]*Router
	for id := range rs {
		r, err := New(Config{Arch: cfg, ID: id, Ports: 2, EjectVCs: 1, Classes: 1, Route: route, Rand: sim.NewStream(1, sim.PurposeRouting, uint64(id))})
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Attach(fab); err != nil {
			t.Fatal(err)
		}
		rs[id] = r
	}
	if err := rs[0].Connect(0, rs[1], 0); err != nil {
		t.Fatal(err)
	}
	return rs[0], rs[1], &set
}

// TestFabricLinkAndCreditTiming follows a 10-flit packet from router 0 to
// router 1's sink while router 1 sleeps until cycle 20: router 0 fills
// router 1's four slots in cycles 0-3 (the flits arriving two cycles
// later), stalls, and sends again exactly CreditDelay = 3 cycles after
// router 1 frees a slot.
func TestFabricLinkAndCreditTiming(t *testing.T) {
	a, b, wake := twoRouters(t, 2, 3)
	flits := packetFlits(1, 1, 10)
	next := 0
	wantLinked := map[sim.Cycle]int64{0: 1, 1: 2, 2: 3, 3: 4, 10: 4, 22: 4, 23: 5, 24: 6, 25: 7}
	for now := sim.Cycle(0); now < 30; now++ {
		if next < len(flits) && a.CanAccept(1, 0, now) {
			a.Accept(1, 0, flits[next], now)
			next++
		}
		a.Step(now)
		if now >= 20 {
			b.Step(now)
			if now <= 23 && (len(b.Sent) != 1 || b.Sent[0].Port != 1) {
				t.Fatalf("cycle %d: router 1 sent %+v, want one flit to its sink", now, b.Sent)
			}
		}
		if w, ok := wantLinked[now]; ok && a.LinkFlits(0) != w {
			t.Fatalf("cycle %d: router 0 has sent %d flits to router 1, want %d", now, a.LinkFlits(0), w)
		}
		switch now {
		case 1:
			if b.Buffered() != 2 || b.Arrived(now) != 0 {
				t.Fatalf("cycle 1: router 1 holds %d flits, %d arrived; want 2 written, none arrived", b.Buffered(), b.Arrived(now))
			}
		case 2:
			if b.Arrived(now) != 1 {
				t.Fatalf("cycle 2: %d flits arrived at router 1, want 1", b.Arrived(now))
			}
		case 19:
			if b.Buffered() != 4 || b.Arrived(now) != 4 || b.Free(0, 0) != 0 {
				t.Fatalf("cycle 19: router 1 holds %d (%d arrived, %d free), want a full buffer", b.Buffered(), b.Arrived(now), b.Free(0, 0))
			}
		}
	}
	if (*wake)[0]&2 == 0 {
		t.Error("writing into router 1 did not set its wake bit")
	}
	if len(a.CreditsOut) != 0 {
		t.Errorf("an attached router reported %d credits; its slots are the credits", len(a.CreditsOut))
	}
}

func TestFabricRefusesMismatches(t *testing.T) {
	a, b, _ := twoRouters(t, 1, 1)
	if err := a.Connect(5, b, 0); err == nil {
		t.Error("connect of a port the router does not have accepted")
	}
	other, err := New(Config{Arch: Arch{VCs: 1, BufferDepth: 8}, ID: 2, Ports: 2, EjectVCs: 1, Classes: 1, Route: testRoute, Rand: sim.NewStream(1, sim.PurposeRouting, 2)})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Connect(0, other, 0); err == nil {
		t.Error("connect to a router outside the fabric accepted")
	}
	set := make([]uint64, 1)
	if err := other.Attach(&Fabric{LinkDelay: 0, CreditDelay: 1, Wake: &set}); err == nil {
		t.Error("a zero-cycle link accepted")
	}
	if err := other.Attach(a.fab); err != nil {
		t.Fatal(err)
	}
	if err := a.Connect(0, other, 0); err == nil {
		t.Error("connect to a router with another buffer depth accepted")
	}
}

// TestInjectIsCanAcceptThenAccept feeds the same 10-flit packet to two
// identical pairs of routers, one through CanAccept and Accept, the other
// through Inject, with a credit delay of 3: Inject must refuse exactly when
// CanAccept says no (a full buffer, a credit still on its way back) and
// the two runs must send the same flits in the same cycles.
func TestInjectIsCanAcceptThenAccept(t *testing.T) {
	a1, b1, _ := twoRouters(t, 1, 3)
	a2, b2, _ := twoRouters(t, 1, 3)
	flits := packetFlits(1, 1, 10)
	n1, n2, refused := 0, 0, 0
	for now := sim.Cycle(0); now < 40; now++ {
		if n1 < len(flits) && a1.CanAccept(1, 0, now) {
			a1.Accept(1, 0, flits[n1], now+1)
			n1++
		}
		if n2 < len(flits) {
			if a2.Inject(1, 0, flits[n2], now, now+1) {
				n2++
			} else {
				refused++
			}
		}
		if n1 != n2 {
			t.Fatalf("cycle %d: %d flits accepted by CanAccept/Accept, %d by Inject", now, n1, n2)
		}
		a1.Step(now)
		a2.Step(now)
		if now >= 15 { // router 1 sleeps until then: router 0's buffer fills and credits stall
			b1.Step(now)
			b2.Step(now)
			if len(b1.Sent) != len(b2.Sent) || len(b1.Sent) == 1 && b1.Sent[0].Flit != b2.Sent[0].Flit {
				t.Fatalf("cycle %d: sinks got %+v and %+v", now, b1.Sent, b2.Sent)
			}
		}
	}
	if n2 != len(flits) || refused == 0 {
		t.Fatalf("Inject took %d of %d flits and refused %d times; want all, with refusals while the buffers were full", n2, len(flits), refused)
	}
}
