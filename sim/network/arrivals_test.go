package network

import (
	"math/rand/v2"
	"testing"

	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/traffic"
)

// TestArrivalsInCalendarOrder: a network queues its messages in the order
// of its arrival calendar taken one event at a time (time, then push
// order), which the fresh packet ids follow, although generate takes each
// cycle's arrivals in a batch. Poisson arrivals at two messages a node and
// cycle put a terminal's next arrival in the same cycle as the batch, and
// often before its last, which must then wait (sim.Calendar.Unpop). The
// reference is a calendar of its own on the same streams.
func TestArrivalsInCalendarOrder(t *testing.T) {
	const rate, cycles = 2.0, 3 // messages per node and cycle; no message is delivered (freeing its id) this early
	cfg := SpeedConfig(4, 0)
	cfg.Process, cfg.Rate = "poisson", rate
	n, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	proc, err := traffic.NewPoisson(rate)
	if err != nil {
		t.Fatal(err)
	}
	var cal sim.Calendar[int32]
	streams := make([]*rand.Rand, n.terms)
	for i := range streams {
		streams[i] = sim.NewStream(cfg.Seed, sim.PurposeTrafficArrival, uint64(i))
		cal.Push(proc.First(streams[i]), int32(i))
	}
	var want []int32 // the terminals of the messages in the order they arrive
	late := 0        // arrivals after a later-pushed one of the same cycle
	for c := range cycles {
		limit := float64(c + 1)
		for {
			at, v, ok := cal.Peek()
			if !ok || at >= limit {
				break
			}
			cal.Pop()
			want = append(want, v)
			next := proc.Next(at, streams[v])
			if next < limit {
				late++
			}
			cal.Push(next, v)
		}
	}
	for range cycles {
		n.Step()
	}
	got := make([]int32, len(n.packets))
	for id, pk := range n.packets {
		got[id] = pk.src
	}
	if late == 0 {
		t.Fatal("no arrival fell in its predecessor's cycle: the test does not exercise the batches' cut")
	}
	if len(got) != len(want) {
		t.Fatalf("%d messages in %d cycles, want %d", len(got), cycles, len(want))
	}
	for i, src := range got {
		if src != want[i] {
			t.Fatalf("message %d from terminal %d, want %d", i, src, want[i])
		}
	}
	t.Logf("%d messages in %d cycles, %d due in the cycle of the arrival before them", len(got), cycles, late)
}
