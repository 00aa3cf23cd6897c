package runplot

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/sim/sweep"
)

func f(v float64) *float64 { return &v }

// sample returns the rows of a small network sweep: four ok points with
// percentiles, one saturated, and a model curve.
func sample() []sweep.Row {
	var rows []sweep.Row
	for i, rate := range []float64{0.1, 0.2, 0.3, 0.4} {
		lat := 20 + 10*float64(i*i)
		rows = append(rows, sweep.Row{Config: "net a", Source: sweep.SourceSim, Rate: rate, RateUnit: "flits/node/cycle",
			Latency: f(lat), LatencyCI95: f(0.5 + float64(i)), NetworkLatency: f(lat - 1), NetworkLatencyCI95: f(0.4),
			Accepted: f(rate * 0.99), Offered: f(rate), Status: "ok",
			Extra: []sweep.RowMetric{{Name: "p50 cycles", Value: f(lat - 2)}, {Name: "p99 cycles", Value: f(2 * lat)}, {Name: "hops", Value: f(4)}}})
	}
	rows = append(rows, sweep.Row{Config: "net a", Source: sweep.SourceSim, Rate: 0.45, RateUnit: "flits/node/cycle",
		Accepted: f(0.42), Offered: f(0.45), Status: "unconverged", Reason: "no interval"})
	rows = append(rows, sweep.Row{Config: "net a", Source: sweep.SourceSim, Rate: 0.5, RateUnit: "flits/node/cycle",
		Accepted: f(0.43), Offered: f(0.49), Status: "saturated", Reason: "latency trend"})
	for _, rate := range []float64{0.1, 0.2, 0.3, 0.4, 0.5} {
		rows = append(rows, sweep.Row{Config: "net a", Source: "model:m", Rate: rate, RateUnit: "flits/node/cycle",
			Latency: f(18 + 60*rate*rate), Status: "ok"})
	}
	return rows
}

func readDir(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestWriteFiguresAndIndex(t *testing.T) {
	dir := t.TempDir()
	if err := Write(dir, sample()); err != nil {
		t.Fatal(err)
	}
	files := readDir(t, dir)
	want := []string{IndexFile}
	for _, k := range []string{Latency, Throughput, Percentiles} {
		want = append(want, PlotFile("net a", k)+".png", PlotFile("net a", k)+".svg")
	}
	if len(files) != len(want) {
		t.Errorf("wrote %d files, want %d", len(files), len(want))
	}
	for _, w := range want {
		b, ok := files[w]
		switch {
		case !ok:
			t.Errorf("%s not written", w)
		case strings.HasSuffix(w, ".png") && !bytes.HasPrefix(b, []byte("\x89PNG")):
			t.Errorf("%s is not a PNG", w)
		case strings.HasSuffix(w, ".svg") && !bytes.Contains(b, []byte("<svg")):
			t.Errorf("%s is not an SVG", w)
		}
	}
	for _, k := range []string{Latency, Throughput} {
		svg := string(files[PlotFile("net a", k)+".svg"])
		for _, legend := range []string{">saturated / deadlock<", ">unconverged<"} {
			if !strings.Contains(svg, legend) {
				t.Errorf("%s figure does not flag %s", k, legend)
			}
		}
	}
	idx := string(files[IndexFile])
	for _, s := range []string{`src="plots/net_a-latency.png"`, `href="plots/net_a-percentiles.svg"`, `<td class="l">model:m</td>`,
		"<td>0.5</td>", `class="bad"`, "latency trend", `href="results.csv"`} {
		if !strings.Contains(idx, s) {
			t.Errorf("index.html lacks %q", s)
		}
	}
}

// TestWriteDeterministic: the same rows give byte-identical files.
func TestWriteDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	if err := Write(a, sample()); err != nil {
		t.Fatal(err)
	}
	if err := Write(b, sample()); err != nil {
		t.Fatal(err)
	}
	fa, fb := readDir(t, a), readDir(t, b)
	for name, x := range fa {
		if !bytes.Equal(x, fb[name]) {
			t.Errorf("%s differs between two writes of the same rows", name)
		}
	}
}

// TestWriteOnlyMeasured: no percentile figure without percentiles, no
// throughput figure without an accepted column.
func TestWriteOnlyMeasured(t *testing.T) {
	dir := t.TempDir()
	rows := []sweep.Row{
		{Config: "c", Source: sweep.SourceSim, Rate: 2, RateUnit: "population", Latency: f(5), LatencyCI95: f(0.1), Status: "ok"},
		{Config: "c", Source: sweep.SourceSim, Rate: 4, RateUnit: "population", Latency: f(6), LatencyCI95: f(0.1), Status: "ok"},
	}
	if err := Write(dir, rows); err != nil {
		t.Fatal(err)
	}
	files := readDir(t, dir)
	if _, ok := files[PlotFile("c", Latency)+".png"]; !ok {
		t.Error("no latency figure")
	}
	for _, k := range []string{Throughput, Percentiles} {
		if _, ok := files[PlotFile("c", k)+".png"]; ok {
			t.Errorf("%s figure drawn without data", k)
		}
	}
}

func TestOverlay(t *testing.T) {
	dir := t.TempDir()
	other := sample()
	for i := range other {
		other[i].Config = "net b"
	}
	sets := []Set{{Label: "a", Rows: sample()}, {Label: "b", Rows: other}}
	for _, name := range []string{"o.png", "o.svg"} {
		path := filepath.Join(dir, name)
		if err := Overlay(path, sets); err != nil {
			t.Fatal(err)
		}
		first, _ := os.ReadFile(path)
		if err := Overlay(path, sets); err != nil {
			t.Fatal(err)
		}
		second, _ := os.ReadFile(path)
		if len(first) == 0 || !bytes.Equal(first, second) {
			t.Errorf("%s: empty or not deterministic (%d, %d bytes)", name, len(first), len(second))
		}
	}
	svg, _ := os.ReadFile(filepath.Join(dir, "o.svg"))
	for _, label := range []string{">a<", ">b<"} {
		if !bytes.Contains(svg, []byte(label)) {
			t.Errorf("overlay lacks the legend entry %s", label)
		}
	}

	bad := []struct {
		name string
		path string
		sets []Set
		want string
	}{
		{"format", filepath.Join(dir, "o.pdf"), sets, "unknown image format"},
		{"units", filepath.Join(dir, "u.png"), []Set{sets[0], {Label: "c", Rows: []sweep.Row{{Config: "x", Source: sweep.SourceSim, Rate: 1, RateUnit: "population", Status: "ok"}}}}, "different units"},
		{"empty", filepath.Join(dir, "e.png"), []Set{{Label: "m", Rows: sample()[6:]}}, "no simulated rows"},
	}
	for _, c := range bad {
		err := Overlay(c.path, c.sets)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", c.name, err, c.want)
		}
	}
}
