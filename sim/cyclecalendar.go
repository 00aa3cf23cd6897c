package sim

import (
	"math"
	"slices"
	"unsafe"
)

// CycleCalendar is a Calendar for a caller that takes its events a cycle
// at a time (PopBefore with a limit that moves on by about a cycle a
// call): the same events come out in the same order, (time, push order),
// but those of the next DefaultCycleSpan cycles (SetSpan) wait in a
// bucket a cycle, filled by appends and sorted when their cycle comes,
// instead of in one heap. A heap's Pop walks from its root to a leaf, and
// in a heap of a million events (a 2^20-node network's next arrivals) the
// deep levels are cache misses one after the other: the heap's comparisons
// took 2.8 s of a 78 s profile of the 16-ary 5-cube at 0.05 (300 cycles,
// one thread), in the part of a cycle that two threads cannot share (issue
// 20). Events outside the span (further ahead, or earlier than the cycle
// being taken) wait in a Calendar beside the buckets and come out merged
// in order.
//
// The zero value is an empty calendar ready to use. A CycleCalendar is not
// safe for concurrent use.
type CycleCalendar[T any] struct {
	ring   []bucket // bucket c&mask: the events of cycle c (the floor of their time), lo <= c < lo+len(ring), but the first cycle's once opened (cur)
	mask   int64
	inRing int   // events in the ring and cur
	lo     int64 // the first cycle the ring holds
	// cur is the first cycle's events once opened (PopBefore), sorted, the
	// first head of them taken; an event pushed for that cycle then goes
	// into its place here.
	cur    []Event[T]
	head   int
	opened bool
	chunks []chunk[T]  // the buckets' storage, shared: a bucket is a list of chunks
	free   int32       // the first free chunk, -1 none
	far    Calendar[T] // the events of no cycle in the ring
	seq    uint64
	span   int // the ring's cycles (SetSpan), 0 until set or the first Push
}

// bucket is a ring bucket: its first and last chunk, -1 when empty.
type bucket struct{ first, last int32 }

// chunk holds up to chunkEvents events of one bucket. The buckets share a
// pool of chunks, so that the near buckets, which fill as their cycle
// comes, and the far ones, nearly empty, hold about what they carry: a
// slice a bucket would keep the room its cycle needed when the ring comes
// round to it again (some 200 MB at 2^20 terminals).
type chunk[T any] struct {
	ev   [chunkEvents]Event[T]
	n    int32
	next int32
}

const chunkEvents = 16

// DefaultCycleSpan is how many cycles a CycleCalendar's buckets cover
// unless SetSpan says otherwise: at 0.05 flits a node and cycle in 16-flit
// messages (a mean gap of 320 cycles between a terminal's arrivals) some
// 0.2% of the pending arrivals are further ahead.
const DefaultCycleSpan = 2048

// SetSpan sets how many cycles the buckets cover, rounded up to a power
// of two (at least 1), fewer for a calendar that holds few events (the
// ring costs 8 bytes a cycle, a bucket in use a chunk of some 400), and
// makes room for events events at once (none is made again while no more
// wait in the buckets). It must be called before the first Push.
func (c *CycleCalendar[T]) SetSpan(cycles, events int) {
	if c.ring != nil {
		panic("sim: CycleCalendar.SetSpan after Push")
	}
	c.span = CeilPow2(cycles)
	c.chunks = make([]chunk[T], 0, chunksFor(c.span, events))
}

// chunksFor is how many chunks events events need at most in a ring of
// span cycles: full ones, and one partly filled a bucket.
func chunksFor(span, events int) int { return events/chunkEvents + min(span, events) + 1 }

// CycleCalendarBytes is what SetSpan(span, events) allocates for a
// CycleCalendar of events of type T, with its ring: what it holds while no
// more than events events wait, none of them beyond the span.
func CycleCalendarBytes[T any](span, events int) int64 {
	span = CeilPow2(span)
	return int64(span)*int64(unsafe.Sizeof(bucket{})) + int64(chunksFor(span, events))*int64(unsafe.Sizeof(chunk[T]{}))
}

// Push schedules v at time at. It panics if at is NaN.
func (c *CycleCalendar[T]) Push(at float64, v T) {
	if math.IsNaN(at) {
		panic("sim: CycleCalendar.Push at NaN time")
	}
	c.put(Event[T]{At: at, V: v, seq: c.seq})
	c.seq++
}

// cycleOf returns the cycle of time at (its floor), and whether the ring
// holds that cycle.
func (c *CycleCalendar[T]) cycleOf(at float64) (int64, bool) {
	if !(at >= float64(c.lo) && at < float64(c.lo+int64(len(c.ring)))) {
		return 0, false
	}
	return int64(math.Floor(at)), true
}

// put files e: in its cycle's bucket (in its place in the first cycle's,
// once opened), or beside the ring.
func (c *CycleCalendar[T]) put(e Event[T]) {
	if c.ring == nil {
		c.start(e.At)
	}
	cy, ok := c.cycleOf(e.At)
	if !ok {
		c.far.insert(e)
		return
	}
	c.inRing++
	if cy == c.lo && c.opened {
		k, _ := slices.BinarySearchFunc(c.cur[c.head:], e, compareEvents[T])
		c.cur = slices.Insert(c.cur, c.head+k, e)
		return
	}
	c.appendTo(&c.ring[cy&c.mask], e)
}

// compareEvents orders events by (time, push order); no two are equal.
func compareEvents[T any](x, y Event[T]) int {
	if x.before(&y) {
		return -1
	}
	return 1
}

