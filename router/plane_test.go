package router

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/flitsim/flitsim/sim"
)

// Plane unit tests. The network package compares whole networks run with
// and without a plane (sim/network/plane_test.go); these pin the router
// level: what NewPlane refuses, cycle-by-cycle agreement of pl.Step with
// each router's own Step on small wired lines, the round-robin order of
// the bit-sliced arbiters, and a Step that does not allocate.

// lineRoute routes on a line of routers with ports 0 (to router id+1),
// 1 (to router id-1) and 2 (local): right while the destination is to the
// right, left while it is to the left, then the local port; one VC class.
// It draws no random numbers, and a packet never turns, so the line is
// deadlock-free for any switching.
func lineRoute(cur, dest int, buf []Candidate) []Candidate {
	switch {
	case dest > cur:
		return append(buf, Candidate{Port: 0})
	case dest < cur:
		return append(buf, Candidate{Port: 1})
	}
	return append(buf, Candidate{Port: 2})
}

// planeLine is the wiring of one line of routers: n routers of 3 ports
// attached to one fabric, output port 0 of router i feeding input port 1
// of router i+1 and output port 1 of router i+1 feeding input port 0 of
// router i. Port 2 is local and leads to the sink.
type planeLine struct {
	n             int
	cfg           Arch
	ejectVCs      int
	link, credit  sim.Cycle
	injectLatency sim.Cycle
}

// build makes the routers of l and their fabric. Every call gives routers
// in the same state with the same routing streams, so two builds run the
// same.
func (l planeLine) build(t testing.TB) ([]*Router, *Fabric) {
	t.Helper()
	set := make([]uint64, (l.n+63)/64)
	fab := &Fabric{LinkDelay: l.link, CreditDelay: l.credit, Wake: &set}
	rs := make([]*Router, l.n)
	for id := range rs {
		r, err := New(Config{Arch: l.cfg, ID: id, Ports: 3, EjectVCs: l.ejectVCs, Classes: 1, Route: lineRoute, Rand: sim.NewStream(1, sim.PurposeRouting, uint64(id))})
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Attach(fab); err != nil {
			t.Fatal(err)
		}
		rs[id] = r
	}
	for id := 0; id+1 < l.n; id++ {
		if err := rs[id].Connect(0, rs[id+1], 1); err != nil {
			t.Fatal(err)
		}
		if err := rs[id+1].Connect(1, rs[id], 0); err != nil {
			t.Fatal(err)
		}
	}
	return rs, fab
}

// plane builds l and a plane over all its routers.
func (l planeLine) plane(t testing.TB) ([]*Router, *Plane) {
	t.Helper()
	rs, fab := l.build(t)
	pl, err := NewPlane(fab, rs, int(l.injectLatency))
	if err != nil {
		t.Fatal(err)
	}
	return rs, pl
}

// planeSource is a throttled source in front of each router's local input
// port: when its NIC is idle it starts a packet with probability rate (to
// a uniform destination, self included, of uniform length in [minLen,
// maxLen]), takes the first local input VC at or after its round-robin
// pointer with a credit, and writes one flit a cycle while the credit
// protocol allows (CanAccept), each arriving injectLatency cycles later.
// Its draws depend only on what the routers accept, so two sources with
// the same seed feeding routers that decide alike inject alike.
type planeSource struct {
	rng            *rand.Rand
	rate           float64
	minLen, maxLen int32
	injectLatency  sim.Cycle
	stopAt         sim.Cycle // no packet starts from this cycle on
	inject         bool      // write through Inject (as the network's NICs do), not CanAccept then Accept
	nics           []planeNIC
	nextPacket     int32
	injected       int // flits written
}

// planeNIC is one router's injection state.
type planeNIC struct {
	busy      bool
	vc, rr    int
	dest, len int32
	packet    int32
	k         int32 // flits of the packet written
}

func newPlaneSource(seed uint64, n int, rate float64, minLen, maxLen int32, injectLatency, stopAt sim.Cycle) *planeSource {
	return &planeSource{
		rng: rand.New(rand.NewPCG(seed, 0x5eed)), rate: rate, minLen: minLen, maxLen: maxLen,
		injectLatency: injectLatency, stopAt: stopAt, nics: make([]planeNIC, n),
	}
}

// feed runs the sources of cycle now, before the routers step.
func (s *planeSource) feed(rs []*Router, now sim.Cycle) {
	for id, r := range rs {
		ni := &s.nics[id]
		if !ni.busy {
			if now >= s.stopAt || s.rng.Float64() >= s.rate {
				continue
			}
			ni.busy, ni.vc, ni.k = true, -1, 0
			ni.dest = int32(s.rng.IntN(len(rs)))
			ni.len = s.minLen + s.rng.Int32N(s.maxLen-s.minLen+1)
			ni.packet = s.nextPacket
			s.nextPacket++
		}
		local, vcs := r.local, r.vcs
		if ni.vc < 0 {
			for k := 0; k < vcs; k++ {
				if v := (ni.rr + k) % vcs; r.CanAccept(local, v, now) {
					ni.vc, ni.rr = v, (v+1)%vcs
					break
				}
			}
			if ni.vc < 0 {
				continue
			}
		}
		f := Flit{Packet: ni.packet, Dest: ni.dest, Len: ni.len}
		if ni.k == 0 {
			f.Flags |= Head
		}
		if ni.k == ni.len-1 {
			f.Flags |= Tail
		}
		if s.inject {
			if !r.Inject(local, ni.vc, f, now, now+s.injectLatency) {
				continue
			}
		} else {
			if !r.CanAccept(local, ni.vc, now) {
				continue
			}
			r.Accept(local, ni.vc, f, now+s.injectLatency)
		}
		s.injected++
		if ni.k++; ni.k == ni.len {
			ni.busy = false
		}
	}
}

