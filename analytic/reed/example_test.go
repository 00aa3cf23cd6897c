package reed_test

import (
	"fmt"

	"github.com/flitsim/flitsim/analytic/reed"
)

// Reed's Figure III: the 15-node bidirectional ring under uniform routing
// with unit service times, exact MVA against the balanced job bounds, and
// its crossing with a single bus (docs/models.md#reed-pins).
func Example() {
	ring, err := reed.Ring(15)
	if err != nil {
		fmt.Println(err)
		return
	}
	uni, _ := reed.Uniform(ring)
	w, _ := reed.NetworkWorkload(uni, reed.HalfDuplex, 1, 1)
	fmt.Printf("LV = %g, R_0 = %g, D_b = %.4f\n", uni.LV(), w.R0(), w.Db())

	pts, _ := w.MVA(20)
	for _, n := range []int{1, 2, 5, 10, 20} {
		b, _ := w.BalancedJobBounds(n)
		fmt.Printf("N=%2d  X_0 = %.6f  BJB [%.6f, %.6f]\n", n, pts[n-1].X0, b.Lower, b.Upper)
	}

	busP, _ := reed.Bus(15)
	busU, _ := reed.Uniform(busP)
	bus, _ := reed.NetworkWorkload(busU, reed.HalfDuplex, 1, 1)
	lo, _ := reed.CrossingLow(w, bus)
	printed, _ := reed.RingBusCrossingLow(15, reed.Printed)
	hi, _ := reed.CrossingHigh(w, bus)
	mva, _ := reed.CrossingMVA(w, bus, 100)
	fmt.Printf("ring vs bus: N_low = %.4f (printed %.4f), N_high = %.4f, MVA = %.4f\n", lo, printed, hi, mva)
	// Output:
	// LV = 4, R_0 = 5, D_b = 0.2667
	// N= 1  X_0 = 0.200000  BJB [0.200000, 0.200000]
	// N= 2  X_0 = 0.382653  BJB [0.379747, 0.387097]
	// N= 5  X_0 = 0.844493  BJB [0.824176, 0.882353]
	// N=10  X_0 = 1.405399  BJB [1.351351, 1.538462]
	// N=20  X_0 = 2.083637  BJB [1.986755, 2.448980]
	// ring vs bus: N_low = 5.0909 (printed 17.3636), N_high = 5.8000, MVA = 6.2026
}
