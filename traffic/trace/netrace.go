package trace

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// NetraceMagic is the first word of a netrace file, little-endian.
const NetraceMagic = 0x484A5455

// Sizes of the netrace v1 records, in bytes. The C reference reads them as
// packed little-endian structures:
//
//	header (72 bytes):
//	  0  uint32   magic, NetraceMagic
//	  4  float32  version, 1.0
//	  8  [30]byte benchmark name, NUL-terminated
//	 38  uint8    number of nodes
//	 39  uint8    padding
//	 40  uint64   number of cycles
//	 48  uint64   number of packets
//	 56  uint32   length of the notes, NUL included
//	 60  uint32   number of regions
//	 64  [8]byte  padding
//	then the notes (notes length bytes, read only when 0 < length < 8192)
//	and the regions (number of regions times 24 bytes: seek offset,
//	cycles, packets, each uint64), at most 100.
//
//	packet (21 bytes, then 4 bytes per dependency):
//	  0  uint64   cycle
//	  8  uint32   id
//	 12  uint32   address
//	 16  uint8    type (NetraceTypeName)
//	 17  uint8    source node
//	 18  uint8    destination node
//	 19  uint8    node types (source type << 4 | destination type)
//	 20  uint8    number of dependencies
//	 21  ...      dependencies, uint32 packet ids
//
// A packet's dependency list names its dependants: the later packets that
// wait for it (the reference reader counts, for every packet, how many
// listed it, and clears it for injection when that count drops to zero as
// the listing packets are delivered). ReadNetrace turns them round into
// Packet.After, the packets each one waits for.
const (
	netraceHeaderSize = 72
	netracePacketSize = 21
	netraceRegionSize = 24
	maxNetraceNotes   = 8192 // the reference reader skips notes of this length or more
	maxNetraceRegions = 100  // and refuses more regions than this
)

// netraceBytes gives the size in bytes of each packet type of netrace v1
// (the gem5 memory commands its traces record); 0 marks an invalid type.
// Requests and acknowledgements carry an 8-byte address or control word,
// data-carrying packets a 64-byte cache line with it, 72 bytes.
var netraceBytes = [31]int{
	1: 8, 2: 72, 3: 72, 4: 72, 5: 8, 6: 72,
	13: 8, 14: 8, 15: 8, 16: 72, 25: 8,
	27: 8, 28: 8, 29: 8, 30: 72,
}

var netraceNames = [31]string{
	1: "ReadReq", 2: "ReadResp", 3: "ReadRespWithInvalidate", 4: "WriteReq", 5: "WriteResp", 6: "Writeback",
	13: "UpgradeReq", 14: "UpgradeResp", 15: "ReadExReq", 16: "ReadExResp", 25: "BadAddressError",
	27: "InvalidateReq", 28: "InvalidateResp", 29: "DowngradeReq", 30: "DowngradeResp",
}

// NetraceTypeName returns the name of a netrace packet type ("ReadReq",
// "ReadResp", ...), or "" for a type netrace does not define.
func NetraceTypeName(t uint8) string {
	if int(t) < len(netraceNames) {
		return netraceNames[t]
	}
	return ""
}

// NetraceBytes returns the size in bytes of a packet of netrace type t (8
// or 72), or 0 for a type netrace does not define.
func NetraceBytes(t uint8) int {
	if int(t) < len(netraceBytes) {
		return netraceBytes[t]
	}
	return 0
}

// NetraceOptions controls ReadNetrace.
type NetraceOptions struct {
	// FlitBytes is the flit width in bytes: a packet of b bytes is
	// ceil(b/FlitBytes) flits (0 means 16: 8-byte control packets are one
	// flit, 72-byte data packets five).
	FlitBytes int
	// MaxPackets, when > 0, reads only the first MaxPackets packets (a
	// prefix of a long trace); dependencies on the packets cut off are
	// dropped (Trace.Dangling).
	MaxPackets int
}

// NetraceHeader is the fixed part of a netrace header.
type NetraceHeader struct {
	Benchmark string
	Nodes     int
	Cycles    uint64
	Packets   uint64
	Notes     string
	Regions   int
}

