package sim

import (
	"fmt"
	"math"
)

// BatchMeans estimates the steady-state mean of an autocorrelated stream
// with a 95% confidence interval by non-overlapping batch means, in
// constant memory (Law & Kelton, Simulation Modeling and Analysis, §9.5.3;
// the batch-doubling scheme of Fishman & Yarberry 1997).
//
// Observations fill batches of B observations (B = 1 at the start). When
// maxBatches batches are complete, adjacent pairs are merged and B doubles,
// so the number of complete batches k always lies in [maxBatches/2,
// maxBatches] once the first merge has happened, and B grows with the run
// length, as it must for the batch means to become independent. With batch
// means Y_1…Y_k and grand mean Ȳ,
//
//	S²  = Σ (Y_i − Ȳ)² / (k − 1)
//	h95 = t_{0.975, k−1} · S / √k
//
// Observations in the incomplete last batch are counted by Count but
// excluded from Mean and the interval, so that every batch carries the same
// weight. Only batch sums are stored (exact under merging). Add never
// allocates.
type BatchMeans struct {
	sums       []float64 // sums of complete batches, len = maxBatches
	full       int       // complete batches
	size       int64     // current batch size B
	cur        float64   // sum of the incomplete batch
	curN       int64     // observations in the incomplete batch
	count      int64     // all observations
	minBatches int
	tq         []float64 // cache of t_{0.975, df}, index df; 0 = not yet computed
}

// NewBatchMeans returns an empty estimator keeping at most maxBatches batch
// sums and giving an interval once minBatches batches are complete. It
// panics unless maxBatches is even, minBatches ≥ 2 and maxBatches ≥
// 2·minBatches (so that the interval stays available after a merge); these
// are programmer errors. Typical values are 64 and 10.
func NewBatchMeans(maxBatches, minBatches int) *BatchMeans {
	if minBatches < 2 || maxBatches%2 != 0 || maxBatches < 2*minBatches {
		panic(fmt.Sprintf("sim: NewBatchMeans(%d, %d): need even maxBatches ≥ 2·minBatches and minBatches ≥ 2", maxBatches, minBatches))
	}
	return &BatchMeans{
		sums:       make([]float64, maxBatches),
		size:       1,
		minBatches: minBatches,
		tq:         make([]float64, maxBatches),
	}
}

// Add adds observation x.
func (b *BatchMeans) Add(x float64) {
	b.count++
	b.cur += x
	b.curN++
	if b.curN < b.size {
		return
	}
	b.sums[b.full] = b.cur
	b.full++
	b.cur, b.curN = 0, 0
	if b.full == len(b.sums) {
		half := b.full / 2
		for i := 0; i < half; i++ {
			b.sums[i] = b.sums[2*i] + b.sums[2*i+1]
		}
		clear(b.sums[half:])
		b.full = half
		b.size *= 2
	}
}

// Mean returns the mean of the observations in complete batches, NaN when
// no batch is complete.
func (b *BatchMeans) Mean() float64 {
	if b.full == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, v := range b.sums[:b.full] {
		s += v
	}
	return s / (float64(b.full) * float64(b.size))
}

// CI95 returns the half-width of the 95% confidence interval of the mean,
// Mean() ± halfWidth. ok is false with fewer than minBatches complete
// batches; then halfWidth is +Inf.
func (b *BatchMeans) CI95() (halfWidth float64, ok bool) {
	k := b.full
	if k < b.minBatches {
		return math.Inf(1), false
	}
	mean := b.Mean()
	bs := float64(b.size)
	ss := 0.0
	for _, v := range b.sums[:k] {
		d := v/bs - mean
		ss += d * d
	}
	s := math.Sqrt(ss / float64(k-1))
	return b.tQuantile(k-1) * s / math.Sqrt(float64(k)), true
}

// tQuantile returns t_{0.975, df}, cached (df < maxBatches always).
func (b *BatchMeans) tQuantile(df int) float64 {
	if b.tq[df] == 0 {
		b.tq[df] = StudentTQuantile(0.975, df)
	}
	return b.tq[df]
}

