package closed_test

import (
	"context"
	"testing"

	"github.com/flitsim/flitsim/sim/closed"
	"github.com/flitsim/flitsim/traffic"
)

// BenchmarkEvents measures the event loop (service completions per second)
// on Reed's ring at N = 30 and on an 8x8 torus at N = 256.
func BenchmarkEvents(b *testing.B) {
	for _, c := range []struct {
		name string
		cfg  closed.Config
	}{
		{"ring15-N30", ring15(traffic.PatternSpec{}, 30, 1)},
		{"torus8x8-N256", closed.Config{Network: closed.Torus, Radix: 8, Dims: 2, Population: 256, Seed: 1}},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := must(closed.New(c.cfg))
			s.ResetForTest()
			s.StepsForTest(10000)
			b.ReportAllocs()
			b.ResetTimer()
			s.StepsForTest(b.N)
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// BenchmarkRun is one whole point of the validation curve (ring, N = 10, to
// 1% relative precision).
func BenchmarkRun(b *testing.B) {
	s := must(closed.New(ring15(traffic.PatternSpec{}, 10, 1)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Run(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
