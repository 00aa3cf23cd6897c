package validation

import (
	"context"
	"flag"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var (
	fullRun        = flag.Bool("validation.full", false, "run the full validation set (tens of minutes on two cores)")
	reportDir      = flag.String("validation.out", "", "write the report of the run to this directory")
	updateBaseline = flag.Bool("validation.update-baseline", false, "rewrite the committed baseline from this run")
)

const (
	baselineReduced = "testdata/baseline.json"
	baselineFull    = "testdata/baseline-full.json"
)

// runSet runs a set, logs every comparison, writes the report if asked and
// fails on any failed verdict or regression past the committed baseline.
func runSet(t *testing.T, setups []Setup, baselinePath string) {
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
	for _, cr := range rep.Configs {
		for _, e := range cr.Errors {
			t.Errorf("%s: %s", cr.Setup.Name, e)
		}
		for _, c := range cr.Comparisons {
			line := fmt.Sprintf("%-28s %-26s n=%2d err mean %6s max %6s excess mean %6s max %6s offset %8s simsat %6s modelsat %6s %s %s",
				c.Config, c.Model, c.Eligible, pct(c.MeanErr), pct(c.MaxErr), pct(c.MeanExcess), pct(c.MaxExcess),
				num(c.Offset), num(c.SimSaturation), num(c.ModelSaturation), c.Verdict, c.Reason)
			if c.Passed() {
				t.Log(line)
			} else {
				t.Error(line)
			}
		}
	}
	for _, r := range rep.Regressions {
		t.Errorf("regression: %s", r)
	}
	if *updateBaseline {
		if err := NewBaseline(rep.Comparisons()).Save(baselinePath); err != nil {
			t.Fatal(err)
		}
		t.Logf("baseline written to %s", baselinePath)
	}
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

// TestReducedSet is the CI guard of issue 9 point 5: one configuration per
// paper mode, about a minute on two cores; it fails when a model–simulation
// error exceeds its tolerance or its mean error regresses past the committed
// baseline (testdata/baseline.json) by more than DefaultSlack.
func TestReducedSet(t *testing.T) {
	if *fullRun {
		t.Skip("full run requested")
	}
	runSet(t, ReducedSet(), baselineReduced)
}

// TestFullSet runs the whole set, every file of configs/validation the
// loader reads (the others are listed):
//
//	go test ./validation -run TestFullSet -validation.full -validation.out out/validation -timeout 60m -v
func TestFullSet(t *testing.T) {
	if !*fullRun {
		t.Skip("pass -validation.full to run the full set")
	}
	files := configFiles(t)
	setups, errs := LoadSetups(files)
	for _, err := range errs {
		t.Logf("not run (loader): %s", strings.SplitN(err.Error(), "\n", 2)[0])
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