// TestNewPlaneRefuses: NewPlane refuses every set of routers its doc
// comment excludes, names the problem, and leaves the routers refused as
// they were (still allocating alone); the valid line, scouting with K = 0
// (which is wormhole) included, is accepted.
func TestNewPlaneRefuses(t *testing.T) {
	base := Arch{VCs: 2, BufferDepth: 4}
	// attached builds routers with the given ports and configs (one per
	// router) attached to a fresh fabric, not connected.
	attached := func(t *testing.T, ports []int, cfgs []Arch) ([]*Router, *Fabric) {
		t.Helper()
		set := make([]uint64, 1)
		fab := &Fabric{LinkDelay: 1, CreditDelay: 1, Wake: &set}
		rs := make([]*Router, len(cfgs))
		for id := range rs {
			r, err := New(Config{Arch: cfgs[id], ID: id, Ports: ports[id], EjectVCs: 1, Classes: 1, Route: lineRoute, Rand: sim.NewStream(1, sim.PurposeRouting, uint64(id))})
			if err != nil {
				t.Fatal(err)
			}
			if err := r.Attach(fab); err != nil {
				t.Fatal(err)
			}
			rs[id] = r
		}
		return rs, fab
	}
	two := func(cfg Arch) []Arch { return []Arch{cfg, cfg} }
	for _, c := range []struct {
		name string
		// setup returns the fabric and routers to give NewPlane.
		setup func(t *testing.T) (*Fabric, []*Router)
		// want holds fragments of the error message, one of which must be
		// in it; none for a valid plane.
		want []string
	}{
		{"valid line", func(t *testing.T) (*Fabric, []*Router) {
			rs, fab := planeLine{n: 3, cfg: base, ejectVCs: 1, link: 1, credit: 1}.build(t)
			return fab, rs
		}, nil},
		{"scouting K=0 is wormhole", func(t *testing.T) (*Fabric, []*Router) {
			cfg := base
			cfg.Switching = Scouting
			rs, fab := attached(t, []int{3, 3}, two(cfg))
			return fab, rs
		}, nil},
		{"eight ports and eight VCs", func(t *testing.T) (*Fabric, []*Router) {
			rs, fab := attached(t, []int{8, 8}, two(Arch{VCs: 8, BufferDepth: 1}))
			return fab, rs
		}, nil},
		{"no routers", func(t *testing.T) (*Fabric, []*Router) {
			_, fab := attached(t, nil, nil)
			return fab, nil
		}, []string{"no routers"}},
		{"not in id order", func(t *testing.T) (*Fabric, []*Router) {
			rs, fab := attached(t, []int{3, 3}, two(base))
			return fab, []*Router{rs[1], rs[0]}
		}, []string{"id order"}},
		{"missing first router", func(t *testing.T) (*Fabric, []*Router) {
			rs, fab := attached(t, []int{3, 3}, two(base))
			return fab, rs[1:]
		}, []string{"id order"}},
		{"router not attached", func(t *testing.T) (*Fabric, []*Router) {
			rs, fab := attached(t, []int{3}, []Arch{base})
			r, err := New(Config{Arch: base, ID: 1, Ports: 3, EjectVCs: 1, Classes: 1, Route: lineRoute, Rand: sim.NewStream(1, sim.PurposeRouting, 1)})
			if err != nil {
				t.Fatal(err)
			}
			return fab, append(rs, r)
		}, []string{"not attached"}},
		{"router of another fabric", func(t *testing.T) (*Fabric, []*Router) {
			rs, fab := attached(t, []int{3, 3}, two(base))
			other, _ := attached(t, []int{3, 3}, two(base))
			return fab, []*Router{rs[0], other[1]}
		}, []string{"not attached"}},
		{"mismatched ports", func(t *testing.T) (*Fabric, []*Router) {
			rs, fab := attached(t, []int{3, 4}, two(base))
			return fab, rs
		}, []string{"4 ports"}},
		{"mismatched VCs", func(t *testing.T) (*Fabric, []*Router) {
			rs, fab := attached(t, []int{3, 3}, []Arch{base, {VCs: 3, BufferDepth: 4}})
			return fab, rs
		}, []string{"3 VCs", "VCs:3"}},
		{"mismatched depth", func(t *testing.T) (*Fabric, []*Router) {
			rs, fab := attached(t, []int{3, 3}, []Arch{base, {VCs: 2, BufferDepth: 5}})
			return fab, rs
		}, []string{"5 flits", "BufferDepth:5"}},
		{"mismatched pipeline", func(t *testing.T) (*Fabric, []*Router) {
			rs, fab := attached(t, []int{3, 3}, []Arch{base, {VCs: 2, BufferDepth: 4, RoutingDelay: 1}})
			return fab, rs
		}, []string{"RoutingDelay:1"}},
		{"seventeen ports", func(t *testing.T) (*Fabric, []*Router) {
			rs, fab := attached(t, []int{17, 17}, two(base))
			return fab, rs
		}, []string{"up to 16 ports"}},
		{"more than 64 input VCs", func(t *testing.T) (*Fabric, []*Router) {
			rs, fab := attached(t, []int{9, 9}, two(Arch{VCs: 8, BufferDepth: 2}))
			return fab, rs
		}, []string{"64 input VCs", "not 9 x 8"}},
		{"nine VCs", func(t *testing.T) (*Fabric, []*Router) {
			rs, fab := attached(t, []int{3, 3}, two(Arch{VCs: 9, BufferDepth: 2}))
			return fab, rs
		}, []string{"not 3 x 9"}},
		{"already in a plane", func(t *testing.T) (*Fabric, []*Router) {
			rs, fab := attached(t, []int{3, 3}, two(base))
			if _, err := NewPlane(fab, rs, 1); err != nil {
				t.Fatalf("first plane refused: %v", err)
			}
			return fab, rs
		}, []string{"already in a plane"}},
		{"scouting K=1", func(t *testing.T) (*Fabric, []*Router) {
			cfg := base
			cfg.Switching, cfg.ScoutingDistance = Scouting, 1
			rs, fab := attached(t, []int{3, 3}, two(cfg))
			return fab, rs
		}, []string{"scouting"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			fab, rs := c.setup(t)
			before := make([]*Plane, len(rs))
			for k, r := range rs {
				before[k] = r.plane
			}
			pl, err := NewPlane(fab, rs, 1)
			if len(c.want) == 0 {
				if err != nil || pl == nil {
					t.Fatalf("NewPlane refused a valid set of routers: %v", err)
				}
				for _, r := range rs {
					if r.plane != pl {
						t.Errorf("router %d not in the new plane", r.id)
					}
				}
				return
			}
			if err == nil || pl != nil {
				t.Fatalf("NewPlane accepted it (plane %v, error %v)", pl, err)
			}
			if !slices.ContainsFunc(c.want, func(w string) bool { return strings.Contains(err.Error(), w) }) {
				t.Errorf("error %q does not name the problem (want one of %q in it)", err, c.want)
			}
			for k, r := range rs {
				if r != nil && r.plane != before[k] {
					t.Errorf("refused NewPlane changed router %d's plane", r.id)
				}
			}
		})
	}
}

