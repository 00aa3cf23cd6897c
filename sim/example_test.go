package sim_test

import (
	"fmt"

	"github.com/flitsim/flitsim/sim"
)

// A model's measurement loop: observations go to Observe (kept only while
// measuring), each period ends with EndPeriod, and the Decision says when
// to stop. Here the "model" is an M/M/1 queue with ρ = 0.5 and unit mean
// service, simulated by the Lindley recursion W' = max(0, W + S − A); its
// mean sojourn time is 1/(μ − λ) = 2.
func ExampleMonitor() {
	m, err := sim.NewMonitor(sim.RunControl{Period: 1000, TargetRelCI: 0.01})
	if err != nil {
		panic(err)
	}
	r := sim.NewStream(1, sim.PurposeService, 0)
	var end sim.Cycle
	wait := 0.0
	for {
		var period sim.Accumulator
		for i := 0; i < 500; i++ { // 500 customers per 1000 time units
			s := r.ExpFloat64()
			period.Add(wait + s)
			m.Observe(wait + s)
			wait = max(0, wait+s-2*r.ExpFloat64())
		}
		end += 1000
		rep := sim.PeriodReport{End: end, MeanObservation: period.Mean(), Count: period.N(), Backlog: wait}
		if m.EndPeriod(rep) == sim.Stop {
			break
		}
	}
	mean, h, ok := m.Estimate()
	fmt.Println(m.Status(), ok)
	fmt.Printf("mean sojourn %.1f, covers 2: %v\n", mean, mean-h <= 2 && 2 <= mean+h)
	// Output:
	// converged true
	// mean sojourn 2.0, covers 2: true
}

// Events at equal times leave the calendar in the order they were pushed.
func ExampleCalendar() {
	var c sim.Calendar[string]
	c.Push(3, "c")
	c.Push(1, "a")
	c.Push(3, "d")
	c.Push(2, "b")
	for c.Len() > 0 {
		at, v, _ := c.Pop()
		fmt.Print(at, v, " ")
	}
	fmt.Println()
	// Output: 1a 2b 3c 3d
}
