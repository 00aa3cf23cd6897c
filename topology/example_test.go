package topology_test

import (
	"fmt"

	"github.com/flitsim/flitsim/topology"
)

// Example builds a bidirectional 8-ary 2-cube, routes one packet by
// dimension order, and checks both routing functions exhaustively.
func Example() {
	t, err := topology.New(topology.Spec{Kind: topology.Torus, K: 8, N: 2, Bidirectional: true})
	if err != nil {
		panic(err)
	}
	fmt.Println(t)
	fmt.Printf("routers %d, ports %d (local %d), channels %d, diameter %d, mean distance %.4f\n",
		t.Nodes(), t.Ports(), t.LocalPort(), t.NumChannels(), t.Diameter(), t.MeanDistance(false))

	// Walk a packet from (6,1) to (1,3) the way the router engine would.
	dor := topology.NewDimensionOrder(t)
	buf := make([]topology.Candidate, 0, t.Ports())
	cur, dest := t.Node([]int{6, 1}), t.Node([]int{1, 3})
	for {
		c := dor.Route(cur, dest, buf[:0])[0]
		if c.Port == t.LocalPort() {
			fmt.Printf("eject at %d\n", cur)
			break
		}
		ch := t.Channel(t.Out(cur, c.Port))
		fmt.Printf("%d -> %d port %d class %d wrap %v\n", cur, ch.Dst, c.Port, c.Class, ch.Wrap)
		cur = ch.Dst
	}

	for _, r := range []topology.Routing{dor, topology.NewRandomMinimal(t)} {
		v := topology.Check(t, r)
		fmt.Printf("%s: minimal %v, reaches all %v, deadlock-free %v\n", r.Name(), v.Minimal, v.ReachesAll, v.DeadlockFree)
	}
	// The mean distance is the closed form of MeanDistance for an even
	// bidirectional torus, n (k/4) k^n/(k^n-1) = 2*2*64/63 = 4.0635; the
	// diameter n floor(k/2) = 8; channels 64 routers * 4 ports = 256.

	// Output:
	// torus 8-ary 2-cube (bidirectional)
	// routers 64, ports 5 (local 4), channels 256, diameter 8, mean distance 4.0635
	// 14 -> 15 port 0 class 1 wrap false
	// 15 -> 8 port 0 class 1 wrap true
	// 8 -> 9 port 0 class 0 wrap false
	// 9 -> 17 port 2 class 0 wrap false
	// 17 -> 25 port 2 class 0 wrap false
	// eject at 25
	// dor: minimal true, reaches all true, deadlock-free true
	// random-minimal: minimal true, reaches all true, deadlock-free false
}