// planeMatchCase is one configuration of TestPlaneMatchesStep.
type planeMatchCase struct {
	name           string
	line           planeLine
	minLen, maxLen int32
	rate           float64 // probability an idle source starts a packet in a cycle
	routerOrder    bool
	anon           bool // the plane moves bodies without their slots (Plane.anon): wormhole, credit delay 1, links of at most 2 cycles
	slotlessLocal  bool // and the local port's VCs too (NewPlane's injectLatency): injection latency at most 1
}

// TestPlaneMatchesStep drives two identical lines of routers with the same
// sources, one by pl.Step and one by each router's own Step in id order,
// and requires, in every cycle, the same ejected flits (packet, flags,
// destination, length, hops) in the same order, the same flits buffered
// in each router and the same flits sent on each link. Sources run near
// saturation for 300 cycles and are then drained; the test also requires
// that the run was not vacuous: some cycles had two active input VCs of a
// router holding flits for one output port (switch contention) and some a
// full network input buffer (the upstream VC stalled on credits), and
// every injected flit was ejected. Each case runs twice, the plane's
// sources writing through Accept and through Inject (the network's NICs'
// path, which in a plane writes the slot itself); the routers alone are
// fed through CanAccept and Accept either way.
func TestPlaneMatchesStep(t *testing.T) {
	const (
		stopAt    = sim.Cycle(300)
		maxCycles = sim.Cycle(20000)
	)
	cases := []planeMatchCase{
		{name: "wormhole V2 D2", line: planeLine{n: 4, cfg: Arch{VCs: 2, BufferDepth: 2}, ejectVCs: 2, link: 1, credit: 1},
			minLen: 1, maxLen: 6, rate: 0.6, anon: true, slotlessLocal: true},
		{name: "wormhole V2 D3 injection latency 1 slotless local VCs", line: planeLine{n: 4, cfg: Arch{VCs: 2, BufferDepth: 3, RoutingDelay: 1}, ejectVCs: 1, link: 1, credit: 1, injectLatency: 1},
			minLen: 1, maxLen: 7, rate: 0.7, anon: true, slotlessLocal: true},
		{name: "wormhole V2 D3 link 2 anonymous bodies", line: planeLine{n: 5, cfg: Arch{VCs: 2, BufferDepth: 3, RoutingDelay: 1, VCAllocDelay: 1}, ejectVCs: 2, link: 2, credit: 1, injectLatency: 2},
			minLen: 1, maxLen: 9, rate: 0.7, anon: true},
		{name: "wormhole V3 D3 rd1 vad2 one eject VC", line: planeLine{n: 4, cfg: Arch{VCs: 3, BufferDepth: 3, RoutingDelay: 1, VCAllocDelay: 2}, ejectVCs: 1, link: 2, credit: 3, injectLatency: 1},
			minLen: 1, maxLen: 8, rate: 0.6},
		{name: "wormhole V2 D2 rd2 vad1 router order", line: planeLine{n: 3, cfg: Arch{VCs: 2, BufferDepth: 2, RoutingDelay: 2, VCAllocDelay: 1}, ejectVCs: 2, link: 3, credit: 1, injectLatency: 2},
			minLen: 2, maxLen: 5, rate: 0.8, routerOrder: true},
		{name: "wormhole V8 D1", line: planeLine{n: 4, cfg: Arch{VCs: 8, BufferDepth: 1}, ejectVCs: 3, link: 1, credit: 2},
			minLen: 1, maxLen: 4, rate: 0.7},
		{name: "wormhole 70 routers across two words", line: planeLine{n: 70, cfg: Arch{VCs: 2, BufferDepth: 2, VCAllocDelay: 1}, ejectVCs: 1, link: 1, credit: 1},
			minLen: 1, maxLen: 4, rate: 0.3, anon: true, slotlessLocal: true},
		{name: "cut-through V2 D4", line: planeLine{n: 4, cfg: Arch{VCs: 2, BufferDepth: 4, Switching: VirtualCutThrough}, ejectVCs: 2, link: 1, credit: 2},
			minLen: 1, maxLen: 4, rate: 0.7},
		{name: "cut-through V3 D3 rd1 vad1 one eject VC", line: planeLine{n: 4, cfg: Arch{VCs: 3, BufferDepth: 3, RoutingDelay: 1, VCAllocDelay: 1, Switching: VirtualCutThrough}, ejectVCs: 1, link: 2, credit: 1, injectLatency: 1},
			minLen: 1, maxLen: 3, rate: 0.7, routerOrder: true},
		{name: "store-and-forward V2 D4 vad2", line: planeLine{n: 4, cfg: Arch{VCs: 2, BufferDepth: 4, VCAllocDelay: 2, Switching: StoreAndForward}, ejectVCs: 2, link: 1, credit: 1},
			minLen: 1, maxLen: 4, rate: 0.7},
		{name: "store-and-forward V3 D3 rd2", line: planeLine{n: 3, cfg: Arch{VCs: 3, BufferDepth: 3, RoutingDelay: 2, Switching: StoreAndForward}, ejectVCs: 1, link: 2, credit: 2, injectLatency: 1},
			minLen: 1, maxLen: 3, rate: 0.7},
	}
	for k, c := range cases {
		// inject-touch: the plane loads its lines ahead (touch,
		// touchEvals) as it does above touchAbove, which no network of the
		// tests reaches; loads alone, they must change nothing.
		for _, v := range []struct {
			name          string
			inject, touch bool
		}{{"accept", false, false}, {"inject", true, false}, {"inject-touch", true, true}} {
			inject := v.inject
			t.Run(c.name+"/"+v.name, func(t *testing.T) {
				seed := uint64(20240601 + k)
				own, _ := c.line.build(t)
				planed, pl := c.line.plane(t)
				pl.RouterOrder = c.routerOrder
				pl.touchAhead = v.touch
				if pl.anon != c.anon || (pl.slotsFrom == pl.n) != c.slotlessLocal {
					t.Fatalf("plane moves bodies anonymously: %v, local VCs' too: %v; want %v, %v", pl.anon, pl.slotsFrom == pl.n, c.anon, c.slotlessLocal)
				}
				srcOwn := newPlaneSource(seed, c.line.n, c.rate, c.minLen, c.maxLen, c.line.injectLatency, stopAt)
				srcPl := newPlaneSource(seed, c.line.n, c.rate, c.minLen, c.maxLen, c.line.injectLatency, stopAt)
				srcPl.inject = inject
				var want, got []Flit
				ejected, contended, full := 0, 0, 0
				now := sim.Cycle(0)
				for ; now < maxCycles; now++ {
					srcOwn.feed(own, now)
					srcPl.feed(planed, now)
					want = want[:0]
					moved := 0
					for _, r := range own {
						moved += r.Step(now)
						for _, d := range r.Sent {
							if d.Port != r.local {
								t.Fatalf("cycle %d: router %d sent %+v to unwired port %d", now, r.id, d.Flit, d.Port)
							}
							want = append(want, d.Flit)
						}
					}
					if n := pl.Step(now); n != moved {
						t.Fatalf("cycle %d: plane moved %d flits, routers alone %d", now, n, moved)
					}
					got = append(got[:0], pl.Ejected...)
					if !slices.Equal(reported(got), reported(want)) {
						t.Fatalf("cycle %d: plane ejected %+v, routers alone %+v", now, got, want)
					}
					ejected += len(want)
					busy := false
					for id, r := range own {
						p := planed[id]
						if len(p.Sent) != 0 {
							t.Fatalf("cycle %d: router %d in a plane lists %d departures in Sent", now, id, len(p.Sent))
						}
						if p.Buffered() != r.Buffered() {
							t.Fatalf("cycle %d: router %d buffers %d flits in the plane, %d alone", now, id, p.Buffered(), r.Buffered())
						}
						for q := 0; q < r.local; q++ {
							if p.LinkFlits(q) != r.LinkFlits(q) {
								t.Fatalf("cycle %d: router %d sent %d flits on port %d in the plane, %d alone", now, id, p.LinkFlits(q), q, r.LinkFlits(q))
							}
						}
						busy = busy || r.Buffered() > 0
						contended += b2i(ownContended(r))
						full += b2i(ownFull(r))
					}
					checkOccupancy(t, now, own, pl, stopAt/3)
					checkRequestRows(t, now, pl)
					if srcOwn.injected != srcPl.injected {
						t.Fatalf("cycle %d: %d flits injected into the plane, %d into the routers alone", now, srcPl.injected, srcOwn.injected)
					}
					if now >= stopAt && !busy && !srcOwn.anyBusy() {
						break
					}
				}
				if now == maxCycles {
					t.Fatalf("not drained after %d cycles", maxCycles)
				}
				if ejected != srcOwn.injected {
					t.Errorf("%d flits ejected of %d injected", ejected, srcOwn.injected)
				}
				if contended == 0 || full == 0 {
					t.Errorf("vacuous run: %d router-cycles with switch contention, %d with a full input buffer", contended, full)
				}
				t.Logf("%d cycles, %d flits, %d router-cycles contended, %d with a full buffer", now, ejected, contended, full)
			})
		}
	}
}

