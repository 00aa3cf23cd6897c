package router

import (
	"testing"

	"github.com/flitsim/flitsim/sim"
)

// TestStepModes: the three ways a router is stepped (stand-alone, in a
// fabric, in a plane) each work where they apply, and none panics in
// another: a NIC's calls (CanAccept, Inject) work on a stand-alone router
// too, and a router's own Step does nothing for a router its plane steps.
func TestStepModes(t *testing.T) {
	one := Flit{Packet: 1, Dest: testID, Len: 1, Flags: Head | Tail}
	t.Run("stand-alone", func(t *testing.T) {
		r := newTestRouter(t, Arch{VCs: 1, BufferDepth: 2})
		for k := 0; k < 2; k++ {
			if !r.CanAccept(2, 0, 0) || !r.Inject(2, 0, one, 0, 0) {
				t.Fatalf("flit %d: a free slot of a stand-alone router refused", k)
			}
		}
		if r.CanAccept(2, 0, 0) || r.Inject(2, 0, one, 0, 0) {
			t.Fatal("a full buffer accepted a flit")
		}
		if n := r.Step(0); n != 1 || len(r.Sent) != 1 || len(r.CreditsOut) != 1 {
			t.Fatalf("Step moved %d flits, Sent %v, CreditsOut %v; want 1 each", n, r.Sent, r.CreditsOut)
		}
		if !r.CanAccept(2, 0, 1) {
			t.Error("the slot freed in cycle 0 is not free in cycle 1")
		}
	})
	for _, planed := range []bool{false, true} {
		name := map[bool]string{false: "fabric", true: "plane"}[planed]
		t.Run(name, func(t *testing.T) {
			l := planeLine{n: 2, cfg: Arch{VCs: 1, BufferDepth: 2}, ejectVCs: 1, link: 1, credit: 1}
			rs, fab := l.build(t)
			var pl *Plane
			if planed {
				var err error
				if pl, err = NewPlane(fab, rs, 1); err != nil {
					t.Fatal(err)
				}
			}
			// Router 0 sends one flit to router 1 (lineRoute: destination 1).
			if !rs[0].Inject(2, 0, Flit{Packet: 1, Dest: 1, Len: 1, Flags: Head | Tail}, 0, 0) {
				t.Fatal("Inject refused")
			}
			delivered := 0
			for now := sim.Cycle(0); now < 20 && delivered == 0; now++ {
				moved := 0
				for _, r := range rs {
					moved += r.Step(now)
					delivered += len(r.Sent)
				}
				if planed {
					if moved != 0 {
						t.Fatalf("cycle %d: a router's own Step moved %d flits in a plane", now, moved)
					}
					pl.Step(now)
					delivered += len(pl.Ejected)
				}
			}
			if delivered != 1 {
				t.Errorf("%d flits delivered, want 1", delivered)
			}
		})
	}
}
