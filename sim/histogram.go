package sim

import (
	"fmt"
	"math"
	"math/bits"
)

// Histogram layout constants.
const (
	histSubBits = 6                  // log buckets: 2^6 = 64 per octave
	histSub     = 1 << histSubBits   // sub-buckets per octave
	histMinLog  = histSub - 1        // values ≤ 63 are always in unit bins
	histMaxBits = 48                 // log buckets cover values < 2^48
	histMaxLog  = 1<<histMaxBits - 1 // largest value in a log bucket
)

// Histogram counts non-negative integer values, typically latencies in
// cycles, in constant memory:
//
//   - unit bins for 0 ≤ v ≤ E, where E = max(exactUpTo, 63): percentiles in
//     this range are exact;
//   - logarithmic buckets for E < v < 2^48, 64 per octave (as in HDR
//     histograms): a value v in octave e = ⌊log₂ v⌋ falls in a bucket of
//     width 2^(e−6), so the relative error of any reported value is below
//     1/64 (1.6%);
//   - an overflow count for v ≥ 2^48 (about 2.8·10¹⁴ cycles), reported as
//     the largest value seen. No observation is ever dropped.
//
// Count, Mean, minimum and maximum are exact. Add never allocates.
type Histogram struct {
	exactUpTo int64
	exact     []int64 // unit bins 0..exactUpTo
	logOff    int     // log-bucket index of exactUpTo+1
	log       []int64 // log buckets from logOff
	overflow  int64
	n         int64
	sum       float64
	min, max  int64
}

// NewHistogram returns an empty histogram with exact unit bins up to
// max(exactUpTo, 63). It panics if exactUpTo is negative or above 2^30 (a
// programmer error; the unit bins cost 8 bytes each).
func NewHistogram(exactUpTo int64) *Histogram {
	if exactUpTo < 0 || exactUpTo > 1<<30 {
		panic(fmt.Sprintf("sim: NewHistogram(%d): exactUpTo must be in [0, 2^30]", exactUpTo))
	}
	e := max(exactUpTo, histMinLog)
	off := histLogIndex(e + 1)
	return &Histogram{
		exactUpTo: e,
		exact:     make([]int64, e+1),
		logOff:    off,
		log:       make([]int64, histLogIndex(histMaxLog)-off+1),
	}
}

// histLogIndex is the global log-bucket index of v ≥ 64: octave
// e = ⌊log₂ v⌋ ≥ 6 and the 6 bits below the leading one.
func histLogIndex(v int64) int {
	e := bits.Len64(uint64(v)) - 1
	sh := e - histSubBits
	return sh*histSub + int(v>>sh) - histSub
}

// histLogBounds returns the inclusive value range of global log bucket i.
func histLogBounds(i int) (lo, hi int64) {
	sh := i / histSub
	lo = int64(histSub+i%histSub) << sh
	return lo, lo + 1<<sh - 1
}

// Add counts value v. It panics if v is negative (a programmer error).
func (h *Histogram) Add(v int64) {
	switch {
	case v < 0:
		panic(fmt.Sprintf("sim: Histogram.Add(%d): negative value", v))
	case v <= h.exactUpTo:
		h.exact[v]++
	case v <= histMaxLog:
		h.log[histLogIndex(v)-h.logOff]++
	default:
		h.overflow++
	}
	if h.n == 0 || v < h.min {
		h.min = v
	}
	if h.n == 0 || v > h.max {
		h.max = v
	}
	h.n++
	h.sum += float64(v)
}

// Count returns the number of values added.
func (h *Histogram) Count() int64 { return h.n }

// Mean returns the exact mean of the values (NaN when empty).
func (h *Histogram) Mean() float64 {
	if h.n == 0 {
		return math.NaN()
	}
	return h.sum / float64(h.n)
}

// Percentile returns the nearest-rank p-quantile for a fraction
// 0 ≤ p ≤ 1 (Percentile(0.99) is the 99th percentile): the value of rank
// r = ⌈p·n⌉ (at least 1) in ascending order, so that Percentile(0.5) is
// the median, Percentile(0) the minimum and Percentile(1) the maximum.
// Within the unit-bin range it is exact; in a log bucket it returns the
// bucket's upper bound clamped to the largest value seen (relative error
// < 1/64); in the overflow range, the largest value seen. It returns −1 for
// an empty histogram and panics for p outside [0, 1] (a programmer error,
// which also catches a percent passed by mistake).
func (h *Histogram) Percentile(p float64) int64 {
	if !(p >= 0 && p <= 1) {
		panic(fmt.Sprintf("sim: Histogram.Percentile(%v): p must be a fraction in [0, 1]", p))
	}
	if h.n == 0 {
		return -1
	}
	// The 1e-9 guards against p·n landing just above an integer by
	// rounding (e.g. 0.999·1000 = 999.0000000000001).
	r := int64(math.Ceil(p*float64(h.n) - 1e-9))
	r = min(max(r, 1), h.n)
	if r == 1 {
		return h.min
	}
	var cum int64
	for v, c := range h.exact {
		if cum += c; cum >= r {
			return int64(v)
		}
	}
	for i, c := range h.log {
		if cum += c; cum >= r {
			_, hi := histLogBounds(i + h.logOff)
			return min(hi, h.max)
		}
	}
	return h.max
}

// Bins calls fn for every non-empty bin in ascending order with its
// inclusive value range [lo, hi] and count: unit bins have lo == hi; the
// overflow bin is reported as [2^48, max seen].
func (h *Histogram) Bins(fn func(lo, hi int64, count int64)) {
	for v, c := range h.exact {
		if c != 0 {
			fn(int64(v), int64(v), c)
		}
	}
	for i, c := range h.log {
		if c != 0 {
			lo, hi := histLogBounds(i + h.logOff)
			fn(max(lo, h.exactUpTo+1), hi, c)
		}
	}
	if h.overflow != 0 {
		fn(histMaxLog+1, h.max, h.overflow)
	}
}

// Reset empties the histogram, keeping its layout.
func (h *Histogram) Reset() {
	clear(h.exact)
	clear(h.log)
	h.overflow, h.n, h.sum, h.min, h.max = 0, 0, 0, 0, 0
}
