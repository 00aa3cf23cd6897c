package router

import (
	"fmt"
	"math"

	"github.com/flitsim/flitsim/sim"
)

// Probe is a scouting packet's routing header, as carried between routers.
type Probe struct {
	Packet int32 // packet id
	Dest   int32 // destination router
	Len    int32 // data flits
	Pos    int32 // links from the source to the router it is sent to
	HW     int32 // the header's high-water mark (math.MaxInt32: complete)
	// Tag is unique per header (source router id << 40 | launch count), so
	// an acknowledgement cannot be taken for a later packet that reuses
	// the packet id.
	Tag uint64
}

// HWComplete is the high-water mark of a header that has reserved the
// ejection channel at its destination.
const HWComplete = math.MaxInt32

// ControlKind says what a Control message is.
type ControlKind uint8

// Scouting control messages.
const (
	// ProbeForward: the header was granted output VC (Port, VC) and moves
	// to the downstream router, entering input VC (Port, VC) there
	// (VCAllocDelay + switch delays + LinkLatency cycles later, as a head
	// flit would).
	ProbeForward ControlKind = iota
	// ProbeBack is the negative acknowledgement: the header released input
	// VC (Port, VC) and returns to the upstream router, where it frees the
	// output VC feeding that input (CreditDelay cycles later).
	ProbeBack
	// Ack is a positive acknowledgement carrying Probe.HW upstream through
	// input VC (Port, VC) to the output VC feeding it (CreditDelay cycles).
	Ack
	// Complete: the header reserved the ejection channel at its
	// destination (no delivery; for measurement).
	Complete
)

var controlNames = [...]string{"probe-forward", "probe-back", "ack", "complete"}

func (k ControlKind) String() string {
	if int(k) < len(controlNames) {
		return controlNames[k]
	}
	return fmt.Sprintf("ControlKind(%d)", k)
}

// Control is one scouting control message leaving a router.
type Control struct {
	Kind     ControlKind
	Port, VC int
	Probe    Probe
}

// scoutVC is the scouting state of an input VC.
type scoutVC struct {
	tag               uint64
	pkt, dest, length int32
	pos               int32 // position of this router on the packet's path
	hw                int32 // the header's HW (exact while the header is here)
	known             int32 // HW known here, for the data gate
	excl              int32 // port the header backtracked from, -1 none
	pending           bool  // a header waits for the previous packet to leave (network ports)
	pend              Probe
}

// startProbe makes the header p the current packet of idle input VC i,
// routed from cycle at.
func (r *Router) startProbe(i int, p Probe, at sim.Cycle) {
	ivc := &r.in[i]
	s := &r.scout[i]
	*s = scoutVC{tag: p.Tag, pkt: p.Packet, dest: p.Dest, length: p.Len, pos: p.Pos, hw: p.HW, known: p.HW, excl: -1}
	r.computeRoute(i, p.Dest, at)
	ivc.remain = p.Len
	ivc.state = vcRouting
	ivc.readyAt = at + sim.Cycle(r.cfg.RoutingDelay)
	r.waitingVA++
	r.mark(r.portVC(i))
}

// nextHeader starts the next packet of input VC i after a tail left: at
// the local port the next head flit in the buffer launches a header, at a
// network port a header that arrived meanwhile is routed.
func (r *Router) nextHeader(i int, at sim.Cycle) {
	if i/r.vcs == r.local {
		if r.in[i].count > 0 {
			r.startRouting(i, at)
		}
		return
	}
	if s := &r.scout[i]; s.pending {
		s.pending = false
		r.startProbe(i, s.pend, at)
	}
}

// AcceptProbe delivers a header arriving at input VC (port, vc) in cycle
// now. If the VC still carries the previous packet the header waits until
// that packet's tail has left.
func (r *Router) AcceptProbe(port, vc int, p Probe, now sim.Cycle) {
	i := port*r.vcs + vc
	if r.in[i].state == vcIdle {
		r.startProbe(i, p, now)
		return
	}
	s := &r.scout[i]
	if s.pending {
		panic(fmt.Sprintf("router %d: two headers (packets %d, %d) wait at input VC (%d,%d)", r.id, s.pend.Packet, p.Packet, port, vc))
	}
	s.pending, s.pend = true, p
}

