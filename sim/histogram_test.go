package sim

import (
	"math"
	"slices"
	"testing"
)

// nearestRank is the reference nearest-rank quantile of sorted data for
// the fraction p = num/den, in exact integer arithmetic: rank ⌈num·n/den⌉.
func nearestRank(sorted []int64, num, den int64) int64 {
	n := int64(len(sorted))
	r := (num*n + den - 1) / den
	r = max(r, 1)
	return sorted[r-1]
}

func TestHistogramPercentilesVsSorted(t *testing.T) {
	r := NewStream(9, PurposeService, 0)
	for _, c := range []struct {
		name      string
		exactUpTo int64
		draw      func() int64
	}{
		// Latency-like: 20 + Exp(mean 30): almost all in the exact range.
		{"exact range", 1000, func() int64 { return 20 + int64(r.ExpFloat64()*30) }},
		// Heavy tail: most values beyond the exact range (Pareto α=1.2).
		{"log range", 100, func() int64 { return int64(50 / math.Pow(r.Float64(), 1/1.2)) }},
		// Minimal exact range (raised to 63 internally).
		{"exactUpTo 0", 0, func() int64 { return int64(r.ExpFloat64() * 500) }},
	} {
		h := NewHistogram(c.exactUpTo)
		var data []int64
		for i := 0; i < 9999; i++ {
			v := c.draw()
			data = append(data, v)
			h.Add(v)
		}
		slices.Sort(data)
		exactMax := max(c.exactUpTo, 63)
		for _, p := range [][2]int64{{0, 1}, {1, 100}, {1, 10}, {1, 2}, {9, 10}, {95, 100}, {99, 100}, {999, 1000}, {9999, 10000}, {1, 1}} {
			pct := float64(p[0]) / float64(p[1])
			want := nearestRank(data, p[0], p[1])
			got := h.Percentile(pct)
			if want <= exactMax || pct == 0 || pct == 1 {
				if got != want {
					t.Errorf("%s: P%v = %d, want exactly %d", c.name, pct, got, want)
				}
				continue
			}
			// Log bucket: upper bound of the bucket holding want, so
			// want ≤ got ≤ want·(1 + 1/64).
			if got < want || float64(got) > float64(want)*(1+1.0/64) {
				t.Errorf("%s: P%v = %d, want %d within +1/64", c.name, pct, got, want)
			}
		}
		var a Accumulator
		for _, v := range data {
			a.Add(float64(v))
		}
		if h.Count() != int64(len(data)) || math.Abs(h.Mean()-a.Mean()) > 1e-12*a.Mean() {
			t.Errorf("%s: count %d mean %v, want %d %v", c.name, h.Count(), h.Mean(), len(data), a.Mean())
		}
	}
}

func TestHistogramBinsAndOverflow(t *testing.T) {
	h := NewHistogram(100)
	vals := []int64{0, 5, 5, 100, 101, 127, 128, 129, 1000, 1 << 50, 1<<50 + 7}
	for _, v := range vals {
		h.Add(v)
	}
	type bin struct{ lo, hi, c int64 }
	var got []bin
	var total int64
	prevHi := int64(-1)
	h.Bins(func(lo, hi, c int64) {
		got = append(got, bin{lo, hi, c})
		total += c
		if lo <= prevHi || hi < lo {
			t.Errorf("bins not ascending/disjoint: [%d,%d] after %d", lo, hi, prevHi)
		}
		prevHi = hi
	})
	// Octave 6 (64..127) has unit-width log buckets; 128..255 width 2;
	// 1000 lies in [1000, 1007] (width 8); 2^50 and 2^50+7 overflow.
	want := []bin{{0, 0, 1}, {5, 5, 2}, {100, 100, 1}, {101, 101, 1}, {127, 127, 1},
		{128, 129, 2}, {1000, 1007, 1}, {1 << 48, 1<<50 + 7, 2}}
	if !slices.Equal(got, want) {
		t.Errorf("bins %v, want %v", got, want)
	}
	if total != int64(len(vals)) || h.Count() != total {
		t.Errorf("bin total %d count %d, want %d (nothing lost)", total, h.Count(), len(vals))
	}
	if p := h.Percentile(1); p != 1<<50+7 {
		t.Errorf("P100 = %d, want max %d", p, int64(1<<50+7))
	}
	if p := h.Percentile(0.95); p != 1<<50+7 {
		t.Errorf("P95 in overflow = %d, want max", p)
	}
	h.Reset()
	if h.Count() != 0 || h.Percentile(0.5) != -1 || !math.IsNaN(h.Mean()) {
		t.Errorf("reset: count %d P50 %d mean %v", h.Count(), h.Percentile(0.5), h.Mean())
	}
	h.Bins(func(lo, hi, c int64) { t.Errorf("bin after reset: [%d,%d] %d", lo, hi, c) })
	defer func() {
		if recover() == nil {
			t.Error("Percentile(99) (a percent, not a fraction) did not panic")
		}
	}()
	h.Percentile(99)
}

func TestHistogramLogBucketsTile(t *testing.T) {
	// Identity: consecutive log buckets tile [64, 2^48) without gaps, and
	// each has relative width ≤ 1/64.
	prev := int64(63)
	for i := 0; i <= histLogIndex(histMaxLog); i++ {
		lo, hi := histLogBounds(i)
		if lo != prev+1 || histLogIndex(lo) != i || histLogIndex(hi) != i {
			t.Fatalf("bucket %d = [%d,%d] after %d", i, lo, hi, prev)
		}
		if float64(hi-lo+1)/float64(lo) > 1.0/64 {
			t.Fatalf("bucket %d = [%d,%d] wider than 1/64", i, lo, hi)
		}
		prev = hi
	}
	if prev != histMaxLog {
		t.Fatalf("last bucket ends at %d, want %d", prev, int64(histMaxLog))
	}
}

func TestHistogramAddDoesNotAllocate(t *testing.T) {
	h := NewHistogram(500)
	v := int64(0)
	if n := testing.AllocsPerRun(10000, func() { v = (v*7 + 13) % 100003; h.Add(v) }); n != 0 {
		t.Errorf("Histogram.Add: %v allocs", n)
	}
}
