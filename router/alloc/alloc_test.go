package alloc

import (
	"math/rand/v2"
	"testing"
)

// sizes are the (inputs, outputs) shapes every allocator is checked on:
// square, more inputs than outputs and the reverse, a router's switch
// (5x5) and VC allocator (10x10) and the 64-wide limit.
var sizes = [][2]int{{1, 1}, {2, 2}, {5, 5}, {10, 10}, {7, 3}, {3, 7}, {64, 64}}

// builds returns one allocator of every kind, iSLIP with 1 and 3
// iterations.
func builds(t *testing.T, in, out int) []Allocator {
	t.Helper()
	var as []Allocator
	for _, c := range []struct {
		name  string
		iters int
	}{{"separable-input-first", 0}, {"separable-output-first", 0}, {"islip", 1}, {"islip", 3}, {"wavefront", 0}} {
		a, err := New(c.name, in, out, c.iters)
		if err != nil {
			t.Fatal(err)
		}
		as = append(as, a)
	}
	return as
}

// checkMatching fails unless grant is a matching within req: every grant
// requested, no output granted twice.
func checkMatching(t *testing.T, a Allocator, req []uint64, grant []int) {
	t.Helper()
	var used uint64
	for i, o := range grant {
		if o < 0 {
			continue
		}
		if req[i]>>uint(o)&1 == 0 {
			t.Fatalf("%s: input %d granted output %d it did not request (requests %b)", a.Name(), i, o, req[i])
		}
		if used>>uint(o)&1 != 0 {
			t.Fatalf("%s: output %d granted twice (grants %v)", a.Name(), o, grant)
		}
		used |= 1 << uint(o)
	}
}

// TestConformance is the one conformance test every allocator passes:
// on random request matrices of every shape, a grant is a matching within
// the requests (no double grant); a non-empty request matrix gets at least
// one grant; wavefront and iSLIP with enough iterations give a maximal
// matching; and under persistent requests no request starves (each input
// requesting a fixed output set is served within inputs*outputs rounds).
func TestConformance(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 1))
	for _, sz := range sizes {
		in, out := sz[0], sz[1]
		for _, a := range builds(t, in, out) {
			req := make([]uint64, in)
			grant := make([]int, in)
			for round := 0; round < 300; round++ {
				density := rng.Float64()
				anyReq := false
				for i := range req {
					req[i] = 0
					for o := 0; o < out; o++ {
						if rng.Float64() < density {
							req[i] |= 1 << uint(o)
							anyReq = true
						}
					}
				}
				a.Allocate(req, grant)
				checkMatching(t, a, req, grant)
				n := 0
				for _, o := range grant {
					if o >= 0 {
						n++
					}
				}
				if anyReq && n == 0 {
					t.Fatalf("%s %dx%d: requests %b, no grant", a.Name(), in, out, req)
				}
				if maximal(a) && !isMaximal(req, grant) {
					t.Fatalf("%s %dx%d: requests %b, grants %v not maximal", a.Name(), in, out, req, grant)
				}
			}
			// Starvation: a fixed request pattern, repeated; every input
			// must be served at least once every in*out+1 rounds.
			for i := range req {
				req[i] = rng.Uint64() & (^uint64(0) >> (64 - uint(out)))
				if req[i] == 0 {
					req[i] = 1
				}
			}
			last := make([]int, in)
			for round := 1; round <= 4*in*out+4; round++ {
				a.Allocate(req, grant)
				checkMatching(t, a, req, grant)
				for i, o := range grant {
					if o >= 0 {
						last[i] = round
					}
					if round-last[i] > in*out+1 {
						t.Fatalf("%s %dx%d: input %d (requests %b) starved for %d rounds", a.Name(), in, out, i, req[i], round-last[i])
					}
				}
			}
		}
	}
}

// maximal reports whether a promises a maximal matching: only the
// wavefront does (iSLIP needs up to min(inputs, outputs) iterations, the
// separable allocators none).
func maximal(a Allocator) bool { return a.Name() == "wavefront" }

// isMaximal reports whether no requested pair has both ends unmatched.
func isMaximal(req []uint64, grant []int) bool {
	var used uint64
	for _, o := range grant {
		if o >= 0 {
			used |= 1 << uint(o)
		}
	}
	for i, o := range grant {
		if o < 0 && req[i]&^used != 0 {
			return false
		}
	}
	return true
}

