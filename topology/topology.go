package topology

import (
	"errors"
	"fmt"
	"strings"
)

// MaxNodes is the largest network New accepts (2^20 routers). It keeps the
// flat per-port tables (a few int32 per port) well under a gigabyte.
const MaxNodes = 1 << 20

// Kind names a family of direct networks. The zero Kind is invalid, so a
// configuration that forgot to set it is refused rather than silently given
// a default.
type Kind uint8

const (
	// Ring is the k-ary 1-cube: K routers on a cycle, uni- or bidirectional.
	Ring Kind = iota + 1
	// Torus is the k-ary n-cube with wraparound links in every dimension,
	// uni- or bidirectional.
	Torus
	// Mesh is the k-ary n-mesh: a torus without the wraparound links,
	// always bidirectional.
	Mesh
	// Hypercube is the binary n-cube: 2^n routers, one two-way link per
	// dimension joining addresses that differ in that bit.
	Hypercube
)

var kindNames = [...]string{Ring: "ring", Torus: "torus", Mesh: "mesh", Hypercube: "hypercube"}

// String returns the lower-case name of k ("ring", "torus", "mesh",
// "hypercube"), or "Kind(n)" for an invalid value.
func (k Kind) String() string {
	if k >= Ring && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// ParseKind returns the Kind whose String is s (case-insensitive).
func ParseKind(s string) (Kind, error) {
	for k := Ring; int(k) < len(kindNames); k++ {
		if strings.EqualFold(s, kindNames[k]) {
			return k, nil
		}
	}
	return 0, fmt.Errorf("topology: unknown kind %q (want ring, torus, mesh or hypercube)", s)
}

// MarshalText implements encoding.TextMarshaler with the String form.
func (k Kind) MarshalText() ([]byte, error) {
	if k < Ring || int(k) >= len(kindNames) {
		return nil, fmt.Errorf("topology: invalid kind %d", uint8(k))
	}
	return []byte(k.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler via ParseKind, so a
// configuration file can say "torus".
func (k *Kind) UnmarshalText(b []byte) error {
	v, err := ParseKind(string(b))
	if err != nil {
		return err
	}
	*k = v
	return nil
}

// Spec describes a network to build. Zero fields take the defaults noted;
// New returns the normalised Spec through Topology.Spec.
type Spec struct {
	Kind Kind
	// K is the radix: routers per dimension (ring: the number of routers).
	// Hypercube: must be 2; 0 means 2.
	K int
	// N is the number of dimensions. Ring: must be 1; 0 means 1.
	N int
	// Bidirectional selects a link in each direction per dimension for
	// Ring and Torus. A Mesh is always bidirectional and a Hypercube's
	// links are always two-way; New sets the flag true for both.
	Bidirectional bool
}

// Channel is one unidirectional network channel (a link in one direction).
// By the port convention of the package, DstPort == SrcPort.
type Channel struct {
	Src, SrcPort int // upstream router and the output port the channel leaves by
	Dst, DstPort int // downstream router and the input port it enters by
	Dim          int // dimension the channel moves in
	// Dir is +1 if the channel increases the coordinate of Dim (for a
	// hypercube: sets the bit), -1 if it decreases it (clears the bit).
	Dir int8
	// Wrap marks a wraparound link of a ring or torus (coordinate K-1 to 0
	// in the + direction, 0 to K-1 in the - direction).
	Wrap bool
}

// Topology is an immutable description of a direct network: routers
// 0..Nodes()-1, each with Ports() ports, and unidirectional channels
// 0..len(Channels())-1. All methods are safe for concurrent use.
type Topology struct {
	spec     Spec
	k, n     int
	nodes    int
	netPorts int
	ports    int
	pow      []int   // pow[d] = K^d
	coords   []int32 // coords[node*n+d], coordinate of node in dimension d
	out, in  []int32 // [router*ports+port] -> channel id or -1
	// Channels by dense id, ordered by (Src, SrcPort); a Channel value is
	// rebuilt on demand so a 2^20-router hypercube costs 9 bytes a channel.
	chSrc, chDst []int32
	chPort       []uint8
	reach        []int // reach[l] = routers exactly l hops from router 0
	diameter     int
}

// New builds the network s describes. It returns an error for K < 2, for a
// bidirectional ring or torus with K < 3 (there the + and - neighbours
// coincide: that network is the hypercube), for a hypercube with K != 2,
// for N < 1, for a ring with N != 1, and for more than MaxNodes routers.
func New(s Spec) (*Topology, error) {
	switch s.Kind {
	case Ring:
		if s.N == 0 {
			s.N = 1
		}
		if s.N != 1 {
			return nil, fmt.Errorf("topology: ring must have N = 1 dimension, got %d (use a torus)", s.N)
		}
	case Torus:
	case Mesh:
		s.Bidirectional = true
	case Hypercube:
		if s.K == 0 {
			s.K = 2
		}
		if s.K != 2 {
			return nil, fmt.Errorf("topology: hypercube radix must be 2, got K = %d", s.K)
		}
		s.Bidirectional = true
	default:
		return nil, fmt.Errorf("topology: invalid kind %v", s.Kind)
	}
	if s.K < 2 {
		return nil, fmt.Errorf("topology: %v radix K = %d, want K >= 2", s.Kind, s.K)
	}
	if s.N < 1 {
		return nil, fmt.Errorf("topology: %v dimensions N = %d, want N >= 1", s.Kind, s.N)
	}
	if (s.Kind == Ring || s.Kind == Torus) && s.Bidirectional && s.K < 3 {
		return nil, errors.New("topology: bidirectional " + s.Kind.String() +
			" needs K >= 3 (with K = 2 both directions reach the same neighbour: use a hypercube)")
	}
	nodes := 1
	for i := 0; i < s.N; i++ {
		if nodes > MaxNodes/s.K {
			return nil, fmt.Errorf("topology: %d-ary %d-cube has more than %d routers", s.K, s.N, MaxNodes)
		}
		nodes *= s.K
	}

	t := &Topology{spec: s, k: s.K, n: s.N, nodes: nodes}
	switch {
	case s.Kind == Hypercube:
		t.netPorts = s.N
	case s.Bidirectional:
		t.netPorts = 2 * s.N
	default:
		t.netPorts = s.N
	}
	t.ports = t.netPorts + 1
	t.pow = make([]int, s.N+1)
	t.pow[0] = 1
	for d := 1; d <= s.N; d++ {
		t.pow[d] = t.pow[d-1] * s.K
	}
	t.coords = make([]int32, nodes*s.N)
	for v := 0; v < nodes; v++ {
		x := v
		for d := 0; d < s.N; d++ {
			t.coords[v*s.N+d] = int32(x % s.K)
			x /= s.K
		}
	}
	t.buildChannels()
	t.buildReach()
	return t, nil
}

// neighbor returns the router reached from v through network port p, the
// dimension, direction and wrap flag of that move, or -1 if the port has no
// link (mesh edge).
func (t *Topology) neighbor(v, p int) (dst, dim int, dir int8, wrap bool) {
	if t.spec.Kind == Hypercube {
		dim = p
		dst = v ^ (1 << p)
		dir = 1
		if v&(1<<p) != 0 {
			dir = -1
		}
		return dst, dim, dir, false
	}
	dir = 1
	dim = p
	if t.spec.Bidirectional {
		dim = p / 2
		if p%2 == 1 {
			dir = -1
		}
	}
	c := int(t.coords[v*t.n+dim])
	nc := c + int(dir)
	switch {
	case nc == t.k:
		if t.spec.Kind == Mesh {
			return -1, dim, dir, false
		}
		nc, wrap = 0, true
	case nc < 0:
		if t.spec.Kind == Mesh {
			return -1, dim, dir, false
		}
		nc, wrap = t.k-1, true
	}
	return v + (nc-c)*t.pow[dim], dim, dir, wrap
}

func (t *Topology) buildChannels() {
	t.out = make([]int32, t.nodes*t.ports)
	t.in = make([]int32, t.nodes*t.ports)
	for i := range t.out {
		t.out[i] = -1
		t.in[i] = -1
	}
	t.chSrc = make([]int32, 0, t.nodes*t.netPorts)
	t.chDst = make([]int32, 0, t.nodes*t.netPorts)
	t.chPort = make([]uint8, 0, t.nodes*t.netPorts)
	for v := 0; v < t.nodes; v++ {
		for p := 0; p < t.netPorts; p++ {
			dst, _, _, _ := t.neighbor(v, p)
			if dst < 0 {
				continue
			}
			id := int32(len(t.chSrc))
			t.chSrc = append(t.chSrc, int32(v))
			t.chDst = append(t.chDst, int32(dst))
			t.chPort = append(t.chPort, uint8(p))
			t.out[v*t.ports+p] = id
			t.in[dst*t.ports+p] = id
		}
	}
}

// Spec returns the normalised specification the network was built from
// (defaults filled in, Bidirectional true for meshes and hypercubes).
func (t *Topology) Spec() Spec { return t.spec }

// Kind returns the network family.
func (t *Topology) Kind() Kind { return t.spec.Kind }

// Nodes returns the number of routers, K^N; each has one attached node.
func (t *Topology) Nodes() int { return t.nodes }

// Radix returns K, the number of routers per dimension.
func (t *Topology) Radix() int { return t.k }

// Dims returns N, the number of dimensions.
func (t *Topology) Dims() int { return t.n }

// Bidirectional reports whether each dimension has a channel in both
// directions (true for meshes and hypercubes).
func (t *Topology) Bidirectional() bool { return t.spec.Bidirectional }

// NetPorts returns the number of network ports per router, the same for
// every router: 2N for bidirectional rings, tori and meshes, N for
// unidirectional rings and tori and for hypercubes.
func (t *Topology) NetPorts() int { return t.netPorts }

// Ports returns NetPorts()+1: the network ports plus the local port.
func (t *Topology) Ports() int { return t.ports }

// LocalPort returns the index of the local (injection/ejection) port,
// which is NetPorts().
func (t *Topology) LocalPort() int { return t.netPorts }

// Tables returns the topology's own tables, shared, not copied (a
// network of 2^20 routers keeps one set; issue 20): out and in, indexed by
// router*Ports()+port, give the channel leaving or entering through the
// port (Out, In; -1 none); src and dst, indexed by channel id, its routers.
// The caller must not modify them.
func (t *Topology) Tables() (out, in, src, dst []int32) {
	return t.out, t.in, t.chSrc, t.chDst
}

// Out returns the id of the channel leaving router through port, or -1 if
// there is none (a mesh edge port, or the local port). It panics if router
// or port is out of range.
func (t *Topology) Out(router, port int) int {
	t.checkPort(router, port)
	return int(t.out[router*t.ports+port])
}

// In returns the id of the channel entering router through input port,
// or -1 if there is none. It panics if router or port is out of range.
func (t *Topology) In(router, port int) int {
	t.checkPort(router, port)
	return int(t.in[router*t.ports+port])
}

func (t *Topology) checkPort(router, port int) {
	if uint(port) >= uint(t.ports) || uint(router) >= uint(t.nodes) {
		panic(fmt.Sprintf("topology: router %d port %d out of range [0,%d)x[0,%d)", router, port, t.nodes, t.ports))
	}
}

// NumChannels returns the number of unidirectional network channels.
func (t *Topology) NumChannels() int { return len(t.chSrc) }

// Channel returns channel id. It panics if id is out of range.
func (t *Topology) Channel(id int) Channel {
	v, p := int(t.chSrc[id]), int(t.chPort[id])
	dst, dim, dir, wrap := t.neighbor(v, p)
	return Channel{Src: v, SrcPort: p, Dst: dst, DstPort: p, Dim: dim, Dir: dir, Wrap: wrap}
}

// Channels returns all unidirectional network channels in a new slice
// indexed by channel id. Ids are dense and ordered by (Src, SrcPort).
func (t *Topology) Channels() []Channel {
	cs := make([]Channel, len(t.chSrc))
	for id := range cs {
		cs[id] = t.Channel(id)
	}
	return cs
}

// Coord returns the coordinate of node in dimension dim (for a hypercube:
// address bit dim), where node = sum_i coord_i K^i, dimension 0 least
// significant.
func (t *Topology) Coord(node, dim int) int {
	if uint(dim) >= uint(t.n) {
		panic(fmt.Sprintf("topology: dimension %d out of range [0,%d)", dim, t.n))
	}
	return int(t.coords[node*t.n+dim])
}

// Node returns the router with the given coordinates, sum_i coords[i] K^i.
// It panics unless len(coords) == Dims() and every coordinate is in [0,K).
func (t *Topology) Node(coords []int) int {
	if len(coords) != t.n {
		panic(fmt.Sprintf("topology: %d coordinates for a %d-dimensional network", len(coords), t.n))
	}
	v := 0
	for d, c := range coords {
		if uint(c) >= uint(t.k) {
			panic(fmt.Sprintf("topology: coordinate %d = %d out of range [0,%d)", d, c, t.k))
		}
		v += c * t.pow[d]
	}
	return v
}

// Degree returns the number of network ports of router that carry an
// outgoing channel: NetPorts() except at mesh edges. (In-degree equals
// out-degree in every supported network.)
func (t *Topology) Degree(router int) int {
	deg := 0
	row := t.out[router*t.ports : router*t.ports+t.netPorts]
	for _, c := range row {
		if c >= 0 {
			deg++
		}
	}
	return deg
}

// String describes the network, e.g. "torus 8-ary 2-cube (bidirectional)",
// "ring of 15 (unidirectional)", "mesh 4-ary 2-mesh", "hypercube 6-cube".
func (t *Topology) String() string {
	dir := "unidirectional"
	if t.spec.Bidirectional {
		dir = "bidirectional"
	}
	switch t.spec.Kind {
	case Ring:
		return fmt.Sprintf("ring of %d (%s)", t.k, dir)
	case Torus:
		return fmt.Sprintf("torus %d-ary %d-cube (%s)", t.k, t.n, dir)
	case Mesh:
		return fmt.Sprintf("mesh %d-ary %d-mesh", t.k, t.n)
	default:
		return fmt.Sprintf("hypercube %d-cube", t.n)
	}
}
