package slotted_test

import (
	"context"
	"fmt"

	"github.com/flitsim/flitsim/sim/slotted"
)

// A 4-cube (N = 16) at half the model's capacity, λ = 0.0936 ≈ 0.5 λ_max
// (docs/models.md#jacquet-pins: λ_max = 0.18713). The Poisson approximation gives
// T = 3.42 slots and the Bernoulli model D = 3.79; p = 0.349.
//
// The printed figures are a regression pin of this run (seed 1), not model
// values: the integer delay and p agree with T and the model's p within
// their intervals, while the continuous delay lies above D (the known gap
// that TestAgainstJacquetMuhlethaler asserts at 0.5 λ_max).
func Example() {
	s, err := slotted.New(slotted.Config{Dim: 4, Rate: 0.0936, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := s.Run(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("status:", r.Status)
	fmt.Printf("integer delay:    %.2f ± %.2f slots\n", r.Delay.Mean, r.Delay.HalfWidth)
	fmt.Printf("continuous delay: %.2f ± %.2f slots\n", r.DelayContinuous.Mean, r.DelayContinuous.HalfWidth)
	fmt.Printf("busy fraction p:  %.3f ± %.3f\n", r.Busy.Mean, r.Busy.HalfWidth)
	fmt.Printf("throughput:       %.4f ± %.4f packets/node/slot\n", r.Throughput.Mean, r.Throughput.HalfWidth)
	// Output:
	// status: ok
	// integer delay:    3.45 ± 0.03 slots
	// continuous delay: 3.95 ± 0.03 slots
	// busy fraction p:  0.349 ± 0.003
	// throughput:       0.0935 ± 0.0008 packets/node/slot
}
