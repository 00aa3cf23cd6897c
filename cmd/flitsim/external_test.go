package main

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/flitsim/flitsim/validation"
)

// needPython skips a test of the Python example when python3 is missing.
func needPython(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not on PATH: the Python model of examples/python-model is not exercised (CI has python3)")
	}
}

// TestPythonExample judges the Python model of examples/python-model end
// to end: flitsim validate runs it, judges its latency and throughput
// curves against the simulator, writes the report, the JUnit file and a
// baseline equal to the committed one; flitsim model writes its rows.
func TestPythonExample(t *testing.T) {
	needPython(t)
	dir := t.TempDir()
	cfg := filepath.Join("..", "..", "examples", "python-model", "torus.yaml")
	junit, base := filepath.Join(dir, "junit.xml"), filepath.Join(dir, "baseline.json")
	code, stdout, stderr := runMain(t, "validate", cfg, "--out", filepath.Join(dir, "report"), "--junit", junit,
		"--write-baseline", base, "--baseline", filepath.Join("..", "..", "examples", "python-model", "baseline.json"))
	if code != exitOK {
		t.Fatalf("validate: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	// The numbers move with the simulator; the committed baseline pins them
	// within --slack (a regression exits 6), the verdicts must pass.
	for _, re := range []string{`python-torus\s+command:python3 model.py \(latency\)\s+5\s+[0-9.]+%.*pass`,
		`python-torus\s+command:python3 model.py \(throughput\)\s+5\s+[0-9.]+%.*pass`} {
		if !regexp.MustCompile(re).MatchString(stdout) {
			t.Errorf("verdicts lack %s:\n%s", re, stdout)
		}
	}
	var b validation.Baseline
	data, _ := os.ReadFile(base)
	if err := json.Unmarshal(data, &b); err != nil || len(b) != 2 {
		t.Errorf("written baseline %s: %v", data, err)
	}
	for _, f := range []string{"report/report.html", "report/plots/python-torus.png", "junit.xml"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	out := filepath.Join(dir, "model")
	if code, _, stderr := runMain(t, "model", cfg, "--out", out); code != exitOK {
		t.Fatalf("model: exit %d: %s", code, stderr)
	}
	rows, _ := os.ReadFile(filepath.Join(out, "results.csv"))
	if !strings.Contains(string(rows), "python-torus,model:command:python3 model.py (latency),0.05,flits/node/cycle,25.8665") ||
		!strings.Contains(string(rows), "python-torus,model:command:python3 model.py (throughput),0.25,flits/node/cycle,,,,,0.25,") {
		t.Errorf("model rows:\n%s", rows)
	}
}

// TestValidateRefusesBrokenModel: a model that fails is reported with what
// it printed before anything is simulated; a missing CSV is a config error
// with its line and column.
func TestValidateRefusesBrokenModel(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "model.sh"), []byte("echo 'lambda out of range' >&2\nexit 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := "name: %s\nnetwork: {topology: torus, radix: 4, dimensions: 2}\ntraffic: {length: {flits: 4}}\nsweep: {unit: flits/node/cycle, rates: [0.1]}\nmodels: [\"MODEL\"]\n"
	broken := writeConfig(t, dir, "broken", strings.Replace(src, "MODEL", "command:sh model.sh", 1))
	out := filepath.Join(dir, "out")
	code, _, stderr := runMain(t, "validate", broken, "--out", out)
	if code != exitRuntime || !strings.Contains(stderr, "failed: exit status 2") || !strings.Contains(stderr, "lambda out of range") ||
		!strings.Contains(stderr, "nothing was simulated") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Error("a broken model still let the run write its output")
	}
	nocsv := writeConfig(t, dir, "nocsv", strings.Replace(src, "MODEL", "csv:nope.csv", 1))
	code, _, stderr = runMain(t, "validate", nocsv)
	if code != exitConfig || !strings.Contains(stderr, "nocsv.yaml:5:10: models[0]: csv model: no file") {
		t.Errorf("missing csv: exit %d, stderr:\n%s", code, stderr)
	}
	if code, _, stderr = runMain(t, "validate", broken, "--model-timeout", "0s"); code != exitUsage || !strings.Contains(stderr, "--model-timeout 0s") {
		t.Errorf("--model-timeout 0: exit %d, stderr %s", code, stderr)
	}
}

// junitDoc is the JUnit XML shape CI systems read.
type junitDoc struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Errors   int      `xml:"errors,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Cases    []struct {
			Name      string `xml:"name,attr"`
			Classname string `xml:"classname,attr"`
			Time      string `xml:"time,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			SystemOut string `xml:"system-out"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// TestValidateJUnit: --junit writes one test case per comparison; a
// failing verdict is a <failure> carrying the errors and the tolerances
// and the point table; the counts add up; the file is the same on a rerun.
func TestValidateJUnit(t *testing.T) {
	dir := t.TempDir()
	pass := writeConfig(t, dir, "pass", reedConfig("exponential", "0.05"))
	fail := writeConfig(t, dir, "fail", reedConfig("fixed", "0.02"))
	junit := filepath.Join(dir, "j.xml")
	code, stdout, stderr := runMain(t, "validate", pass, fail, "--out", filepath.Join(dir, "r"), "--junit", junit)
	if code != exitValidation {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitValidation, stdout, stderr)
	}
	data, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	var doc junitDoc
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, data)
	}
	if len(doc.Suites) != 2 || doc.Suites[0].Name != "reed5-exponential" || doc.Suites[1].Name != "reed5-fixed" {
		t.Fatalf("suites %+v", doc.Suites)
	}
	tests, failures := 0, 0
	for _, s := range doc.Suites {
		if s.Tests != len(s.Cases) {
			t.Errorf("suite %s: tests=%d, %d cases", s.Name, s.Tests, len(s.Cases))
		}
		n := 0
		for _, c := range s.Cases {
			if c.Name != "reed" || c.Classname != s.Name || c.Time != "0" {
				t.Errorf("case %+v", c)
			}
			if c.Failure != nil {
				n++
				for _, frag := range []string{"tolerance 2.0 %", "mean"} {
					if !strings.Contains(c.Failure.Message+c.Failure.Text, frag) {
						t.Errorf("failure lacks %q: %+v", frag, c.Failure)
					}
				}
				if !strings.Contains(c.Failure.Text, "load") || !strings.Contains(c.Failure.Text, "±ci95") {
					t.Errorf("failure text has no point table:\n%s", c.Failure.Text)
				}
			} else if !strings.HasPrefix(c.SystemOut, "verdict pass\n") {
				t.Errorf("passing case output %q", c.SystemOut)
			}
		}
		if s.Failures != n {
			t.Errorf("suite %s: failures=%d, %d failing cases", s.Name, s.Failures, n)
		}
		tests, failures = tests+len(s.Cases), failures+n
	}
	if doc.Tests != tests || doc.Failures != failures || failures != 1 || doc.Suites[1].Failures != 1 {
		t.Errorf("totals tests=%d failures=%d, counted %d and %d", doc.Tests, doc.Failures, tests, failures)
	}
	// Deterministic: a second run writes the same bytes.
	junit2 := filepath.Join(dir, "j2.xml")
	runMain(t, "validate", pass, fail, "--out", filepath.Join(dir, "r2"), "--junit", junit2)
	if b, _ := os.ReadFile(junit2); string(b) != string(data) {
		t.Error("the JUnit file differs between two identical runs")
	}
}

