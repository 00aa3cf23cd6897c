package sim

import (
	"slices"
	"testing"
)

// TestFIFOMatchesSlice: a FIFO driven by a random sequence of pushes and
// pops, across growth and wrap-around, yields exactly what a plain slice
// queue yields (identity with the obvious model), and Reset empties it.
func TestFIFOMatchesSlice(t *testing.T) {
	r := NewStream(11, PurposeService, 0)
	var q FIFO[int32]
	var want []int32
	next := int32(0)
	for step := range 20000 {
		// Push with probability 0.55 for the first half (the queue grows
		// through several doublings), 0.45 after (it drains and wraps).
		p := 0.55
		if step >= 10000 {
			p = 0.45
		}
		if len(want) == 0 || r.Float64() < p {
			q.Push(next)
			want = append(want, next)
			next++
		} else {
			if f := q.Front(); f != want[0] {
				t.Fatalf("step %d: Front %d, want %d", step, f, want[0])
			}
			if v := q.Pop(); v != want[0] {
				t.Fatalf("step %d: Pop %d, want %d", step, v, want[0])
			}
			want = want[1:]
		}
		if q.Len() != len(want) {
			t.Fatalf("step %d: Len %d, want %d", step, q.Len(), len(want))
		}
		if k := step % (len(want) + 1); k < len(want) && q.At(k) != want[k] {
			t.Fatalf("step %d: At(%d) = %d, want %d", step, k, q.At(k), want[k])
		}
	}
	var got []int32
	for q.Len() > 0 {
		got = append(got, q.Pop())
	}
	if !slices.Equal(got, want) {
		t.Fatalf("drained %v, want %v", got, want)
	}
	q.Push(1)
	q.Reset()
	if q.Len() != 0 {
		t.Fatalf("Len after Reset = %d", q.Len())
	}
}

// TestFIFOSteadyStateNoAlloc: once a FIFO has held its largest population,
// pushes and pops do not allocate (it backs hot-path queues).
func TestFIFOSteadyStateNoAlloc(t *testing.T) {
	var q FIFO[struct{ a, b int64 }]
	for i := range 100 {
		q.Push(struct{ a, b int64 }{int64(i), 0})
	}
	for q.Len() > 0 {
		q.Pop()
	}
	if n := testing.AllocsPerRun(1000, func() {
		for i := range 100 {
			q.Push(struct{ a, b int64 }{int64(i), 0})
		}
		for q.Len() > 0 {
			q.Pop()
		}
	}); n != 0 {
		t.Errorf("steady state: %v allocs per cycle of 100 pushes and pops", n)
	}
}

// TestFIFOEmptyPanics: Front and Pop of an empty queue are programmer errors.
func TestFIFOEmptyPanics(t *testing.T) {
	for name, f := range map[string]func(q *FIFO[int]){
		"Front": func(q *FIFO[int]) { q.Front() },
		"Pop":   func(q *FIFO[int]) { q.Pop() },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			var q FIFO[int]
			q.Push(1)
			q.Pop()
			f(&q)
		})
	}
}

// TestNewFIFOsShareOneAllocation: queues from NewFIFOs take their first
// values without allocating, keep them apart, and grow on their own.
func TestNewFIFOsShareOneAllocation(t *testing.T) {
	var qs []FIFO[int32]
	// Two allocations, the queues and their shared room, whatever the
	// number of queues; none when they fill up to their room.
	if n := testing.AllocsPerRun(10, func() {
		qs = NewFIFOs[int32](3, 4)
		for i := range qs {
			for v := range 4 {
				qs[i].Push(int32(10*i + v))
			}
		}
	}); n != 2 {
		t.Errorf("%v allocations making 3 queues and filling them to their room, want 2", n)
	}
	for i := range qs {
		for v := range 4 {
			if got := qs[i].Pop(); got != int32(10*i+v) {
				t.Fatalf("queue %d: popped %d, want %d", i, got, 10*i+v)
			}
		}
	}
	for v := range 9 {
		qs[1].Push(int32(v))
	}
	for v := range 9 {
		if got := qs[1].Pop(); got != int32(v) {
			t.Fatalf("grown queue: popped %d, want %d", got, v)
		}
	}
	if qs[0].Len() != 0 || qs[2].Len() != 0 {
		t.Fatalf("growing queue 1 changed its neighbours: %d, %d", qs[0].Len(), qs[2].Len())
	}
}
