package network

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/topology"
	"github.com/flitsim/flitsim/traffic"
	"github.com/flitsim/flitsim/traffic/trace"
)

func textTrace(t testing.TB, body string) *trace.Trace {
	t.Helper()
	tr, err := trace.ReadText("test.trace", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// traceConfig is the 4x4 torus of SpeedConfig replaying tr.
func traceConfig(tr *trace.Trace) Config {
	c := SpeedConfig(4, 0)
	c.Rate = 0
	c.Trace = tr
	return c
}

// runTraceRecording replays cfg and returns the result and the deliveries
// by trace packet (matched on src, dst, flits and order of generation).
func runTraceRecording(t testing.TB, cfg Config) (Result, []Delivery) {
	t.Helper()
	n, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var got []Delivery
	n.OnDeliver(func(d Delivery) { got = append(got, d) })
	res, err := n.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return res, got
}

// sparse is a trace whose packets never meet: a 4-flit request 0 -> 5, its
// 1-flit reply, a message to self, and a packet that waits for both.
const sparse = `flitsim-trace 1
nodes 16
10 100 0 5 4
11 150 5 0 1 10
12 110 3 3 1
13 400 2 14 2 11 12
`

// TestTraceReplayIdeal: on an otherwise empty network every packet takes
// exactly its zero-load latency, is generated at its recorded cycle
// (shifted to start at 0) since the recording leaves room for its
// dependencies, and the run time equals the ideal run time (slowdown 1).
func TestTraceReplayIdeal(t *testing.T) {
	cfg := traceConfig(textTrace(t, sparse))
	res, got := runTraceRecording(t, cfg)
	tr := res.Trace
	if res.Status != sim.StatusOK || tr == nil || tr.Delivered != 4 || tr.Packets != 4 {
		t.Fatalf("status %q, trace result %+v", res.Status, tr)
	}
	topo, err := topology.New(cfg.Topology)
	if err != nil {
		t.Fatal(err)
	}
	wantGen := map[[2]int]sim.Cycle{{0, 5}: 0, {5, 0}: 50, {3, 3}: 10, {2, 14}: 300}
	for _, d := range got {
		z := cfg.ZeroLoadLatency(topo.Distance(d.Src, d.Dst), d.Flits)
		if d.Generated != wantGen[[2]int{d.Src, d.Dst}] || int(d.Latency) != z {
			t.Errorf("%d -> %d: generated %d latency %d, want %d and zero-load %d", d.Src, d.Dst, d.Generated, d.Latency, wantGen[[2]int{d.Src, d.Dst}], z)
		}
	}
	last := got[len(got)-1]
	if tr.RunCycles != int64(last.Delivered)+1 || tr.RunCycles != tr.IdealCycles || tr.Slowdown != 1 || tr.PacketSlowdown != 1 {
		t.Errorf("run %d ideal %d slowdown %v packet slowdown %v, want run = ideal = %d, 1, 1", tr.RunCycles, tr.IdealCycles, tr.Slowdown, tr.PacketSlowdown, last.Delivered+1)
	}
	t.Logf("sparse trace: %+v", *tr)
}

// TestTraceDependencies: under contention (every node sends 8 packets to
// node 0 at cycle 0, each reply waits for its request, a final packet for
// every reply) every packet is generated exactly at max(t_D) + 1 + gap,
// never before its dependencies arrived; the run is slower than the ideal
// one.
func TestTraceDependencies(t *testing.T) {
	var b strings.Builder
	b.WriteString("flitsim-trace 1\nnodes 16\n")
	id := 0
	var replies []int
	for rep := 0; rep < 8; rep++ {
		for s := 1; s < 16; s++ {
			fmt.Fprintf(&b, "%d %d %d 0 4\n", id, rep, s)
			fmt.Fprintf(&b, "%d %d 0 %d 2 %d\n", id+1, rep+40, s, id) // recorded 40 cycles later
			replies = append(replies, id+1)
			id += 2
		}
	}
	fmt.Fprintf(&b, "%d 5000 7 9 1", id)
	for _, r := range replies {
		fmt.Fprintf(&b, " %d", r)
	}
	b.WriteString("\n")
	tr := textTrace(t, b.String())
	cfg := traceConfig(tr)
	n, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Deliveries by trace index: the network reports src/dst/flits; the
	// replay's own bookkeeping gives the index.
	deliv := make([]sim.Cycle, len(tr.Packets))
	gen := make([]sim.Cycle, len(tr.Packets))
	res, err := n.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != sim.StatusOK || res.Trace.Delivered != len(tr.Packets) {
		t.Fatalf("status %q delivered %d of %d", res.Status, res.Trace.Delivered, len(tr.Packets))
	}
	rp := n.replay
	copy(gen, rp.genAt)
	copy(deliv, rp.doneAt)
	for i, p := range tr.Packets {
		want := sim.Cycle(p.Cycle) // roots: the recorded cycle (trace starts at 0)
		if len(p.After) > 0 {
			var last sim.Cycle
			for _, d := range p.After {
				last = max(last, deliv[d])
			}
			want = last + 1 + sim.Cycle(rp.gap[i])
		}
		if gen[i] != want || deliv[i] <= gen[i] {
			t.Fatalf("packet %d: generated %d, delivered %d, want generated %d", i, gen[i], deliv[i], want)
		}
	}
	st := res.Trace
	t.Logf("hot-spot trace: run %d cycles, ideal %d, slowdown %.3f, packet slowdown %.3f, latency mean %.1f p50 %d p99 %d max %d",
		st.RunCycles, st.IdealCycles, st.Slowdown, st.PacketSlowdown, st.Latency, st.P50, st.P99, st.MaxLatency)
	if !(st.Slowdown > 1 && st.PacketSlowdown > 1 && st.P99 >= st.P50 && st.MaxLatency >= st.P99) {
		t.Errorf("contention not visible: %+v", *st)
	}
	if st.Latency*float64(st.Delivered) < float64(st.MaxLatency) {
		t.Errorf("mean latency %v inconsistent with max %d", st.Latency, st.MaxLatency)
	}
}

// TestTraceFastForward: jumping over idle stretches gives the deliveries
// of stepping every cycle.
func TestTraceFastForward(t *testing.T) {
	body := sparse + "20 5000 1 2 3\n21 5003 2 1 3 20\n22 90000 4 8 16 21 13\n"
	cfg := traceConfig(textTrace(t, body))
	_, fast := runTraceRecording(t, cfg)
	cfg.traceNoSkip = true
	_, slow := runTraceRecording(t, cfg)
	if !slices.Equal(fast, slow) || len(fast) != 7 {
		t.Errorf("fast-forward deliveries\n%v\ndiffer from stepping every cycle\n%v", fast, slow)
	}
}

// TestTraceSpeedup: a speed-up of 4 divides the recorded cycles.
func TestTraceSpeedup(t *testing.T) {
	cfg := traceConfig(textTrace(t, sparse))
	cfg.TraceSpeedup = 4
	_, got := runTraceRecording(t, cfg)
	for _, d := range got {
		if d.Src == 3 && d.Generated != 2 { // recorded 110, start 100: 10/4 = 2.5 -> 2
			t.Errorf("self message generated at %d, want 2", d.Generated)
		}
	}
}

// TestTraceRefusals: a trace naming more nodes than the network has is
// refused by New; a trace with a rate is refused; a run cut by
// max_cycles is unconverged, not ok.
func TestTraceRefusals(t *testing.T) {
	big := textTrace(t, "flitsim-trace 1\nnodes 17\n0 0 16 0 1\n")
	if _, err := New(traceConfig(big)); err == nil || !strings.Contains(err.Error(), "names 17 nodes, the network has only 16") {
		t.Errorf("17-node trace on 16 nodes: %v", err)
	}
	c := traceConfig(textTrace(t, sparse))
	c.Rate = 0.1
	if _, err := New(c); err == nil || !strings.Contains(err.Error(), "no traffic process") {
		t.Errorf("trace with a rate: %v", err)
	}
	c = traceConfig(textTrace(t, sparse))
	c.Run.MaxCycles = 200
	c.Run.MaxWarmup = 100
	res, _ := runTraceRecording(t, c)
	if res.Status != sim.StatusUnconverged || res.Trace.Delivered != 3 || !strings.Contains(res.Reason, "3 of 4 trace packets") {
		t.Errorf("capped run: status %q reason %q delivered %d", res.Status, res.Reason, res.Trace.Delivered)
	}
}

// TestTraceReplayMultistage: on a delta network (8 terminals, 3 stages) a
// sparse trace, a message to itself included, takes its zero-load
// latency through the z stages and runs in its ideal time.
func TestTraceReplayMultistage(t *testing.T) {
	body := "flitsim-trace 1\nnodes 8\n0 0 0 5 4\n1 30 5 0 1 0\n2 10 3 3 2\n3 90 7 1 3 1 2\n"
	for _, sp := range deltaSpecs[:1] {
		cfg := deltaConfig(sp, pipelines[0])
		cfg.Pattern = traffic.PatternSpec{}
		cfg.Trace = textTrace(t, body)
		res, got := runTraceRecording(t, cfg)
		tr := res.Trace
		for _, d := range got {
			if z := cfg.ZeroLoadLatency(sp.Stages, d.Flits); int(d.Latency) != z {
				t.Errorf("%s: %d -> %d latency %d, want zero-load %d", deltaName(sp), d.Src, d.Dst, d.Latency, z)
			}
		}
		if res.Status != sim.StatusOK || tr.Delivered != 4 || tr.RunCycles != tr.IdealCycles || tr.Slowdown != 1 {
			t.Errorf("%s: status %q %+v", deltaName(sp), res.Status, *tr)
		}
	}
}
