package reed

import (
	"math"
	"testing"
)

// Tolerances (MODELS.md §0.2, §7): exact rationals 1e-12 relative, anything
// else 1e-9 relative.
const (
	tolRational = 1e-12
	tolFloat    = 1e-9
)

func checkRel(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	e := math.Abs(got - want)
	if want != 0 {
		e /= math.Abs(want)
	}
	if !(e <= tol) {
		t.Errorf("%s = %.17g, want %.17g (rel err %.3g > %.1g)", name, got, want, e, tol)
	}
}

// must unwraps a (value, error) pair in test set-up; an error there is a bug
// in the test or the package, reported by a panic with its message.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// ring15 is Reed's running example: 15-node bidirectional ring, uniform
// routing, half duplex, S_PE = S_CL = 1 (MODELS.md §1.11).
func ring15(t *testing.T) Workload {
	t.Helper()
	p := must(Ring(15))
	return must(NetworkWorkload(must(Uniform(p)), HalfDuplex, 1, 1))
}
