package sim

import (
	"math"
	"testing"
)

func TestBatchMeansHandTrace(t *testing.T) {
	// maxBatches 4: 1,2,3,4 fill four unit batches, merge to sums [3,7]
	// with B=2; 5..8 add batches 11 and 15, merge to [10,26] with B=4.
	// Batch means 2.5 and 6.5: mean 4.5, S² = (2²+2²)/1 = 8,
	// h = t_{0.975,1}·√8/√2 = 2·12.706204736 (t from the reference table).
	b := NewBatchMeans(4, 2)
	for x := 1.0; x <= 8; x++ {
		b.Add(x)
	}
	if b.Batches() != 2 || b.BatchSize() != 4 || b.Count() != 8 {
		t.Fatalf("batches %d size %d count %d, want 2, 4, 8", b.Batches(), b.BatchSize(), b.Count())
	}
	if b.Mean() != 4.5 {
		t.Errorf("mean %v, want 4.5", b.Mean())
	}
	h, ok := b.CI95()
	if !ok || math.Abs(h-2*12.706204736) > 1e-8 {
		t.Errorf("CI95 = %v, %v; want %v", h, ok, 2*12.706204736)
	}
	if r, ok := b.RelHalfWidth(); !ok || math.Abs(r-h/4.5) > 1e-15 {
		t.Errorf("rel half width %v", r)
	}
	// An incomplete batch is counted but not used.
	b.Add(1000)
	if b.Count() != 9 || b.Mean() != 4.5 {
		t.Errorf("after partial batch: count %d mean %v", b.Count(), b.Mean())
	}
	b.Reset()
	if b.Count() != 0 || b.Batches() != 0 || b.BatchSize() != 1 || !math.IsNaN(b.Mean()) {
		t.Errorf("reset: count %d batches %d size %d mean %v", b.Count(), b.Batches(), b.BatchSize(), b.Mean())
	}
	if _, ok := b.CI95(); ok {
		t.Error("empty CI95 ok")
	}
}

func TestBatchMeansMeanIsPrefixMean(t *testing.T) {
	// Identity: Mean() is exactly the mean of the first Batches·BatchSize
	// observations, whatever the number of merges.
	r := NewStream(3, PurposeService, 0)
	b := NewBatchMeans(64, 10)
	var xs []float64
	for i := 0; i < 12345; i++ {
		x := r.ExpFloat64()
		xs = append(xs, x)
		b.Add(x)
	}
	n := int64(b.Batches()) * b.BatchSize()
	var a Accumulator
	for _, x := range xs[:n] {
		a.Add(x)
	}
	if b.Batches() < 32 || b.Batches() > 64 {
		t.Errorf("batches %d outside [32, 64]", b.Batches())
	}
	if d := math.Abs(b.Mean()-a.Mean()) / a.Mean(); d > 1e-12 {
		t.Errorf("mean %v vs prefix mean %v", b.Mean(), a.Mean())
	}
}

func TestBatchMeansBadArgsPanic(t *testing.T) {
	for _, c := range [][2]int{{63, 10}, {10, 10}, {64, 1}, {0, 0}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewBatchMeans(%d, %d) did not panic", c[0], c[1])
				}
			}()
			NewBatchMeans(c[0], c[1])
		}()
	}
}

// coverage returns the fraction of reps replications whose CI95 contains
// the true mean 0, for a stream produced by next.
func coverage(t *testing.T, reps, n int, next func(rep int) func() float64) float64 {
	hit := 0
	b := NewBatchMeans(64, 10)
	for rep := 0; rep < reps; rep++ {
		b.Reset()
		gen := next(rep)
		for i := 0; i < n; i++ {
			b.Add(gen())
		}
		h, ok := b.CI95()
		if !ok {
			t.Fatalf("rep %d: CI not available after %d observations", rep, n)
		}
		if math.Abs(b.Mean()) <= h {
			hit++
		}
	}
	return float64(hit) / float64(reps)
}

func TestBatchMeansCoverage(t *testing.T) {
	// The nominal coverage is 95%; with 400 replications its standard
	// error is √(0.95·0.05/400) = 1.1%, so [92%, 98%] is ±2.7 s.e.
	const reps = 400
	iid := coverage(t, reps, 2000, func(rep int) func() float64 {
		r := NewStream(11, PurposeReplication, uint64(rep))
		return r.NormFloat64
	})
	t.Logf("i.i.d. N(0,1), n=2000: coverage %.3f", iid)
	if iid < 0.92 || iid > 0.98 {
		t.Errorf("i.i.d. coverage %.3f outside [0.92, 0.98]", iid)
	}
	// AR(1) X_t = φX_{t−1} + ε_t, φ = 0.9, stationary start: integrated
	// autocorrelation time (1+φ)/(1−φ) = 19; n = 40000 gives batches of
	// 1024 (39 of them), long enough for nearly independent batch means.
	// Residual correlation biases coverage slightly low, hence [0.90, 0.98].
	const phi = 0.9
	ar := coverage(t, reps, 40000, func(rep int) func() float64 {
		r := NewStream(12, PurposeReplication, uint64(rep))
		x := r.NormFloat64() / math.Sqrt(1-phi*phi)
		return func() float64 {
			x = phi*x + r.NormFloat64()
			return x
		}
	})
	t.Logf("AR(1) φ=0.9, n=40000: coverage %.3f", ar)
	if ar < 0.90 || ar > 0.98 {
		t.Errorf("AR(1) coverage %.3f outside [0.90, 0.98]", ar)
	}
}

