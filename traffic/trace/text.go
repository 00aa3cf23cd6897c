package trace

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// TextMagic is the first line of a text trace.
const TextMagic = "flitsim-trace 1"

// ReadText reads a trace in flitsim's text format, for users' own traces:
//
//	flitsim-trace 1
//	nodes 16
//	packets 3                     (optional: the count, checked at the end)
//	# id  cycle  src  dst  flits  [after ...]
//	0     0      0    5    4
//	1     10     5    0    1      0
//	2     12     3    0    1      0 1
//
// The first line is TextMagic; then `nodes N` (the nodes the trace was
// recorded on, 1..65536), optionally `packets M`, and one packet per line:
// its id (a non-negative integer, unique), the cycle it was recorded at
// (>= 0), source and destination node (0..N-1), its length in flits
// (1..65536) and the ids of the packets it waits for, each defined on an
// earlier line (so the dependencies cannot form a cycle). Fields are
// separated by spaces or tabs; blank lines and lines starting with # are
// ignored, and so is everything after a # in a line. file names the trace
// in errors, which give the line and the record (1-based packet count).
func ReadText(file string, r io.Reader) (*Trace, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	t := &Trace{Name: file}
	index := map[uint32]int32{}
	declared := -1
	line, rec := 0, 0
	fail := func(format string, args ...any) error {
		return &Error{File: file, Record: rec, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	state := 0 // 0: want magic, 1: want nodes, 2: packets
	for sc.Scan() {
		line++
		text := sc.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		switch state {
		case 0:
			if strings.Join(f, " ") != TextMagic {
				return nil, fail("first line %q, want %q", strings.TrimSpace(text), TextMagic)
			}
			state = 1
			continue
		case 1:
			if len(f) != 2 || f[0] != "nodes" {
				return nil, fail("want `nodes N` after the first line, got %q", strings.TrimSpace(text))
			}
			n, err := strconv.Atoi(f[1])
			if err != nil || n < 1 || n > 1<<16 {
				return nil, fail("nodes %q: want an integer in [1, 65536]", f[1])
			}
			t.Nodes = n
			state = 2
			continue
		}
		if f[0] == "packets" && rec == 0 && declared < 0 {
			if len(f) != 2 {
				return nil, fail("want `packets M`, got %q", strings.TrimSpace(text))
			}
			m, err := strconv.Atoi(f[1])
			if err != nil || m < 0 {
				return nil, fail("packets %q: want a non-negative integer", f[1])
			}
			declared = m
			continue
		}
		rec++
		if len(f) < 5 {
			return nil, fail("%d fields, want at least 5: id cycle src dst flits [after ...]", len(f))
		}
		num := func(i int, what string, lo, hi int64) (int64, error) {
			v, err := strconv.ParseInt(f[i], 10, 64)
			if err != nil || v < lo || v > hi {
				return 0, fail("field %d (%s) %q: want an integer in [%d, %d]", i+1, what, f[i], lo, hi)
			}
			return v, nil
		}
		var v [5]int64
		for i, c := range []struct {
			what   string
			lo, hi int64
		}{{"id", 0, math.MaxUint32}, {"cycle", 0, 1 << 62}, {"src", 0, int64(t.Nodes - 1)}, {"dst", 0, int64(t.Nodes - 1)}, {"flits", 1, 1 << 16}} {
			x, err := num(i, c.what, c.lo, c.hi)
			if err != nil {
				return nil, err
			}
			v[i] = x
		}
		p := Packet{ID: uint32(v[0]), Cycle: v[1], Src: int32(v[2]), Dst: int32(v[3]), Flits: int32(v[4])}
		if first, dup := index[p.ID]; dup {
			return nil, fail("packet id %d is used twice (first at record %d)", p.ID, first+1)
		}
		for i := 5; i < len(f); i++ {
			d, err := num(i, "after", 0, math.MaxUint32)
			if err != nil {
				return nil, err
			}
			j, ok := index[uint32(d)]
			if !ok {
				return nil, fail("packet id %d waits for packet %d, which no earlier line defines", p.ID, d)
			}
			p.After = append(p.After, j)
		}
		if len(t.Packets) >= math.MaxInt32 {
			return nil, fail("more than 2^31-1 packets")
		}
		index[p.ID] = int32(len(t.Packets))
		t.Packets = append(t.Packets, p)
	}
	if err := sc.Err(); err != nil {
		line++
		return nil, fail("reading: %v", err)
	}
	switch {
	case state == 0:
		return nil, fail("empty: want %q on the first line", TextMagic)
	case state == 1:
		return nil, fail("truncated: no `nodes N` line")
	case declared >= 0 && len(t.Packets) != declared:
		rec++
		return nil, fail("truncated or padded: `packets %d` declared, the file holds %d", declared, len(t.Packets))
	}
	return t, nil
}
