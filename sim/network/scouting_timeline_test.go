package network

import (
	"fmt"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/router"
	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/topology"
)

// Hand-derived timelines of the scouting mechanisms (seed 004 §1, §3.1;
// router/doc.go "Scouting: timing") on the one-cycle router of the paper's
// simulator: LL = CD = 1, no stage delays, no injection or ejection
// latency. A header that arrives at the router at position j in cycle a_j
// is granted there in the same cycle (g_j = a_j) and reaches position j+1
// in a_j + 1; an acknowledgement takes CD = 1 cycle per link; a released
// VC can be granted again in the next cycle.

// scoutLog formats the scouting events as "cycle:kind@router(pos,hw)".
func scoutLog(n *Network) *[]string {
	var log []string
	n.OnScout(func(e ScoutEvent) {
		hw := fmt.Sprint(e.Probe.HW)
		if e.Probe.HW == router.HWComplete {
			hw = "done"
		}
		log = append(log, fmt.Sprintf("%d:%v@%d(%d,%s)", e.Cycle, e.Kind, e.Router, e.Probe.Pos, hw))
	})
	return &log
}

// TestScoutingTimelineLeadAndAcks follows one message, M = 4 flits, K = 2,
// over the unique minimal path 0 -> 1 -> 2 -> 3 -> 4 of a 5x5 mesh (D = 4,
// positions 0..4), offered in cycle 0.
//
// Header: a_j = g_j = j. At g_j (j = 0..3) router j sends it on with
// Pos j+1 = HW; routers 1..3 acknowledge HW = j+1 upstream in cycle j; at
// g_4 = 4 router 4 reserves the ejection channel (Complete) and
// acknowledges HW = done. An acknowledgement is passed on upstream by every
// router the data has not reached yet:
//
//	cycle 0: forward@0 (1,1)
//	cycle 1: ack@1 (HW 2), forward@1 (2,2)
//	cycle 2: ack@2 (HW 3), forward@2 (3,3)
//	cycle 3: ack@1 (HW 3, passed on), ack@3 (HW 4), forward@3 (4,4)
//	cycle 4: ack@2 (HW 4, passed on), complete@4, ack@4 (done)
//	cycle 5: ack@3 (done, passed on)
//
// (router 1 gets HW 4 in cycle 5, when the data is there, and router 2
// gets done in cycle 6, when the data is there: neither passes it on).
//
// Data: the first flit may leave position h once HW >= h+1+K is known
// there (the header K links ahead), or done for h+K >= D:
//
//	G_0 = HW 3 at router 0: ack@1 of cycle 3 + 1 = 4
//	G_1 = HW 4 at router 1: ack@2 of cycle 4 + 1 = 5
//	G_2 = done at router 2: ack@3 of cycle 5 + 1 = 6
//	G_3 = done at router 3: ack@4 of cycle 4 + 1 = 5
//
// and leaves in s_h = max(s_{h-1}+1, G_h) = 4, 5, 6, 7; the head leaves
// router 4 for the sink in 8 and the tail is delivered in 8 + M - 1 = 11 =
// D + M + 2K - 1. Router h sends one flit per cycle in s_h .. s_h+3.
func TestScoutingTimelineLeadAndAcks(t *testing.T) {
	c := idleConfig(topology.Spec{Kind: topology.Mesh, K: 5, N: 2}, scouting(oneCycle(1, 2), 2))
	c.Routing = RoutingAdaptive
	n, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	log := scoutLog(n)
	var got []Delivery
	n.OnDeliver(func(d Delivery) { got = append(got, d) })
	n.Offer(0, 4, 4)
	first := []sim.Cycle{-1, -1, -1, -1}
	sent := make([]int64, 4)
	for cyc := sim.Cycle(0); cyc < 20; cyc++ {
		n.Step()
		for r := range first {
			f := n.routers[r].LinkFlits(0) // +x
			if f > sent[r] && first[r] < 0 {
				first[r] = cyc
			}
			sent[r] = f
		}
	}
	want := strings.Join([]string{
		"0:probe-forward@0(1,1)",
		"1:ack@1(2,2)", "1:probe-forward@1(2,2)",
		"2:ack@2(3,3)", "2:probe-forward@2(3,3)",
		"3:ack@1(3,3)", "3:ack@3(4,4)", "3:probe-forward@3(4,4)",
		"4:ack@2(4,4)", "4:complete@4(0,done)", "4:ack@4(0,done)",
		"5:ack@3(0,done)",
	}, " ")
	if g := strings.Join(*log, " "); g != want {
		t.Errorf("events\n got %s\nwant %s", g, want)
	}
	if fmt.Sprint(first) != "[4 5 6 7]" {
		t.Errorf("first data flit left routers 0..3 in cycles %v, want s_h = [4 5 6 7]", first)
	}
	if fmt.Sprint(sent) != "[4 4 4 4]" {
		t.Errorf("flits sent on the path %v, want 4 per link", sent)
	}
	if len(got) != 1 || got[0].Latency != 11 || got[0].Hops != 4 {
		t.Fatalf("deliveries %+v, want one at latency D + M + 2K - 1 = 11 over 4 links", got)
	}
}

