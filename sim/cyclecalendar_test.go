package sim

import (
	"math"
	"testing"
)

// TestCycleCalendarMatchesCalendar drives a CycleCalendar and a Calendar
// with the same pushes, batches and put-backs and asks for the same events
// in the same order: times that tie, fall within a cycle, lie beyond the
// buckets' span, before the cycle being taken, or at infinity; limits that
// move on by a cycle, by a fraction, by more than the span, back, and to
// infinity; and the rest of a batch put back as network.generate does.
//
// It runs with the default span and with spans of 16 cycles and of one,
// where most events wait beside the ring.
func TestCycleCalendarMatchesCalendar(t *testing.T) {
	for seed := uint64(1); seed <= 60; seed++ {
		r := NewStream(seed, PurposeService, 0)
		var ref Calendar[int]
		var got CycleCalendar[int]
		span := []int{DefaultCycleSpan, 16, 1}[seed%3]
		got.SetSpan(span, 300)
		now, id := 0.0, 0
		push := func(at float64) {
			ref.Push(at, id)
			got.Push(at, id)
			id++
		}
		draw := func() float64 {
			switch r.IntN(10) {
			case 0:
				return now + float64(r.IntN(3)) // ties with the coming cycles
			case 1:
				return now + float64(span+r.IntN(4*span)) // beyond the span
			case 2:
				return now - 1 - float64(r.IntN(20)) // before the cycle being taken
			case 3:
				if r.IntN(20) == 0 {
					return math.Inf(1)
				}
				fallthrough
			default:
				return now + r.Float64()*float64(r.IntN(400)+1)
			}
		}
		for range 200 + r.IntN(200) {
			push(draw())
		}
		var a, b []Event[int]
		for step := 0; step < 3000; step++ {
			var limit float64
			switch r.IntN(20) {
			case 0:
				limit = now + r.Float64()*3
			case 1:
				limit = now + float64(r.IntN(3*span))
			case 2:
				limit = now - float64(r.IntN(5)) // back
			default:
				limit = now + 1
			}
			a = ref.PopBefore(limit, a[:0])
			b = got.PopBefore(limit, b[:0])
			if !sameEvents(a, b) {
				t.Fatalf("seed %d (span %d) step %d, limit %g: Calendar gave %v, CycleCalendar %v", seed, span, step, limit, head(a), head(b))
			}
			if limit > now {
				now = limit
			}
			// Each event taken pushes a successor; some come before the
			// batch's end, and the rest of the batch goes back (generate).
			for k := range a {
				at := draw()
				push(at)
				if k+1 < len(a) && at < a[len(a)-1].At && r.IntN(2) == 0 {
					ref.Unpop(a[k+1:])
					got.Unpop(b[k+1:])
					break
				}
			}
			if r.IntN(50) == 0 {
				push(draw())
			}
			if ref.Len() != got.Len() {
				t.Fatalf("seed %d step %d: Len %d, want %d", seed, step, got.Len(), ref.Len())
			}
		}
		a = ref.PopBefore(math.Inf(1), a[:0])
		b = got.PopBefore(math.Inf(1), b[:0])
		if !sameEvents(a, b) || got.Len() != ref.Len() {
			t.Fatalf("seed %d, the drain: Calendar gave %d events (%d left), CycleCalendar %d (%d left)", seed, len(a), ref.Len(), len(b), got.Len())
		}
	}
}

func sameEvents(a, b []Event[int]) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if a[k].At != b[k].At || a[k].V != b[k].V {
			return false
		}
	}
	return true
}

func head(evs []Event[int]) []Event[int] { return evs[:min(len(evs), 8)] }

