package slotted

import "testing"

// halfCapacity4 is 0.5 λ_max of the 4-cube, packets/node/slot (docs/models.md#jacquet-pins:
// λ_max = 0.187130351326).
const halfCapacity4 = 0.0935651756630109

// warmed returns a Sim of the n-cube at rate, measuring, after enough slots
// for its queues to have grown to their working size.
func warmed(t testing.TB, n int, rate float64, arrivals, choice string) (*Sim, int64) {
	s, err := New(Config{Dim: n, Rate: rate, Seed: 1, Arrivals: arrivals, Choice: choice})
	if err != nil {
		t.Fatal(err)
	}
	s.reset()
	const warm = 5000
	s.period(0, warm)
	s.measuring, s.measStart = true, warm
	return s, warm
}

// The slot loop (forwarding, generation, every measurement Add) allocates
// nothing once the queues have reached their working size.
func TestSlotsDoNotAllocate(t *testing.T) {
	for _, choice := range []string{ChoiceFree, ChoiceBlind} {
		for _, arr := range []string{ArrivalsPoisson, ArrivalsBernoulli} {
			s, t0 := warmed(t, 4, halfCapacity4, arr, choice)
			allocs := testing.AllocsPerRun(20, func() {
				s.period(t0, 500)
				t0 += 500
			})
			if allocs != 0 {
				t.Errorf("%s/%s: %v allocations per 500 slots, want 0", choice, arr, allocs)
			}
		}
	}
}

// BenchmarkSlot reports simulated slots per second at 0.5 λ_max (n = 4 and
// n = 6; λ_max(6) = 0.132058922286, docs/models.md#jacquet-pins).
func BenchmarkSlot(b *testing.B) {
	for _, bc := range []struct {
		name string
		n    int
		rate float64
	}{{"n=4", 4, halfCapacity4}, {"n=6", 6, 0.5 * 0.132058922286}} {
		b.Run(bc.name, func(b *testing.B) {
			s, t0 := warmed(b, bc.n, bc.rate, ArrivalsPoisson, ChoiceFree)
			b.ReportAllocs()
			b.ResetTimer()
			s.period(t0, int64(b.N))
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "slots/s")
			b.ReportMetric(float64(b.N)*float64(s.nodes)/b.Elapsed().Seconds(), "node-slots/s")
		})
	}
}
