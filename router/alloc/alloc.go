// Package alloc holds the allocators of an input-queued router: units that
// match requesters (inputs) with resources (outputs) once per cycle, each
// input and each output in at most one pair. A router's VC allocator
// matches input VCs with output VCs, its switch allocator input ports with
// output ports; both are an Allocator here.
//
// The allocators are those of BookSim 2 (src/allocators/; Dally & Towles,
// "Principles and Practices of Interconnection Networks", 2004, §19):
//
//   - SeparableInputFirst: each input picks one of its requests by round
//     robin, then each output grants one of the inputs that picked it by
//     round robin; an arbiter's pointer moves past the winner only when its
//     choice became a grant (§19.3).
//   - SeparableOutputFirst: each output picks one requesting input by round
//     robin, then each input accepts one of the outputs that picked it;
//     pointers move only on an accepted grant (§19.3).
//   - ISLIP with a number of iterations (McKeown 1999): request, grant,
//     accept; each output grants the requesting unmatched input at or after
//     its grant pointer, each input accepts the granting output at or after
//     its accept pointer; the pointers move (grant pointer one past the
//     accepted input, accept pointer one past the accepted output) only for
//     a grant accepted in the first iteration; later iterations match what
//     is still unmatched (§19.3.2).
//   - Wavefront (Tamir & Chi 1993): on the square of side N = max(inputs,
//     outputs) the cells (i, o) with (i + o) mod N = (p + d) mod N form
//     diagonal d; diagonals d = 0, 1, ..., N-1 are granted in turn, a cell
//     when it requests and its row and column are free; the priority
//     diagonal p moves on by one after every allocation with a request
//     (§19.4).
//
// Every allocator grants only requested pairs and never an input or an
// output twice; the conformance test of this package checks that and
// freedom from starvation for all of them, and each one's definition.
// Allocate allocates nothing.
package alloc

import (
	"fmt"
	"math/bits"
)

// MaxSize is the largest number of inputs or outputs an allocator serves:
// requests are one 64-bit mask per input.
const MaxSize = 64

// Allocator matches inputs with outputs.
type Allocator interface {
	// Allocate reads the requests, req[i] having bit o set when input i
	// requests output o (len(req) = inputs, bits below outputs), and writes
	// grant[i] = the output matched with input i, or -1 (len(grant) =
	// inputs). It updates the allocator's priority state.
	Allocate(req []uint64, grant []int)
	// Name identifies the allocator ("islip", "wavefront",
	// "separable-input-first", "separable-output-first").
	Name() string
}

// Names lists the allocators New builds.
var Names = []string{"separable-input-first", "separable-output-first", "islip", "wavefront"}

// New returns the allocator called name for the given numbers of inputs
// and outputs (1..MaxSize); iterations is iSLIP's (>= 1; ignored by the
// others).
func New(name string, inputs, outputs, iterations int) (Allocator, error) {
	if inputs < 1 || inputs > MaxSize || outputs < 1 || outputs > MaxSize {
		return nil, fmt.Errorf("alloc: %d inputs, %d outputs, want 1..%d each", inputs, outputs, MaxSize)
	}
	switch name {
	case "separable-input-first":
		return newSeparable(inputs, outputs, true), nil
	case "separable-output-first":
		return newSeparable(inputs, outputs, false), nil
	case "islip":
		if iterations < 1 {
			return nil, fmt.Errorf("alloc: iSLIP with %d iterations, want >= 1", iterations)
		}
		return newISLIP(inputs, outputs, iterations), nil
	case "wavefront":
		return newWavefront(inputs, outputs), nil
	}
	return nil, fmt.Errorf("alloc: unknown allocator %q (want one of %v)", name, Names)
}

// rr returns the first set bit of the mask m at or after position
// ptr, wrapping round, or -1 when m is 0: a round-robin arbiter's choice.
func rr(m uint64, ptr int) int {
	if m == 0 {
		return -1
	}
	if hi := m >> uint(ptr); hi != 0 {
		return ptr + bits.TrailingZeros64(hi)
	}
	return bits.TrailingZeros64(m)
}

func next(x, n int) int {
	if x+1 == n {
		return 0
	}
	return x + 1
}

// separable implements SeparableInputFirst and SeparableOutputFirst.
type separable struct {
	in, out    int
	inputFirst bool
	inPtr      []int    // per input: its arbiter's pointer (over outputs)
	outPtr     []int    // per output: its arbiter's pointer (over inputs)
	col        []uint64 // scratch: per output, the inputs that chose or request it
}

func newSeparable(in, out int, inputFirst bool) *separable {
	return &separable{in: in, out: out, inputFirst: inputFirst,
		inPtr: make([]int, in), outPtr: make([]int, out), col: make([]uint64, out)}
}

