package validation

import (
	"context"
	"flag"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flitsim/flitsim/sim"
)

var (
	fullRun        = flag.Bool("validation.full", false, "run the full validation set (tens of minutes on two cores)")
	reportDir      = flag.String("validation.out", "", "write the report of the run to this directory")
	updateBaseline = flag.Bool("validation.update-baseline", false, "rewrite the committed baseline from this run (with -validation.run: only the rows of the experiments run)")
	runFilter      = flag.String("validation.run", "", "with -validation.full: run only the experiments whose name matches this regular expression (docs/validation.md)")
)

const (
	baselineReduced = "testdata/baseline.json"
	baselineFull    = "testdata/baseline-full.json"
)

// runSet runs a set, logs every comparison, writes the report if asked and
// fails on any failing verdict (Comparison.Failed: a judged failure, or a
// judged comparison without data not declared expected) that the committed
// baseline does not record as a known failure, and on any regression past
// the baseline. A known failure is logged: it still fails flitsim
// validate, and its error is guarded by the baseline like any other.
func runSet(t *testing.T, setups []Setup, baselinePath string) Report {
	base, err := LoadBaseline(baselinePath)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Dir: *reportDir}
	if !*updateBaseline {
		opts.Baseline = base
	}
	start := time.Now()
	rep, err := Run(context.Background(), setups, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d configs in %v", len(setups), time.Since(start).Round(time.Second))
	judge(t, rep, base)
	if *updateBaseline {
		if err := updatedBaseline(base, setups, rep).Save(baselinePath); err != nil {
			t.Fatal(err)
		}
		t.Logf("baseline written to %s", baselinePath)
	}
	return rep
}

// updatedBaseline returns base with the rows of the experiments in setups
// replaced by rep's (rows of the experiments not run are kept, so a
// filtered run rewrites only its own).
func updatedBaseline(base Baseline, setups []Setup, rep Report) Baseline {
	out := NewBaseline(rep.Comparisons())
	ran := map[string]bool{}
	for _, s := range setups {
		ran[s.Name] = true
	}
	for k, e := range base {
		if cfg, _, _ := strings.Cut(k, "/"); !ran[cfg] {
			out[k] = e
		}
	}
	return out
}

// judge logs every comparison of rep and fails t on errors, regressions and
// failing verdicts that base does not record as known failures (with
// -validation.update-baseline every failure is logged instead: the
// rewritten baseline records it).
func judge(t *testing.T, rep Report, base Baseline) {
	t.Helper()
	for _, cr := range rep.Configs {
		for _, e := range cr.Errors {
			t.Errorf("%s: %s", cr.Setup.Name, e)
		}
		for _, c := range cr.Comparisons {
			line := fmt.Sprintf("%-28s %-26s %-10.10s n=%2d err mean %6s max %6s excess mean %6s max %6s offset %8s simsat %6s modelsat %6s %s %s",
				c.Config, c.Model, c.Sim, c.Eligible, pct(c.MeanErr), pct(c.MaxErr), pct(c.MeanExcess), pct(c.MaxExcess),
				num(c.Offset), num(c.SimSaturation), num(c.ModelSaturation), c.Verdict, c.Reason)
			switch {
			case !c.Failed():
				t.Log(line)
			case base.KnownFailure(c):
				t.Log("known failure, guarded by the baseline: " + line)
			case *updateBaseline:
				t.Log("failure, recorded as known in the rewritten baseline: " + line)
			default:
				t.Error(line)
			}
			if e, ok := base[BaselineKey(c)]; ok && (e.Verdict == Fail || e.Verdict == NoData) && !c.Failed() {
				t.Logf("%s: recorded as a known failure, now %s: update the baseline", BaselineKey(c), c.Verdict)
			}
			if _, ok := base[BaselineKey(c)]; !ok && c.Bound == Estimate && c.Verdict != NoData && !*updateBaseline {
				t.Errorf("%s: no row in the committed baseline, so its error is not guarded against growth (rerun with -validation.update-baseline and commit the row)", BaselineKey(c))
			}
		}
	}
	for _, r := range rep.Regressions {
		t.Errorf("regression: %s", r)
	}
	t.Log("summary: " + rep.Summary())
}

// configFiles lists every experiment file of configs/validation.
func configFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../configs/validation/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no config files: %v", err)
	}
	return files
}

// modelValues counts the points of c with a model value (NaN: none).
func modelValues(c Curve) int {
	n := 0
	for _, p := range c.Points {
		if !math.IsNaN(p.Value) {
			n++
		}
	}
	return n
}

