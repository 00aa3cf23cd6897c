package router

import (
	"bytes"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"reflect"
	"testing"

	"github.com/flitsim/flitsim/router/internal/planegen"
)

// Tests of the generated switch allocators (plane_alloc_gen.go): on random
// words they must leave a planeWord exactly as Plane.allocate does, round
// after round, and allocateWord must dispatch every shape to its own
// allocator.

// randomPlaneWord fills pw with a random allocation state of P ports and V
// VCs as a plane can hold it: elig of density about 1/2, 1/4 or 3/4 (one
// draw per word); each input VC's bit in at most one dirQ[i][q], q < P;
// thermometer pointers (a random pointer k per port and router, entry j
// holding the router iff k <= j; entries of ports or VCs beyond the shape
// all ones, as NewPlane leaves them); scratch a previous allocation could
// have left (random where allocate writes, zero where it never writes
// anything else).
func randomPlaneWord(pw *planeWord, P, V int, rng *rand.Rand) {
	*pw = planeWord{}
	refreshRequests(pw, P, V, rng)
	for k := range pw.inLE {
		pw.inLE[k], pw.outLE[k] = ^uint64(0), ^uint64(0)
	}
	for p := 0; p < P; p++ {
		setThermometer(pw.inLE[p*V:p*V+V], rng)
	}
	for q := 0; q < P; q++ {
		setThermometer(pw.outLE[q<<4:q<<4+P], rng)
	}
	for q := 0; q < P; q++ {
		pw.granted[q] = rng.Uint64()
		for k := 0; 1<<k < P; k++ {
			pw.pbits[q][k] = rng.Uint64()
		}
		for k := 0; 1<<k < V; k++ {
			pw.vbits[q][k] = rng.Uint64()
		}
	}
}

// setThermometer draws a pointer k in [0, len(le)) for each of the 64
// routers and sets le[j] to the routers with k <= j.
func setThermometer(le []uint64, rng *rand.Rand) {
	clear(le)
	for b := uint(0); b < 64; b++ {
		for j := rng.IntN(len(le)); j < len(le); j++ {
			le[j] |= 1 << b
		}
	}
}

// refreshRequests draws new requests into pw (P ports, V VCs): elig and
// dirQ as randomPlaneWord describes, the rest untouched.
func refreshRequests(pw *planeWord, P, V int, rng *rand.Rand) {
	for i := 0; i < P*V; i++ {
		e := rng.Uint64()
		switch rng.IntN(3) {
		case 1:
			e &= rng.Uint64()
		case 2:
			e |= rng.Uint64()
		}
		pw.elig[i] = e
		pw.dirQ[i] = [16]uint64{}
		for b := uint(0); b < 64; b++ {
			if q := rng.IntN(P + 1); q < P { // one in P+1 owns no output VC
				pw.dirQ[i][q] |= 1 << b
			}
		}
	}
}

// thermometerOK reports whether every pointer of pw is a thermometer: each
// entry contains the one before it, and the last is all ones.
func thermometerOK(pw *planeWord, P, V int) bool {
	ok := func(le []uint64) bool {
		for j := 1; j < len(le); j++ {
			if le[j-1]&^le[j] != 0 {
				return false
			}
		}
		return le[len(le)-1] == ^uint64(0)
	}
	for p := 0; p < P; p++ {
		if !ok(pw.inLE[p*V:p*V+V]) || !ok(pw.outLE[p<<4:p<<4+P]) {
			return false
		}
	}
	return true
}

