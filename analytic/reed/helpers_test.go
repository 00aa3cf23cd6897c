package reed

import "testing"

// must unwraps a (value, error) pair in test set-up; an error there is a bug
// in the test or the package, reported by a panic with its message.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// ring15 is Reed's running example: 15-node bidirectional ring, uniform
// routing, half duplex, S_PE = S_CL = 1 (docs/models.md#reed-pins).
func ring15(t *testing.T) Workload {
	t.Helper()
	p := must(Ring(15))
	return must(NetworkWorkload(must(Uniform(p)), HalfDuplex, 1, 1))
}
