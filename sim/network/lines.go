package network

import (
	"github.com/flitsim/flitsim/router"
	"github.com/flitsim/flitsim/sim"
)

// wheel is a timing wheel of events of type T: slot t&mask holds the events
// that happen in cycle t. Every delay is at least 0 and at most the wheel
// span minus one, so a slot is always drained before it is reused. Slots keep
// their capacity, so a warmed-up wheel never allocates.
type wheel[T any] struct {
	slots [][]T
	mask  sim.Cycle
}

func newWheel[T any](maxDelay int) wheel[T] {
	n := sim.CeilPow2(maxDelay + 1)
	return wheel[T]{slots: make([][]T, n), mask: sim.Cycle(n - 1)}
}

// at schedules v for cycle c.
func (w *wheel[T]) at(c sim.Cycle, v T) {
	s := &w.slots[c&w.mask]
	*s = append(*s, v)
}

// take returns the events of cycle c and empties the slot; the returned slice
// is valid until events are next scheduled into that slot.
func (w *wheel[T]) take(c sim.Cycle) []T {
	s := &w.slots[c&w.mask]
	ev := *s
	*s = (*s)[:0]
	return ev
}

// count returns the number of scheduled events (for conservation checks).
func (w *wheel[T]) count() int {
	n := 0
	for _, s := range w.slots {
		n += len(s)
	}
	return n
}

// creditArrival is a credit reaching output VC (port, vc) of router node
// (a multistage sink's credit).
type creditArrival struct {
	node, port, vc int32
}

// ctrlArrival is a scouting control message reaching router node: a header
// entering input VC (port, vc), or a negative or positive acknowledgement
// reaching output VC (port, vc).
type ctrlArrival struct {
	node, port, vc int32
	kind           router.ControlKind
	probe          router.Probe
}
