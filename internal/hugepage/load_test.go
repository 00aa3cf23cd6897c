package hugepage

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/flitsim/flitsim/internal/sysmem"
)

// BenchmarkRandomLoad measures what a load from a random line of a large
// array in huge pages costs on this machine, the floor under a flit-hop of
// a network of 2^20 routers (docs/speed.md#machine-floor): "dependent",
// each load's address waiting for the one before (the latency, TLB miss
// and page walk included), and "independent", addresses known ahead in
// batches of 64 (what the memory system sustains when misses overlap, as
// the plane's touch passes arrange). The metric is ns/load on one core.
// The sizes step by a GiB from 1 to 6 (the 5-cube's arrays span some 5 GB)
// to show where the cost steps up: past the huge pages the TLB holds
// (docs/speed.md#footprint).
//
//	go test ./internal/hugepage -run '^$' -bench RandomLoad -benchtime 4x
//
// Sizes the process cannot spare (sysmem: MemAvailable, or the cgroup's
// room when lower) are skipped.
func BenchmarkRandomLoad(b *testing.B) {
	const loads = 1 << 21
	for _, gib := range []int{0, 1, 2, 3, 4, 5, 6} {
		bytes := int64(64 << 20) // 0: 64 MiB, twice a 32 MiB last-level cache
		if gib > 0 {
			bytes = int64(gib) << 30
		}
		name := fmt.Sprintf("%dMiB", bytes>>20)
		if lim, err := sysmem.Read("/"); err == nil && lim.Available > 0 && bytes > lim.Available*3/4 {
			b.Run(name, func(b *testing.B) { b.Skipf("%d MiB available", lim.Available>>20) })
			continue
		}
		n := int(bytes / 8)
		a := Make[uint64](n)
		for i := 0; i < n; i += 512 {
			a[i] = uint64(i) // every 4 KiB page written: resident before timing
		}
		r := rand.New(rand.NewPCG(1, uint64(gib)))
		idx := make([]int32, loads)
		for i := range idx {
			idx[i] = int32(r.IntN(n >> 3)) // a line number
		}
		var sink uint64
		b.Run(name+"/dependent", func(b *testing.B) {
			for b.Loop() {
				k := 0
				for _, x := range idx {
					k = (int(x) ^ int(a[k]&1)) << 3 // the next address needs this load
				}
				sink += uint64(k)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*loads), "ns/load")
			b.ReportMetric(0, "ns/op")
		})
		b.Run(name+"/independent", func(b *testing.B) {
			for b.Loop() {
				for i := 0; i+64 <= len(idx); i += 64 {
					for _, x := range idx[i : i+64] {
						sink += a[int(x)<<3]
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*loads), "ns/load")
			b.ReportMetric(0, "ns/op")
		})
		if sink == 1 {
			b.Log(sink)
		}
	}
}