func b2i(b bool) int { return int(b2u(b)) }

// checkRequestRows checks the premise of planeWord.dirQ's stale bits
// after cycle now: an active input VC's dirQ row holds its output port's
// bit alone, any other VC's at most one bit (its last packet's port, left
// by the tail's release), and only active VCs may request (elig).
func checkRequestRows(t *testing.T, now sim.Cycle, pl *Plane) {
	t.Helper()
	for id := range pl.routers {
		w, bit := planeBit(id)
		pw := &pl.words[w]
		for i := 0; i < pl.n; i++ {
			ivc := &pl.ivc[id*pl.n+i]
			var ports []int
			for q := 0; q < pl.ports; q++ {
				if pw.dirQ[i][q]&bit != 0 {
					ports = append(ports, q)
				}
			}
			switch active := ivc.state == vcActive; {
			case active && (len(ports) != 1 || ports[0] != int(ivc.outPort)):
				t.Fatalf("cycle %d: router %d input VC %d, active on port %d, has dirQ bits on ports %v", now, id, i, ivc.outPort, ports)
			case !active && len(ports) > 1:
				t.Fatalf("cycle %d: router %d input VC %d, not active, has dirQ bits on ports %v", now, id, i, ports)
			case !active && pw.elig[i]&bit != 0:
				t.Fatalf("cycle %d: router %d input VC %d requests the switch but is not active (state %d)", now, id, i, ivc.state)
			}
		}
	}
}