// headerGranted runs when the header at input VC i was granted output VC
// o: it moves on (or completes), acknowledges a new high-water mark
// upstream and closes the data gate until the header is K links ahead.
func (r *Router) headerGranted(i int, o int32, now sim.Cycle) {
	ivc := &r.in[i]
	s := &r.scout[i]
	s.excl = -1
	q := int(o) / r.vcs
	p := Probe{Packet: s.pkt, Dest: s.dest, Len: s.length, Tag: s.tag}
	if q == r.local {
		s.hw, s.known = HWComplete, HWComplete
		p.HW = HWComplete
		r.Control = append(r.Control, Control{Kind: Complete, Probe: p})
		r.ack(i, p)
		return
	}
	p.Pos = s.pos + 1
	if p.Pos > s.hw {
		s.hw = p.Pos
		s.known = max(s.known, s.hw)
		p.HW = s.hw
		r.ack(i, p)
	}
	p.HW = s.hw
	r.Control = append(r.Control, Control{Kind: ProbeForward, Port: q, VC: int(o) - q*r.vcs, Probe: p})
	if s.known < s.pos+1+r.scoutK {
		ivc.state = vcScoutWait
	}
}

// ack sends a positive acknowledgement with p.HW upstream from input VC i,
// unless i is at the source.
func (r *Router) ack(i int, p Probe) {
	if port := i / r.vcs; port != r.local {
		r.Control = append(r.Control, Control{Kind: Ack, Port: port, VC: i % r.vcs, Probe: p})
	}
}

// AcceptAck applies a positive acknowledgement arriving at output VC
// (port, vc) in cycle now: the input VC holding that VC for the packet
// raises its known HW, opens the data gate if the header is far enough
// ahead, and passes the acknowledgement on unless the data is already here
// or gone. Acknowledgements for a VC no longer held by the packet (its
// header came back through it) are dropped.
func (r *Router) AcceptAck(port, vc int, p Probe, now sim.Cycle) {
	owner := r.owner(int32(port*r.vcs + vc))
	if owner < 0 {
		return
	}
	s := &r.scout[owner]
	if s.tag != p.Tag || p.HW <= s.known {
		return
	}
	s.known = p.HW
	ivc := &r.in[owner]
	if ivc.state == vcScoutWait && s.known >= s.pos+1+r.scoutK {
		ivc.state = vcActive
		if ivc.readyAt < now {
			ivc.readyAt = now
		}
		r.mark(int(owner)/r.vcs, int(owner)%r.vcs)
	}
	if !r.arrived(int(owner), 1, now) && ivc.remain == s.length {
		r.ack(int(owner), p)
	}
}

// canBacktrack reports whether the header at input VC i may backtrack: not
// from the source, not at its destination (a busy ejection channel is
// waited for, as the model has no blocking there), and not more than K
// links below its high-water mark.
func (r *Router) canBacktrack(i int) bool {
	s := &r.scout[i]
	return s.pos > 0 && s.pos-1 >= s.hw-r.scoutK && int(s.dest) != r.id
}

// backtrack releases input VC i and sends its header upstream.
func (r *Router) backtrack(i int, now sim.Cycle) {
	ivc := &r.in[i]
	s := &r.scout[i]
	if ivc.count != 0 {
		panic(fmt.Sprintf("router %d: header of packet %d backtracks from input VC %d holding %d flits", r.id, s.pkt, i, ivc.count))
	}
	ivc.state = vcIdle
	ivc.outVC = -1
	r.waitingVA--
	r.Control = append(r.Control, Control{Kind: ProbeBack, Port: i / r.vcs, VC: i % r.vcs,
		Probe: Probe{Packet: s.pkt, Dest: s.dest, Len: s.length, Pos: s.pos - 1, HW: s.hw, Tag: s.tag}})
	r.mark(r.portVC(i))
}

// AcceptBacktrack applies a negative acknowledgement arriving at output VC
// (port, vc) in cycle now: the VC is released and the header that held it
// is routed again at the input VC that owned it, avoiding this port.
func (r *Router) AcceptBacktrack(port, vc int, p Probe, now sim.Cycle) {
	o := int32(port*r.vcs + vc)
	owner := r.owner(o)
	if owner < 0 || r.scout[owner].tag != p.Tag {
		panic(fmt.Sprintf("router %d: negative acknowledgement of packet %d for output VC (%d,%d) it does not hold", r.id, p.Packet, port, vc))
	}
	ivc := &r.in[owner]
	s := &r.scout[owner]
	if ivc.state != vcScoutWait || ivc.remain != s.length {
		panic(fmt.Sprintf("router %d: header of packet %d came back to input VC %d whose data already moved (state %d)", r.id, p.Packet, owner, ivc.state))
	}
	r.release(o, int32(port), now)
	s.hw = max(s.hw, p.HW)
	s.known = max(s.known, p.HW)
	s.excl = int32(port)
	ivc.state = vcRouting
	ivc.outVC = -1
	ivc.readyAt = now + sim.Cycle(r.cfg.RoutingDelay)
	r.waitingVA++
	r.mark(int(owner)/r.vcs, int(owner)%r.vcs)
}
