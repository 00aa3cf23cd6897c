package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/flitsim/flitsim/internal/runplot"
)

// TestRunWritesPlots: flitsim run leaves index.html and the figures (PNG
// and SVG) beside results.csv, byte-identical for any --workers; flitsim
// plot overlays two such directories.
func TestRunWritesPlots(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "good", goodConfig)
	var ref map[string][]byte
	for _, w := range []string{"1", "3"} {
		out := filepath.Join(dir, "out"+w)
		if code, _, stderr := runMain(t, "run", cfg, "--workers", w, "--out", out, "-q"); code != exitOK {
			t.Fatalf("run: exit %d: %s", code, stderr)
		}
		files := map[string][]byte{}
		for _, name := range []string{runplot.IndexFile, runplot.PlotFile("good", runplot.Latency) + ".png",
			runplot.PlotFile("good", runplot.Latency) + ".svg", runplot.PlotFile("good", runplot.Throughput) + ".png",
			runplot.PlotFile("good", runplot.Throughput) + ".svg"} {
			b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(name)))
			if err != nil {
				t.Fatal(err)
			}
			files[name] = b
		}
		if ref == nil {
			ref = files
			continue
		}
		for name, b := range files {
			if !bytes.Equal(b, ref[name]) {
				t.Errorf("%s differs between --workers 1 and %s", name, w)
			}
		}
	}
	if !bytes.Contains(ref[runplot.IndexFile], []byte(`<img src="plots/good-latency.png"`)) {
		t.Errorf("index.html does not show the latency figure")
	}

	fig := filepath.Join(dir, "cmp.svg")
	code, stdout, stderr := runMain(t, "plot", filepath.Join(dir, "out1"), filepath.Join(dir, "out3"), "--label", "one,three", "--out", fig)
	if code != exitOK || !strings.Contains(stdout, "wrote "+fig) {
		t.Fatalf("plot: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if b, _ := os.ReadFile(fig); !bytes.Contains(b, []byte(">one<")) || !bytes.Contains(b, []byte(">three<")) {
		t.Errorf("overlay lacks the curve labels")
	}
	for _, c := range []struct {
		args []string
		frag string
	}{
		{[]string{"plot", filepath.Join(dir, "out1")}, "--out FILE is required"},
		{[]string{"plot", "--out", fig}, "no results directory"},
		{[]string{"plot", filepath.Join(dir, "nothing"), "--out", fig}, "no results.json"},
		{[]string{"plot", filepath.Join(dir, "out1"), "--out", filepath.Join(dir, "x.gif")}, "unknown image format"},
		{[]string{"plot", filepath.Join(dir, "out1"), "--label", "a,b", "--out", fig}, "2 --label values for 1 directories"},
	} {
		code, _, stderr := runMain(t, c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.frag) {
			t.Errorf("flitsim %v: exit %d, stderr %q; want exit %d containing %q", c.args, code, stderr, exitUsage, c.frag)
		}
	}
}

// TestRunProgress: on a terminal, stderr carries the redrawn status line
// with the progress inside the running point (cycles, rate, time left);
// off a terminal, and with --quiet, stderr stays empty.
func TestRunProgress(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "good", goodConfig)
	t.Setenv("FLITSIM_FAKE_DELAY_MS", "60")
	defer func(f func(io.Writer) bool, d time.Duration) { isTerminal, progressInterval = f, d }(isTerminal, progressInterval)
	progressInterval = 10 * time.Millisecond
	for _, c := range []struct {
		terminal bool
		args     []string
		want     []string
	}{
		{true, nil, []string{"\r\x1b[K", "points ", "good @ ", ": 500/1.0k cycles, ", " cycles/s, <= ", "s left"}},
		{false, nil, nil},
		{true, []string{"--quiet"}, nil},
	} {
		isTerminal = func(io.Writer) bool { return c.terminal }
		args := append([]string{"run", cfg, "-j", "1", "--out", filepath.Join(dir, "p"+strconv.Itoa(len(c.want))+strconv.Itoa(len(c.args)))}, c.args...)
		code, _, stderr := runMain(t, args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		if c.want == nil && stderr != "" {
			t.Errorf("terminal %v %v: stderr %q, want nothing", c.terminal, c.args, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("terminal %v: stderr lacks %q:\n%q", c.terminal, w, stderr)
			}
		}
	}
}
