//go:build linux

package main

import (
	"sync/atomic"
	"testing"
)

// BenchmarkCoreRoundTrip measures what passing a cache line between two
// threads pinned to two CPUs costs on this host: one thread writes a
// counter, the other answers on another line, ns a round trip. It is the
// floor under every barrier of a simulation split across threads and
// under every line its partitions share in a cycle. On this project's
// virtual machine it moved between some 85 ns and some 1,030 ns from one
// minute to the next, and the 64x64 torus at 0.02 ran 1.68-2.34 times as
// fast on two threads as on one at 88-230 ns and 0.84-1.30 times at some
// 1,000 ns; there the phases' own work doubled, not the waits at their
// barriers (docs/speed.md#session26, docs/speed.md#session27,
// docs/speed.md#session28): time two threads against one with it.
//
//	go test ./cmd/flitsim -run '^$' -bench CoreRoundTrip
//
// The first two CPUs this process may run on are used.
func BenchmarkCoreRoundTrip(b *testing.B) {
	cpus := allowedCPUs(b, 2)
	if len(cpus) < 2 {
		b.Skip("one CPU: nothing to pass a line to")
	}
	var lines [16]atomic.Int64 // ping in lines[0], pong in lines[8]: 64 bytes apart
	ping, pong := &lines[0], &lines[8]
	n := int64(b.N)
	errc := make(chan error, 1)
	go func() {
		release, err := pinToCPU(cpus[1])
		if err != nil {
			errc <- err
			return
		}
		defer release()
		errc <- nil
		for i := int64(1); i <= n; i++ {
			for ping.Load() < i {
			}
			pong.Store(i)
		}
	}()
	release, err := pinToCPU(cpus[0])
	if err != nil {
		ping.Store(n) // lets the other thread's loop end
		b.Fatal(err)
	}
	defer release()
	if err := <-errc; err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := int64(1); i <= n; i++ {
		ping.Store(i)
		for pong.Load() < i {
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/roundtrip")
	b.ReportMetric(0, "ns/op")
}