// TestCIDocJobs: the GitHub Actions and GitLab CI jobs of docs/ci.md are
// valid YAML of the expected shape, and their validate command runs green
// from the repository root against the committed baseline.
func TestCIDocJobs(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	if len(blocks) != 2 {
		t.Fatalf("%d yaml blocks in docs/ci.md, want 2 (GitHub, GitLab)", len(blocks))
	}
	var gh struct {
		Jobs map[string]struct {
			RunsOn string `yaml:"runs-on"`
			Steps  []struct {
				Uses, Run string
				If        string `yaml:"if"`
			}
		}
	}
	if err := yaml.Unmarshal([]byte(blocks[0][1]), &gh); err != nil {
		t.Fatalf("GitHub job: %v", err)
	}
	var gl map[string]struct {
		Image        string
		BeforeScript []string `yaml:"before_script"`
		Script       []string
		Artifacts    struct {
			When    string
			Reports struct{ Junit string }
			Paths   []string
		}
	}
	if err := yaml.Unmarshal([]byte(blocks[1][1]), &gl); err != nil {
		t.Fatalf("GitLab job: %v", err)
	}
	var commands []string
	for _, st := range gh.Jobs["validate"].Steps {
		if strings.HasPrefix(st.Run, "flitsim validate") {
			commands = append(commands, st.Run)
		}
	}
	job := gl["validate-model"]
	commands = append(commands, job.Script...)
	if len(commands) != 2 || commands[0] != commands[1] || job.Artifacts.Reports.Junit != "junit.xml" || job.Artifacts.When != "always" {
		t.Fatalf("jobs: GitHub %+v, GitLab %+v", gh, gl)
	}
	needPython(t)
	args := strings.Fields(commands[0])[1:]
	tmp := t.TempDir()
	for i := range args {
		switch args[i] {
		case "report", "junit.xml": // outputs go to a temporary directory
			args[i] = filepath.Join(tmp, args[i])
		}
	}
	t.Chdir(filepath.Join("..", ".."))
	code, stdout, stderr := runMain(t, args...)
	if code != exitOK {
		t.Fatalf("flitsim %v: exit %d\n%s%s", args, code, stdout, stderr)
	}
	var b validation.Baseline
	data, _ := os.ReadFile("examples/python-model/baseline.json")
	if err := json.Unmarshal(data, &b); err != nil || len(b) != 2 {
		t.Errorf("committed baseline %v: %v", b, err)
	}
}

// TestCSVExample judges the CSV model of examples/csv-model end to end:
// its two curves are judged on the five loads of the sweep and pass.
func TestCSVExample(t *testing.T) {
	code, stdout, stderr := runMain(t, "validate", filepath.Join("..", "..", "examples", "csv-model", "torus.yaml"), "--out", t.TempDir())
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	for _, re := range []string{`csv-torus\s+csv:predictions.csv \(latency\)\s+5\s+[0-9.]+%.*0\.9844\s+pass`,
		`csv-torus\s+csv:predictions.csv \(throughput\)\s+5\s+[0-9.]+%.*0\.9844\s+pass`} {
		if !regexp.MustCompile(re).MatchString(stdout) {
			t.Errorf("verdicts lack %s:\n%s", re, stdout)
		}
	}
}