// checkOccupancy compares the occupancy the plane counts with the sum over
// the routers alone of their ports that lead to a router, after cycle now,
// and restarts both counts after cycle resetAt.
func checkOccupancy(t *testing.T, now sim.Cycle, own []*Router, pl *Plane, resetAt sim.Cycle) {
	t.Helper()
	V := own[0].vcs
	want, got := make([]int64, V+1), make([]int64, V+1)
	dst := make([]int64, own[0].ports*(V+1))
	for _, r := range own {
		clear(dst)
		r.Occupancy(now+1, dst)
		for q := range r.ports {
			for v := 0; v <= V && r.linked>>q&1 != 0; v++ {
				want[v] += dst[q*(V+1)+v]
			}
		}
	}
	pl.Occupancy(now+1, got)
	if !slices.Equal(got, want) {
		t.Fatalf("cycle %d: occupancy %v in the plane, %v alone", now, got, want)
	}
	if now == resetAt {
		for _, r := range own {
			r.ResetOccupancy(now + 1)
		}
		pl.ResetOccupancy(now + 1)
	}
}

// reported returns ejected flits as far as a router promises them: a body
// flit (neither head nor tail) reports no hop count (Flit.Hops: only tails
// do; a plane with anonymous bodies, Plane.anon, keeps none), so its Hops
// is cleared. It changes fs in place.
func reported(fs []Flit) []Flit {
	for k := range fs {
		if fs[k].Flags&(Head|Tail) == 0 {
			fs[k].Hops = 0
		}
	}
	return fs
}

// anyBusy reports whether a NIC is still in the middle of a packet.
func (s *planeSource) anyBusy() bool {
	for _, ni := range s.nics {
		if ni.busy {
			return true
		}
	}
	return false
}

// ownContended reports whether two active input VCs of r hold flits for
// one output port.
func ownContended(r *Router) bool {
	var seen uint64
	for i := range r.in {
		ivc := &r.in[i]
		if ivc.state != vcActive || ivc.count == 0 {
			continue
		}
		bit := uint64(1) << uint(ivc.outPort)
		if seen&bit != 0 {
			return true
		}
		seen |= bit
	}
	return false
}

// ownFull reports whether an input VC of a network port of r is full.
func ownFull(r *Router) bool {
	for i := 0; i < r.local*r.vcs; i++ {
		if int(r.in[i].count) == r.depth {
			return true
		}
	}
	return false
}

