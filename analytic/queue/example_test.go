package queue_test

import (
	"fmt"

	"github.com/flitsim/flitsim/analytic/queue"
)

// The M/M/1/L pin of docs/models.md#mm1l (rho = 1/2, L = 2), and the M/D/1
// wait beside the M/M/1 wait at the same load.
func Example() {
	q, err := queue.NewMM1L(0.5, 1, 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("M/M/1/2 p = %.6f\n", q.Probabilities(nil))
	fmt.Printf("E[N] = %.6f  p_L = %.6f  E[T] = %.6f  E[W] = %.6f\n",
		q.MeanNumber(), q.Blocking(), q.MeanTime(), q.MeanWait())

	mm1, _ := queue.NewMM1(0.8, 1)
	md1, _ := queue.NewMD1(0.8, 1)
	fmt.Printf("rho = 0.8: W(M/M/1) = %.4f  W(M/D/1) = %.4f\n", mm1.MeanWait(), md1.MeanWait())

	_, err = queue.NewMM1(1.2, 1)
	fmt.Println(err)
	// Output:
	// M/M/1/2 p = [0.571429 0.285714 0.142857]
	// E[N] = 0.571429  p_L = 0.142857  E[T] = 1.333333  E[W] = 0.333333
	// rho = 0.8: W(M/M/1) = 4.0000  W(M/D/1) = 2.0000
	// queue.MM1: saturated: rho = lambda/mu = 1.2 >= 1
}
