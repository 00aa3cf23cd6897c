package closed

import "math"

// ResetForTest puts s in its initial state, as Run does first.
func (s *Sim) ResetForTest() { s.reset() }

// StepsForTest processes n events exactly as Run's inner loop does, minus
// the period bookkeeping: the hot path the allocation test measures.
func (s *Sim) StepsForTest(n int) {
	for range n {
		if m, pe, _ := s.step(math.Inf(1)); pe {
			s.create(m, int(s.cur[m]))
		}
	}
}

// LinksForTest returns, for every channel of the network, its link server.
func (s *Sim) LinksForTest() []int32 { return s.devOf }