// TestPlaneRoundRobinAlternates mirrors TestSwitchAllocatorRoundRobin in
// a plane: packets contending for the local output port of one router
// share it flit by flit, in exactly the order the router's own allocator
// gives. "ports" puts them on two input ports (the output-stage pointer
// moves past the port that was granted), "VCs" on two VCs of one input
// port (the input-stage pointer moves past the VC that used the grant),
// "both" on three VCs of two ports.
func TestPlaneRoundRobinAlternates(t *testing.T) {
	type at struct{ port, vc int }
	for _, c := range []struct {
		name      string
		vcs       int
		inputs    []at // one 4-flit packet each, all to the router itself
		alternate bool // no packet twice in a row while another waits
	}{
		{"ports", 2, []at{{0, 0}, {1, 1}}, true},
		{"VCs", 2, []at{{1, 0}, {1, 1}}, true},
		{"both", 3, []at{{0, 0}, {0, 1}, {1, 2}}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			line := planeLine{n: 1, cfg: Arch{VCs: c.vcs, BufferDepth: 8}, ejectVCs: c.vcs, link: 1, credit: 1}
			own, _ := line.build(t)
			planed, pl := line.plane(t)
			for k, in := range c.inputs {
				for _, f := range packetFlits(int32(k+1), 0, 4) {
					own[0].Accept(in.port, in.vc, f, 0)
					planed[0].Accept(in.port, in.vc, f, 0)
				}
			}
			var want, got []int32
			for now := sim.Cycle(0); now < 30; now++ {
				own[0].Step(now)
				for _, d := range own[0].Sent {
					want = append(want, d.Flit.Packet)
				}
				pl.Step(now)
				if len(pl.Ejected) > 1 {
					t.Fatalf("cycle %d: %d flits through one output port", now, len(pl.Ejected))
				}
				for _, f := range pl.Ejected {
					got = append(got, f.Packet)
				}
			}
			if n := 4 * len(c.inputs); len(got) != n || len(want) != n {
				t.Fatalf("plane ejected %d flits, router alone %d; want %d", len(got), len(want), n)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("plane grants %v, router alone %v", got, want)
			}
			if c.alternate {
				for k := 1; k < len(got); k++ {
					if got[k] == got[k-1] {
						t.Fatalf("plane grants %v: same input twice in a row while the other waited", got)
					}
				}
			}
		})
	}
}

// TestPlaneStepDoesNotAllocate: once its timing wheel and ejection list
// have grown, a plane's cycle (sources included) allocates nothing.
func TestPlaneStepDoesNotAllocate(t *testing.T) {
	line := planeLine{n: 4, cfg: Arch{VCs: 2, BufferDepth: 2, RoutingDelay: 1, VCAllocDelay: 1}, ejectVCs: 1, link: 2, credit: 2, injectLatency: 1}
	rs, pl := line.plane(t)
	src := newPlaneSource(7, line.n, 0.6, 1, 6, line.injectLatency, 1<<40)
	now := sim.Cycle(0)
	for ; now < 2000; now++ {
		src.feed(rs, now)
		pl.Step(now)
	}
	moved := 0
	allocs := testing.AllocsPerRun(1000, func() {
		src.feed(rs, now)
		moved += pl.Step(now)
		now++
	})
	if allocs != 0 {
		t.Fatalf("a plane cycle allocates %v times", allocs)
	}
	if moved == 0 {
		t.Fatal("no flit moved while measuring")
	}
}

// TestPlaneCountedSink: an output port to a sink other than the local one
// draws on the router's counted credits in a plane as it does alone: a
// flit leaving through it takes one (Plane.move), AddCredit gives it back
// and wakes the VC waiting for it. Packets from router 0 to a destination
// past the line leave the last router through its port 0, which leads
// nowhere; the test returns each such flit's credit a few cycles later to
// both the routers alone and the plane, and the two must eject the same
// flits in the same cycles, with the credits running out on the way.
func TestPlaneCountedSink(t *testing.T) {
	line := planeLine{n: 3, cfg: Arch{VCs: 1, BufferDepth: 2}, ejectVCs: 1, link: 1, credit: 1}
	own, _ := line.build(t)
	planed, pl := line.plane(t)
	pl.RouterOrder = true // two sink ports: in port order the plane would list the exit's flits first
	const (
		exit    = 3 // a destination past the line: the last router sends it out of port 0
		back    = 5 // cycles before an exiting flit's credit returns
		packets = 12
		length  = 3
	)
	last := line.n - 1
	type system struct {
		rs      []*Router
		next    int         // flits written into router 0
		credits []sim.Cycle // cycles credits of the exit return, in order
	}
	flits := make([]Flit, 0, packets*length)
	for p := range packets {
		dest := int32(exit)
		if p%3 == 2 {
			dest = 1 // some traffic for the local sink of router 1, which never runs out
		}
		flits = append(flits, packetFlits(int32(p), dest, length)...)
	}
	sys := []*system{{rs: own}, {rs: planed}}
	feed := func(s *system, now sim.Cycle) {
		for _, at := range s.credits {
			if at == now {
				s.rs[last].AddCredit(0, 0)
			}
		}
		if s.next < len(flits) && s.rs[0].CanAccept(2, 0, now) {
			s.rs[0].Accept(2, 0, flits[s.next], now)
			s.next++
		}
	}
	var want, got []Flit
	starved, exited := 0, 0
	for now := sim.Cycle(0); now < 500; now++ {
		for _, s := range sys {
			feed(s, now)
		}
		want = want[:0]
		for _, r := range own {
			r.Step(now)
			for _, d := range r.Sent {
				want = append(want, d.Flit)
				if d.Port == 0 {
					sys[0].credits = append(sys[0].credits, now+back)
				}
			}
		}
		pl.Step(now)
		got = append(got[:0], pl.Ejected...)
		for _, f := range got {
			if f.Dest == exit {
				sys[1].credits = append(sys[1].credits, now+back)
				exited++
			}
		}
		if !slices.Equal(reported(got), reported(want)) {
			t.Fatalf("cycle %d: plane ejected %+v, routers alone %+v", now, got, want)
		}
		if own[last].ovCredits[0] == 0 {
			starved++
		}
		if own[last].ovCredits[0] != planed[last].ovCredits[0] {
			t.Fatalf("cycle %d: the exit holds %d credits in the plane, %d alone", now, planed[last].ovCredits[0], own[last].ovCredits[0])
		}
	}
	if exited != packets*length*2/3 || sys[1].next != len(flits) {
		t.Fatalf("%d flits left by the exit, %d written: want %d and %d", exited, sys[1].next, packets*length*2/3, len(flits))
	}
	if starved == 0 {
		t.Error("vacuous: the exit never ran out of credits")
	}
	t.Logf("%d flits through the exit, %d cycles with its credits out", exited, starved)
}

