package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestRunThreadsIdentical runs one mode-network sweep on the real engine
// with --threads 1, 2 and 3 (a 16x16 torus: four 64-router blocks) and
// requires byte-identical results.csv and results.json.
func TestRunThreadsIdentical(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "t", `name: %s
network: {topology: torus, radix: 16, dimensions: 2}
traffic: {length: {flits: 8}}
sweep: {unit: flits/node/cycle, rates: [0.1, 0.35]}
run: {period: 200, max_warmup: 2000, max_cycles: 6000}
`)
	var refCSV, refJSON []byte
	for _, th := range []string{"1", "2", "3"} {
		out := filepath.Join(dir, "out"+th)
		var o, e bytes.Buffer
		if code := Main(context.Background(), []string{"run", cfg, "--threads", th, "--workers", "1", "--out", out, "-q"}, &o, &e); code != exitOK {
			t.Fatalf("--threads %s: exit %d: %s", th, code, e.String())
		}
		csv, err := os.ReadFile(filepath.Join(out, "results.csv"))
		if err != nil {
			t.Fatal(err)
		}
		js, err := os.ReadFile(filepath.Join(out, "results.json"))
		if err != nil {
			t.Fatal(err)
		}
		if refCSV == nil {
			refCSV, refJSON = csv, js
			if !bytes.Contains(csv, []byte(",ok,")) {
				t.Errorf("no ok point to compare:\n%s", csv)
			}
			continue
		}
		if !bytes.Equal(csv, refCSV) {
			t.Errorf("--threads %s: results.csv differs from --threads 1:\n%s\nwant\n%s", th, csv, refCSV)
		}
		if !bytes.Equal(js, refJSON) {
			t.Errorf("--threads %s: results.json differs from --threads 1", th)
		}
	}
}

// TestThreadWorkers checks the rule sharing the CPUs between the points
// run at once and the threads of each.
func TestThreadWorkers(t *testing.T) {
	cpus := runtime.NumCPU()
	for _, c := range []struct {
		workers int
		told    bool
		threads int
		want    int
		note    string
	}{
		{cpus, false, 1, cpus, ""},
		{cpus, false, 2 * cpus, 1, "point(s) at once"},
		{cpus, false, cpus, 1, ""},
		{3, true, 2 * cpus, 3, "oversubscribed"},
		{1, true, cpus, 1, ""},
	} {
		var e bytes.Buffer
		got := threadWorkers(c.workers, c.told, c.threads, &e)
		if got != c.want || c.note != "" && !strings.Contains(e.String(), c.note) || c.note == "" && cpus > 1 && c.threads > cpus && e.Len() == 0 {
			t.Errorf("threadWorkers(%d, %v, %d) = %d, note %q; want %d, %q", c.workers, c.told, c.threads, got, e.String(), c.want, c.note)
		}
		if c.want*max(c.threads, 1) > cpus && !c.told && c.want > 1 {
			t.Errorf("threadWorkers(%d, false, %d) = %d: more threads than the %d CPUs", c.workers, c.threads, got, cpus)
		}
	}
}

// TestBenchThreads checks bench --threads: a threads column saying how many
// threads stepped the network, and the refusals.
func TestBenchThreads(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"bench", "--k", "16", "--load", "0.1", "--cycles", "100", "--warmup", "100", "--repeat", "1", "--threads", "2"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || strings.Fields(lines[0])[2] != "threads" || strings.Fields(lines[1])[3] != "2" {
		t.Errorf("bench --threads 2 table:\n%s", out.String())
	}
	for _, args := range [][]string{{"--threads", "0"}, {"--threads", "257"}, {"--threads", "2", "--cpu", "0"}} {
		if code := Main(context.Background(), append([]string{"bench", "--cycles", "10"}, args...), io.Discard, &errb); code != exitUsage {
			t.Errorf("bench %v: exit %d, want %d", args, code, exitUsage)
		}
	}
	var e bytes.Buffer
	if code := Main(context.Background(), []string{"run", "x.yaml", "--threads", "-1"}, io.Discard, &e); code != exitUsage || !strings.Contains(e.String(), "--threads -1") {
		t.Errorf("run --threads -1: exit %d, %q", code, e.String())
	}
}
