package sim

import "math"

// Calendar is an event calendar: a priority queue of values of type T keyed
// by (time, seq), where seq is a counter assigned at Push. Pop returns the
// earliest event; events at equal times come out in the order they were
// pushed, so a run never depends on heap layout (a tie is broken by
// (time, sequence), never arbitrarily).
//
// It is a 4-ary min-heap stored in one slice of concrete entries: no
// interface boxing, and no allocation once the slice has grown to the
// largest number of pending events. Push and Pop are O(log₄ n). The zero
// value is an empty calendar ready to use. A Calendar is not safe for
// concurrent use.
type Calendar[T any] struct {
	heap []calEntry[T]
	seq  uint64
}

type calEntry[T any] struct {
	at  float64
	seq uint64
	v   T
}

func (a *calEntry[T]) before(b *calEntry[T]) bool {
	return a.at < b.at || (a.at == b.at && a.seq < b.seq)
}

// Push schedules v at time at. It panics if at is NaN (a programmer error
// that would break the ordering).
func (c *Calendar[T]) Push(at float64, v T) {
	if math.IsNaN(at) {
		panic("sim: Calendar.Push at NaN time")
	}
	c.heap = append(c.heap, calEntry[T]{at: at, seq: c.seq, v: v})
	c.seq++
	// Sift up.
	h := c.heap
	i := len(h) - 1
	e := h[i]
	for i > 0 {
		p := (i - 1) / 4
		if !e.before(&h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
}

// Peek returns the earliest event without removing it; ok is false when
// the calendar is empty.
func (c *Calendar[T]) Peek() (at float64, v T, ok bool) {
	if len(c.heap) == 0 {
		return 0, v, false
	}
	return c.heap[0].at, c.heap[0].v, true
}

// Pop removes and returns the earliest event (the first pushed among equal
// times); ok is false when the calendar is empty.
func (c *Calendar[T]) Pop() (at float64, v T, ok bool) {
	h := c.heap
	n := len(h) - 1
	if n < 0 {
		return 0, v, false
	}
	top := h[0]
	last := h[n]
	var zero calEntry[T]
	h[n] = zero // release any pointer held by T
	h = h[:n]
	c.heap = h
	if n > 0 {
		// Sift last down from the root.
		i := 0
		for {
			first := 4*i + 1
			if first >= n {
				break
			}
			m := first
			for j := first + 1; j < first+4 && j < n; j++ {
				if h[j].before(&h[m]) {
					m = j
				}
			}
			if !h[m].before(&last) {
				break
			}
			h[i] = h[m]
			i = m
		}
		h[i] = last
	}
	return top.at, top.v, true
}

// Len returns the number of pending events.
func (c *Calendar[T]) Len() int { return len(c.heap) }

// Reset removes all events and restarts the sequence counter, keeping the
// backing storage.
func (c *Calendar[T]) Reset() {
	clear(c.heap)
	c.heap = c.heap[:0]
	c.seq = 0
}
