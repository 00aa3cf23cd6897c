package multistage_test

import (
	"fmt"
	"testing"

	"github.com/flitsim/flitsim/topology/multistage"
)

// specs is the table every structural test runs: each wiring at several
// degrees (powers of two and not) and depths, z = 1 included.
func specs() []multistage.Spec {
	var out []multistage.Spec
	for _, w := range []multistage.Wiring{multistage.Omega, multistage.Butterfly, multistage.Baseline} {
		for _, bz := range [][2]int{{2, 1}, {2, 2}, {2, 3}, {2, 6}, {3, 1}, {3, 3}, {4, 1}, {4, 3}, {5, 2}, {8, 2}, {4, 4}} {
			out = append(out, multistage.Spec{Degree: bz[0], Stages: bz[1], Wiring: w})
		}
	}
	return out
}

func build(t *testing.T, sp multistage.Spec) *multistage.Network {
	t.Helper()
	nw, err := multistage.New(sp)
	if err != nil {
		t.Fatalf("%+v: %v", sp, err)
	}
	return nw
}

// TestUniquePath counts the paths from every source to every sink over the
// channel graph alone (every switch is a full crossbar; the routing function
// is not used). A delta network (banyan) has exactly one: Makrucki & Mudge
// §2, "the unique transmission path property".
func TestUniquePath(t *testing.T) {
	for _, sp := range specs() {
		nw := build(t, sp)
		n, b, z := nw.Terminals(), nw.Degree(), nw.Stages()
		ways := make([]int, nw.SwitchesPerStage())
		next := make([]int, nw.SwitchesPerStage())
		sink := make([]int, n)
		for src := range n {
			clear(ways)
			clear(sink)
			ways[nw.FirstLine(src)/b] = 1
			for s := range z {
				clear(next)
				for j, c := range ways {
					if c == 0 {
						continue
					}
					for p := range b {
						y := nw.NextLine(s, j*b+p)
						if s == z-1 {
							sink[y] += c
						} else {
							next[y/b] += c
						}
					}
				}
				ways, next = next, ways
			}
			for d, c := range sink {
				if c != 1 {
					t.Fatalf("%v b=%d z=%d: %d paths from %d to %d, want exactly 1", sp.Wiring, b, z, c, src, d)
				}
			}
		}
	}
}

// TestRouteReachesEveryDestination follows the destination tag from every
// source to every destination and checks it arrives, with one hop per stage,
// entering each switch by the port the previous hop's channel leads to.
func TestRouteReachesEveryDestination(t *testing.T) {
	var buf []multistage.Hop
	for _, sp := range specs() {
		nw := build(t, sp)
		n := nw.Terminals()
		for src := range n {
			for dst := range n {
				var got int
				buf, got = nw.Path(src, dst, buf[:0])
				if got != dst {
					t.Fatalf("%v b=%d z=%d: route %d->%d reaches %d", sp.Wiring, sp.Degree, sp.Stages, src, dst, got)
				}
				if len(buf) != nw.Diameter() {
					t.Fatalf("path length %d, want z = %d", len(buf), nw.Diameter())
				}
				if c := nw.Channel(nw.Injection(src)); c.Dst.ID != buf[0].Switch || c.Dst.Port != buf[0].In {
					t.Fatalf("injection of %d enters %+v, path says %+v", src, c.Dst, buf[0])
				}
				for s, h := range buf {
					if st, _ := nw.SwitchStage(h.Switch); st != s {
						t.Fatalf("hop %d at stage %d", s, st)
					}
					c := nw.Channel(nw.Out(h.Switch, h.Out))
					if s+1 < len(buf) {
						if c.Dst.ID != buf[s+1].Switch || c.Dst.Port != buf[s+1].In {
							t.Fatalf("hop %d leads to %+v, next hop %+v", s, c.Dst, buf[s+1])
						}
					} else if c.Dst.Kind != multistage.TerminalEnd || c.Dst.ID != dst || nw.Ejection(dst) != nw.Out(h.Switch, h.Out) {
						t.Fatalf("last hop leads to %+v, want sink %d", c.Dst, dst)
					}
				}
			}
		}
	}
}