func TestBatchMeansLag1(t *testing.T) {
	// Batch means of a strongly correlated stream with too-short batches
	// are themselves correlated; of i.i.d. data they are not. AR(1) with
	// φ = 0.999 and batches of ~32: lag-1 of batch means ≈ φ^32 ≈ 0.97.
	r := NewStream(5, PurposeService, 0)
	b := NewBatchMeans(64, 10)
	for i := 0; i < 1500; i++ {
		b.Add(r.NormFloat64())
	}
	iid := b.Lag1()
	b.Reset()
	x := 0.0
	for i := 0; i < 1500; i++ {
		x = 0.999*x + r.NormFloat64()
		b.Add(x)
	}
	corr := b.Lag1()
	t.Logf("lag-1 of batch means: i.i.d. %.3f, AR(0.999) %.3f", iid, corr)
	if math.Abs(iid) > 0.4 || corr < 0.6 {
		t.Errorf("lag-1: i.i.d. %v (want |r1| < 0.4), AR %v (want > 0.6)", iid, corr)
	}
}

func TestMSER5(t *testing.T) {
	// Exponential transient x_t = 10·e^{−t/50} + N(0,1), n = 2000. The
	// truncated mean's bias, ≈ 500·e^{−d/50}/(n−d), falls below its
	// standard error 1/√(n−d) for d ≥ 122; discarding more than n/4 would
	// be wasteful. Checked over 20 seeds.
	for seed := uint64(0); seed < 20; seed++ {
		r := NewStream(seed, PurposeReplication, 1)
		s := make([]float64, 2000)
		for i := range s {
			s[i] = 10*math.Exp(-float64(i)/50) + r.NormFloat64()
		}
		d, ok := MSER5(s)
		if !ok || d < 122 || d > 500 {
			t.Errorf("seed %d: transient truncation %d ok %v, want ok in [122, 500]", seed, d, ok)
		}
		if seed == 0 {
			t.Logf("exponential transient τ=50, n=2000: truncate %d", d)
		}
		// Stationary: nothing (or almost nothing) to discard.
		for i := range s {
			s[i] = 5 + r.NormFloat64()
		}
		d, ok = MSER5(s)
		if !ok || d > 100 {
			t.Errorf("seed %d: stationary truncation %d ok %v, want ok and ≤ 100 (5%%)", seed, d, ok)
		}
	}
	// Identity: MSER-5 on a series is MSER with batch 1 on its means of 5.
	r := NewStream(99, PurposeReplication, 0)
	raw := make([]float64, 1003)
	for i := range raw {
		raw[i] = 3*math.Exp(-float64(i)/80) + r.NormFloat64()
	}
	means := make([]float64, len(raw)/5)
	for j := range means {
		for _, v := range raw[5*j : 5*j+5] {
			means[j] += v / 5
		}
	}
	d5, ok5 := MSER5(raw)
	d1, ok1 := mser(means, 1)
	if d5 != 5*d1 || ok5 != ok1 {
		t.Errorf("MSER5 %d %v vs 5·MSER-1 of batch means %d %v", d5, ok5, 5*d1, ok1)
	}
	constant := make([]float64, 100)
	for i := range constant {
		constant[i] = 3
	}
	if d, ok := MSER5(constant); d != 0 || !ok {
		t.Errorf("constant series: %d %v, want 0 true", d, ok)
	}
	// Transient still running (τ = 500 over n = 500) and a linear trend:
	// the minimum falls in the second half.
	slow := make([]float64, 500)
	for i := range slow {
		slow[i] = 10 * math.Exp(-float64(i)/500)
	}
	if d, ok := MSER5(slow); ok {
		t.Errorf("unfinished transient: truncate %d ok", d)
	}
	for i := range slow {
		slow[i] = float64(i)
	}
	if d, ok := MSER5(slow); ok {
		t.Errorf("linear trend: truncate %d ok", d)
	}
	if _, ok := MSER5(constant[:19]); ok {
		t.Error("19 points (3 batches): ok")
	}
}

func TestBatchMeansAddAndMSERDoNotAllocate(t *testing.T) {
	b := NewBatchMeans(64, 10)
	x := 0.0
	if n := testing.AllocsPerRun(10000, func() { x++; b.Add(x) }); n != 0 {
		t.Errorf("BatchMeans.Add: %v allocs", n)
	}
	for i := 0; i < 1000; i++ {
		b.Add(float64(i % 7))
	}
	if n := testing.AllocsPerRun(100, func() { b.CI95(); b.Lag1() }); n != 0 {
		t.Errorf("CI95/Lag1: %v allocs", n)
	}
	s := make([]float64, 200)
	if n := testing.AllocsPerRun(100, func() { MSER5(s) }); n != 0 {
		t.Errorf("MSER5: %v allocs", n)
	}
}
