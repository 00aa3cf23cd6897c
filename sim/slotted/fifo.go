package slotted

// packet is one packet in a node's queue. 16 bytes; packets move between
// queues by value.
type packet struct {
	gen  float64 // continuous generation instant, slots
	src  int32   // generating node
	dest int32   // destination node
}

// fifo is an unbounded ring buffer of packets whose capacity is a power of
// two. It allocates only when it grows past its largest size so far, so a
// run in steady state does not allocate.
type fifo struct {
	buf  []packet
	head int
	n    int
}

func (q *fifo) push(p packet) {
	if q.n == len(q.buf) {
		q.grow()
	}
	q.buf[(q.head+q.n)&(len(q.buf)-1)] = p
	q.n++
}

// front returns the head packet; the queue must not be empty.
func (q *fifo) front() packet { return q.buf[q.head] }

// pop removes the head packet; the queue must not be empty.
func (q *fifo) pop() {
	q.head = (q.head + 1) & (len(q.buf) - 1)
	q.n--
}

func (q *fifo) grow() {
	c := max(4, 2*len(q.buf))
	buf := make([]packet, c)
	for i := range q.n {
		buf[i] = q.buf[(q.head+i)&(len(q.buf)-1)]
	}
	q.buf, q.head = buf, 0
}

// reset empties the queue, keeping its storage.
func (q *fifo) reset() { q.head, q.n = 0, 0 }
