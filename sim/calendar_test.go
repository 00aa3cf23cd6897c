package sim

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"testing"
)

type calEvent struct {
	at  float64
	seq int
}

func TestCalendarOrderAgainstSort(t *testing.T) {
	// Randomised, seeded: interleaved pushes and pops must pop exactly the
	// (time, push order) minimum of what is pending. Times are drawn from a
	// few integer values so that ties are frequent.
	r := NewStream(21, PurposeService, 0)
	var c Calendar[int]
	var pending []calEvent
	seq := 0
	for step := 0; step < 20000; step++ {
		if r.IntN(2) != 0 || len(pending) == 0 {
			at := float64(r.IntN(50))
			if r.IntN(4) == 0 {
				at += r.Float64()
			}
			c.Push(at, seq)
			pending = append(pending, calEvent{at, seq})
			seq++
		} else {
			i := 0
			for j, e := range pending {
				if e.at < pending[i].at || (e.at == pending[i].at && e.seq < pending[i].seq) {
					i = j
				}
			}
			want := pending[i]
			pending = slices.Delete(pending, i, i+1)
			pat, pv, pok := c.Peek()
			at, v, ok := c.Pop()
			if !ok || at != want.at || v != want.seq || pat != at || pv != v || !pok {
				t.Fatalf("step %d: Pop = (%v, %d, %v), Peek (%v, %d), want (%v, %d)", step, at, v, ok, pat, pv, want.at, want.seq)
			}
		}
		if c.Len() != len(pending) {
			t.Fatalf("step %d: Len %d, want %d", step, c.Len(), len(pending))
		}
	}
	// Drain: the rest comes out in full (time, seq) order.
	slices.SortFunc(pending, func(a, b calEvent) int {
		return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.seq, b.seq))
	})
	for _, want := range pending {
		if at, v, _ := c.Pop(); at != want.at || v != want.seq {
			t.Fatalf("drain: (%v, %d), want (%v, %d)", at, v, want.at, want.seq)
		}
	}
	if _, _, ok := c.Pop(); ok || c.Len() != 0 {
		t.Fatal("calendar not empty after drain")
	}
}

func TestCalendarEqualTimesFIFO(t *testing.T) {
	var c Calendar[string]
	for _, s := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		c.Push(5, s)
	}
	c.Push(math.Inf(1), "never")
	c.Push(-1, "first")
	got := ""
	for c.Len() > 0 {
		_, v, _ := c.Pop()
		got += v + " "
	}
	if want := "first a b c d e f g never "; got != want {
		t.Errorf("order %q, want %q", got, want)
	}
	c.Push(1, "x")
	c.Reset()
	if _, _, ok := c.Peek(); ok || c.Len() != 0 {
		t.Error("Reset left events")
	}
	defer func() {
		if recover() == nil {
			t.Error("Push at NaN did not panic")
		}
	}()
	c.Push(math.NaN(), "nan")
}

func TestCalendarDoesNotAllocate(t *testing.T) {
	var c Calendar[[2]int]
	for i := 0; i < 1024; i++ { // grow the backing slice
		c.Push(float64(i), [2]int{i, i})
	}
	c.Reset()
	x := 0.0
	if n := testing.AllocsPerRun(10000, func() {
		x += 0.37
		c.Push(x, [2]int{1, 2})
		c.Push(x-0.5, [2]int{3, 4})
		c.Pop()
		if c.Len() > 500 {
			c.Pop()
		}
	}); n != 0 {
		t.Errorf("Calendar Push/Pop: %v allocs", n)
	}
}

func BenchmarkCalendarPushPop(b *testing.B) {
	var c Calendar[int32]
	r := NewStream(1, PurposeService, 0)
	for i := 0; i < 1000; i++ {
		c.Push(r.Float64()*1000, int32(i))
	}
	b.ReportAllocs()
	for b.Loop() {
		at, v, _ := c.Pop()
		c.Push(at+r.ExpFloat64()*1000, v)
	}
}

// TestCalendarPopBeforeUnpop handles events in batches the way a network's
// arrivals are (PopBefore, a push for each event handled, Unpop of the rest
// when a push is due before the batch's last) and checks that they come out
// in the order Pop gives one by one with the same pushes. Times are few
// integers plus fractions, so that ties and pushes due inside a batch are
// frequent.
func TestCalendarPopBeforeUnpop(t *testing.T) {
	r := NewStream(22, PurposeService, 0)
	next := func(at float64, v int) float64 { // the push an event makes: a function of the event alone
		x := uint64(v)*0x9e3779b97f4a7c15 + uint64(at*8)
		return at + float64(1+x>>61)/4 // 0.25 to 2 later: often inside the batch's window
	}
	var one, batch Calendar[int]
	for v := range 200 {
		at := float64(r.IntN(20))
		if r.IntN(3) == 0 {
			at += r.Float64()
		}
		one.Push(at, v)
		batch.Push(at, v)
	}
	var want, got []string
	unpops := 0
	for limit := 1.0; limit <= 60; limit++ {
		for {
			at, v, ok := one.Peek()
			if !ok || at >= limit {
				break
			}
			one.Pop()
			want = append(want, fmt.Sprintf("%g:%d", at, v))
			one.Push(next(at, v), v)
		}
		var buf []Event[int]
		for {
			buf = batch.PopBefore(limit, buf[:0])
			if len(buf) == 0 {
				break
			}
			last := buf[len(buf)-1].At
			for k, e := range buf {
				got = append(got, fmt.Sprintf("%g:%d", e.At, e.V))
				at := next(e.At, e.V)
				batch.Push(at, e.V)
				if at < last && k+1 < len(buf) {
					batch.Unpop(buf[k+1:])
					unpops++
					break
				}
			}
		}
	}
	if unpops == 0 {
		t.Fatal("no batch was cut short: the test does not exercise Unpop")
	}
	if !slices.Equal(got, want) {
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("event %d: %s in batches, %s one by one (%d and %d events)", i, got[i], want[i], len(got), len(want))
			}
		}
		t.Fatalf("%d events in batches, %d one by one", len(got), len(want))
	}
	t.Logf("%d events, %d batches cut short", len(got), unpops)
}
