package router

import (
	"fmt"
	"math/bits"

	"github.com/flitsim/flitsim/router/alloc"
	"github.com/flitsim/flitsim/sim"
)

// newAllocators builds the allocators Arch names (package alloc); the
// built-in ones need nothing.
func (r *Router) newAllocators() error {
	iters := max(r.cfg.AllocIterations, 1)
	n := len(r.in)
	if name := r.cfg.VCAllocator; name != "" {
		if n > alloc.MaxSize {
			return fmt.Errorf("router: VC allocator %s serves up to %d VCs in all, the router has %d", name, alloc.MaxSize, n)
		}
		a, err := alloc.New(name, n, n, iters)
		if err != nil {
			return err
		}
		r.named = &namedAllocators{va: a}
	}
	if name := r.cfg.SwitchAllocator; name != "" {
		a, err := alloc.New(name, r.ports, r.ports, iters)
		if err != nil {
			return err
		}
		if r.named == nil {
			r.named = &namedAllocators{}
		}
		r.named.sw = a
		r.named.swVC = make([]int8, r.ports*r.ports)
	}
	if r.named != nil {
		r.named.req = make([]uint64, max(n, r.ports))
		r.named.grant = make([]int, max(n, r.ports))
	}
	return nil
}

// namedAllocators are a router's allocators of package alloc, with their
// request and grant scratch.
type namedAllocators struct {
	va, sw alloc.Allocator // nil: the built-in one
	req    []uint64
	grant  []int
	swVC   []int8 // per input port p and output port q: the VC p offers q (p*ports+q)
}

// allocateVCsWith is VC allocation by the allocator of Arch.VCAllocator:
// every header past its routing delay requests every free admissible
// output VC (with room for the whole packet under cut-through), as
// BookSim 2's iq_router does, and the allocator matches input VCs with
// output VCs. Adaptive selection and scouting keep their own input stage
// (selectVC): their one request per header goes through the allocator;
// under Arch.AdaptiveVC BookSimVC a header requests every free VC of its
// candidates (requestAll), as BookSim's does.
func (r *Router) allocateVCsWith(now sim.Cycle) {
	n := len(r.in)
	req := r.named.req[:n]
	clear(req)
	for ports := r.vaPorts; ports != 0; ports &= ports - 1 {
		p := bits.TrailingZeros64(ports)
		for m := r.vaMaskOf(p); m != 0; m &= m - 1 {
			i := p*r.vcs + bits.TrailingZeros64(m)
			ivc := &r.in[i]
			ivc.outVC = -1
			if ivc.readyAt > now {
				continue
			}
			if r.rich && r.cfg.AdaptiveVC == BookSimVC {
				req[i] = r.requestAll(i, now) // every free VC of the candidates
				continue
			}
			if r.rich {
				if o := r.selectVC(i, r.cutThrough, now); o >= 0 {
					req[i] = 1 << uint(o)
				}
				continue
			}
			var need int32
			if r.cutThrough && int(ivc.outPort) != r.local {
				need = ivc.remain // the head's packet length (startRouting)
			}
			lo, hi := r.vcSpan(ivc)
			for o := lo; o < hi; o++ {
				if r.outs[o].owner < 0 && (need == 0 || r.hasCredits(int32(ivc.outPort), o, need, now)) {
					req[i] |= 1 << uint(o)
				}
			}
		}
	}
	grant := r.named.grant[:n]
	r.named.va.Allocate(req, grant)
	for i, o := range grant {
		if o >= 0 {
			r.grantVC(int32(i), int32(o), now)
		}
	}
}

// allocateSwitchWith is switch allocation by the allocator of
// Arch.SwitchAllocator, followed by switch traversal of the winners:
// each input port offers, for every output port, its first eligible VC at
// or after its pointer that requests it; the allocator matches input ports
// with output ports; a winning port's pointer moves past the VC that won.
func (r *Router) allocateSwitchWith(now sim.Cycle) (moved int) {
	P := r.ports
	req := r.named.req[:P]
	clear(req)
	vcs := uint(r.vcs)
	for ports := r.saPorts; ports != 0; ports &= ports - 1 {
		p := uint(bits.TrailingZeros64(ports))
		ps := &r.port[p&63]
		k := uint(ps.saInPtr)
		for m := rotate(ps.saMask, k, vcs, r.vcMask); m != 0; m &= m - 1 {
			v := wrap(k+uint(bits.TrailingZeros64(m)), vcs)
			i := int32(p*vcs + v)
			ivc := &r.in[i]
			if ivc.readyAt > now || r.slots[i*int32(r.depth)+int32(ivc.head)].t() > now {
				continue
			}
			if !r.hasCredits(int32(ivc.outPort), int32(ivc.outVC), 1, now) {
				continue
			}
			if r.saf && !r.arrived(int(i), ivc.remain, now) {
				continue
			}
			q := uint(ivc.outPort)
			if req[p]>>q&1 == 0 {
				req[p] |= 1 << q
				r.named.swVC[int(p)*P+int(q)] = int8(v)
			}
		}
	}
	grant := r.named.grant[:P]
	r.named.sw.Allocate(req, grant)
	for p, q := range grant {
		if q < 0 {
			continue
		}
		v := uint(r.named.swVC[p*P+q])
		r.port[p&63].saInPtr = int16(wrap(v+1, vcs))
		r.traverse(p*r.vcs+int(v), now)
		moved++
	}
	return moved
}
