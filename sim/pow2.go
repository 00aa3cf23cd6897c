package sim

// CeilPow2 returns the least power of two at least n (1 for n <= 1): the
// size of a ring indexed by a mask, as the timing wheels and the
// calendar's buckets are.
func CeilPow2(n int) int {
	c := 1
	for c < n {
		c <<= 1
	}
	return c
}
