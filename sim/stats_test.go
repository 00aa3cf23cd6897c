package sim

import (
	"math"
	"testing"
)

// numAcc4 is the NIST StRD univariate data set NumAcc4: 10000000.2 followed
// by 1000 values alternating 10000000.1, 10000000.3. Certified mean
// 10000000.2, certified standard deviation 0.1 (n = 1001). It defeats the
// naive Σx² − n·x̄² formula (catastrophic cancellation).
func numAcc4() []float64 {
	x := []float64{10000000.2}
	for i := 0; i < 500; i++ {
		x = append(x, 10000000.1, 10000000.3)
	}
	return x
}

func twoPass(x []float64) (mean, variance float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		variance += (v - mean) * (v - mean)
	}
	return mean, variance / float64(len(x)-1)
}

func TestAccumulatorReference(t *testing.T) {
	for _, c := range []struct {
		name          string
		data          []float64
		mean, sd      float64 // certified values
		relTol        float64
		min, max, sum float64
	}{
		// NIST StRD NumAcc1: certified mean 10000002, sd 1.
		{"NIST NumAcc1", []float64{10000001, 10000003, 10000002}, 10000002, 1, 1e-12, 10000001, 10000003, 30000006},
		// NIST StRD NumAcc4 (see numAcc4); inputs are not exactly
		// representable, so the sd is good to ~1e-8 relative only.
		{"NIST NumAcc4", numAcc4(), 10000000.2, 0.1, 1e-7, 10000000.1, 10000000.3, 10010000200.2},
		// Hand: 2,4,4,4,5,5,7,9 has mean 5, Σ(x−5)² = 32, s² = 32/7.
		{"hand", []float64{2, 4, 4, 4, 5, 5, 7, 9}, 5, math.Sqrt(32.0 / 7), 1e-14, 2, 9, 40},
	} {
		var a Accumulator
		for _, v := range c.data {
			a.Add(v)
		}
		if a.N() != int64(len(c.data)) {
			t.Errorf("%s: N = %d, want %d", c.name, a.N(), len(c.data))
		}
		if d := math.Abs(a.Mean()-c.mean) / c.mean; d > 1e-14 {
			t.Errorf("%s: mean %v, want %v (rel err %g)", c.name, a.Mean(), c.mean, d)
		}
		if d := math.Abs(a.StdDev()-c.sd) / c.sd; d > c.relTol {
			t.Errorf("%s: sd %v, want %v (rel err %g > %g)", c.name, a.StdDev(), c.sd, d, c.relTol)
		}
		m2, v2 := twoPass(c.data)
		if d := math.Abs(a.Variance()-v2) / v2; d > c.relTol {
			t.Errorf("%s: Welford variance %v vs two-pass %v (rel %g)", c.name, a.Variance(), v2, d)
		}
		if math.Abs(a.Mean()-m2) > 1e-14*m2 {
			t.Errorf("%s: Welford mean %v vs two-pass %v", c.name, a.Mean(), m2)
		}
		if a.Min() != c.min || a.Max() != c.max {
			t.Errorf("%s: min/max %v/%v, want %v/%v", c.name, a.Min(), a.Max(), c.min, c.max)
		}
		if math.Abs(a.Sum()-c.sum) > 1e-14*c.sum {
			t.Errorf("%s: sum %v, want %v", c.name, a.Sum(), c.sum)
		}
	}
}

func TestAccumulatorEmptyIsNaN(t *testing.T) {
	var a Accumulator
	for name, v := range map[string]float64{"Mean": a.Mean(), "Variance": a.Variance(), "Min": a.Min(), "Max": a.Max()} {
		if !math.IsNaN(v) {
			t.Errorf("empty %s = %v, want NaN", name, v)
		}
	}
	a.Add(3)
	if !math.IsNaN(a.Variance()) || a.Mean() != 3 {
		t.Errorf("one observation: mean %v variance %v, want 3 and NaN", a.Mean(), a.Variance())
	}
}