// TestChannelTables checks that In, Out, Injection, Ejection and Channel
// agree: every channel is named once, and its ends map back to it.
func TestChannelTables(t *testing.T) {
	for _, sp := range specs() {
		nw := build(t, sp)
		n, b, z := nw.Terminals(), nw.Degree(), nw.Stages()
		if nw.Channels() != (z+1)*n || nw.Switches() != z*n/b {
			t.Fatalf("counts: channels %d switches %d", nw.Channels(), nw.Switches())
		}
		seenIn := make([]bool, nw.Channels())
		for c := range nw.Channels() {
			ch := nw.Channel(c)
			if ch.Level != c/n {
				t.Fatalf("channel %d level %d", c, ch.Level)
			}
			switch ch.Src.Kind {
			case multistage.TerminalEnd:
				if ch.Level != 0 || nw.Injection(ch.Src.ID) != c {
					t.Fatalf("channel %d: bad source %+v", c, ch.Src)
				}
			default:
				if nw.Out(ch.Src.ID, ch.Src.Port) != c {
					t.Fatalf("channel %d: Out(%+v) = %d", c, ch.Src, nw.Out(ch.Src.ID, ch.Src.Port))
				}
			}
			switch ch.Dst.Kind {
			case multistage.TerminalEnd:
				if ch.Level != z || nw.Ejection(ch.Dst.ID) != c {
					t.Fatalf("channel %d: bad sink %+v", c, ch.Dst)
				}
			default:
				if nw.In(ch.Dst.ID, ch.Dst.Port) != c {
					t.Fatalf("channel %d: In(%+v) = %d", c, ch.Dst, nw.In(ch.Dst.ID, ch.Dst.Port))
				}
			}
			if seenIn[c] {
				t.Fatalf("channel %d twice", c)
			}
			seenIn[c] = true
		}
	}
}

// digits returns x in base b, least significant first, z digits.
func digits(x, b, z int) []int {
	d := make([]int, z)
	for i := range d {
		d[i] = x % b
		x /= b
	}
	return d
}

func undigits(d []int, b int) int {
	x := 0
	for i := len(d) - 1; i >= 0; i-- {
		x = x*b + d[i]
	}
	return x
}

// TestOmegaIsPerfectShuffle checks the Omega wiring against the definition
// of the perfect b-shuffle (Lawrie 1975; Stone 1971 for b = 2): the base-b
// digits of the line address rotate left by one place, before every stage.
func TestOmegaIsPerfectShuffle(t *testing.T) {
	for _, bz := range [][2]int{{2, 4}, {3, 3}, {4, 3}} {
		b, z := bz[0], bz[1]
		nw := build(t, multistage.Spec{Degree: b, Stages: z})
		for l := range z {
			for x := range nw.Terminals() {
				d := digits(x, b, z)
				rot := append([]int{d[z-1]}, d[:z-1]...)
				if got, want := nw.Perm(l, x), undigits(rot, b); got != want {
					t.Fatalf("b=%d z=%d level %d: pi(%d) = %d, want %d", b, z, l, x, got, want)
				}
			}
		}
		for x := range nw.Terminals() {
			if nw.Perm(z, x) != x {
				t.Fatalf("Omega ejection is not the identity at %d", x)
			}
		}
	}
}

// TestRouteIsDestinationDigit pins the destination tag: stage s reads digit
// z-1-s (most significant first).
func TestRouteIsDestinationDigit(t *testing.T) {
	nw := build(t, multistage.Spec{Degree: 4, Stages: 3})
	// d = 39 = (2 1 3)_4: stage 0 reads 2, stage 1 reads 1, stage 2 reads 3.
	for s, want := range []int{2, 1, 3} {
		if got := nw.Route(s, 39); got != want {
			t.Errorf("Route(%d, 39) = %d, want %d", s, got, want)
		}
	}
}

