package delta

// StartForTest schedules the first events of s without running it.
func StartForTest(s *Sim) {
	s.ran = true
	s.start()
}

// StepsForTest processes k events, ignoring the stopping rule (period ends
// still record their series, whose capacity bounds how far this may go).
func StepsForTest(s *Sim, k int) {
	for range k {
		s.step()
	}
}
