package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/flitsim/flitsim/sim/network"
)

func TestBenchPrintsHeadline(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"bench", "--cycles", "200", "--warmup", "200", "--repeat", "1"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"cycles/s best", "allocs/cycle", "bytes/node", "8x8 torus", "16x16 torus", "300000", "30000"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// TestBenchUsage: a usage error exits 2 and its message names the flag
// at fault with the value given.
func TestBenchUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"bench", "extra"}, "takes no arguments"},
		{[]string{"bench", "--nope"}, "--nope"},
		{[]string{"bench", "--cycles", "0"}, "--cycles 0, want >= 1"},
		{[]string{"bench", "--warmup", "-1"}, "--warmup -1, want >= 0"},
		{[]string{"bench", "--repeat", "0"}, "--repeat 0, want >= 1"},
		{[]string{"bench", "--k", "1"}, "--k 1, want >= 2"},
		{[]string{"bench", "--k", "-3"}, "--k -3, want >= 2"},
		{[]string{"bench", "--k", "16", "--n", "0"}, "--n 0, want >= 1"},
		{[]string{"bench", "--k", "4", "--load", "0"}, "--load 0, want 0 < load <= 1"},
		{[]string{"bench", "--k", "4", "--load", "2"}, "--load 2, want 0 < load <= 1"},
		{[]string{"bench", "--k", "4", "--length", "0"}, "--length 0, want 1.."},
		{[]string{"bench", "--length", "8"}, "--length 8 without --k"},
		{[]string{"bench", "--threads", "0"}, "--threads 0, want 1.."},
	} {
		var out, errb bytes.Buffer
		if code := Main(context.Background(), c.args, &out, &errb); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", c.args, code, exitUsage)
		}
		if !strings.Contains(errb.String(), c.says) {
			t.Errorf("%v: the error does not say %q:\n%s", c.args, c.says, lastLine(errb.String()))
		}
	}
}

// lastLine returns the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// TestBenchHelp: --help prints the flags and exits 0 without timing anything
// (bench parses with the shared command helper, as every subcommand does).
func TestBenchHelp(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"bench", "--help"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d, want %d: %s", code, exitOK, errb.String())
	}
	if !strings.Contains(errb.String(), "--repeat") || out.Len() != 0 {
		t.Errorf("want the usage on stderr and nothing on stdout; stdout %q, stderr %q", out.String(), errb.String())
	}
}

// TestBenchOneNetwork: --k/--n/--load time one k-ary n-cube instead of the
// reference cases, with its measured bytes per node and no target.
func TestBenchOneNetwork(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"bench", "--k", "4", "--n", "3", "--load", "0.05", "--cycles", "100", "--warmup", "100", "--repeat", "1"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if s := out.String(); !strings.Contains(s, "4-ary 3-cube") || strings.Contains(s, "8x8 torus") || !strings.Contains(s, "bytes/node") {
		t.Errorf("output:\n%s", s)
	}
}

// TestCyclesPerSecond: whole cycles from 100 a second on, three
// significant digits below, where a large network runs.
func TestCyclesPerSecond(t *testing.T) {
	for _, tc := range []struct {
		cycles  int64
		elapsed time.Duration
		want    string
	}{
		{300, 31 * time.Second, "9.68"},
		{300, 20 * time.Second, "15"},
		{100, 2 * time.Second, "50"},
		{1000, 10 * time.Second, "100"},
		{30000, 72500 * time.Microsecond, "413793"},
	} {
		if got := cyclesPerSecond(network.Speed{Cycles: tc.cycles, Elapsed: tc.elapsed}); got != tc.want {
			t.Errorf("%d cycles in %v: %q, want %q", tc.cycles, tc.elapsed, got, tc.want)
		}
	}
}

// TestBenchLength: --length times the --k network with messages of that
// length at the same flit load and says so in the network's name; and
// the last line keeps what scripts/ab.sh and scripts/split.sh read from
// it, counting fields from its end (a network's name may hold spaces):
// cycles/s best and median, flit-hops/s and its unit "M", then
// allocs/cycle, bytes/node, target and met.
func TestBenchLength(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"bench", "--k", "4", "--load", "0.1", "--length", "8", "--cycles", "100", "--warmup", "100", "--repeat", "1"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if s := out.String(); !strings.Contains(s, "4x4 torus, 8-flit messages") {
		t.Errorf("output:\n%s", s)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	f := strings.Fields(lines[len(lines)-1])
	n := len(f)
	if n < 9 || f[n-5] != "M" || f[n-1] != "-" || f[n-2] != "-" {
		t.Fatalf("last line %q: want ... best median flit-hops M allocs bytes - -", lines[len(lines)-1])
	}
	for _, k := range []int{n - 8, n - 7, n - 6, n - 4, n - 3} {
		if v, err := strconv.ParseFloat(f[k], 64); err != nil || v < 0 || k != n-4 && v == 0 {
			t.Errorf("field %d from the end of %q: %q is not a measured figure", n-k, lines[len(lines)-1], f[k])
		}
	}
}

// TestBenchWindows: --window 30 over 100 timed cycles writes three
// windows a repeat to --windows-out, under a header, and the two repeats'
// windows move the same flit-hops (the same simulation, which is what
// lets scripts/abw.sh compare their times); a window without a file, a
// file without a window and a window beyond the cycles are usage errors.
func TestBenchWindows(t *testing.T) {
	out := filepath.Join(t.TempDir(), "windows.txt")
	var stdout, errb bytes.Buffer
	if code := Main(context.Background(), []string{"bench", "--k", "4", "--n", "3", "--load", "0.05", "--cycles", "100", "--warmup", "100", "--repeat", "2", "--window", "30", "--windows-out", out}, &stdout, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 7 || lines[0] != "repeat window seconds flit_hops" {
		t.Fatalf("windows file:\n%s", data)
	}
	for w := 0; w < 3; w++ {
		a, b := strings.Fields(lines[1+w]), strings.Fields(lines[4+w])
		if a[0] != "0" || b[0] != "1" || a[1] != fmt.Sprint(w) || b[1] != fmt.Sprint(w) || a[3] != b[3] {
			t.Errorf("window %d: %q in repeat 0, %q in repeat 1", w, lines[1+w], lines[4+w])
		}
	}
	for _, args := range [][]string{
		{"--window", "5"},
		{"--windows-out", out},
		{"--k", "4", "--cycles", "10", "--window", "11", "--windows-out", out},
	} {
		errb.Reset()
		if code := Main(context.Background(), append([]string{"bench"}, args...), &stdout, &errb); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (usage): %s", args, code, exitUsage, errb.String())
		}
	}
}
