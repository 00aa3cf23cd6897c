package trace

import (
	"bytes"
	"compress/bzip2"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
)

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

func decompress(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := io.ReadAll(bzip2.NewReader(f))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkFixture checks the trace read from fixturePackets: fields, flits
// (8 bytes: 1 flit, 72 bytes: 5 flits at 16-byte flits), the dependency
// lists turned round into After, the dangling reference.
func checkFixture(t *testing.T, tr *Trace) {
	t.Helper()
	if tr.Name != "tiny" || tr.Nodes != 8 || len(tr.Packets) != 4 || tr.Dangling != 1 {
		t.Fatalf("name %q nodes %d packets %d dangling %d, want tiny 8 4 1", tr.Name, tr.Nodes, len(tr.Packets), tr.Dangling)
	}
	want := []struct {
		id       uint32
		cycle    int64
		src, dst int32
		flits    int32
		typ      uint8
		after    []int32
	}{
		{10, 100, 0, 5, 1, 1, nil},
		{11, 103, 5, 0, 5, 2, []int32{0}},
		{12, 104, 3, 7, 5, 6, nil},
		{40, 120, 5, 3, 1, 27, []int32{1, 2}},
	}
	for i, w := range want {
		p := tr.Packets[i]
		if p.ID != w.id || p.Cycle != w.cycle || p.Src != w.src || p.Dst != w.dst || p.Flits != w.flits || p.Type != w.typ || !slices.Equal(p.After, w.after) {
			t.Errorf("packet %d = %+v, want %+v", i, p, w)
		}
	}
	if tr.Flits() != 12 {
		t.Errorf("Flits() = %d, want 12", tr.Flits())
	}
}

func TestReadNetrace(t *testing.T) {
	tr, err := ReadNetrace("raw", bytesReader(fixtureNetrace()), NetraceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkFixture(t, tr)
	// The committed bzip2 file, as distributed traces are compressed.
	f, err := os.Open("testdata/small.tra.bz2")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err = ReadNetrace("testdata/small.tra.bz2", f, NetraceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkFixture(t, tr)
	// Flit width and prefix.
	tr, err = ReadNetrace("raw", bytesReader(fixtureNetrace()), NetraceOptions{FlitBytes: 8, MaxPackets: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Packets) != 2 || tr.Packets[0].Flits != 1 || tr.Packets[1].Flits != 9 || tr.Dangling != 2 {
		t.Errorf("8-byte flits, 2 packets: %+v, dangling %d", tr.Packets, tr.Dangling)
	}
	if err := tr.CheckNodes(7); err == nil || !strings.Contains(err.Error(), "names 8 nodes, the network has only 7") {
		t.Errorf("CheckNodes(7) = %v", err)
	}
	if err := tr.CheckNodes(8); err != nil {
		t.Errorf("CheckNodes(8) = %v", err)
	}
}

// TestNetraceErrors: every malformed or truncated input is refused with
// an *Error naming the record.
func TestNetraceErrors(t *testing.T) {
	good := fixtureNetrace()
	const hdr = 72 + 24 + 24 // header, notes "made by helpers_test.go\0", one region
	mod := func(off int, v ...byte) []byte {
		b := slices.Clone(good)
		copy(b[off:], v)
		return b
	}
	cases := []struct {
		name string
		in   []byte
		rec  int
		msg  string
	}{
		{"empty", nil, 0, "truncated: the file ends inside the 72-byte header"},
		{"short header", good[:50], 0, "truncated"},
		{"magic", mod(0, 1), 0, "not a netrace file"},
		{"version", mod(4, 0, 0, 0, 0x40), 0, "version 2"},
		{"no nodes", mod(38, 0), 0, "0 nodes"},
		{"notes too long", mod(56, 0, 0x20), 0, "notes length 8192"},
		{"regions", mod(60, 101), 0, "101 regions"},
		{"cut in notes", good[:80], 0, "ends inside the notes and regions"},
		{"cut in packet 1", good[:hdr+10], 1, "ends inside the packet"},
		{"cut in deps of 1", good[:hdr+23], 1, "ends inside the dependency list (1 ids)"},
		{"cut in packet 3", good[:hdr+25+29+3], 3, "ends inside the packet"},
		{"missing packets", good[:hdr+25+29+25], 4, "header declares 4 packets, the file ends after 3"},
		{"bad type", mod(hdr+16, 7), 1, "packet type 7 is not a netrace packet type"},
		{"type out of table", mod(hdr+16, 200), 1, "packet type 200"},
		{"src", mod(hdr+17, 8), 1, "from node 8 to node 5, but the header declares 8 nodes"},
		{"duplicate id", mod(hdr+25+8, 10), 2, "packet id 10 is used twice (first at record 1)"},
		{"self dependant", mod(hdr+21, 10), 1, "lists itself"},
	}
	// A cycle: packet 40 lists 10 as a dependant (10 -> 11 -> 40 -> 10).
	cyc := slices.Clone(fixturePackets)
	cyc[3].deps = []uint32{10}
	cases = append(cases, struct {
		name string
		in   []byte
		rec  int
		msg  string
	}{"cycle", encodeNetrace("c", 8, 4, "", 0, cyc), 1, "cycle of dependencies"})
	for _, c := range cases {
		_, err := ReadNetrace("x.tra", bytesReader(c.in), NetraceOptions{})
		var te *Error
		if !errors.As(err, &te) || te.Record != c.rec || !strings.Contains(err.Error(), c.msg) || te.File != "x.tra" {
			t.Errorf("%s: error %v, want record %d %q", c.name, err, c.rec, c.msg)
		}
	}
	// A corrupt or cut bzip2 stream.
	bz, _ := os.ReadFile("testdata/small.tra.bz2")
	// A cut stream is reported as such; a flipped byte surfaces as
	// whatever the garbage decodes to (here a bad magic) or as the
	// stream's checksum error.
	for i, in := range [][]byte{bz[:len(bz)-12], mod2(bz, len(bz)/2)} {
		_, err := ReadNetrace("x.tra.bz2", bytesReader(in), NetraceOptions{})
		var te *Error
		if !errors.As(err, &te) || i == 0 && !strings.Contains(err.Error(), "bzip2 stream ends") {
			t.Errorf("damaged bzip2 stream of %d bytes: error %v, want an *Error naming bzip2", len(in), err)
		} else {
			t.Logf("damaged bzip2: %v", err)
		}
	}
	// Every truncation point is an error, never a panic or a shorter trace.
	for n := 0; n < len(good); n++ {
		if _, err := ReadNetrace("x", bytesReader(good[:n]), NetraceOptions{}); err == nil {
			t.Errorf("trace cut at byte %d of %d accepted", n, len(good))
		}
	}
}

func mod2(b []byte, i int) []byte {
	c := slices.Clone(b)
	c[i] ^= 0x55
	return c
}

const textTrace = `# a 3-packet trace
flitsim-trace 1
nodes 16
packets 3
# id cycle src dst flits after...
0 0 0 5 4
1 10 5 0 1 0    # the reply
7 12 3 0 1 0 1
`

func TestReadText(t *testing.T) {
	tr, err := ReadText("t.trace", strings.NewReader(textTrace))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Nodes != 16 || len(tr.Packets) != 3 || tr.Name != "t.trace" {
		t.Fatalf("%+v", tr)
	}
	p := tr.Packets[2]
	if p.ID != 7 || p.Cycle != 12 || p.Src != 3 || p.Dst != 0 || p.Flits != 1 || !slices.Equal(p.After, []int32{0, 1}) {
		t.Errorf("packet 2 = %+v", p)
	}
	if !slices.Equal(tr.Packets[1].After, []int32{0}) || tr.Packets[0].After != nil {
		t.Errorf("After lists %v %v", tr.Packets[0].After, tr.Packets[1].After)
	}
}

func TestTextErrors(t *testing.T) {
	cases := []struct {
		in        string
		line, rec int
		msg       string
	}{
		{"", 0, 0, "empty"},
		{"flitsim-trace 2\n", 1, 0, `want "flitsim-trace 1"`},
		{"flitsim-trace 1\n", 1, 0, "no `nodes N` line"},
		{"flitsim-trace 1\nnodes 0\n", 2, 0, "nodes \"0\""},
		{"flitsim-trace 1\nnodes 4\n0 0 0 1\n", 3, 1, "4 fields, want at least 5"},
		{"flitsim-trace 1\nnodes 4\n0 0 0 4 1\n", 3, 1, "field 4 (dst) \"4\": want an integer in [0, 3]"},
		{"flitsim-trace 1\nnodes 4\n0 0 0 1 0\n", 3, 1, "field 5 (flits)"},
		{"flitsim-trace 1\nnodes 4\n0 -1 0 1 1\n", 3, 1, "field 2 (cycle)"},
		{"flitsim-trace 1\nnodes 4\n0 0 0 1 1\n\n0 1 1 0 1\n", 5, 2, "packet id 0 is used twice (first at record 1)"},
		{"flitsim-trace 1\nnodes 4\n0 0 0 1 1 1\n1 0 1 0 1\n", 3, 1, "waits for packet 1, which no earlier line defines"},
		{"flitsim-trace 1\nnodes 4\n0 0 0 1 1 x\n", 3, 1, "field 6 (after) \"x\""},
		{"flitsim-trace 1\nnodes 4\npackets 2\n0 0 0 1 1\n", 4, 2, "`packets 2` declared, the file holds 1"},
	}
	for _, c := range cases {
		_, err := ReadText("u.trace", strings.NewReader(c.in))
		var te *Error
		if !errors.As(err, &te) || te.Line != c.line || te.Record != c.rec || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: error %v, want line %d record %d %q", c.in, err, c.line, c.rec, c.msg)
		}
	}
}

// FuzzReadNetrace: any input gives a trace or an *Error, never a panic,
// and an accepted trace satisfies the invariants the replay relies on.
func FuzzReadNetrace(f *testing.F) {
	f.Add(fixtureNetrace())
	bz, _ := os.ReadFile("testdata/small.tra.bz2")
	f.Add(bz)
	f.Add(fixtureNetrace()[:90])
	f.Fuzz(func(t *testing.T, in []byte) {
		tr, err := ReadNetrace("fuzz", bytesReader(in), NetraceOptions{})
		if err != nil {
			var te *Error
			if !errors.As(err, &te) {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		checkInvariants(t, tr)
	})
}

// FuzzReadText: as FuzzReadNetrace for the text format.
func FuzzReadText(f *testing.F) {
	f.Add(textTrace)
	f.Add("flitsim-trace 1\nnodes 2\n0 0 0 1 1\n1 5 1 0 2 0\n")
	f.Fuzz(func(t *testing.T, in string) {
		tr, err := ReadText("fuzz", strings.NewReader(in))
		if err != nil {
			var te *Error
			if !errors.As(err, &te) {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		checkInvariants(t, tr)
	})
}

func checkInvariants(t *testing.T, tr *Trace) {
	t.Helper()
	if tr.Nodes < 1 {
		t.Fatalf("accepted a trace of %d nodes", tr.Nodes)
	}
	for i, p := range tr.Packets {
		if p.Src < 0 || int(p.Src) >= tr.Nodes || p.Dst < 0 || int(p.Dst) >= tr.Nodes || p.Flits < 1 || p.Cycle < 0 {
			t.Fatalf("packet %d out of range: %+v", i, p)
		}
		for _, a := range p.After {
			if a < 0 || int(a) >= len(tr.Packets) || int(a) == i {
				t.Fatalf("packet %d waits for %d", i, a)
			}
		}
	}
	if tr.cycleMember() >= 0 {
		t.Fatalf("accepted a cyclic trace")
	}
}