func (s *separable) Name() string {
	if s.inputFirst {
		return "separable-input-first"
	}
	return "separable-output-first"
}

func (s *separable) Allocate(req []uint64, grant []int) {
	clear(s.col)
	for i := range grant {
		grant[i] = -1
	}
	if s.inputFirst {
		// Input stage: each input picks one requested output.
		for i := 0; i < s.in; i++ {
			if o := rr(req[i], s.inPtr[i]); o >= 0 {
				s.col[o] |= 1 << uint(i)
			}
		}
		// Output stage: each output grants one input that picked it.
		for o := 0; o < s.out; o++ {
			if i := rr(s.col[o], s.outPtr[o]); i >= 0 {
				grant[i] = o
				s.outPtr[o] = next(i, s.in)
				s.inPtr[i] = next(o, s.out)
			}
		}
		return
	}
	// Output first. Output stage: each output picks one requesting input.
	var chosen [MaxSize]uint64 // per input: the outputs that picked it
	for i := 0; i < s.in; i++ {
		for m := req[i]; m != 0; m &= m - 1 {
			s.col[bits.TrailingZeros64(m)] |= 1 << uint(i)
		}
	}
	for o := 0; o < s.out; o++ {
		if i := rr(s.col[o], s.outPtr[o]); i >= 0 {
			chosen[i] |= 1 << uint(o)
		}
	}
	// Input stage: each input accepts one output that picked it.
	for i := 0; i < s.in; i++ {
		if o := rr(chosen[i], s.inPtr[i]); o >= 0 {
			grant[i] = o
			s.inPtr[i] = next(o, s.out)
			s.outPtr[o] = next(i, s.in)
		}
	}
}

// islip implements ISLIP.
type islip struct {
	in, out, iters int
	gptr           []int    // per output: grant pointer (over inputs)
	aptr           []int    // per input: accept pointer (over outputs)
	col            []uint64 // scratch: per output, the requesting inputs
}

func newISLIP(in, out, iters int) *islip {
	return &islip{in: in, out: out, iters: iters, gptr: make([]int, out), aptr: make([]int, in), col: make([]uint64, out)}
}

func (s *islip) Name() string { return "islip" }

func (s *islip) Allocate(req []uint64, grant []int) {
	clear(s.col)
	for i := range grant {
		grant[i] = -1
	}
	for i := 0; i < s.in; i++ {
		for m := req[i]; m != 0; m &= m - 1 {
			s.col[bits.TrailingZeros64(m)] |= 1 << uint(i)
		}
	}
	var freeIn, freeOut uint64 = ^uint64(0) >> (64 - uint(s.in)), ^uint64(0) >> (64 - uint(s.out))
	var granted [MaxSize]uint64 // per input: outputs granting it this iteration
	for it := 0; it < s.iters; it++ {
		clear(granted[:s.in])
		any := false
		// Grant: each unmatched output grants an unmatched requesting input.
		for m := freeOut; m != 0; m &= m - 1 {
			o := bits.TrailingZeros64(m)
			if i := rr(s.col[o]&freeIn, s.gptr[o]); i >= 0 {
				granted[i] |= 1 << uint(o)
				any = true
			}
		}
		if !any {
			return
		}
		// Accept: each input accepts one granting output.
		for i := 0; i < s.in; i++ {
			o := rr(granted[i], s.aptr[i])
			if o < 0 {
				continue
			}
			grant[i] = o
			freeIn &^= 1 << uint(i)
			freeOut &^= 1 << uint(o)
			if it == 0 { // only a first-iteration accept moves the pointers
				s.gptr[o] = next(i, s.in)
				s.aptr[i] = next(o, s.out)
			}
		}
	}
}

// wavefront implements Wavefront.
type wavefront struct {
	in, out, square int
	pri             int // the priority diagonal
}

func newWavefront(in, out int) *wavefront {
	return &wavefront{in: in, out: out, square: max(in, out)}
}

func (w *wavefront) Name() string { return "wavefront" }

func (w *wavefront) Allocate(req []uint64, grant []int) {
	any := false
	for i := range grant {
		grant[i] = -1
		any = any || req[i] != 0
	}
	if !any {
		return // no request: the diagonal stays (BookSim bypasses the allocator)
	}
	n := w.square
	var usedOut uint64
	for d := 0; d < n; d++ {
		diag := w.pri + d
		if diag >= n {
			diag -= n
		}
		for o := 0; o < w.out; o++ {
			i := diag - o
			if i < 0 {
				i += n
			}
			if i >= w.in || grant[i] >= 0 || usedOut>>uint(o)&1 != 0 || req[i]>>uint(o)&1 == 0 {
				continue
			}
			grant[i] = o
			usedOut |= 1 << uint(o)
		}
	}
	w.pri = next(w.pri, n)
}