// TestScoutingTimelineBacktrack: the set-up of TestScoutingBacktrackAndRetry
// (4x4 mesh, one VC; a 400-flit message 1 -> 9 holds channel 1 -> 5 from
// cycle 0), then a 4-flit message 0 -> 5 with K = 2 offered in cycle 10.
// Seed 1 sends its header +x to router 1 first, seed 2 +y to router 4.
//
// Seed 1 (one backtrack):
//
//	cycle 10: forward@0 (1,1)               header to router 1
//	cycle 11: probe-back@1 (0,1)            1 -> 5 busy, 1-1 >= HW-K = -1: negative ack
//	cycle 12: forward@0 (1,1) on +y         VC 0 -> 1 released, routed again avoiding +x
//	cycle 13: ack@4 (2,2), forward@4 (2,2)
//	cycle 14: complete@5, ack@5 (done)      set-up time 14 - 10 = 4
//	cycle 15: ack@4 (done, passed on)       reaches router 0 in 16 = G_0
//
// data: s_0 = 16, s_1 = 17, head to the sink in 18, tail delivered in 21:
// latency 11 = D + M + 2K - 1 (= 9) + 2, one hop forward and one back.
//
// Seed 2 (no backtrack): forward@0 in 10, ack@4 and forward@4 in 11,
// complete@5 and ack@5 in 12, ack@4 in 13; latency 9.
func TestScoutingTimelineBacktrack(t *testing.T) {
	cases := []struct {
		seed    uint64
		events  string
		latency sim.Cycle
	}{
		{1, "10:probe-forward@0(1,1) 11:probe-back@1(0,1) 12:probe-forward@0(1,1) 13:ack@4(2,2) 13:probe-forward@4(2,2) 14:complete@5(0,done) 14:ack@5(0,done) 15:ack@4(0,done)", 11},
		{2, "10:probe-forward@0(1,1) 11:ack@4(2,2) 11:probe-forward@4(2,2) 12:complete@5(0,done) 12:ack@5(0,done) 13:ack@4(0,done)", 9},
	}
	for _, tc := range cases {
		c := idleConfig(topology.Spec{Kind: topology.Mesh, K: 4, N: 2}, scouting(oneCycle(1, 2), 2))
		c.Routing, c.Seed = RoutingAdaptive, tc.seed
		n, err := New(c)
		if err != nil {
			t.Fatal(err)
		}
		n.Offer(1, 9, 400)
		for k := 0; k < 10; k++ {
			n.Step()
		}
		log := scoutLog(n)
		var got []Delivery
		n.OnDeliver(func(d Delivery) { got = append(got, d) })
		n.Offer(0, 5, 4)
		for k := 0; k < 40; k++ {
			n.Step()
		}
		if g := strings.Join(*log, " "); g != tc.events {
			t.Errorf("seed %d: events\n got %s\nwant %s", tc.seed, g, tc.events)
		}
		if len(got) != 1 || got[0].Latency != tc.latency || got[0].Hops != 2 {
			t.Errorf("seed %d: deliveries %+v, want latency %d over 2 links", tc.seed, got, tc.latency)
		}
	}
}

// TestOneEjectionVCSerialisesMessages: seed 004 §3.1, "messages at the
// destination node are transferred to the local PE one at a time through
// the ejection channel" (network.ejection_vcs: 1 in every Safaei file).
// Two 8-flit messages, 4 -> 5 and 6 -> 5 on a 4x4 torus (one hop each),
// offered in cycle 0; both heads reach router 5 in cycle 1.
//
// One ejection VC: the first (router 4's, granted first) is delivered
// alone, D + M - 1 = 8 (K = 0) or D + M + 2K - 1 = 10 (K = 2, D = 1 < K:
// 2D). The second's header is granted the ejection VC the cycle after the
// first tail left (9, resp. 11); with K = 0 its head follows at once and
// its tail is delivered 7 cycles later, in 16; with K = 2 the grant's
// acknowledgement reaches router 6 in 12, the data leaves it in 12, and the
// tail arrives in 12 + 1 + 7 = 20.
//
// Two ejection VCs: both are granted in cycle 1 and the 16 flits share the
// one ejection channel flit by flit from the first one's zero-load head
// time on (1 for K = 0, 3 for K = 2): tails in 15 and 16, resp. 17 and 18.
func TestOneEjectionVCSerialisesMessages(t *testing.T) {
	for _, tc := range []struct {
		ejection, k int
		want        string
	}{
		{1, 0, "[8 16]"}, {1, 2, "[10 20]"}, {2, 0, "[15 16]"}, {2, 2, "[17 18]"},
	} {
		c := paperBase()
		c.Rate, c.EjectionVCs = 0, tc.ejection
		c.Router.ScoutingDistance = tc.k
		if tc.k == 0 {
			c.Router.Switching = router.Wormhole
		}
		n, err := New(c)
		if err != nil {
			t.Fatal(err)
		}
		var lat []sim.Cycle
		n.OnDeliver(func(d Delivery) { lat = append(lat, d.Latency) })
		n.Offer(4, 5, 8)
		n.Offer(6, 5, 8)
		for k := 0; k < 60; k++ {
			n.Step()
		}
		if fmt.Sprint(lat) != tc.want {
			t.Errorf("ejection VCs %d, K %d: latencies %v, want %s", tc.ejection, tc.k, lat, tc.want)
		}
	}
}