// TestCycleCalendarEmpty: nothing out of an empty or spent calendar, and
// a calendar emptied and filled again far later takes up its order.
func TestCycleCalendarEmpty(t *testing.T) {
	var c CycleCalendar[int]
	if out := c.PopBefore(math.Inf(1), nil); len(out) != 0 || c.Len() != 0 {
		t.Fatalf("empty calendar gave %v", out)
	}
	c.Push(3.5, 1)
	c.Push(3.5, 2)
	c.Push(1e9, 3)
	if out := c.PopBefore(4, nil); len(out) != 2 || out[0].V != 1 || out[1].V != 2 {
		t.Fatalf("PopBefore(4) gave %v", out)
	}
	c.Push(2e9, 4)
	c.Push(1e9, 5)
	out := c.PopBefore(1e10, nil)
	if len(out) != 3 || out[0].V != 3 || out[1].V != 5 || out[2].V != 4 || c.Len() != 0 {
		t.Fatalf("PopBefore(1e10) gave %v, %d left", out, c.Len())
	}
}

// BenchmarkCycleCalendarArrivals and BenchmarkCalendarArrivals take a
// 2^20-terminal network's arrivals at 0.003125 messages a terminal and
// cycle (0.05 flits in 16-flit messages) a cycle at a time, each arrival
// pushing its terminal's next one.
func BenchmarkCycleCalendarArrivals(b *testing.B) {
	var c CycleCalendar[int32]
	benchArrivals(b, c.Push, c.PopBefore)
}

func BenchmarkCalendarArrivals(b *testing.B) {
	var c Calendar[int32]
	benchArrivals(b, c.Push, c.PopBefore)
}

func benchArrivals(b *testing.B, push func(float64, int32), popBefore func(float64, []Event[int32]) []Event[int32]) {
	const terminals, rate = 1 << 20, 0.003125
	r := NewStream(1, PurposeService, 0)
	gap := func() float64 { return math.Floor(-math.Log(1-r.Float64()) / rate) }
	for i := range int32(terminals) {
		push(gap(), i)
	}
	var due []Event[int32]
	now := 0.0
	for range 2000 { // the steady state
		due = popBefore(now+1, due[:0])
		for _, e := range due {
			push(now+1+gap(), e.V)
		}
		now++
	}
	b.ResetTimer()
	events := 0
	for range b.N {
		due = popBefore(now+1, due[:0])
		for _, e := range due {
			push(now+1+gap(), e.V)
		}
		events += len(due)
		now++
	}
	b.ReportMetric(float64(events)/float64(b.N), "events/cycle")
}

// TestCycleCalendarSteadyStateAllocatesNothing: a network's arrivals (a
// pending event a terminal, each taken pushing the next), the room made by
// SetSpan, allocate nothing once the first cycles have sized the batch:
// the chunks a bucket frees serve the buckets that fill.
func TestCycleCalendarSteadyStateAllocatesNothing(t *testing.T) {
	const terminals, rate = 4096, 0.003125
	var c CycleCalendar[int32]
	c.SetSpan(terminals/16, terminals)
	r := NewStream(2, PurposeService, 0)
	gap := func() float64 { return math.Floor(-math.Log(1-r.Float64()) / rate) }
	for i := range int32(terminals) {
		c.Push(gap(), i)
	}
	var due []Event[int32]
	now := 0.0
	cycle := func() {
		due = c.PopBefore(now+1, due[:0])
		for _, e := range due {
			c.Push(now+1+gap(), e.V)
		}
		now++
	}
	for range 5000 {
		cycle()
	}
	// What the calendar holds its events in must not grow: the chunks, the
	// cycle being taken, the heap beside the ring. (testing.AllocsPerRun
	// rounds an average down, so that a slice growing now and then passes
	// it, and the process's count of allocations takes in whatever else
	// runs: once in CI a test beside this one gave it one.)
	caps := func() [3]int { return [3]int{cap(c.chunks), cap(c.cur), cap(c.far.heap)} }
	before := caps()
	for range 5000 {
		cycle()
	}
	if after := caps(); after != before {
		t.Fatalf("room for chunks, the cycle taken and the heap %v after 5000 cycles, %v before (%d chunks used, %d made room for): want no growth", after, before, len(c.chunks), chunksFor(c.span, terminals))
	}
}
