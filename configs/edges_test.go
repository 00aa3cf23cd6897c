package configs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReadFileBounded checks that a config is read through its 1 MiB
// limit: endless devices and oversized files are refused quickly, with
// ErrTooLarge, and a file of exactly the limit is read whole.
func TestReadFileBounded(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, make([]byte, maxFileBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	limit := filepath.Join(dir, "limit.yaml")
	if err := os.WriteFile(limit, []byte(strings.Repeat("#", maxFileBytes)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/dev/zero", "/dev/urandom", big} {
		if _, err := os.Stat(p); err != nil {
			continue // not on this system
		}
		start := time.Now()
		_, err := ReadFile(p)
		if !errors.Is(err, ErrTooLarge) {
			t.Errorf("ReadFile(%s) = %v, want ErrTooLarge", p, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("ReadFile(%s) took %v", p, d)
		}
		_, err = Load(p)
		var es Errors
		if !errors.As(err, &es) || len(es) != 1 || es[0].File != p || !strings.Contains(es[0].Msg, "too large") {
			t.Errorf("Load(%s) = %v, want one problem naming the file and its size", p, err)
		}
	}
	if b, err := ReadFile(limit); err != nil || len(b) != maxFileBytes {
		t.Errorf("ReadFile(1 MiB file) = %d bytes, %v", len(b), err)
	}
	if _, err := ReadFile(dir); err == nil {
		t.Errorf("ReadFile(directory) succeeded")
	}
}

// TestSyntaxErrorPosition checks that a YAML syntax error names the line
// and column of the offending character, not the line where the enclosing
// collection began (yaml.v3 alone says line 1 for the first case).
func TestSyntaxErrorPosition(t *testing.T) {
	for _, c := range []struct {
		src       string
		line, col int
		msg       string
	}{
		{"name: x\nnetwork: {topology: torus, radix: [4\n", 2, 35, "']' not found"},
		{"a: [1, 2\nb: 3\n", 2, 1, "']'"},
		{"name: x\nsweep: b: c\n", 2, 8, "not allowed"},
		{"name: x\nrouter:\n\t- 1\n", 3, 1, "cannot start any token"},
		{"name: x\ndescription: 'open\n", 2, 14, "single-quoted"},
		{"name: x\nseed: @1\n", 2, 7, "reserved"},
	} {
		_, err := Parse("s.yaml", []byte(c.src))
		var es Errors
		if !errors.As(err, &es) || len(es) != 1 {
			t.Errorf("%q: got %v, want one problem", c.src, err)
			continue
		}
		e := es[0]
		if e.Line != c.line || e.Column != c.col || !strings.Contains(e.Msg, "YAML syntax") || !strings.Contains(e.Msg, c.msg) {
			t.Errorf("%q: got %s, want s.yaml:%d:%d: YAML syntax: ...%s...", c.src, e, c.line, c.col, c.msg)
		}
	}
}

// TestMissingKeyPosition checks where a missing key is reported: at its
// nearest ancestor in the file, and a missing section at the document's
// first key (after leading comments), never at 1:1 on a comment; the
// message names the missing section.
func TestMissingKeyPosition(t *testing.T) {
	const head = "# an experiment\n# with comments first\n\n"
	src := head + "name: x\nnetwork:\n  topology: torus\n  radix: 4\n  dimensions: 2\nsweep:\n  rates: [0.1]\n"
	_, err := Parse("m.yaml", []byte(src))
	var es Errors
	if !errors.As(err, &es) {
		t.Fatalf("got %v, want Errors", err)
	}
	want := map[string]string{
		"traffic.length.flits": "m.yaml:4:1: traffic.length.flits: missing: traffic.length.flits (message length in flits) (the file has no traffic: section)",
		"sweep.unit":           "m.yaml:9:1: sweep.unit: missing: sweep.unit",
	}
	for _, e := range es {
		if w, ok := want[e.Key]; ok {
			if !strings.HasPrefix(e.Error(), w) {
				t.Errorf("got %s\nwant %s", e, w)
			}
			delete(want, e.Key)
		}
	}
	for k := range want {
		t.Errorf("no problem for %s in %v", k, err)
	}
	// With traffic: present but no length, the problem is at traffic:.
	src = "name: x\nnetwork: {topology: torus, radix: 4, dimensions: 2}\ntraffic:\n  pattern: uniform\nsweep: {unit: flits/node/cycle, rates: [0.1]}\n"
	_, err = Parse("m.yaml", []byte(src))
	if !errors.As(err, &es) || len(es) != 1 || es[0].Line != 3 || es[0].Column != 1 || !strings.Contains(es[0].Msg, "no traffic.length: section") {
		t.Errorf("got %v, want m.yaml:3:1 naming traffic.length", err)
	}
}

// TestDeadlockCyclesBounds checks run.deadlock_cycles against the
// network: below the longest round trip (here 1+1+1+10+4+1 = 18 cycles) it
// is refused, naming the round trip; a set value above max_cycles is
// refused; the round trip itself and the default are accepted.
func TestDeadlockCyclesBounds(t *testing.T) {
	src := func(dc string) string {
		return "name: d\nnetwork: {topology: torus, radix: 4, dimensions: 2, link_latency: 10, credit_delay: 4}\n" +
			"router: {routing_delay: 1, vc_alloc_delay: 1, switch_alloc_delay: 1}\ntraffic: {length: {flits: 4}}\n" +
			"sweep: {unit: flits/node/cycle, rates: [0.01]}\nrun: {max_cycles: 100000" + dc + "}\n"
	}
	for _, c := range []struct {
		dc   string
		frag string // "" : accepted
	}{
		{", deadlock_cycles: 10", "10 is below the network's longest round trip of 18 cycles"},
		{", deadlock_cycles: 17", "17 is below the network's longest round trip of 18 cycles"},
		{", deadlock_cycles: 18", ""},
		{"", ""},
		{", deadlock_cycles: 100000", ""},
		{", deadlock_cycles: 1000000000", "1000000000 exceeds run.max_cycles 100000"},
	} {
		_, err := Parse("d.yaml", []byte(src(c.dc)))
		switch {
		case c.frag == "" && err != nil:
			t.Errorf("%q: %v, want accepted", c.dc, err)
		case c.frag != "" && (err == nil || !strings.Contains(err.Error(), "d.yaml:6:") || !strings.Contains(err.Error(), "run.deadlock_cycles: "+c.frag)):
			t.Errorf("%q: %v, want d.yaml:6:...: run.deadlock_cycles: %s", c.dc, err, c.frag)
		}
	}
}

// TestRunTooShortRefused checks the run-length rules: a window shorter than
// min_batches periods is refused at run.max_cycles (every point would end
// unconverged), a rate expecting fewer than min_batches messages (5e-324 on
// an idle network) at its sweep.rates entry; enough of both is accepted.
func TestRunTooShortRefused(t *testing.T) {
	src := func(rates, run string) string {
		return "name: s\nnetwork: {topology: torus, radix: 4, dimensions: 2}\ntraffic: {length: {flits: 4}}\n" +
			"sweep: {unit: flits/node/cycle, rates: " + rates + "}\nrun: " + run + "\n"
	}
	for _, c := range []struct {
		rates, run, frag string
	}{
		{"[0.1]", "{warmup: 200, min_measure: 1000, max_cycles: 5000}", "s.yaml:5:39: run.max_cycles: max_cycles 5000 less the warm-up 200 leaves 4800 cycles to measure, fewer than the 10 periods of 1000"},
		{"[0.1]", "{warmup: 200, min_measure: 1000, max_cycles: 5000, period: 500}", "fewer than the 10 periods of 500 cycles"},
		{"[0.1]", "{warmup: 200, min_measure: 1000, max_cycles: 5000, period: 480}", ""},
		{"[5e-324, 0.1]", "{max_cycles: 100000}", "s.yaml:4:41: sweep.rates[0]: rate 5e-324 flits/node/cycle expects 0 messages from 16 nodes"},
		{"[0.00001, 0.1]", "{max_cycles: 100000}", "sweep.rates[0]: rate 1e-05 flits/node/cycle expects 4 messages"},
		{"[0.0001, 0.1]", "{max_cycles: 100000}", ""},
	} {
		_, err := Parse("s.yaml", []byte(src(c.rates, c.run)))
		switch {
		case c.frag == "" && err != nil:
			t.Errorf("%s %s: %v, want accepted", c.rates, c.run, err)
		case c.frag != "" && (err == nil || !strings.Contains(err.Error(), c.frag)):
			t.Errorf("%s %s: %v, want %q", c.rates, c.run, err, c.frag)
		}
	}
}
