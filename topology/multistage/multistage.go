package multistage

import (
	"errors"
	"fmt"
	"math"
)

// Wiring names the inter-stage permutation family of a delta network.
type Wiring int

// The wirings built by New. The zero value is Omega.
const (
	Omega     Wiring = iota // perfect b-shuffle before every stage (Lawrie 1975)
	Butterfly               // stage s switches digit z-1-s in place (generalised cube)
	Baseline                // inverse shuffle within shrinking blocks (Wu & Feng 1980)
)

// String returns "omega", "butterfly" or "baseline".
func (w Wiring) String() string {
	switch w {
	case Omega:
		return "omega"
	case Butterfly:
		return "butterfly"
	case Baseline:
		return "baseline"
	}
	return fmt.Sprintf("Wiring(%d)", int(w))
}

// ParseWiring returns the Wiring named s ("omega", "butterfly", "baseline";
// "" means omega).
func ParseWiring(s string) (Wiring, error) {
	switch s {
	case "", "omega":
		return Omega, nil
	case "butterfly":
		return Butterfly, nil
	case "baseline":
		return Baseline, nil
	}
	return 0, fmt.Errorf("multistage: unknown wiring %q (want omega, butterfly or baseline)", s)
}

// MaxTerminals bounds n = b^z so that every id fits an int32 with room for
// the channel levels.
const MaxTerminals = 1 << 24

// Spec describes a delta network: Degree b >= 2, Stages z >= 1, n = b^z <=
// MaxTerminals. The zero Wiring is Omega.
type Spec struct {
	Degree int    // b, switch size b x b
	Stages int    // z, number of switch stages
	Wiring Wiring // Omega (default), Butterfly or Baseline
}

// Terminals returns n = b^z, or an error naming every invalid field.
func (sp Spec) Terminals() (int, error) {
	var errs []error
	if sp.Degree < 2 {
		errs = append(errs, fmt.Errorf("multistage: Degree = %d, want >= 2", sp.Degree))
	}
	if sp.Stages < 1 {
		errs = append(errs, fmt.Errorf("multistage: Stages = %d, want >= 1", sp.Stages))
	}
	if sp.Wiring < Omega || sp.Wiring > Baseline {
		errs = append(errs, fmt.Errorf("multistage: unknown wiring %v", sp.Wiring))
	}
	if len(errs) > 0 {
		return 0, errors.Join(errs...)
	}
	n := 1
	for range sp.Stages {
		if n > MaxTerminals/sp.Degree {
			return 0, fmt.Errorf("multistage: %d^%d terminals exceed %d", sp.Degree, sp.Stages, MaxTerminals)
		}
		n *= sp.Degree
	}
	return n, nil
}

// EndKind says whether a channel end is a terminal or a switch port.
type EndKind uint8

// Channel end kinds.
const (
	TerminalEnd EndKind = iota // a source (channel source) or sink (channel destination)
	SwitchEnd                  // a switch port
)

// Endpoint is one end of a channel: a terminal (ID = terminal, Port = 0) or
// a switch port (ID = dense switch id, Port = port).
type Endpoint struct {
	Kind EndKind
	ID   int
	Port int
}

// Channel is a unidirectional link. Level 0 is injection, level z ejection.
type Channel struct {
	Level    int
	Src, Dst Endpoint
}

// Network is an immutable delta network (see the package documentation for
// ids and wiring).
type Network struct {
	spec  Spec
	n, b  int
	z     int
	per   int     // switches per stage, n/b
	pow   []int   // pow[s] = b^{z-1-s}: the place value of the digit stage s reads
	perm  []int32 // (z+1)*n: perm[l*n+x] = pi_l(x)
	inv   []int32 // (z+1)*n: inverse of each pi_l
	route []int32 // z*n: route[s*n+d] = Route(s, d)
}

// New builds the network described by spec.
func New(spec Spec) (*Network, error) {
	n, err := spec.Terminals()
	if err != nil {
		return nil, err
	}
	b, z := spec.Degree, spec.Stages
	nw := &Network{spec: spec, n: n, b: b, z: z, per: n / b,
		pow: make([]int, z), perm: make([]int32, (z+1)*n), inv: make([]int32, (z+1)*n),
		route: make([]int32, z*n)}
	p := 1
	for s := z - 1; s >= 0; s-- {
		nw.pow[s] = p
		p *= b
	}
	for s := range z {
		for d := range n {
			nw.route[s*n+d] = int32(d / nw.pow[s] % b)
		}
	}
	for l := 0; l <= z; l++ {
		pi := nw.perm[l*n : (l+1)*n]
		for x := range n {
			pi[x] = int32(nw.wire(l, x))
		}
	}
	for l := 0; l <= z; l++ {
		pi, iv := nw.perm[l*n:(l+1)*n], nw.inv[l*n:(l+1)*n]
		for i := range iv {
			iv[i] = -1
		}
		for x, y := range pi {
			if iv[y] != -1 {
				panic(fmt.Sprintf("multistage: %v level %d is not a permutation", spec.Wiring, l)) // construction bug
			}
			iv[y] = int32(x)
		}
	}
	return nw, nil
}

// wire returns pi_l(x) for the network's wiring.
func (nw *Network) wire(l, x int) int {
	n, b, z := nw.n, nw.b, nw.z
	switch nw.spec.Wiring {
	case Omega:
		if l == z {
			return x
		}
		return x*b%n + x*b/n // perfect b-shuffle: rotate the base-b digits left
	case Butterfly:
		switch {
		case l == 0:
			return nw.pos(0, x)
		case l == z:
			return nw.unpos(z-1, x)
		}
		return nw.pos(l, nw.unpos(l-1, x))
	default: // Baseline
		if l == 0 || l == z {
			return x
		}
		m := n / ipow(b, l-1) // block size after stage l-1
		blk, o := x/m, x%m
		return blk*m + (o%b)*(m/b) + o/b
	}
}