// appendTo adds e at the end of bucket b, in a new chunk when its last is
// full.
func (c *CycleCalendar[T]) appendTo(b *bucket, e Event[T]) {
	if b.last < 0 || c.chunks[b.last].n == chunkEvents {
		k := c.free
		if k >= 0 {
			c.free = c.chunks[k].next
		} else {
			k = int32(len(c.chunks))
			c.chunks = append(c.chunks, chunk[T]{})
		}
		c.chunks[k].n, c.chunks[k].next = 0, -1
		if b.last < 0 {
			b.first = k
		} else {
			c.chunks[b.last].next = k
		}
		b.last = k
	}
	ch := &c.chunks[b.last]
	ch.ev[ch.n] = e
	ch.n++
}

// start makes the ring, its first cycle 0, or that of the first event's
// time if earlier (a simulation's clock starts at 0, and its first push,
// one terminal's first arrival, may be far later than others to come).
func (c *CycleCalendar[T]) start(at float64) {
	if c.span == 0 {
		c.span = DefaultCycleSpan
	}
	c.ring = make([]bucket, c.span)
	for k := range c.ring {
		c.ring[k] = bucket{-1, -1}
	}
	c.mask, c.free = int64(c.span-1), -1
	if at < 0 && at > -1<<62 {
		c.lo = int64(math.Floor(at))
	}
}

// open takes the first cycle's bucket into cur, sorted, and frees its
// chunks.
func (c *CycleCalendar[T]) open() {
	b := &c.ring[c.lo&c.mask]
	c.cur, c.head, c.opened = c.cur[:0], 0, true
	for k := b.first; k >= 0; {
		ch := &c.chunks[k]
		c.cur = append(c.cur, ch.ev[:ch.n]...)
		clear(ch.ev[:ch.n])
		next := ch.next
		ch.next, c.free = c.free, k
		k = next
	}
	*b = bucket{-1, -1}
	if n := len(c.cur); 2*n > cap(c.cur) {
		// Room for at least twice the largest cycle yet (four times when
		// it grows), so that the cycles to come (and the events pushed
		// into this one) seldom need more: appends alone grew it whenever
		// a cycle beat the record, now and then long after the start
		// (0.01 allocations a cycle on the 16-ary 4-cube at 0.05).
		c.cur = slices.Grow(c.cur, 3*n)
	}
	slices.SortFunc(c.cur, compareEvents[T])
}

// PopBefore removes every event earlier than limit and appends them to buf
// in the order Calendar.PopBefore would, returning the extended buf.
//
// The earliest event is the earlier of the first in the ring's first
// non-empty bucket and the first beside the ring. So while the first
// bucket is spent and a later one may hold an event before limit, the
// ring moves on a cycle (advance); an event pushed later for a cycle it
// has passed waits beside it, and comes out in its place all the same.
func (c *CycleCalendar[T]) PopBefore(limit float64, buf []Event[T]) []Event[T] {
	if c.ring == nil {
		return buf
	}
	for {
		if !c.opened {
			c.open()
		}
		if c.head == len(c.cur) {
			switch {
			case c.inRing > 0 && float64(c.lo+1) < limit:
				c.advance(c.lo + 1)
				continue
			case c.inRing == 0 && c.catchUp(limit):
				continue
			}
		}
		var next *Event[T]
		if c.head < len(c.cur) {
			next = &c.cur[c.head]
		}
		if len(c.far.heap) > 0 && (next == nil || c.far.heap[0].before(next)) {
			if !(c.far.heap[0].At < limit) {
				return buf
			}
			buf = append(buf, c.far.heap[0])
			c.far.Pop()
			continue
		}
		if next == nil || !(next.At < limit) {
			return buf
		}
		buf = append(buf, *next)
		c.head++
		c.inRing--
	}
}

// advance moves the ring's first cycle on to cycle to: its first bucket
// is spent and the buckets after it up to cycle to are empty (PopBefore
// moves on a cycle at a time; catchUp, an empty ring). It takes into the
// ring the events beside it that it now holds.
func (c *CycleCalendar[T]) advance(to int64) {
	clear(c.cur)
	c.cur, c.head, c.opened = c.cur[:0], 0, false
	c.lo = to
	for len(c.far.heap) > 0 {
		e := c.far.heap[0]
		cy, ok := c.cycleOf(e.At)
		if !ok {
			return
		}
		c.far.Pop()
		c.appendTo(&c.ring[cy&c.mask], e)
		c.inRing++
	}
}

// catchUp moves an empty ring's first cycle on to that of limit or of the
// earliest event beside it, whichever is earlier (if later than its
// own), so that the ring goes on holding the coming cycles' events. It
// reports whether it moved.
func (c *CycleCalendar[T]) catchUp(limit float64) bool {
	to := limit
	if len(c.far.heap) > 0 && c.far.heap[0].At < to {
		to = c.far.heap[0].At
	}
	if to < 1<<62 && int64(math.Floor(to)) > c.lo {
		c.advance(int64(math.Floor(to)))
		return true
	}
	return false
}

// Unpop puts back events PopBefore removed, each in its place among the
// events of its time: the calendar is as if they had never been popped.
func (c *CycleCalendar[T]) Unpop(evs []Event[T]) {
	for _, e := range evs {
		c.put(e)
	}
}

// Len returns the number of pending events.
func (c *CycleCalendar[T]) Len() int { return c.inRing + c.far.Len() }