func TestAccumulatorMergeEqualsSequential(t *testing.T) {
	r := NewStream(7, PurposeService, 0)
	data := make([]float64, 1000)
	for i := range data {
		data[i] = 1e6 + 100*r.NormFloat64()
	}
	var all Accumulator
	for _, v := range data {
		all.Add(v)
	}
	for _, split := range []int{0, 1, 2, 333, 999, 1000} {
		var a, b Accumulator
		for _, v := range data[:split] {
			a.Add(v)
		}
		for _, v := range data[split:] {
			b.Add(v)
		}
		a.Merge(&b)
		if a.N() != all.N() || a.Min() != all.Min() || a.Max() != all.Max() {
			t.Errorf("split %d: N/min/max %d/%v/%v, want %d/%v/%v", split, a.N(), a.Min(), a.Max(), all.N(), all.Min(), all.Max())
		}
		if d := math.Abs(a.Mean()-all.Mean()) / all.Mean(); d > 1e-14 {
			t.Errorf("split %d: mean rel diff %g", split, d)
		}
		if d := math.Abs(a.Variance()-all.Variance()) / all.Variance(); d > 1e-9 {
			t.Errorf("split %d: variance rel diff %g", split, d)
		}
	}
	// Self-merge doubles every observation: same mean, n doubles,
	// M2 doubles so s² = 2·M2/(2n−1).
	var s Accumulator
	for _, v := range []float64{1, 2, 3, 4} {
		s.Add(v)
	}
	s.Merge(&s)
	if s.N() != 8 || s.Mean() != 2.5 || math.Abs(s.Variance()-10.0/7) > 1e-15 {
		t.Errorf("self-merge: n %d mean %v var %v, want 8, 2.5, 10/7", s.N(), s.Mean(), s.Variance())
	}
}

func TestStudentTQuantileReference(t *testing.T) {
	// Reference values: the brief's 0.975 row (= R qt), the others solved
	// independently with mpmath 1.3 (betainc, 30 digits) and rounded to 9
	// decimals. Tolerance 1e-8 absolute.
	for _, c := range []struct {
		p    float64
		df   int
		want float64
	}{
		{0.975, 1, 12.706204736},
		{0.975, 2, 4.302652730},
		{0.975, 10, 2.228138852},
		{0.975, 30, 2.042272456},
		{0.975, math.MaxInt, 1.959963985},
		{0.975, 3, 3.182446305},
		{0.95, 5, 2.015048373},
		{0.995, 5, 4.032142984},
		{0.9, 3, 1.637744354},
		{0.025, 10, -2.228138852},
		{0.975, 63, 1.998340543},
		{0.975, 1000, 1.962339081},
		{0.975, 200000, 1.959975846},
	} {
		got := StudentTQuantile(c.p, c.df)
		if d := math.Abs(got - c.want); d > 1e-8 {
			t.Errorf("t(%v, %d) = %.10f, want %.9f (|diff| %g > 1e-8)", c.p, c.df, got, c.want, d)
		}
	}
}

func TestStudentTQuantileIdentities(t *testing.T) {
	// Identity: upper tail of the quantile returns q; and the general
	// Newton solver agrees with the closed forms for ν = 1, 2 and with the
	// Cornish–Fisher branch just above ν = 1e4.
	for _, df := range []int{1, 2, 3, 4, 7, 19, 63, 500, 10001, 20000} {
		for _, q0 := range []float64{0.4, 0.25, 0.05, 0.025, 1e-3, 1e-6} {
			p := 1 - q0
			q := 1 - p // exact, so p and q are exactly complementary
			tq := StudentTQuantile(p, df)
			if got := studentTUpperTail(tq, float64(df)); math.Abs(got-q) > 1e-12*math.Max(1, q*1e3) {
				t.Errorf("df %d: tail(quantile(1-%g)) = %g", df, q, got)
			}
			if lo := StudentTQuantile(q, df); lo != -tq {
				t.Errorf("df %d q %g: not symmetric: %v vs %v", df, q, lo, tq)
			}
			newton := studentTUpperQuantile(q, float64(df))
			if d := math.Abs(newton-tq) / math.Max(1, tq); d > 1e-10 {
				t.Errorf("df %d q %g: Newton %v vs closed form/branch %v", df, q, newton, tq)
			}
		}
	}
	for _, p := range []float64{0, 0.5, 1, -0.1, 1.1, math.NaN()} {
		got := StudentTQuantile(p, 5)
		switch {
		case p == 0 && !math.IsInf(got, -1), p == 1 && !math.IsInf(got, 1), p == 0.5 && got != 0:
			t.Errorf("t(%v, 5) = %v", p, got)
		case (p < 0 || p > 1 || math.IsNaN(p)) && !math.IsNaN(got):
			t.Errorf("t(%v, 5) = %v, want NaN", p, got)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("df = 0 did not panic")
		}
	}()
	StudentTQuantile(0.9, 0)
}