// TestSlotlessInjectRefuses checks that a plane whose local VCs keep no
// slots for bodies (an injection latency of at most 1) refuses what would
// break that: a flit injected into a port other than the local one, or
// arriving later than the latency it was set for.
func TestSlotlessInjectRefuses(t *testing.T) {
	line := planeLine{n: 4, cfg: Arch{VCs: 2, BufferDepth: 2}, ejectVCs: 2, link: 1, credit: 1, injectLatency: 1}
	for _, c := range []struct {
		name      string
		port      int
		now, at   sim.Cycle
		wantPanic bool
	}{
		{"local port, latency 1", 2, 0, 1, false},
		{"network port", 0, 0, 0, true},
		{"local port, latency 2", 2, 0, 2, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, pl := line.plane(t)
			if pl.slotsFrom != pl.n {
				t.Fatalf("local VCs keep their slots: slotsFrom %d, want %d", pl.slotsFrom, pl.n)
			}
			defer func() {
				if got := recover() != nil; got != c.wantPanic {
					t.Errorf("Inject(port %d, cycle %d, arriving %d) panicked: %v, want %v", c.port, c.now, c.at, got, c.wantPanic)
				}
			}()
			pl.Inject(1, c.port, 0, Flit{Packet: 1, Dest: 3, Len: 2, Flags: Head}, c.now, c.at)
		})
	}
}

// TestFrontPacketPastEmptyLocalVC: a deadlock report names, for a body
// whose tail is still in the NIC, the packet of the local VC's last flit
// out, not that of the stale slot at the front of the emptied VC. The
// local VCs keep their slots (injection latency 2); packet 7 (2 flits)
// goes through first, so the slot at the front of the emptied VC holds
// packet 7's tail when packet 9's three first flits have left it.
func TestFrontPacketPastEmptyLocalVC(t *testing.T) {
	line := planeLine{n: 3, cfg: Arch{VCs: 1, BufferDepth: 4, RoutingDelay: 1, VCAllocDelay: 1}, ejectVCs: 1, link: 1, credit: 1, injectLatency: 2}
	rs, pl := line.plane(t)
	if !pl.anon || pl.slotsFrom != pl.localIVC {
		t.Fatalf("anon %v, slotsFrom %d (local %d): want anonymous bodies and local VCs with slots", pl.anon, pl.slotsFrom, pl.localIVC)
	}
	local := 2 // router 0's local port
	inject := func(now sim.Cycle, f Flit) {
		if !pl.Inject(0, local, 0, f, now, now+line.injectLatency) {
			t.Fatalf("cycle %d: no room for flit %+v", now, f)
		}
	}
	now := sim.Cycle(0)
	inject(now, Flit{Packet: 7, Dest: 2, Len: 2, Flags: Head})
	pl.Step(now)
	now++
	inject(now, Flit{Packet: 7, Dest: 2, Len: 2, Flags: Tail})
	for ; now < 30; now++ {
		pl.Step(now)
	}
	// Packet 9: its head and two bodies, the tail held back in the NIC.
	for k := range 3 {
		f := Flit{Packet: 9, Dest: 2, Len: 4}
		if k == 0 {
			f.Flags = Head
		}
		inject(now, f)
		pl.Step(now)
		now++
	}
	reported := 0
	for ; now < 60; now++ {
		pl.Step(now)
		if rs[0].in[pl.localIVC].count != 0 {
			continue
		}
		for _, r := range rs[1:] {
			for _, b := range r.Blocked(nil, now+1) {
				reported++
				if b.Packet != 9 {
					t.Fatalf("cycle %d, router %d: %+v names packet %d, want 9", now, r.id, b, b.Packet)
				}
			}
		}
	}
	if reported == 0 {
		t.Fatal("no body of packet 9 reported while router 0's local VC was empty: the case tests nothing")
	}
	t.Logf("%d reports of packet 9's bodies past the emptied local VC", reported)
}