// TestScoutingBlockedChannelExhaustive: on a 4x4 mesh with one VC, for
// every channel u -> v held by an endless message and every other pair
// src -> dst (src != u, dst != v), and K = 1, 2 (and 3 without -short),
// one 4-flit message is offered to the otherwise idle network. Checked:
//
//   - every minimal path uses u -> v: the message is never delivered (the
//     header waits or bounces; it never takes a non-minimal or held link);
//   - delivered: over the minimal number of links, with latency exactly
//     the zero-load latency + 2 per backtrack (one hop forward, one
//     negative acknowledgement back; nothing else delays it);
//   - some minimal path avoids u -> v and K >= 2: always delivered;
//   - K = 1 may keep the header bouncing only where it can reach a node
//     w != src all of whose minimal paths use u -> v (it backtracks one link
//     from u to w and may go no further back, as the paper's "at most K"
//     says).
func TestScoutingBlockedChannelExhaustive(t *testing.T) {
	spec := topology.Spec{Kind: topology.Mesh, K: 4, N: 2}
	topo, err := topology.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	ks := []int{1, 2, 3}
	if testing.Short() {
		ks = ks[:2]
	}
	for _, K := range ks {
		delivered, backtracked, bounced := 0, 0, 0
		for _, ch := range topo.Channels() {
			u, v := ch.Src, ch.Dst
			if u < 0 || v < 0 {
				continue
			}
			for src := 0; src < topo.Nodes(); src++ {
				for dst := 0; dst < topo.Nodes(); dst++ {
					if src == dst || src == u || dst == v {
						continue
					}
					c := idleConfig(spec, scouting(oneCycle(1, 2), K))
					c.Routing, c.Seed = RoutingAdaptive, uint64(src*16+dst)
					n, err := New(c)
					if err != nil {
						t.Fatal(err)
					}
					n.Offer(u, v, 100000)
					for k := 0; k < 5; k++ {
						n.Step()
					}
					var got []Delivery
					backs := 0
					n.OnScout(func(e ScoutEvent) {
						if e.Kind == router.ProbeBack {
							backs++
						}
					})
					n.OnDeliver(func(d Delivery) { got = append(got, d) })
					n.Offer(src, dst, 4)
					for k := 0; k < 300 && len(got) == 0; k++ {
						n.Step()
					}
					h := topo.Distance(src, dst)
					name := fmt.Sprintf("K=%d, %d->%d held, %d->%d", K, u, v, src, dst)
					switch {
					case !avoidable(topo, src, dst, u, v):
						if len(got) != 0 {
							t.Fatalf("%s: delivered %+v although every minimal path uses the held channel", name, got)
						}
					case len(got) == 1:
						delivered++
						if backs > 0 {
							backtracked++
						}
						if want := sim.Cycle(c.ZeroLoadLatency(h, 4) + 2*backs); got[0].Latency != want || got[0].Hops != h {
							t.Fatalf("%s: latency %d over %d links with %d backtracks, want %d over %d", name, got[0].Latency, got[0].Hops, backs, want, h)
						}
					case K >= 2 || !trapReachable(topo, src, dst, u, v):
						t.Fatalf("%s: not delivered in 300 cycles (%d backtracks) although a minimal path avoids the held channel", name, backs)
					default:
						bounced++
					}
				}
			}
		}
		if backtracked == 0 {
			t.Fatalf("K=%d: no header backtracked; the cases test nothing", K)
		}
		t.Logf("K=%d: %d delivered (%d after backtracking), %d bouncing in a depth-2 trap", K, delivered, backtracked, bounced)
	}
}

// avoidable reports whether some minimal path src -> dst does not use the
// channel u -> v.
func avoidable(topo *topology.Topology, src, dst, u, v int) bool {
	if src == dst {
		return true
	}
	for p := 0; p < topo.NetPorts(); p++ {
		c := topo.Out(src, p)
		if c < 0 {
			continue
		}
		x := topo.Channel(c).Dst
		if x < 0 || topo.Distance(x, dst) != topo.Distance(src, dst)-1 || (src == u && x == v) {
			continue
		}
		if avoidable(topo, x, dst, u, v) {
			return true
		}
	}
	return false
}

// trapReachable reports whether a minimal path from src reaches a node
// w != src, w != u, from which every minimal path to dst uses u -> v.
func trapReachable(topo *topology.Topology, src, dst, u, v int) bool {
	for w := 0; w < topo.Nodes(); w++ {
		if w == src || w == u || w == dst {
			continue
		}
		if topo.Distance(src, w)+topo.Distance(w, dst) == topo.Distance(src, dst) && !avoidable(topo, w, dst, u, v) {
			return true
		}
	}
	return false
}