// TestPlaneAllocateWordMatchesAllocate runs allocateWord and allocate on
// copies of random words, for every shape a plane serves (1..16 ports x
// 1..8 VCs, at most 64 input VCs), and requires the same word after each call. Each sequence
// runs several rounds with new requests, feeding the moved pointers back,
// as Step does. The generated shapes get 400 sequences of 8 rounds; the
// others, served by allocate itself, check the dispatch only (4 x 2).
// Reference: allocate (router/plane.go), whose decisions the network
// package's TestPlaneMatchesOwnAllocators pins to each router's own
// allocator.
func TestPlaneAllocateWordMatchesAllocate(t *testing.T) {
	generated := map[[2]int]bool{}
	for _, g := range generatedAllocators {
		generated[[2]int{g.ports, g.vcs}] = true
	}
	if !generated[[2]int{5, 2}] {
		t.Fatal("no generated allocator for 5 ports and 2 VCs, the reference speed run's shape")
	}
	fallback := reflect.ValueOf((*Plane).allocate).Pointer()
	for P := 1; P <= MaxPlanePorts; P++ {
		for V := 1; V <= MaxPlaneVCs && P*V <= maxPlaneIVCs; V++ {
			isGen := generated[[2]int{P, V}]
			if got := reflect.ValueOf(planeAllocators[P][V]).Pointer(); (got != fallback) != isGen {
				t.Errorf("%dx%d: dispatched to a generated allocator %v, want %v", P, V, got != fallback, isGen)
			}
			seqs, rounds := 4, 2
			if isGen {
				seqs, rounds = 400, 8
			}
			rng := rand.New(rand.NewPCG(20261121, uint64(P<<4|V)))
			pl := &Plane{ports: P, vcs: V}
			var want, got planeWord
			granted, moved := 0, 0
			for s := 0; s < seqs; s++ {
				randomPlaneWord(&want, P, V, rng)
				got = want
				for r := 0; r < rounds; r++ {
					if r > 0 {
						refreshRequests(&want, P, V, rng)
						got.elig, got.dirQ = want.elig, want.dirQ
					}
					inLE, outLE := want.inLE, want.outLE
					pl.allocate(&want)
					if want.inLE != inLE || want.outLE != outLE {
						moved++
					}
					pl.allocateWord(&got)
					if got != want { // what Step and traverse read (granted, pbits, vbits), the pointers and the inputs
						t.Fatalf("%dx%d, sequence %d, round %d: allocateWord and allocate differ in\n%s",
							P, V, s, r, diffWords(&got, &want))
					}
					if !thermometerOK(&want, P, V) {
						t.Fatalf("%dx%d, sequence %d, round %d: allocate left a pointer that is not a thermometer", P, V, s, r)
					}
					for q := 0; q < P; q++ {
						granted += bits.OnesCount64(want.granted[q])
					}
				}
			}
			// Not vacuous: grants were made and pointers moved.
			if granted == 0 || moved == 0 && P*V > 1 {
				t.Errorf("%dx%d: %d grants, pointers moved in %d of %d rounds", P, V, granted, moved, seqs*rounds)
			}
		}
	}
}

// diffWords lists the entries of the words allocateWord (got) and allocate
// (want) left that differ, scratch aside, as field[index]: got, want.
func diffWords(got, want *planeWord) string {
	var buf bytes.Buffer
	row := func(name string, idx []int, g, w uint64) {
		if g != w {
			fmt.Fprintf(&buf, "  %s", name)
			for _, i := range idx {
				fmt.Fprintf(&buf, "[%d]", i)
			}
			fmt.Fprintf(&buf, ": %016x, want %016x\n", g, w)
		}
	}
	for i := range got.outLE {
		row("outLE", []int{i}, got.outLE[i], want.outLE[i])
	}
	for i := range got.elig {
		row("elig", []int{i}, got.elig[i], want.elig[i])
		row("inLE", []int{i}, got.inLE[i], want.inLE[i])
		for q := range got.dirQ[i] {
			row("dirQ", []int{i, q}, got.dirQ[i][q], want.dirQ[i][q])
		}
	}
	for q := range got.granted {
		row("granted", []int{q}, got.granted[q], want.granted[q])
		for k := range got.pbits[q] {
			row("pbits", []int{q, k}, got.pbits[q][k], want.pbits[q][k])
		}
		for k := range got.vbits[q] {
			row("vbits", []int{q, k}, got.vbits[q][k], want.vbits[q][k])
		}
	}
	return buf.String()
}

// TestPlaneAllocGenUpToDate regenerates plane_alloc_gen.go in process
// (planegen.Source, what go generate writes) and requires it to equal the
// committed file, so the generator and its output cannot drift apart and a
// hand edit of the generated file fails the test command (-short included).
func TestPlaneAllocGenUpToDate(t *testing.T) {
	fresh, err := planegen.Source()
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile("plane_alloc_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fresh, committed) {
		t.Fatal("plane_alloc_gen.go differs from its generator: run go generate in router/ (do not edit the generated file)")
	}
}

// BenchmarkPlaneAllocate times one word's allocation by allocate and by
// allocateWord for each generated shape, on a fixed random word.
func BenchmarkPlaneAllocate(b *testing.B) {
	for _, g := range generatedAllocators {
		pl := &Plane{ports: g.ports, vcs: g.vcs}
		var pw planeWord
		randomPlaneWord(&pw, g.ports, g.vcs, rand.New(rand.NewPCG(1, 2)))
		for _, c := range []struct {
			name string
			f    func(*planeWord)
		}{{"allocate", pl.allocate}, {"generated", pl.allocateWord}} {
			b.Run(fmt.Sprintf("%s/%dx%d", c.name, g.ports, g.vcs), func(b *testing.B) {
				w := pw
				for b.Loop() {
					c.f(&w)
				}
			})
		}
	}
}
