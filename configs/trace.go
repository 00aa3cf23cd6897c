package configs

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/flitsim/flitsim/traffic/trace"
)

// traceCache holds the traces read at load time, keyed by content digest
// and reading options, so that building a run (every sweep point and
// replication) reuses the trace the loader checked instead of reading it
// again. Traces are immutable once read.
var traceCache = struct {
	sync.Mutex
	m map[string]*trace.Trace
}{m: map[string]*trace.Trace{}}

func traceKey(t Trace) string {
	return fmt.Sprintf("%s|%s|%d|%d", t.Digest, t.Format, t.FlitBytes, t.MaxPackets)
}

// tracePath returns the trace file's path: as written when absolute,
// otherwise relative to the directory of the config file.
func (e *Experiment) tracePath() string {
	f := e.Traffic.Trace.File
	if filepath.IsAbs(f) || e.File == "" {
		return f
	}
	return filepath.Join(filepath.Dir(e.File), f)
}

// readTrace reads the experiment's trace file, fills in its digest and
// returns the trace (from the cache when the same content was read with
// the same options before).
func (e *Experiment) readTrace() (*trace.Trace, error) {
	t := &e.Traffic.Trace
	path := e.tracePath()
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	t.Digest = hex.EncodeToString(sum[:])
	traceCache.Lock()
	defer traceCache.Unlock()
	if tr, ok := traceCache.m[traceKey(*t)]; ok {
		return tr, nil
	}
	var tr *trace.Trace
	if t.Format == "text" {
		tr, err = trace.ReadText(path, bytes.NewReader(data))
	} else {
		tr, err = trace.ReadNetrace(path, bytes.NewReader(data), trace.NetraceOptions{FlitBytes: t.FlitBytes, MaxPackets: t.MaxPackets})
	}
	if err != nil {
		return nil, err
	}
	if t.Format == "text" && t.MaxPackets > 0 && len(tr.Packets) > t.MaxPackets {
		cut := *tr
		cut.Packets = tr.Packets[:t.MaxPackets]
		tr = &cut // a prefix keeps every After index below its packet's
	}
	traceCache.m[traceKey(*t)] = tr
	return tr, nil
}

// loadedTrace returns the trace of a validated experiment.
func (e *Experiment) loadedTrace() (*trace.Trace, error) {
	traceCache.Lock()
	tr, ok := traceCache.m[traceKey(e.Traffic.Trace)]
	traceCache.Unlock()
	if ok {
		return tr, nil
	}
	return e.readTrace()
}

// validateTrace checks traffic.trace (mode network): the file is read and
// parsed now, so a malformed or truncated trace, or one naming more nodes
// than the network has, is refused at load time with the trace's own
// record number; the synthetic-traffic keys are refused beside it. It
// returns the longest packet in flits (0 if the trace is unusable), for
// the switching checks.
func validateTrace(e *Experiment, r *reporter, topoOK bool) int {
	t := &e.Traffic.Trace
	for _, k := range []string{"pattern", "radius", "phi", "decay", "hotspot_nodes", "hotspot_fraction", "include_self", "process", "burst_length", "duty_cycle", "length"} {
		if r.set("traffic." + k) {
			r.errorf("traffic."+k, "does not apply with traffic.trace: the trace gives every packet's destination, time and length")
		}
	}
	if isGraph(e.Network.Topology) {
		r.errorf("traffic.trace", "trace replay is not available on a %s (graph networks): the replay's gaps need each pair's zero-load latency", e.Network.Topology)
		return 0
	}
	if t.Format == "" {
		t.Format = "netrace"
	}
	if !oneOf(r, "traffic.trace.format", t.Format, "netrace", "text") {
		return 0
	}
	if t.Format == "netrace" && t.FlitBytes == 0 {
		t.FlitBytes = 16
	}
	if t.Format == "text" && r.set("traffic.trace.flit_bytes") {
		r.errorf("traffic.trace.flit_bytes", "applies only to format: netrace (a text trace gives lengths in flits)")
	}
	ok := intRange(r, "traffic.trace.flit_bytes", t.FlitBytes, 0, 1024)
	ok = intRange(r, "traffic.trace.max_packets", t.MaxPackets, 0, 1<<31-1) && ok
	if !required(r, "traffic.trace.file", "traffic.trace.file (the trace, relative to this file)") || !ok {
		return 0
	}
	tr, err := e.readTrace()
	if err != nil {
		r.errorf("traffic.trace.file", "%v", err)
		return 0
	}
	if topoOK {
		if err := tr.CheckNodes(e.Nodes()); err != nil {
			r.errorf("traffic.trace.file", "%v", err)
		}
	}
	longest := 1
	for i := range tr.Packets {
		longest = max(longest, int(tr.Packets[i].Flits))
	}
	return longest
}