// pos returns the input line of stage s holding address a in the butterfly:
// the switch is a without digit z-1-s, the port is that digit.
func (nw *Network) pos(s, a int) int {
	pv := nw.pow[s]
	hi, dig, lo := a/(pv*nw.b), a/pv%nw.b, a%pv
	return (hi*pv+lo)*nw.b + dig
}

// unpos inverts pos.
func (nw *Network) unpos(s, x int) int {
	pv := nw.pow[s]
	j, dig := x/nw.b, x%nw.b
	hi, lo := j/pv, j%pv
	return (hi*nw.b+dig)*pv + lo
}

func ipow(b, e int) int {
	p := 1
	for range e {
		p *= b
	}
	return p
}

// Spec returns the specification the network was built from.
func (nw *Network) Spec() Spec { return nw.spec }

// Terminals returns n = b^z, the number of sources (and of sinks).
func (nw *Network) Terminals() int { return nw.n }

// Degree returns b.
func (nw *Network) Degree() int { return nw.b }

// Stages returns z.
func (nw *Network) Stages() int { return nw.z }

// SwitchesPerStage returns n/b.
func (nw *Network) SwitchesPerStage() int { return nw.per }

// Switches returns z*n/b, the number of switches.
func (nw *Network) Switches() int { return nw.z * nw.per }

// Channels returns (z+1)*n: n injection, (z-1)*n inter-stage and n ejection
// channels.
func (nw *Network) Channels() int { return (nw.z + 1) * nw.n }

// Switch returns the dense id of switch j of stage s.
func (nw *Network) Switch(s, j int) int { return s*nw.per + j }

// SwitchStage returns the stage and in-stage index of switch sw.
func (nw *Network) SwitchStage(sw int) (s, j int) { return sw / nw.per, sw % nw.per }

// Route returns the output port that a switch of stage s uses for
// destination d: the base-b digit d_{z-1-s} (Makrucki & Mudge §2, the
// destination tag; docs/models.md#makrucki-simulator item 1).
func (nw *Network) Route(s, d int) int { return int(nw.route[s*nw.n+d]) }

// Perm returns pi_l(x) (see the package documentation).
func (nw *Network) Perm(l, x int) int { return int(nw.perm[l*nw.n+x]) }

// FirstLine returns the input line of stage 0 fed by source t.
func (nw *Network) FirstLine(t int) int { return int(nw.perm[t]) }

// NextLine returns the input line of stage s+1 fed by output line x of stage
// s, for s < z-1; for s = z-1 it returns the sink fed by x.
func (nw *Network) NextLine(s, x int) int { return int(nw.perm[(s+1)*nw.n+x]) }

// Injection returns the channel from source t to stage 0.
func (nw *Network) Injection(t int) int { return t }

// Ejection returns the channel into sink t.
func (nw *Network) Ejection(t int) int { return nw.z*nw.n + int(nw.inv[nw.z*nw.n+t]) }

// Out returns the channel leaving switch sw by output port p.
func (nw *Network) Out(sw, p int) int {
	s, j := nw.SwitchStage(sw)
	return (s+1)*nw.n + j*nw.b + p
}

// In returns the channel entering switch sw by input port p.
func (nw *Network) In(sw, p int) int {
	s, j := nw.SwitchStage(sw)
	return s*nw.n + int(nw.inv[s*nw.n+j*nw.b+p])
}

// Channel returns the description of channel c, 0 <= c < Channels().
func (nw *Network) Channel(c int) Channel {
	l, x := c/nw.n, c%nw.n
	ch := Channel{Level: l}
	if l == 0 {
		ch.Src = Endpoint{Kind: TerminalEnd, ID: x}
	} else {
		ch.Src = Endpoint{Kind: SwitchEnd, ID: nw.Switch(l-1, x/nw.b), Port: x % nw.b}
	}
	y := int(nw.perm[l*nw.n+x])
	if l == nw.z {
		ch.Dst = Endpoint{Kind: TerminalEnd, ID: y}
	} else {
		ch.Dst = Endpoint{Kind: SwitchEnd, ID: nw.Switch(l, y/nw.b), Port: y % nw.b}
	}
	return ch
}

// Hop is one switch traversal of a path: the switch and its ports.
type Hop struct {
	Switch, In, Out int
}

// Path appends to buf the z hops of the destination-tag route from source
// src to sink dst and returns the extended slice and the sink actually
// reached (equal to dst in a correct wiring; the tests check it).
func (nw *Network) Path(src, dst int, buf []Hop) ([]Hop, int) {
	x := nw.FirstLine(src)
	for s := range nw.z {
		j, in := x/nw.b, x%nw.b
		out := nw.Route(s, dst)
		buf = append(buf, Hop{Switch: nw.Switch(s, j), In: in, Out: out})
		x = nw.NextLine(s, j*nw.b+out)
	}
	return buf, x
}

// Diameter returns z, the number of switches on every path (all paths have
// the same length in a delta network).
func (nw *Network) Diameter() int { return nw.z }

// Log returns z = log_b n for a valid Spec; it is a convenience for callers
// that know n and b only.
func Log(n, b int) (int, error) {
	if b < 2 || n < b {
		return 0, fmt.Errorf("multistage: no z >= 1 with %d = %d^z", n, b)
	}
	z := int(math.Round(math.Log(float64(n)) / math.Log(float64(b))))
	if ipow(b, z) != n {
		return 0, fmt.Errorf("multistage: %d is not a power of %d", n, b)
	}
	return z, nil
}
