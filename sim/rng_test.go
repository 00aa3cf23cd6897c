package sim

import "testing"

func TestStreamsAreReproducibleAndIndependent(t *testing.T) {
	a := NewStream(42, PurposeTrafficArrival, 3)
	b := NewStream(42, PurposeTrafficArrival, 3)
	for i := 0; i < 100; i++ {
		if x, y := a.Uint64(), b.Uint64(); x != y {
			t.Fatalf("draw %d: same (root, purpose, index) gave %d and %d", i, x, y)
		}
	}
	seen := map[uint64]string{}
	for _, c := range []struct {
		name    string
		root    uint64
		purpose Purpose
		index   uint64
	}{
		{"base", 42, PurposeTrafficArrival, 3},
		{"other index", 42, PurposeTrafficArrival, 4},
		{"other purpose", 42, PurposeArbitration, 3},
		{"other root", 43, PurposeTrafficArrival, 3},
	} {
		first := NewStream(c.root, c.purpose, c.index).Uint64()
		if prev, ok := seen[first]; ok {
			t.Fatalf("%s and %s start with the same draw", prev, c.name)
		}
		seen[first] = c.name
	}
}

func TestStreamUniformMean(t *testing.T) {
	// Mean of n uniforms on [0,1): 1/2 with standard error 1/sqrt(12 n).
	r := NewStream(1, PurposeRouting, 0)
	const n = 200000
	sum := 0.0
	for i := 0; i < n; i++ {
		sum += r.Float64()
	}
	mean := sum / n
	se := 1 / (12 * n * 1.0)
	if d := mean - 0.5; d*d > 16*se { // 4 standard errors
		t.Fatalf("mean of %d uniforms = %v, want 0.5 within 4 s.e.", n, mean)
	}
}
