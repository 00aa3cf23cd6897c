package graph

import (
	"fmt"
	"slices"

	"github.com/emirpasic/gods/v2/maps/hashmap"
	"github.com/emirpasic/gods/v2/sets/hashset"
	"github.com/flitsim/flitsim/topology"
)

// VC names a virtual-channel class on a channel, a vertex of the
// channel-dependency graph; it is topology's, so one vocabulary serves both
// checks.
type VC = topology.VC

// Verdict is the result of Check, with the meaning topology.Verdict gives
// its fields: here every path is explored for every reachable (router,
// state) of a packet, so Minimal counts router distance and DeadlockFree
// covers the dependencies of every such state.
type Verdict = topology.Verdict

// node is a packet's situation on the way to one destination: the router
// it is at and the state it carries there.
type node struct {
	router int32
	st     State
}

type nodeInfo struct {
	outs  []int32 // VC ids of its candidates (channel*classes + class)
	next  []int32 // index of the node each candidate leads to, -1 eject
	color uint8
}

// Check explores, for every destination terminal and every source router,
// every start state (Starts) and every path Route admits with loads = nil,
// tracking the packet's state; it verifies that every path ejects at the
// destination without a loop and builds the channel-dependency graph: a
// packet that holds VC u into router q in state s may request every
// candidate of Route(q, dest, s). It then searches that graph for a cycle.
// For a function whose routes depend on the destination's router only,
// one destination per router is explored (the others differ only in the
// ejection port, which is no channel). Meant for configuration loaders and
// tests.
func Check(n *Network, r Routing) Verdict {
	v := Verdict{Minimal: true, ReachesAll: true}
	problem := func(format string, args ...any) {
		if v.Problem == "" {
			v.Problem = r.Name() + " on " + n.String() + ": " + fmt.Sprintf(format, args...)
		}
	}
	C := r.Classes()
	if C < 1 {
		v.ReachesAll = false
		problem("Classes() = %d", C)
		return v
	}
	nvc := len(n.chans) * C
	edges := make([]*hashset.Set[int32], nvc)
	buf := make([]Candidate, 0, n.maxPorts+1)
	var starts []State
	dests := destinations(n, r)
	for _, dst := range slices.Concat(dests...) {
		dr := int(n.termR[dst])
		index := hashmap.New[node, int32]()
		var infos []nodeInfo
		var nodes []node
		// visit returns the index of node x, computing its candidates.
		visit := func(x node) int32 {
			if i, ok := index.Get(x); ok {
				return i
			}
			i := int32(len(infos))
			index.Put(x, i)
			nodes = append(nodes, x)
			infos = append(infos, nodeInfo{})
			return i
		}
		type frame struct {
			i int32
			k int
		}
		var stack []frame
		for src := 0; src < n.routers; src++ {
			if len(dests[src]) == 0 {
				continue
			}
			starts = r.Starts(dests[src][0], dst, starts[:0])
			for _, s0 := range starts {
				root := visit(node{int32(src), s0})
				if infos[root].color != 0 {
					continue
				}
				stack = append(stack[:0], frame{root, 0})
				infos[root].color = 1
				for len(stack) > 0 {
					top := &stack[len(stack)-1]
					info := &infos[top.i]
					if top.k == 0 && info.next == nil {
						x := nodes[top.i]
						q := int(x.router)
						cands, st := r.Route(q, dst, x.st, nil, buf[:0])
						info.next = make([]int32, 0, len(cands))
						if q == dr {
							if len(cands) != 1 || cands[0].Port != int(n.termP[dst]) || cands[0].Class != 0 {
								v.ReachesAll = false
								problem("at the destination router %s Route returned %v, want [{%d 0}]", n.RouterName(dr), cands, n.termP[dst])
							}
						} else if len(cands) == 0 {
							v.ReachesAll = false
							problem("dead end at router %s for destination %s", n.RouterName(q), n.RouterName(dr))
						}
						for _, c := range cands {
							if q == dr {
								break
							}
							if c.Port < 0 || c.Port >= n.maxPorts || c.Class < 0 || c.Class >= C || n.out[q*n.maxPorts+c.Port] < 0 {
								v.ReachesAll = false
								problem("router %s, destination %s: candidate %+v is no channel of class < %d", n.RouterName(q), n.RouterName(dr), c, C)
								continue
							}
							ch := int(n.out[q*n.maxPorts+c.Port])
							q2 := n.chans[ch].Dst
							if n.RouterDistance(q2, dr) != n.RouterDistance(q, dr)-1 {
								v.Minimal = false
								if r.Minimal() {
									problem("claims minimal but hop %s towards %s is not", n.DescribeChannel(ch), n.RouterName(dr))
								}
							}
							info.outs = append(info.outs, int32(ch*C+c.Class))
							j := visit(node{int32(q2), st})
							info = &infos[top.i] // visit may grow infos
							info.next = append(info.next, j)
						}
					}
					if top.k >= len(info.next) {
						info.color = 2
						stack = stack[:len(stack)-1]
						continue
					}
					j := info.next[top.k]
					top.k++
					switch infos[j].color {
					case 0:
						infos[j].color = 1
						stack = append(stack, frame{j, 0})
					case 1:
						v.ReachesAll = false
						problem("an admitted path towards %s loops through router %s", n.RouterName(dr), n.RouterName(int(nodes[j].router)))
					}
				}
			}
		}
		// dependencies: each candidate VC of a node waits for every
		// candidate VC of the node it leads to.
		for i := range infos {
			for k, u := range infos[i].outs {
				j := infos[i].next[k]
				if len(infos[j].outs) == 0 {
					continue
				}
				if edges[u] == nil {
					edges[u] = hashset.New[int32]()
				}
				edges[u].Add(infos[j].outs...)
			}
		}
	}
	adj := make([][]int32, nvc)
	for u, s := range edges {
		if s != nil {
			adj[u] = s.Values()
			slices.Sort(adj[u]) // a set's order is random; the cycle reported must not be
		}
	}
	if cycle := findCycle(adj); cycle != nil {
		v.Cycle = make([]VC, len(cycle))
		for i, u := range cycle {
			v.Cycle[i] = VC{Channel: int(u) / C, Class: int(u) % C}
		}
		problem("the channel-dependency graph has a cycle: %s", n.FormatCycle(v.Cycle))
	} else {
		v.DeadlockFree = true
	}
	return v
}

// findCycle returns the vertices of one cycle of the directed graph adj,
// or nil when it is acyclic (topology.FindCycle's depth-first search).
func findCycle(adj [][]int32) []int32 {
	next := func(u, j int) int {
		if j < len(adj[u]) {
			return j
		}
		return -1
	}
	c := topology.FindCycle(len(adj), next, func(u, j int) int { return int(adj[u][j]) })
	if c == nil {
		return nil
	}
	out := make([]int32, len(c))
	for i, u := range c {
		out[i] = int32(u)
	}
	return out
}

// FormatCycle names the VCs of a dependency cycle, e.g.
// "3 VCs: a.p1->b.p0/c0 -> b.p1->c.p0/c0 -> c.p1->a.p0/c0".
func (n *Network) FormatCycle(cycle []VC) string {
	return topology.FormatCycle(cycle, n.DescribeChannel, 12)
}
