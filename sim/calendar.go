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
	heap []Event[T]
	seq  uint64
}

// Event is an event of a Calendar: its time, its value and its place among
// the events of equal time (the Push that made it). PopBefore hands events
// out whole so that Unpop can put them back in that place.
type Event[T any] struct {
	At  float64
	V   T
	seq uint64
}

func (a *Event[T]) before(b *Event[T]) bool {
	return a.At < b.At || (a.At == b.At && a.seq < b.seq)
}

// Push schedules v at time at. It panics if at is NaN (a programmer error
// that would break the ordering).
func (c *Calendar[T]) Push(at float64, v T) {
	if math.IsNaN(at) {
		panic("sim: Calendar.Push at NaN time")
	}
	c.insert(Event[T]{At: at, V: v, seq: c.seq})
	c.seq++
}

// insert adds e to the heap, sifting it up.
func (c *Calendar[T]) insert(e Event[T]) {
	c.heap = append(c.heap, e)
	h := c.heap
	i := len(h) - 1
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
	return c.heap[0].At, c.heap[0].V, true
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
	var zero Event[T]
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
	return top.At, top.V, true
}

// PopBefore removes every event earlier than limit and appends them to buf
// in the order Pop would return them one by one, returning the extended
// buf. It lets a caller load what a batch of events will touch before it
// handles them (a network's arrivals: issue 20). Events the caller pushes
// meanwhile are not in the batch; one due before the batch's last must
// come out first, which Unpop of the rest of the batch gives.
func (c *Calendar[T]) PopBefore(limit float64, buf []Event[T]) []Event[T] {
	for len(c.heap) > 0 && c.heap[0].At < limit {
		buf = append(buf, c.heap[0])
		c.Pop()
	}
	return buf
}

// Unpop puts back events PopBefore removed, each in its place among the
// events of its time: the calendar is as if they had never been popped.
func (c *Calendar[T]) Unpop(evs []Event[T]) {
	for _, e := range evs {
		c.insert(e)
	}
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