// ReadNetrace reads a netrace v1 trace from r, compressed with bzip2 as
// distributed (detected by its "BZh" signature) or not. file names the
// trace in errors. A header that is not netrace v1, a packet of an unknown
// type, a node id not below the header's node count, a packet id used
// twice, a cycle of dependencies, a record cut short, a corrupt bzip2
// stream, or fewer packets than the header declares (unless MaxPackets
// cuts the trace first) give an *Error naming the record.
func ReadNetrace(file string, r io.Reader, opt NetraceOptions) (*Trace, error) {
	if opt.FlitBytes == 0 {
		opt.FlitBytes = 16
	}
	if opt.FlitBytes < 0 || opt.MaxPackets < 0 {
		return nil, fmt.Errorf("trace: FlitBytes = %d and MaxPackets = %d must not be negative", opt.FlitBytes, opt.MaxPackets)
	}
	br := bufio.NewReaderSize(r, 1<<16)
	stream := "file"
	if sig, _ := br.Peek(3); bytes.Equal(sig, []byte("BZh")) {
		br = bufio.NewReaderSize(bzip2.NewReader(br), 1<<16)
		stream = "bzip2 stream"
	}
	fail := func(rec int, format string, args ...any) error {
		return &Error{File: file, Record: rec, Msg: fmt.Sprintf(format, args...)}
	}
	// short wraps a read error of record rec: a clean end before any byte
	// of a packet is the end of the trace (handled by the caller); a
	// partial record is truncation; anything else (a corrupt bzip2
	// stream) is reported as it is.
	short := func(rec int, what string, err error) error {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return fail(rec, "truncated: the %s ends inside the %s", stream, what)
		}
		return fail(rec, "reading the %s: %v", what, err)
	}
	h, err := readNetraceHeader(br, short, fail)
	if err != nil {
		return nil, err
	}
	t := &Trace{Name: h.Benchmark, Nodes: h.Nodes}
	if t.Name == "" {
		t.Name = file
	}
	t.Packets = make([]Packet, 0, int(min(h.Packets, 1<<12)))
	var deps []uint32 // dependants of every packet, in record order
	var depEnd []int  // depEnd[i]: end of packet i's dependants in deps
	index := map[uint32]int32{}
	var rec [netracePacketSize]byte
	var depBuf [4 * 255]byte
	le := binary.LittleEndian
	for n := 1; opt.MaxPackets == 0 || n <= opt.MaxPackets; n++ {
		k, err := io.ReadFull(br, rec[:])
		if k == 0 && errors.Is(err, io.EOF) {
			if opt.MaxPackets == 0 && uint64(len(t.Packets)) < h.Packets {
				return nil, fail(n, "truncated: the header declares %d packets, the file ends after %d", h.Packets, len(t.Packets))
			}
			break
		}
		if err != nil {
			return nil, short(n, "packet", err)
		}
		p := Packet{
			Cycle: int64(le.Uint64(rec[0:])),
			ID:    le.Uint32(rec[8:]),
			Type:  rec[16],
			Src:   int32(rec[17]),
			Dst:   int32(rec[18]),
		}
		nd := int(rec[20])
		if _, err := io.ReadFull(br, depBuf[:4*nd]); err != nil {
			return nil, short(n, fmt.Sprintf("dependency list (%d ids)", nd), err)
		}
		if p.Cycle < 0 {
			return nil, fail(n, "cycle %d is beyond 2^63", uint64(p.Cycle))
		}
		b := NetraceBytes(p.Type)
		if b == 0 {
			return nil, fail(n, "packet type %d is not a netrace packet type", p.Type)
		}
		p.Flits = int32((b + opt.FlitBytes - 1) / opt.FlitBytes)
		if int(p.Src) >= h.Nodes || int(p.Dst) >= h.Nodes {
			return nil, fail(n, "packet id %d goes from node %d to node %d, but the header declares %d nodes", p.ID, p.Src, p.Dst, h.Nodes)
		}
		if _, dup := index[p.ID]; dup {
			return nil, fail(n, "packet id %d is used twice (first at record %d)", p.ID, index[p.ID]+1)
		}
		if len(t.Packets) >= math.MaxInt32 {
			return nil, fail(n, "more than 2^31-1 packets")
		}
		index[p.ID] = int32(len(t.Packets))
		for d := 0; d < nd; d++ {
			deps = append(deps, le.Uint32(depBuf[4*d:]))
		}
		depEnd = append(depEnd, len(deps))
		t.Packets = append(t.Packets, p)
	}
	if err := t.invertNetraceDeps(deps, depEnd, index, fail); err != nil {
		return nil, err
	}
	return t, nil
}

