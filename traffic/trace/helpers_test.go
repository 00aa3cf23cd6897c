package trace

import (
	"bytes"
	"encoding/binary"
	"math"
)

// ntPacket is a netrace record as written: deps are dependants' ids.
type ntPacket struct {
	cycle    uint64
	id       uint32
	typ      uint8
	src, dst uint8
	deps     []uint32
}

// encodeNetrace writes an uncompressed netrace v1 file in the layout
// documented at the package's record sizes (an independent statement of
// it: field by field, little-endian).
func encodeNetrace(name string, nodes uint8, declared uint64, notes string, regions int, pk []ntPacket) []byte {
	var b bytes.Buffer
	le := binary.LittleEndian
	w32 := func(v uint32) { _ = binary.Write(&b, le, v) }
	w64 := func(v uint64) { _ = binary.Write(&b, le, v) }
	w32(0x484A5455)
	w32(math.Float32bits(1))
	var nm [30]byte
	copy(nm[:], name)
	b.Write(nm[:])
	b.WriteByte(nodes)
	b.WriteByte(0)
	w64(12345)
	w64(declared)
	nl := uint32(0)
	if notes != "" {
		nl = uint32(len(notes) + 1)
	}
	w32(nl)
	w32(uint32(regions))
	b.Write(make([]byte, 8))
	if notes != "" {
		b.WriteString(notes)
		b.WriteByte(0)
	}
	for r := 0; r < regions; r++ {
		w64(uint64(r))
		w64(100)
		w64(2)
	}
	for _, p := range pk {
		w64(p.cycle)
		w32(p.id)
		w32(0xdead0000 + p.id) // address
		b.WriteByte(p.typ)
		b.WriteByte(p.src)
		b.WriteByte(p.dst)
		b.WriteByte(0x02) // node types: L1D -> L2
		b.WriteByte(uint8(len(p.deps)))
		for _, d := range p.deps {
			w32(d)
		}
	}
	return b.Bytes()
}

// fixturePackets is the small trace of testdata/small.tra(.bz2): a read
// request from node 0 to L2 slice 5, its 72-byte response (waiting for the
// request), a write-back from node 3 independent of both, and an
// invalidation (from 5 to 3) that waits for the response and the
// write-back; ids are not contiguous, and one dependant id (999) is not in
// the trace.
var fixturePackets = []ntPacket{
	{cycle: 100, id: 10, typ: 1, src: 0, dst: 5, deps: []uint32{11}},
	{cycle: 103, id: 11, typ: 2, src: 5, dst: 0, deps: []uint32{40, 999}},
	{cycle: 104, id: 12, typ: 6, src: 3, dst: 7, deps: []uint32{40}},
	{cycle: 120, id: 40, typ: 27, src: 5, dst: 3},
}

func fixtureNetrace() []byte {
	return encodeNetrace("tiny", 8, uint64(len(fixturePackets)), "made by helpers_test.go", 1, fixturePackets)
}
