package main

import (
	"bytes"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/analytic/reed"
)

// reedConfig is Reed's 5-node ring with exponential service (MVA exact)
// or, with fixed service, the relaxed case MVA misses by about 15%.
func reedConfig(service, tolerance string) string {
	return `name: reed5-` + service + `
mode: closed
network: {topology: ring, radix: 5}
closed:
  pe: {distribution: ` + service + `, mean: 1}
  link: {distribution: ` + service + `, mean: 1}
traffic: {pattern: uniform}
sweep: {unit: population, rates: [4, 8]}
run: {target_rel_ci: 0.01}
models: [reed]
validation: {mean_tolerance: ` + tolerance + `, max_tolerance: ` + tolerance + `}
`
}

// TestModelRows: `flitsim model` writes model:<name> rows with the model's
// value in the column of the quantity (Reed's X0 in accepted, N/X0 in
// latency).
func TestModelRows(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "reed", reedConfig("exponential", "0.05"))
	out := filepath.Join(dir, "out")
	code, stdout, stderr := runMain(t, "model", cfg, "--out", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "model:reed") {
		t.Fatalf("table lacks model:reed rows:\n%s", stdout)
	}
	f, err := os.Open(filepath.Join(out, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, name := range recs[0] {
		col[name] = i
	}
	// Exact MVA of the 5-node ring, unit service, half duplex, computed by
	// analytic/reed directly: the row must carry X0 in accepted and N/X0 in
	// latency.
	ring, _ := reed.Ring(5)
	uni, _ := reed.Uniform(ring)
	w, err := reed.NetworkWorkload(uni, reed.HalfDuplex, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, r := range recs[1:] {
		if r[col["source"]] != "model:reed" {
			continue
		}
		rows++
		n, _ := strconv.ParseFloat(r[col["rate"]], 64)
		x0, _ := strconv.ParseFloat(r[col["accepted"]], 64)
		lat, _ := strconv.ParseFloat(r[col["latency"]], 64)
		want, _ := w.X0(int(n))
		if math.Abs(x0-want) > 1e-12*want || math.Abs(lat-n/want) > 1e-9*n/want || r[col["status"]] != "ok" {
			t.Errorf("N = %v: X0 %v, latency %v, status %s; want X0 %v, latency %v", n, x0, lat, r[col["status"]], want, n/want)
		}
	}
	if rows != 2 {
		t.Fatalf("results.csv has %d model:reed rows, want 2", rows)
	}
}

// TestValidateVerdicts: exact MVA against exponential service passes (exit
// 0, report written); against fixed service with a 1% tolerance it fails
// with exit 6.
func TestValidateVerdicts(t *testing.T) {
	dir := t.TempDir()
	pass := writeConfig(t, dir, "pass", reedConfig("exponential", "0.05"))
	fail := writeConfig(t, dir, "fail", reedConfig("fixed", "0.01"))
	out := filepath.Join(dir, "report")
	code, stdout, stderr := runMain(t, "validate", pass, "--out", out, "-q")
	if code != exitOK || !strings.Contains(stdout, "pass") {
		t.Fatalf("exact MVA: exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	for _, f := range []string{"report.html", "report.md", "plots/reed5-exponential.png"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("report file %s: %v", f, err)
		}
	}
	code, stdout, stderr = runMain(t, "validate", fail, "--out", filepath.Join(dir, "report2"), "-q")
	if code != exitValidation || !strings.Contains(stdout, "fail") {
		t.Fatalf("fixed service at 1%%: exit %d, want %d\nstdout %s\nstderr %s", code, exitValidation, stdout, stderr)
	}
}

// TestValidateShardMergeIdentical: flitsim validate split into two shards
// and merged writes the same report (Markdown, HTML and every plot, byte
// for byte, and the --junit file) as the unsharded run; a merge with a shard missing names it,
// exits 5 and writes nothing.
func TestValidateShardMergeIdentical(t *testing.T) {
	dir := t.TempDir()
	a := writeConfig(t, dir, "a", reedConfig("exponential", "0.05"))
	b := writeConfig(t, dir, "b", reedConfig("fixed", "0.5"))
	whole := filepath.Join(dir, "whole")
	if code, _, stderr := runMain(t, "validate", a, b, "--out", whole, "-q", "--junit", filepath.Join(dir, "whole.xml")); code != exitOK {
		t.Fatalf("unsharded: exit %d: %s", code, stderr)
	}
	shards := filepath.Join(dir, "shards")
	for _, s := range []string{"0/2", "1/2"} {
		if code, _, stderr := runMain(t, "validate", a, b, "--shard", s, "--out", shards, "-q"); code != exitOK {
			t.Fatalf("shard %s: exit %d: %s", s, code, stderr)
		}
	}
	// One shard alone: refused, by name, nothing written.
	lone := filepath.Join(dir, "lone")
	if err := os.MkdirAll(lone, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(shards, "shard-0-of-2.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(lone, "shard-0-of-2.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runMain(t, "merge", lone, "-q"); code != exitShards || !strings.Contains(stderr, "shard 1/2 is missing") {
		t.Fatalf("merge of one shard of two: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(lone, "report.md")); !os.IsNotExist(err) {
		t.Fatal("a refused merge wrote a report")
	}
	merged := filepath.Join(dir, "merged")
	if code, stdout, stderr := runMain(t, "merge", shards, "--out", merged, "-q", "--junit", filepath.Join(dir, "merged.xml")); code != exitOK || !strings.Contains(stdout, "merged 2 validate shards") {
		t.Fatalf("merge: exit %d\n%s\n%s", code, stdout, stderr)
	}
	wj, _ := os.ReadFile(filepath.Join(dir, "whole.xml"))
	mj, err := os.ReadFile(filepath.Join(dir, "merged.xml"))
	if err != nil || len(wj) == 0 || !bytes.Equal(wj, mj) {
		t.Errorf("the merged JUnit file differs from the unsharded one (%v)", err)
	}
	var files []string
	filepath.WalkDir(whole, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(whole, p)
			files = append(files, rel)
		}
		return nil
	})
	if len(files) < 4 { // report.md, report.html and one plot per config
		t.Fatalf("unsharded report has %d files: %v", len(files), files)
	}
	for _, f := range files {
		w, _ := os.ReadFile(filepath.Join(whole, f))
		m, err := os.ReadFile(filepath.Join(merged, f))
		if err != nil || !bytes.Equal(w, m) {
			t.Errorf("%s differs between the unsharded and the merged report (%v)", f, err)
		}
	}
}
