package slotted

// packet is one packet in a node's queue. 16 bytes; packets move between
// queues by value.
type packet struct {
	gen  float64 // continuous generation instant, slots
	src  int32   // generating node
	dest int32   // destination node
}