// TestRouteDoesNotAllocate: Route, FirstLine and NextLine are per-hop
// look-ups on the simulator's hot path; Path, which chains them, must not
// allocate either when buf has room for the z hops.
func TestRouteDoesNotAllocate(t *testing.T) {
	nw := build(t, multistage.Spec{Degree: 4, Stages: 3, Wiring: multistage.Butterfly})
	n := nw.Terminals()
	buf := make([]multistage.Hop, 0, nw.Stages())
	sink := 0
	allocs := testing.AllocsPerRun(3, func() {
		for src := 0; src < n; src++ {
			for dst := 0; dst < n; dst++ {
				buf, sink = nw.Path(src, dst, buf[:0])
				sink += nw.Route(nw.Stages()-1, dst)
			}
		}
	})
	if allocs != 0 {
		t.Errorf("Path/Route allocate: %v allocations per sweep", allocs)
	}
	_ = sink
}

// TestWiringsDiffer guards against two wirings silently being the same
// permutation list (the butterfly and baseline must not collapse to Omega).
func TestWiringsDiffer(t *testing.T) {
	a := build(t, multistage.Spec{Degree: 2, Stages: 3, Wiring: multistage.Omega})
	for _, w := range []multistage.Wiring{multistage.Butterfly, multistage.Baseline} {
		o := build(t, multistage.Spec{Degree: 2, Stages: 3, Wiring: w})
		same := true
		for l := 0; l <= 3; l++ {
			for x := range 8 {
				same = same && a.Perm(l, x) == o.Perm(l, x)
			}
		}
		if same {
			t.Errorf("%v wiring equals omega", w)
		}
	}
}

func TestSpecErrors(t *testing.T) {
	_, err := multistage.New(multistage.Spec{Degree: 1, Stages: 0, Wiring: 7})
	if err == nil {
		t.Fatal("invalid spec accepted")
	}
	for _, frag := range []string{"Degree", "Stages", "wiring"} {
		if !contains(err.Error(), frag) {
			t.Errorf("error %q does not name %s", err, frag)
		}
	}
	if _, err := multistage.New(multistage.Spec{Degree: 2, Stages: 30}); err == nil {
		t.Error("2^30 terminals accepted")
	}
	for _, s := range []string{"", "omega", "butterfly", "baseline"} {
		w, err := multistage.ParseWiring(s)
		if err != nil || (s != "" && w.String() != s) {
			t.Errorf("ParseWiring(%q) = %v, %v", s, w, err)
		}
	}
	if _, err := multistage.ParseWiring("clos"); err == nil {
		t.Error("ParseWiring(clos) accepted")
	}
	if z, err := multistage.Log(64, 4); z != 3 || err != nil {
		t.Errorf("Log(64,4) = %d, %v", z, err)
	}
	if _, err := multistage.Log(48, 4); err == nil {
		t.Error("Log(48,4) accepted")
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// ExampleNetwork_Path walks the destination tag through the 8-terminal
// binary Omega network: 5 -> 2 = (0 1 0)_2 takes ports 0, 1, 0. The line
// address rotates left before each stage (101 -> 011: switch 1, port 1) and
// the switch overwrites its last digit with the tag digit (011 -> 010).
func ExampleNetwork_Path() {
	nw, _ := multistage.New(multistage.Spec{Degree: 2, Stages: 3})
	hops, sink := nw.Path(5, 2, nil)
	for _, h := range hops {
		s, j := nw.SwitchStage(h.Switch)
		fmt.Printf("stage %d switch %d: in %d -> out %d\n", s, j, h.In, h.Out)
	}
	fmt.Println("sink", sink)
	// Output:
	// stage 0 switch 1: in 1 -> out 0
	// stage 1 switch 2: in 0 -> out 1
	// stage 2 switch 1: in 1 -> out 0
	// sink 2
}