// TestReducedSet is the CI guard: every mode and every paper, the
// flit-level engine included (ReducedSet), tens of seconds on two cores;
// it fails when a verdict fails (beyond the known failures the committed
// baseline records) or a mean error regresses past the committed baseline
// (testdata/baseline.json) by more than DefaultSlack. The mutation tests
// below reuse its simulations.
func TestReducedSet(t *testing.T) {
	if *fullRun {
		t.Skip("full run requested")
	}
	rep := runSet(t, ReducedSet(), baselineReduced)
	reducedOnce.Do(func() { reducedRep = rep })
	modes := map[string]bool{}
	for _, cr := range rep.Configs {
		modes[cr.Setup.Mode()] = true
	}
	if len(modes) != 4 {
		t.Errorf("the guard covers modes %v, want all four", modes)
	}
}

var (
	reducedOnce sync.Once
	reducedRep  Report
)

// reducedResults returns the reduced set and its simulated points, from
// TestReducedSet's run when it ran first, otherwise from a run of its own.
func reducedResults(t *testing.T) ([]Setup, [][]PointResult) {
	t.Helper()
	reducedOnce.Do(func() {
		rep, err := Run(context.Background(), ReducedSet(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		reducedRep = rep
	})
	setups := make([]Setup, len(reducedRep.Configs))
	results := make([][]PointResult, len(reducedRep.Configs))
	for i, cr := range reducedRep.Configs {
		setups[i] = cr.Setup
		for _, p := range cr.Sim {
			results[i] = append(results[i], PointResult{Point: p})
		}
	}
	return setups, results
}

// guardFails reports whether the guard (TestReducedSet's judgement against
// the committed baseline) would fail on rep, and the comparisons that
// fail it.
func guardFails(t *testing.T, rep Report) []string {
	base, err := LoadBaseline(baselineReduced)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range rep.Comparisons() {
		if c.Failed() && !base.KnownFailure(c) {
			out = append(out, BaselineKey(c))
		}
	}
	for _, r := range base.Check(rep.Comparisons(), 0) {
		out = append(out, "regression "+r.Key)
	}
	for _, cr := range rep.Configs {
		if len(cr.Errors) > 0 {
			out = append(out, "error "+cr.Setup.Name)
		}
	}
	return out
}

// TestGuardCatchesMutations: the guard turns red when the simulator or a
// model is wrong by 30 %, or when the simulator calls every point
// saturated. Each mutation is applied to the reduced set's simulated
// points or model curves (test hooks of Finish; no code is edited):
//
//   - network latency × 1.3: the guard fails (DG-R's comparison; Safaei's,
//     whose offset subtraction absorbs most of a scale on its flat curve,
//     is logged);
//   - every model × 1.3 (an upper bound ÷ 1.3, the direction that can be
//     violated): every judged comparison fails, each on its own;
//   - a simulator that calls every point saturated: every judged
//     comparison has no data, which fails.
func TestGuardCatchesMutations(t *testing.T) {
	if *fullRun {
		t.Skip("full run requested")
	}
	setups, results := reducedResults(t)
	clean, err := Finish(setups, results, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if f := guardFails(t, clean); len(f) > 0 {
		t.Fatalf("the unmutated reduced set fails the guard: %v", f)
	}
	judged := func(rep Report, mode string) []Comparison {
		var out []Comparison
		for _, cr := range rep.Configs {
			for _, c := range cr.Comparisons {
				// The saturation judgements compare throughputs: a latency
				// mutation does not reach them, and a model's saturation
				// load x 1.3 can land on either side of the measured one.
				if c.Judged && c.Sim != QSaturation && (mode == "" || cr.Setup.Mode() == mode) {
					out = append(out, c)
				}
			}
		}
		return out
	}
	for _, m := range []struct {
		name string
		mode string // judged comparisons of this mode must fail ("" every mode)
		opts Options
		// someCatch: at least one (not every) judged comparison must fail.
		// A latency scale of 1.3 moves an offset-subtracted comparison by
		// only 0.3 (s - s0) / (1.3 s), s0 the anchor's latency: Safaei's
		// flat curve below 0.7 of its saturation stays within 15 %.
		someCatch bool
	}{
		{name: "network latency x 1.3", mode: "network", someCatch: true, opts: Options{mutateSim: func(s *Setup, p *SimPoint) {
			if v, ok := p.Values[QLatency]; ok {
				p.Values[QLatency] = SimValue{Mean: 1.3 * v.Mean, HalfWidth: 1.3 * v.HalfWidth}
			}
		}}},
		{name: "every model x 1.3", opts: Options{mutateCurve: func(s *Setup, c *Curve) {
			f := 1.3
			if c.Bound == Upper {
				f = 1 / 1.3
			}
			for i := range c.Points {
				c.Points[i].Value *= f
			}
			c.Saturation *= f
		}}},
		{name: "every point saturated", opts: Options{mutateSim: func(s *Setup, p *SimPoint) {
			p.Status, p.Reason = sim.StatusSaturated, "mutation: called saturated"
			delete(p.Values, QLatency)
		}}},
	} {
		rep, err := Finish(setups, results, m.opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(guardFails(t, rep)) == 0 {
			t.Errorf("%s: the guard stays green", m.name)
		}
		cs := judged(rep, m.mode)
		if len(cs) == 0 {
			t.Errorf("%s: no judged comparison", m.name)
		}
		caught := 0
		for _, c := range cs {
			switch {
			case c.Failed():
				caught++
			case m.someCatch:
				t.Logf("%s: %s still %s: the subtracted zero-load offset absorbs the scale below 0.7 of saturation", m.name, BaselineKey(c), c.Verdict)
			default:
				t.Errorf("%s: %s still %s (%s)", m.name, BaselineKey(c), c.Verdict, c.Reason)
			}
		}
		if caught == 0 {
			t.Errorf("%s: no judged comparison fails", m.name)
		}
		t.Logf("%s: %d judged comparisons checked; %s", m.name, len(cs), rep.Summary())
	}
}

// TestFullSet runs the whole set, every file of configs/validation (a
// file the loader refuses is an error), or with -validation.run the
// experiments whose name matches it:
//
//	go test ./validation -run TestFullSet -validation.full -validation.out out/validation -timeout 60m -v
//	go test ./validation -run TestFullSet -validation.full -validation.run '^(makrucki|jacquet)-' -v
func TestFullSet(t *testing.T) {
	if !*fullRun {
		t.Skip("pass -validation.full to run the full set")
	}
	files := configFiles(t)
	setups, errs := LoadSetups(files)
	for _, err := range errs {
		t.Errorf("not run (loader): %s", strings.SplitN(err.Error(), "\n", 2)[0])
	}
	if *runFilter != "" {
		re, err := regexp.Compile(*runFilter)
		if err != nil {
			t.Fatalf("-validation.run: %v", err)
		}
		setups = slices.DeleteFunc(setups, func(s Setup) bool { return !re.MatchString(s.Name) })
		if len(setups) == 0 {
			t.Fatalf("-validation.run %q matches no experiment", *runFilter)
		}
	}
	runSet(t, setups, baselineFull)
}

// TestSetsEvaluate checks that every Setup of the reduced set maps onto its
// models (no mapping error, at least one model value) and that its name is
// usable as a plot file name.
func TestSetsEvaluate(t *testing.T) {
	for _, s := range ReducedSet() {
		cs, err := Evaluate(s)
		if err != nil {
			t.Errorf("%s: %v", s.Name, err)
			continue
		}
		ok := 0
		for _, c := range cs {
			ok += modelValues(c)
		}
		if ok == 0 {
			t.Errorf("%s: no model value", s.Name)
		}
		if strings.ContainsAny(s.Name, " /") || filepath.Base(PlotFile(s.Name)) != s.Name+".png" {
			t.Errorf("%s: name unusable as a file name", s.Name)
		}
	}
}

// TestConfigFiles loads every file of configs/validation: every file the
// loader accepts maps onto its models with at least one model value. Files of
// modes the loader does not read yet are listed, not failed.
func TestConfigFiles(t *testing.T) {
	files := configFiles(t)
	setups, errs := LoadSetups(files)
	for _, err := range errs {
		t.Logf("not loadable yet: %s", strings.SplitN(err.Error(), "\n", 2)[0])
	}
	if len(setups) < 20 {
		t.Errorf("only %d setups load", len(setups))
	}
	for _, s := range setups {
		cs, err := Evaluate(s)
		if err != nil {
			t.Errorf("%s: %v", s.Name, err)
			continue
		}
		for _, c := range cs {
			if modelValues(c) == 0 {
				t.Errorf("%s %s: no model value", s.Name, c.Model)
			}
		}
	}
}
