package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