// TestLinkCountCarries has an output VC's link count (outVCState.flits)
// wrap past 2^32: LinkFlits goes on counting from where it was.
func TestLinkCountCarries(t *testing.T) {
	rs, _ := planeLine{n: 2, cfg: Arch{VCs: 2, BufferDepth: 2}, ejectVCs: 1, link: 1, credit: 1}.plane(t)
	r := rs[0]
	if r.linked&1 == 0 {
		t.Fatal("router 0's port 0 leads nowhere: the case tests nothing")
	}
	d := &r.outs[1] // output VC 1 of port 0
	d.flits = 1<<32 - 3
	before := r.LinkFlits(0)
	d.count(r, 0, 5)
	if got, want := r.LinkFlits(0), before+5; before != 1<<32-3 || got != want {
		t.Errorf("LinkFlits %d before, %d after a 5-flit packet; want %d, %d", before, got, int64(1<<32-3), want)
	}
}

// TestRouterInPlaneHasNoOccupancyOfItsOwn asks a router in a plane for its
// own occupancy, which its plane keeps: it must refuse (panic), not answer
// from a record nobody updates.
func TestRouterInPlaneHasNoOccupancyOfItsOwn(t *testing.T) {
	rs, _ := planeLine{n: 2, cfg: Arch{VCs: 2, BufferDepth: 2}, ejectVCs: 1, link: 1, credit: 1}.plane(t)
	for name, call := range map[string]func(){
		"Occupancy":      func() { rs[0].Occupancy(5, make([]int64, rs[0].ports*(rs[0].vcs+1))) },
		"ResetOccupancy": func() { rs[0].ResetOccupancy(5) },
	} {
		func() {
			defer func() {
				if msg, _ := recover().(string); !strings.Contains(msg, "Plane.Occupancy") {
					t.Errorf("%s of a router in a plane: panic %q, want one naming Plane.Occupancy", name, msg)
				}
			}()
			call()
		}()
	}
}

// TestSplitMarksForeignLinks holds Split to what the traversal and its
// loads ahead rely on (touchRouting reads the Router a down entry names
// without asking whose it is): after a split, every output VC's down entry
// at or above 0 names an input VC of a router of the same partition, and
// the links between partitions are marked crossVC (below -1), both in the
// output VCs and in the granted input VCs' copies.
func TestSplitMarksForeignLinks(t *testing.T) {
	l := planeLine{n: 200, cfg: Arch{VCs: 2, BufferDepth: 4, RoutingDelay: 1, VCAllocDelay: 1, SwitchAllocDelay: 1}, ejectVCs: 1, link: 1, credit: 1}
	rs, pl := l.plane(t)
	src := newPlaneSource(3, l.n, 0.3, 2, 6, 1, 1<<40)
	for now := sim.Cycle(0); now < 50; now++ { // granted VCs hold copies of down entries
		src.feed(rs, now)
		pl.Step(now)
	}
	parts, err := pl.Split(2)
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) != 2 {
		t.Fatalf("Split(2) gave %d partitions", len(parts))
	}
	crossings, local, copies := 0, 0, 0
	check := func(r *Router, what string, d int32) {
		switch {
		case d >= 0:
			if id := int(d) / pl.n; r.plane.foreign(id) {
				t.Errorf("router %d: %s leads to router %d of another partition unmarked (down %d)", r.id, what, id, d)
			}
			local++
		case d < -1:
			if id := downVC(d) / pl.n; !r.plane.foreign(id) {
				t.Errorf("router %d: %s leads to router %d of its own partition but is marked crossVC", r.id, what, id)
			}
			crossings++
		}
	}
	for _, r := range rs {
		for o := range r.outs {
			check(r, fmt.Sprintf("output VC %d", o), r.outs[o].down)
		}
		for i := range r.in {
			if r.in[i].state == vcActive {
				check(r, fmt.Sprintf("input VC %d's copy", i), r.in[i].down)
				copies++
			}
		}
	}
	// A line of 200 routers split at router 128 has one link each way
	// between the partitions: two output VCs each.
	if crossings < 4 || local == 0 || copies == 0 {
		t.Errorf("%d crossing, %d local down entries, %d granted copies: the test saw too little", crossings, local, copies)
	}
}

// TestPlaneWordPages pins the layout planeWord's comments count on: a
// word is whole pages of 4 KiB, so that words lie on page boundaries in
// a page-aligned array, and what the moves read and write (the output
// pointers, the allocation's scratch, the request bits) lies in its last
// page (docs/speed.md#session27).
func TestPlaneWordPages(t *testing.T) {
	const page = 4096
	var pw planeWord
	size := unsafe.Sizeof(pw)
	if size%page != 0 {
		t.Fatalf("planeWord is %d bytes, not whole pages of %d", size, page)
	}
	last := size - page
	for _, f := range []struct {
		name string
		off  uintptr
	}{
		{"outLE", unsafe.Offsetof(pw.outLE)},
		{"granted", unsafe.Offsetof(pw.granted)},
		{"pbits", unsafe.Offsetof(pw.pbits)},
		{"vbits", unsafe.Offsetof(pw.vbits)},
		{"elig", unsafe.Offsetof(pw.elig)},
	} {
		if f.off < last {
			t.Errorf("planeWord.%s at byte %d, before the last page (from %d)", f.name, f.off, last)
		}
	}
}
