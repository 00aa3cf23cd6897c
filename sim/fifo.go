package sim

import "github.com/flitsim/flitsim/internal/hugepage"

// FIFO is an unbounded first-in first-out queue of values of type T: a ring
// buffer whose capacity is a power of two (at least 4). It grows by doubling
// and never shrinks, so it allocates only when it holds more values than
// ever before, and a run in steady state does not allocate. Values move in
// and out by copy; no interface boxing. The zero value is an empty queue
// ready to use. A FIFO is not safe for concurrent use.
type FIFO[T any] struct {
	buf  []T
	head int
	n    int
}

// NewFIFOs returns n empty queues with room for capacity values each (a
// power of two, at least 4) in one allocation, so that a network's
// per-node queues do not each allocate at their first push: a 2^20-node
// network otherwise made a million small allocations over its first
// thousands of cycles (issue 20: allocations per cycle at steady state).
// A queue that outgrows its room grows on its own, as any FIFO.
func NewFIFOs[T any](n, capacity int) []FIFO[T] {
	if capacity < 4 || capacity&(capacity-1) != 0 {
		panic("sim: NewFIFOs capacity must be a power of two >= 4")
	}
	// Huge pages for many queues (hugepage): a network of 2^20 terminals
	// reads its source queues in an order no 4 KiB TLB entry follows.
	qs := hugepage.Make[FIFO[T]](n)
	buf := hugepage.Make[T](n * capacity)
	for i := range qs {
		qs[i].buf = buf[i*capacity : (i+1)*capacity : (i+1)*capacity]
	}
	return qs
}

// Len returns the number of values in the queue.
func (q *FIFO[T]) Len() int { return q.n }

// Push appends v at the tail.
func (q *FIFO[T]) Push(v T) {
	if q.n == len(q.buf) {
		q.grow()
	}
	q.buf[(q.head+q.n)&(len(q.buf)-1)] = v
	q.n++
}

// Front returns the head value without removing it. It panics if the queue
// is empty.
func (q *FIFO[T]) Front() T {
	if q.n == 0 {
		panic("sim: FIFO.Front of an empty queue")
	}
	return q.buf[q.head]
}

// Pop removes and returns the head value. It panics if the queue is empty.
func (q *FIFO[T]) Pop() T {
	if q.n == 0 {
		panic("sim: FIFO.Pop of an empty queue")
	}
	v := q.buf[q.head]
	q.head = (q.head + 1) & (len(q.buf) - 1)
	q.n--
	return v
}

// At returns the k-th value from the head (At(0) is Front), for walks
// over the queue such as consistency checks. It panics unless
// 0 <= k < Len().
func (q *FIFO[T]) At(k int) T {
	if k < 0 || k >= q.n {
		panic("sim: FIFO.At out of range")
	}
	return q.buf[(q.head+k)&(len(q.buf)-1)]
}

// Reset empties the queue, keeping its storage.
func (q *FIFO[T]) Reset() { q.head, q.n = 0, 0 }

func (q *FIFO[T]) grow() {
	buf := make([]T, max(4, 2*len(q.buf)))
	for i := range q.n {
		buf[i] = q.buf[(q.head+i)&(len(q.buf)-1)]
	}
	q.buf, q.head = buf, 0
}
