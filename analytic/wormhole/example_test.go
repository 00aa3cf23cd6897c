package wormhole_test

import (
	"fmt"

	"github.com/flitsim/flitsim/analytic/wormhole"
)

// DG-R on the binary 6-cube with 32-flit messages (docs/models.md#dg-pins).
func ExampleNetwork_Latency() {
	nw, err := wormhole.NewUniform(2, 6)
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := nw.Latency(0.005, wormhole.Options{M: 32})
	if err != nil {
		fmt.Println(err)
		return
	}
	sat, _ := nw.Saturation(wormhole.Options{M: 32})
	fmt.Printf("T = %.6f cycles (S_INJ %.4f, W_INJ %.4f); saturation %.6f\n", r.Latency, r.SInj, r.WInj, sat)
	// Output: T = 49.822322 cycles (S_INJ 41.1731, W_INJ 5.6016); saturation 0.011356
}

// Dally's (1992) VC occupancy for l_c = 0.01, S = 39, V = 2 (docs/models.md#safaei-check).
func ExampleVCOccupancy() {
	occ, err := wormhole.VCOccupancy(0.01, 39, 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("P = %.4f, Vbar = %.7f\n", occ.P, occ.Vbar)
	// Output: P = [0.6100 0.2379 0.1521], Vbar = 1.5611511
}