// TestISLIPPointers checks iSLIP's definition: pointers move only for a
// grant accepted in the first iteration. Inputs 0 and 1 both request
// outputs 0 and 1. Iteration 1: both outputs grant input 0 (grant pointers
// 0), input 0 accepts output 0; output 0's pointer moves to 1, input 0's
// to 1. Iteration 2: output 1 grants input 1, which accepts, but the
// pointers stay. Next cycle: output 0 grants input 1 (pointer 1), output 1
// grants input 0 (pointer still 0); input 0 accepts output 1 (its pointer is
// 1), input 1 accepts output 0: the matching is crossed, which it would not
// be had the second-iteration accept moved output 1's pointer.
func TestISLIPPointers(t *testing.T) {
	a, _ := New("islip", 2, 2, 2)
	req := []uint64{0b11, 0b11}
	grant := make([]int, 2)
	a.Allocate(req, grant)
	if grant[0] != 0 || grant[1] != 1 {
		t.Fatalf("cycle 1: grants %v, want [0 1]", grant)
	}
	s := a.(*islip)
	if s.gptr[0] != 1 || s.gptr[1] != 0 || s.aptr[0] != 1 || s.aptr[1] != 0 {
		t.Fatalf("after cycle 1: grant pointers %v, accept pointers %v; want [1 0], [1 0] (second-iteration accept moves nothing)", s.gptr, s.aptr)
	}
	a.Allocate(req, grant)
	if grant[0] != 1 || grant[1] != 0 {
		t.Fatalf("cycle 2: grants %v, want [1 0]", grant)
	}
	// One iteration only: input 1 stays unmatched in cycle 1.
	one, _ := New("islip", 2, 2, 1)
	one.Allocate(req, grant)
	if grant[0] != 0 || grant[1] != -1 {
		t.Fatalf("1 iteration: grants %v, want [0 -1]", grant)
	}
}

// TestWavefrontDiagonal checks the wavefront's definition: with every
// input requesting every output of a 3x3 square, diagonal p is granted
// first — input i gets output (p - i) mod 3 — and p moves on by one per
// allocation; a cycle without requests leaves it.
func TestWavefrontDiagonal(t *testing.T) {
	a, _ := New("wavefront", 3, 3, 0)
	all := []uint64{0b111, 0b111, 0b111}
	grant := make([]int, 3)
	for p := 0; p < 6; p++ {
		if p == 3 {
			a.Allocate([]uint64{0, 0, 0}, grant) // no request: no move
		}
		a.Allocate(all, grant)
		for i, o := range grant {
			if want := ((p%3-i)%3 + 3) % 3; o != want {
				t.Fatalf("allocation %d: input %d got output %d, want %d (diagonal %d)", p, i, o, want, p%3)
			}
		}
	}
	// A request off the priority diagonal is served from the next one.
	b, _ := New("wavefront", 3, 3, 0)
	b.Allocate([]uint64{0b010, 0, 0}, grant)
	if grant[0] != 1 {
		t.Fatalf("lone request (0,1): grants %v", grant)
	}
}

// TestSeparablePointers checks the separable allocators' definition: an
// arbiter's pointer moves past its winner only when the choice became a
// grant. Input-first, inputs 0 and 1 both request outputs 0 and 1: both
// pick output 0 (pointers 0), output 0 grants input 0; input 1's choice
// lost, so its pointer stays at 0, and next cycle output 0 (pointer now 1)
// grants input 1 while input 0 (pointer 1) takes output 1.
func TestSeparablePointers(t *testing.T) {
	req := []uint64{0b11, 0b11}
	grant := make([]int, 2)
	a, _ := New("separable-input-first", 2, 2, 0)
	a.Allocate(req, grant)
	if grant[0] != 0 || grant[1] != -1 {
		t.Fatalf("input first, cycle 1: grants %v, want [0 -1]", grant)
	}
	if s := a.(*separable); s.inPtr[1] != 0 || s.inPtr[0] != 1 || s.outPtr[0] != 1 {
		t.Fatalf("input first: input pointers %v, output pointers %v", s.inPtr, s.outPtr)
	}
	a.Allocate(req, grant)
	if grant[0] != 1 || grant[1] != 0 {
		t.Fatalf("input first, cycle 2: grants %v, want [1 0]", grant)
	}
	// Output first: both outputs pick input 0 (pointers 0); input 0
	// accepts output 0; output 1's choice lost, its pointer stays at 0.
	b, _ := New("separable-output-first", 2, 2, 0)
	b.Allocate(req, grant)
	if grant[0] != 0 || grant[1] != -1 {
		t.Fatalf("output first, cycle 1: grants %v, want [0 -1]", grant)
	}
	if s := b.(*separable); s.outPtr[1] != 0 || s.outPtr[0] != 1 || s.inPtr[0] != 1 {
		t.Fatalf("output first: input pointers %v, output pointers %v", s.inPtr, s.outPtr)
	}
}

// TestNew checks the constructor's refusals.
func TestNew(t *testing.T) {
	for _, c := range []struct {
		name          string
		in, out, iter int
	}{{"islip", 2, 2, 0}, {"pim", 2, 2, 1}, {"wavefront", 0, 2, 0}, {"wavefront", 2, 65, 0}} {
		if _, err := New(c.name, c.in, c.out, c.iter); err == nil {
			t.Errorf("New(%q, %d, %d, %d) accepted", c.name, c.in, c.out, c.iter)
		}
	}
}

// TestAllocateAllocatesNothing pins the hot-path rule.
func TestAllocateAllocatesNothing(t *testing.T) {
	req := []uint64{0b1011, 0b0110, 0b1111, 0b0001, 0b1000}
	grant := make([]int, 5)
	for _, a := range builds(t, 5, 4) {
		if n := testing.AllocsPerRun(100, func() { a.Allocate(req, grant) }); n != 0 {
			t.Errorf("%s: %v allocations per Allocate", a.Name(), n)
		}
	}
}
