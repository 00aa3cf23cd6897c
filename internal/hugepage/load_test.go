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
		if why := cannotSpare(bytes); why != "" {
			b.Run(name, func(b *testing.B) { b.Skip(why) })
			continue
		}
		n := int(bytes / 8)
		a := residentWords(n)
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
			reportPer(b, loads, "ns/load")
		})
		b.Run(name+"/independent", func(b *testing.B) {
			for b.Loop() {
				for i := 0; i+64 <= len(idx); i += 64 {
					for _, x := range idx[i : i+64] {
						sink += a[int(x)<<3]
					}
				}
			}
			reportPer(b, loads, "ns/load")
		})
		if sink == 1 {
			b.Log(sink)
		}
	}
}

// BenchmarkPageLocality measures what a second load costs next to a first
// at a random line of a 4 GiB array in huge pages: in another line of the
// same 4 KiB page, in another 4 KiB page of the same 2 MiB page, or
// anywhere. Where the processor's TLB holds the array's 2 MiB pages the
// first two cost alike (a line each, the translation already held) and
// less than "anywhere"; where the host maps a virtual machine's memory in
// 4 KiB pages (the guest's huge pages then give a TLB entry of 4 KiB
// each), "same2MiB" costs as much as "anywhere" and only "same4KiB" is
// cheap: the cost of a flit-hop's loads
// then follows the 4 KiB pages they touch, not the lines
// (docs/speed.md#session26). The metric is ns a pair of loads, the
// second's address waiting for the first ("dependent") or 32 pairs
// issued at a time ("independent").
//
//	go test ./internal/hugepage -run '^$' -bench PageLocality -benchtime 3x
func BenchmarkPageLocality(b *testing.B) {
	const pairs = 1 << 21
	bytes := int64(4) << 30
	if why := cannotSpare(bytes); why != "" {
		b.Skip(why)
	}
	n := int(bytes / 8)
	a := residentWords(n)
	const linesPer4K, linesPer2M = 64, 1 << 15
	lines := n >> 3
	r := rand.New(rand.NewPCG(1, 2))
	first, same4K, same2M, anywhere := make([]int32, pairs), make([]int32, pairs), make([]int32, pairs), make([]int32, pairs)
	for i := range first {
		l := r.IntN(lines)
		first[i] = int32(l)
		same4K[i] = int32(l&^(linesPer4K-1) | (l+1+r.IntN(linesPer4K-1))&(linesPer4K-1))
		page := l / linesPer4K % (linesPer2M / linesPer4K)
		other := (page + 1 + r.IntN(linesPer2M/linesPer4K-1)) % (linesPer2M / linesPer4K)
		same2M[i] = int32(l&^(linesPer2M-1) | other*linesPer4K | r.IntN(linesPer4K))
		anywhere[i] = int32(r.IntN(lines))
	}
	var sink uint64
	for _, c := range []struct {
		name string
		sec  []int32 // the second load's line, pair by pair
	}{{"same4KiB", same4K}, {"same2MiB", same2M}, {"anywhere", anywhere}} {
		name, sec := c.name, c.sec
		b.Run(name+"/dependent", func(b *testing.B) {
			for b.Loop() {
				k := 0
				for i, x := range first {
					k = (int(x) ^ int(a[k]&1)) << 3 // each address needs the load before
					k = (int(sec[i]) ^ int(a[k]&1)) << 3
				}
				sink += uint64(k)
			}
			reportPer(b, pairs, "ns/pair")
		})
		b.Run(name+"/independent", func(b *testing.B) {
			for b.Loop() {
				for i := 0; i+32 <= len(first); i += 32 {
					for j := i; j < i+32; j++ {
						sink += a[int(first[j])<<3] + a[int(sec[j])<<3]
					}
				}
			}
			reportPer(b, pairs, "ns/pair")
		})
	}
	if sink == 1 {
		b.Log(sink)
	}
}

// residentWords returns n words in huge pages (Make), every 4 KiB page of
// them written so that they are resident before the timing starts.
func residentWords(n int) []uint64 {
	a := Make[uint64](n)
	for i := 0; i < n; i += 512 {
		a[i] = uint64(i)
	}
	return a
}

// reportPer reports the benchmark's time per unit, count units a loop
// (ns/op, the whole loop's, reads as 0).
func reportPer(b *testing.B, count int, unit string) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*count), unit)
	b.ReportMetric(0, "ns/op")
}

// cannotSpare says why an array of the given bytes is not to be made (more
// than three quarters of what sysmem says the process may still take:
// MemAvailable, or the cgroup's room when lower), or "" when it may.
func cannotSpare(bytes int64) string {
	if lim, err := sysmem.Read("/"); err == nil && lim.Available > 0 && bytes > lim.Available*3/4 {
		return fmt.Sprintf("%d MiB available", lim.Available>>20)
	}
	return ""
}
