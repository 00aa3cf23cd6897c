package validation

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flitsim/flitsim/sim"
)

// externalConfig is a small network experiment naming model, written with
// the extra files into a fresh directory; it returns its Setup.
func externalSetup(t *testing.T, model string, files map[string]string) Setup {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	src := `name: ext
network: {topology: torus, radix: 4, dimensions: 2}
traffic: {length: {flits: 4}}
sweep: {unit: flits/node/cycle, rates: [0.1, 0.2, 0.3, 0.4]}
models: ["` + model + `"]
`
	path := filepath.Join(dir, "ext.yaml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ss, errs := LoadSetups([]string{path})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return ss[0]
}

// simPoints are simulated points of the four rates: latency 20, 22, 25, 30
// with half-width 0.5, accepted = rate.
func simPoints() []PointResult {
	var out []PointResult
	for i, lat := range []float64{20, 22, 25, 30} {
		r := 0.1 * float64(i+1)
		out = append(out, PointResult{Point: SimPoint{Rate: r, Status: sim.StatusOK, Values: map[string]SimValue{
			QLatency: {Mean: lat, HalfWidth: 0.5}, QAccepted: {Mean: r, HalfWidth: 0}}}})
	}
	return out
}

// TestExternalCSVJudged: a CSV model's curves are judged like a built-in
// model's: a latency 5% off passes, a throughput 40% off fails; a missing
// load is not judged; loads at or above the declared saturation are
// saturated.
func TestExternalCSVJudged(t *testing.T) {
	s := externalSetup(t, "csv:pred.csv", map[string]string{"pred.csv": `# name: test model
# saturation: 0.4
# any other comment
load,latency,throughput
0.1, 21, 0.14
0.2, 23.1, 0.28
0.4, 31, 0.5
0.5, 40, 0.6
`})
	rep, err := Finish([]Setup{s}, [][]PointResult{simPoints()}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	cr := rep.Configs[0]
	if len(cr.Errors) > 0 || len(cr.Comparisons) != 2 {
		t.Fatalf("errors %v, %d comparisons", cr.Errors, len(cr.Comparisons))
	}
	lat, thr := cr.Comparisons[0], cr.Comparisons[1]
	if lat.Model != "csv:pred.csv (latency)" || lat.Sim != QLatency || thr.Model != "csv:pred.csv (throughput)" || thr.Sim != QAccepted {
		t.Errorf("curves %s→%s, %s→%s", lat.Model, lat.Sim, thr.Model, thr.Sim)
	}
	if lat.Verdict != Pass || lat.Eligible != 2 || math.Abs(lat.MeanErr-0.05) > 1e-9 {
		t.Errorf("latency: verdict %s over %d points, mean error %g; want pass over 2, 0.05", lat.Verdict, lat.Eligible, lat.MeanErr)
	}
	if thr.Verdict != Fail || math.Abs(thr.MeanErr-0.4) > 1e-9 {
		t.Errorf("throughput: verdict %s, mean error %g; want fail, 0.4", thr.Verdict, thr.MeanErr)
	}
	c := cr.Curves[0]
	if c.Label != "test model, latency" || c.Saturation != 0.4 || c.Points[2].Status != sim.StatusOutOfDomain || c.Points[3].Status != sim.StatusSaturated {
		t.Errorf("curve %+v", c)
	}
	if !rep.Failed() {
		t.Error("a failing external comparison does not fail the report")
	}
}

func TestExternalCSVErrors(t *testing.T) {
	cases := []struct{ name, csv, want string }{
		{"unknown column", "load,latncy\n0.1,2\n", "pred.csv:1:6: unknown column \"latncy\""},
		{"no value column", "load,status\n0.1,ok\n", "pred.csv:1: the header needs load and at least one of latency, throughput"},
		{"not a number", "load,latency\n0.1,2\n0.2,2x\n", "pred.csv:3:5: latency: \"2x\" is not a number"},
		{"empty load", "load,latency\n,2\n", "pred.csv:2:1: load: empty"},
		{"repeated load", "load,latency\n0.1,2\n0.1,3\n", "points[1] (load 0.1): load repeats"},
		{"negative", "load,throughput\n0.1,-2\n", "throughput -2: want a finite value >= 0"},
		{"status", "load,latency,status\n0.1,2,fine\n", "status \"fine\": want ok, saturated or out-of-domain"},
		{"saturation", "# saturation: soon\nload,latency\n0.1,2\n", "pred.csv:1: saturation: \"soon\" is not a number"},
		{"empty", "", "no header line"},
	}
	for _, c := range cases {
		s := externalSetup(t, "csv:pred.csv", map[string]string{"pred.csv": c.csv})
		_, err := Evaluate(s)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "model csv:pred.csv") {
			t.Errorf("%s: err %v, want %q", c.name, err, c.want)
		}
	}
}

// TestExternalCommand: a command model reads the experiment on stdin and
// its answer becomes curves; a failure, a time-out, malformed or unusable
// output is a CommandError that quotes what the command printed.
func TestExternalCommand(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh to run the test models")
	}
	good := `#!/bin/sh
input=$(cat)
case "$input" in *'"schema": "flitsim-model/1"'*'"rates": ['*) ;; *) echo "bad input: $input" >&2; exit 9;; esac
echo '{"schema": "flitsim-model/1", "points": [{"load": 0.1, "latency": 21}, {"load": 0.2, "latency": 23.1},'
echo ' {"load": 0.3, "status": "out-of-domain", "reason": "too hot"}]}'
`
	s := externalSetup(t, "command:sh model.sh", map[string]string{"model.sh": good})
	curves, err := Evaluate(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(curves) != 1 || curves[0].Points[1].Value != 23.1 || curves[0].Points[2].Reason != "too hot" || curves[0].Points[3].Status != sim.StatusOutOfDomain {
		t.Errorf("curves %+v", curves)
	}

	cases := []struct {
		name, script string
		timeout      time.Duration
		want         []string
	}{
		{"exit", "echo partial; echo 'boom: no such parameter' >&2; exit 3", 0,
			[]string{`command "sh model.sh"`, "failed: exit status 3", "its stderr:\n    boom: no such parameter", "its stdout:\n    partial"}},
		{"timeout", "echo started; sleep 5", 300 * time.Millisecond,
			[]string{"did not finish within 300ms and was killed", "its stdout:\n    started"}},
		{"malformed", `echo '{"schema": "flitsim-model/1",'; echo '  "points": [ {"load": } ]}'`, 0,
			[]string{"printed malformed predictions: stdout line 2, column 24", `{"load": } ]}`}},
		{"unknown field", `echo '{"schema": "flitsim-model/1", "points": [{"load": 0.1, "latncy": 2}]}'`, 0,
			[]string{`unknown field "latncy"`}},
		{"schema", `echo '{"schema": "flitsim-model/0", "points": [{"load": 0.1, "latency": 2}]}'`, 0,
			[]string{`printed unusable predictions: schema "flitsim-model/0", want "flitsim-model/1"`}},
		{"two documents", `echo '{"schema": "flitsim-model/1", "points": [{"load": 0.1, "latency": 2}]} {}'`, 0,
			[]string{"more than one JSON value"}},
		{"silent", "exit 0", 0, []string{"printed malformed predictions: EOF", "its stdout: (empty)"}},
	}
	for _, c := range cases {
		s := externalSetup(t, "command:sh model.sh", map[string]string{"model.sh": c.script + "\n"})
		s.ModelTimeout = c.timeout
		start := time.Now()
		err := CheckExternal(s)
		var ce *CommandError
		if !errors.As(err, &ce) {
			t.Errorf("%s: err %v, want a CommandError", c.name, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error lacks %q:\n%v", c.name, w, err)
			}
		}
		if c.timeout > 0 && time.Since(start) > 4*time.Second {
			t.Errorf("%s: took %v; the time-out did not kill it", c.name, time.Since(start))
		}
	}
	missing := externalSetup(t, "command:no-such-program-flitsim", nil)
	if err := CheckExternal(missing); err == nil || !strings.Contains(err.Error(), "could not run") {
		t.Errorf("missing program: %v", err)
	}
}

func TestExternalGoUnregistered(t *testing.T) {
	s := externalSetup(t, "go:nobody", nil)
	if _, err := Evaluate(s); err == nil || !strings.Contains(err.Error(), `no Go model registered as "nobody"`) {
		t.Errorf("err %v", err)
	}
}