func TestTimeAverageHandTrace(t *testing.T) {
	// Hand trace: v = 2 on [10, 14), 5 on [14, 15), 0 on [15, 20), 1 on [20, 30].
	// ∫ = 8 + 5 + 0 + 10 = 23 over 20 time units: mean 1.15.
	var a TimeAverage
	a.Reset(10, 2)
	a.Set(14, 5)
	a.Set(15, 0)
	a.Set(15, 0) // repeated time: no-op
	a.Set(20, 1)
	if got := a.Mean(30); math.Abs(got-1.15) > 1e-15 {
		t.Errorf("mean = %v, want 1.15", got)
	}
	if got := a.Mean(20); math.Abs(got-13.0/10) > 1e-15 {
		t.Errorf("mean to 20 = %v, want 1.3", got)
	}
	var z TimeAverage // zero value: from 0 with 0
	z.Set(4, 3)
	if got := z.Mean(8); got != 1.5 {
		t.Errorf("zero-value mean = %v, want 1.5", got)
	}
	a.Reset(5, 7)
	if got := a.Mean(5); got != 7 {
		t.Errorf("empty interval mean = %v, want current value 7", got)
	}
}

func TestTrendReference(t *testing.T) {
	// Exact line: slope 3, stderr 0.
	var tr Trend
	for x := 0.0; x < 10; x++ {
		tr.Add(x, 3*x-2)
	}
	if s, se, ok := tr.Slope(); !ok || math.Abs(s-3) > 1e-14 || se > 1e-7 {
		t.Errorf("exact line: slope %v se %v ok %v", s, se, ok)
	}
	// Hand: points (1,1),(2,3),(3,2),(4,5): x̄=2.5 ȳ=2.75, Sxx=5, Sxy=5.5,
	// Syy=8.75; β=1.1, RSS=8.75−1.1·5.5=2.7, se=√(2.7/(2·5))=√0.27.
	tr.Reset()
	for _, p := range [][2]float64{{1, 1}, {2, 3}, {3, 2}, {4, 5}} {
		tr.Add(p[0], p[1])
	}
	s, se, ok := tr.Slope()
	if !ok || math.Abs(s-1.1) > 1e-14 || math.Abs(se-math.Sqrt(0.27)) > 1e-14 {
		t.Errorf("hand: slope %v se %v, want 1.1, %v", s, se, math.Sqrt(0.27))
	}
	tr.Reset()
	tr.Add(1, 1)
	tr.Add(2, 2)
	if _, _, ok := tr.Slope(); ok {
		t.Error("two points: ok = true")
	}
}

func TestStatsAddDoesNotAllocate(t *testing.T) {
	var a Accumulator
	var tr Trend
	var ta TimeAverage
	x := 0.0
	if n := testing.AllocsPerRun(1000, func() {
		x++
		a.Add(x)
		tr.Add(x, 2*x)
		ta.Set(x, x)
	}); n != 0 {
		t.Errorf("Accumulator/Trend/TimeAverage: %v allocs per Add", n)
	}
}