// RelHalfWidth returns CI95 half-width / |Mean|, the relative precision
// used as a stopping rule. ok is false when CI95 is not ok or the mean is 0.
func (b *BatchMeans) RelHalfWidth() (float64, bool) {
	h, ok := b.CI95()
	if !ok {
		return math.Inf(1), false
	}
	m := math.Abs(b.Mean())
	if m == 0 {
		return math.Inf(1), false
	}
	return h / m, true
}

// Batches returns the number of complete batches.
func (b *BatchMeans) Batches() int { return b.full }

// BatchSize returns the current batch size B.
func (b *BatchMeans) BatchSize() int64 { return b.size }

// Count returns the number of observations added, including those in the
// incomplete batch.
func (b *BatchMeans) Count() int64 { return b.count }

// Lag1 returns the lag-1 autocorrelation of the complete batch means,
//
//	r1 = Σ_{i<k} (Y_i − Ȳ)(Y_{i+1} − Ȳ) / Σ_i (Y_i − Ȳ)²
//
// a check that batches are long enough for their means to be nearly
// independent (|r1| small; for independent batches r1 ≈ −1/k ± 1/√k). It
// returns NaN with fewer than three batches or zero variance.
func (b *BatchMeans) Lag1() float64 {
	k := b.full
	if k < 3 {
		return math.NaN()
	}
	mean := b.Mean()
	bs := float64(b.size)
	var num, den float64
	prev := b.sums[0]/bs - mean
	den = prev * prev
	for _, v := range b.sums[1:k] {
		d := v/bs - mean
		num += prev * d
		den += d * d
		prev = d
	}
	if den == 0 {
		return math.NaN()
	}
	return num / den
}

// Reset discards all observations; the batch size returns to 1.
func (b *BatchMeans) Reset() {
	clear(b.sums)
	b.full, b.size, b.cur, b.curN, b.count = 0, 1, 0, 0, 0
}

// mserBatch is the batch size of MSER-5.
const mserBatch = 5

// MSER5 returns how many leading observations of series to discard as
// warm-up, by the MSER-5 rule (White 1997; White, Cobb & Spratt 2000).
//
// The series is cut into m = ⌊n/5⌋ batches of 5 (a trailing partial batch
// is ignored) with means Z_1…Z_m. For a truncation of d batches, with
// k = m − d remaining batches of mean Z̄_d,
//
//	MSER(d) = (1/k²) · Σ_{j=d+1}^{m} (Z_j − Z̄_d)²
//
// is the squared marginal standard error of the truncated mean; the
// truncation d* minimising it balances bias (keeping the transient) against
// variance (discarding data). The result is truncate = 5·d*.
//
// Candidates are d = 0 … m − kmin with kmin = max(2, ⌈m/4⌉) batches kept:
// MSER(d) computed from a handful of batches at the end of the series is
// itself so noisy that it often undercuts the true minimum by chance (for
// k = 2 batches of white noise, P(MSER(m−2) < MSER(0)) ≈ P(χ²₁ < 4/m)).
// ok is false when d* ≥ m/2, i.e. the minimum lies in the second half of
// the series and the transient is not over (or the series is too short to
// tell), or when m < 4. Ties go to the smaller d. MSER5 does not allocate.
func MSER5(series []float64) (truncate int, ok bool) {
	return mser(series, mserBatch)
}

// mser is the MSER rule of [MSER5] with batches of b observations.
func mser(series []float64, b int) (truncate int, ok bool) {
	m := len(series) / b
	if m < 4 {
		return 0, false
	}
	kmin := max(2, (m+3)/4)
	// Suffix statistics by a backward Welford pass: after adding batch j,
	// mean and m2 describe batches j…m−1 (0-based).
	var n, mean, m2 float64
	best, bestD := math.Inf(1), 0
	for j := m - 1; j >= 0; j-- {
		z := 0.0
		for _, v := range series[j*b : (j+1)*b] {
			z += v
		}
		z /= float64(b)
		n++
		dl := z - mean
		mean += dl / n
		m2 += dl * (z - mean)
		if d := j; m-d >= kmin {
			if s := m2 / (n * n); s <= best { // ≤: ties go to smaller d
				best, bestD = s, d
			}
		}
	}
	return bestD * b, 2*bestD < m
}
