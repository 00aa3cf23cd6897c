// Package trace reads packet traces for trace-driven simulation: the
// netrace v1 format of Hestness, Grot and Keckler ("Netrace: dependency-
// driven trace-based network-on-chip simulation", NoCArc 2010), in which the
// PARSEC traces of on-chip network studies are distributed (bzip2-
// compressed), and a plain text format for users' own traces (Text).
//
// A trace is a list of packets in file order, each with the cycle it was
// recorded at, its source and destination node, its length in flits and
// the packets it waits for (its dependencies): a packet may be injected
// only after all of them have arrived. How a simulator replays the timing
// (recorded cycles, gaps after dependencies) is the replaying engine's to
// define; sim/network documents its rule.
//
// Every reader refuses a malformed or truncated trace with an *Error that
// names the file and the record (1-based, in file order; for text also the
// line), before anything is simulated. A trace is immutable once read and
// may be shared between concurrent runs.
package trace

import (
	"fmt"
	"strings"
)

// Packet is one packet of a trace.
type Packet struct {
	ID    uint32 // the trace's own packet id (netrace id; text: first field)
	Cycle int64  // recorded injection cycle
	Src   int32  // source node, 0..Nodes-1
	Dst   int32  // destination node, 0..Nodes-1
	Flits int32  // length in flits, >= 1
	Type  uint8  // netrace packet type (nt_packet_types); 0 in text traces
	// After lists the packets this one waits for, as indices into
	// Trace.Packets, each smaller than the packet's own index (so the
	// dependencies form an acyclic graph in file order).
	After []int32
}

// Trace is a packet trace read by ReadNetrace or ReadText.
type Trace struct {
	Name    string // benchmark name (netrace header) or file name
	Nodes   int    // nodes the trace was recorded on; every Src and Dst is below it
	Packets []Packet
	// Dangling counts dependency references to packets not in the trace
	// (netrace: dependants cut off by MaxPackets or absent from the
	// file); they are dropped, as netrace's own reader does.
	Dangling int
}

// Error is a malformed, truncated or inconsistent trace: the file, the
// record (1-based; 0 for the header) and, for text traces, the line.
type Error struct {
	File   string
	Record int
	Line   int // text traces only; 0 otherwise
	Msg    string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("trace ")
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Record > 0 {
		fmt.Fprintf(&b, ": record %d", e.Record)
	} else {
		b.WriteString(": header")
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// CheckNodes returns an error unless the trace fits a network of `nodes`
// terminals: a trace recorded on more nodes than the network has is
// refused (its node ids would not exist).
func (t *Trace) CheckNodes(nodes int) error {
	if t.Nodes > nodes {
		return fmt.Errorf("trace %s names %d nodes, the network has only %d terminals", t.Name, t.Nodes, nodes)
	}
	return nil
}

// Flits returns the total number of flits of the trace.
func (t *Trace) Flits() int64 {
	var f int64
	for i := range t.Packets {
		f += int64(t.Packets[i].Flits)
	}
	return f
}