// readNetraceHeader reads and checks the header, notes and regions.
func readNetraceHeader(br *bufio.Reader, short func(int, string, error) error, fail func(int, string, ...any) error) (NetraceHeader, error) {
	var h NetraceHeader
	var b [netraceHeaderSize]byte
	if _, err := io.ReadFull(br, b[:]); err != nil {
		return h, short(0, "72-byte header", err)
	}
	le := binary.LittleEndian
	if m := le.Uint32(b[0:]); m != NetraceMagic {
		return h, fail(0, "not a netrace file: magic %#08x, want %#08x", m, NetraceMagic)
	}
	if v := math.Float32frombits(le.Uint32(b[4:])); v != 1 {
		return h, fail(0, "netrace version %v, only version 1.0 is supported", v)
	}
	name := b[8:38]
	if i := bytes.IndexByte(name, 0); i >= 0 {
		name = name[:i]
	}
	h.Benchmark = string(name)
	h.Nodes = int(b[38])
	h.Cycles = le.Uint64(b[40:])
	h.Packets = le.Uint64(b[48:])
	notes := le.Uint32(b[56:])
	h.Regions = int(le.Uint32(b[60:]))
	if h.Nodes == 0 {
		return h, fail(0, "the header declares 0 nodes")
	}
	if notes >= maxNetraceNotes {
		return h, fail(0, "notes length %d: the netrace reader skips notes of %d bytes or more, so the packets' offset is ambiguous", notes, maxNetraceNotes)
	}
	if h.Regions > maxNetraceRegions {
		return h, fail(0, "%d regions, netrace allows at most %d", h.Regions, maxNetraceRegions)
	}
	rest := make([]byte, int(notes)+h.Regions*netraceRegionSize)
	if _, err := io.ReadFull(br, rest); err != nil {
		return h, short(0, "notes and regions", err)
	}
	nb := rest[:notes]
	if i := bytes.IndexByte(nb, 0); i >= 0 {
		nb = nb[:i]
	}
	h.Notes = string(nb)
	return h, nil
}

// invertNetraceDeps turns the dependant lists (deps[depEnd[i-1]:depEnd[i]]
// of packet i, netrace ids) into each packet's After list (indices) and
// checks that the dependencies are acyclic (Kahn's algorithm over the
// graph), so a replay can always make progress.
func (t *Trace) invertNetraceDeps(deps []uint32, depEnd []int, index map[uint32]int32, fail func(int, string, ...any) error) error {
	n := len(t.Packets)
	count := make([]int32, n+1) // parents per packet, then offsets
	edges := 0
	start := 0
	for i := 0; i < n; i++ {
		for _, id := range deps[start:depEnd[i]] {
			c, ok := index[id]
			switch {
			case !ok:
				t.Dangling++
			case int(c) == i:
				return fail(i+1, "packet id %d lists itself as a dependant", t.Packets[i].ID)
			default:
				count[c+1]++
				edges++
			}
		}
		start = depEnd[i]
	}
	for i := 1; i <= n; i++ {
		count[i] += count[i-1]
	}
	after := make([]int32, edges)
	fill := make([]int32, n)
	copy(fill, count[:n])
	start = 0
	for i := 0; i < n; i++ {
		for _, id := range deps[start:depEnd[i]] {
			if c, ok := index[id]; ok && int(c) != i {
				after[fill[c]] = int32(i)
				fill[c]++
			}
		}
		start = depEnd[i]
	}
	for i := range t.Packets {
		t.Packets[i].After = after[count[i]:count[i+1]:count[i+1]]
	}
	if i := t.cycleMember(); i >= 0 {
		return fail(i+1, "packet id %d is on a cycle of dependencies: it (indirectly) waits for itself", t.Packets[i].ID)
	}
	return nil
}

// cycleMember returns the index of a packet on a dependency cycle (the
// first, in file order, that Kahn's algorithm cannot schedule), or -1 if
// the dependencies are acyclic.
func (t *Trace) cycleMember() int {
	n := len(t.Packets)
	waiting := make([]int32, n)
	kids := make([][]int32, n)
	var queue []int32
	for i := range t.Packets {
		waiting[i] = int32(len(t.Packets[i].After))
		for _, p := range t.Packets[i].After {
			kids[p] = append(kids[p], int32(i))
		}
		if waiting[i] == 0 {
			queue = append(queue, int32(i))
		}
	}
	done := 0
	for len(queue) > 0 {
		p := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		done++
		for _, c := range kids[p] {
			if waiting[c]--; waiting[c] == 0 {
				queue = append(queue, c)
			}
		}
	}
	if done == n {
		return -1
	}
	for i, w := range waiting {
		if w > 0 {
			return i
		}
	}
	return -1
}
