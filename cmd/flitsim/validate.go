package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/sim/sweep"
	"github.com/flitsim/flitsim/validation"
)

// cmdValidate runs every config through its simulator mode and its models,
// judges them against the configs' tolerances (and an optional committed
// baseline), writes the report and exits with exitValidation when any
// verdict fails.
func cmdValidate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newCommand("validate", "CONFIG... [flags]", stderr)
	out := fs.StringP("out", "o", "validation-report", "directory for report.html, report.md and the plots")
	workers := fs.addWorkersFlag("simulations in parallel")
	baseline := fs.String("baseline", "", "baseline JSON of mean errors; a mean error above baseline+slack fails")
	slack := fs.Float64("slack", 0.02, "allowed growth of a mean error over the baseline")
	quiet := fs.BoolP("quiet", "q", false, "no progress display")
	fs.addShardFlags("simulate only shard i/n of the points, merged with flitsim merge")
	resume := fs.Bool("resume", false, "keep the finished points of the shard file in --out (shard-0-of-1.json without --shard) and run only the rest")
	modelTimeout := fs.Duration("model-timeout", validation.DefaultModelTimeout, "time a command: model may run before it is killed")
	junit := fs.String("junit", "", "also write the verdicts as JUnit XML to this file (one test case per comparison)")
	writeBaseline := fs.String("write-baseline", "", "write this run's mean errors as a baseline JSON file (for --baseline in later runs)")
	if help, err := fs.parse(args, "config file"); help || err != nil {
		return err
	}
	shard, sharded, err := fs.shard()
	if err != nil {
		return err
	}
	setups, jobs, errs := validateSetups(fs.Args())
	var nets []*configs.Experiment
	for _, s := range setups {
		if len(s.Models) == 0 {
			errs = append(errs, fmt.Errorf("%s: no models: listed; there is nothing to validate", s.Name))
		}
		if s.Network != nil {
			nets = append(nets, s.Network)
		}
	}
	peak, limit, memErrs, busy := checkMemory(nets)
	errs = append(errs, memErrs...)
	*workers = threadWorkers(*workers, fs.Changed("workers"), setThreads(nets, 0), stderr)
	*workers = fitWorkers(*workers, peak, limit, stderr)
	if len(errs) > 0 {
		for _, e := range errs {
			fmt.Fprintln(stderr, e)
		}
		return withCode(exitConfig, fmt.Errorf("%d config(s) refused; nothing was run", len(errs)))
	}
	if busy != nil {
		return withCode(exitRuntime, busy)
	}
	if *modelTimeout <= 0 {
		return withCode(exitUsage, fmt.Errorf("validate: --model-timeout %s, want > 0", *modelTimeout))
	}
	if err := checkExternalModels(setups, *modelTimeout, stderr); err != nil {
		return err
	}
	fn := func(ctx context.Context, u sweep.Unit) (validation.PointResult, error) {
		r := simulateUnit(ctx, &setups[u.Job], u.Point)
		if err := ctx.Err(); err != nil && r.Err != "" {
			// Stopped by the interrupt, not finished: never recorded as a
			// point (it would be kept, and judged, as a simulator error).
			return r, err
		}
		return r, nil
	}
	if sharded {
		return runShard(ctx, jobs, shard, fn, sweep.ShardOptions{Kind: "validate", Workers: *workers, Dir: *out, Resume: *resume, Version: version},
			!*quiet, stdout, stderr)
	}
	opts := validation.Options{Workers: *workers, Dir: *out, Slack: *slack}
	if *baseline != "" {
		b, err := validation.LoadBaseline(*baseline)
		if err != nil {
			return withCode(exitUsage, fmt.Errorf("validate: %w", err))
		}
		opts.Baseline = b
	}
	// An unsharded validate is the one shard of one: its simulated points
	// stream to --out/shard-0-of-1.json as they finish, so an interrupted
	// run keeps them and --resume runs only the rest; the report is then
	// judged from those points as a merge would, and the file removed.
	one := sweep.Shard{Index: 0, Count: 1}
	for _, product := range []string{"report", one.FileName()} {
		lock, err := lockOut(*out, product)
		if err != nil {
			return err
		}
		defer lock.Unlock()
	}
	var prog sweep.Progress
	stopProgress := startProgress(&prog, !*quiet, stderr)
	f, err := sweep.RunShard(ctx, jobs, one, fn, sweep.ShardOptions{Kind: "validate", Workers: *workers, Dir: *out, Resume: *resume, Version: version, Progress: &prog})
	stopProgress()
	path := filepath.Join(*out, one.FileName())
	switch {
	case err == nil:
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return withCode(exitInterrupted, fmt.Errorf("validate: interrupted: %d of %d points finished and kept in %s; rerun with --resume to finish", len(f.Results), len(f.Units), path))
	case errors.Is(err, sweep.ErrResumeMismatch):
		return withCode(exitUsage, err)
	default:
		return withCode(exitRuntime, err)
	}
	results := make([][]validation.PointResult, len(setups))
	for i := range setups {
		results[i] = make([]validation.PointResult, len(setups[i].Rates))
	}
	for _, r := range f.Results {
		results[r.Job][r.Point] = r.Outcome
	}
	rep, err := validation.Finish(setups, results, opts)
	if err != nil {
		return withCode(exitRuntime, err)
	}
	// Every point is in the report now: the directory holds what a merge
	// of shards would write, and nothing of the run in progress.
	os.Remove(path)
	printVerdicts(stdout, rep)
	if err := writeVerdictFiles("validate", rep, *junit, *writeBaseline, stdout); err != nil {
		return err
	}
	if rep.Failed() {
		return withCode(exitValidation, fmt.Errorf("validate: a model and the simulator disagree beyond tolerance (report in %s)", *out))
	}
	fmt.Fprintf(stdout, "all verdicts pass; report in %s\n", *out)
	return nil
}

// writeVerdictFiles writes the report's verdicts as JUnit XML to junit and
// its mean errors as a baseline to baseline (each only when named).
func writeVerdictFiles(cmd string, rep validation.Report, junit, baseline string, stdout io.Writer) error {
	if junit != "" {
		if err := validation.WriteJUnit(junit, rep); err != nil {
			return withCode(exitRuntime, fmt.Errorf("%s: %w", cmd, err))
		}
	}
	if baseline != "" {
		b := validation.NewBaseline(rep.Comparisons())
		if err := b.Save(baseline); err != nil {
			return withCode(exitRuntime, fmt.Errorf("%s: %w", cmd, err))
		}
		fmt.Fprintf(stdout, "baseline of %d mean errors written to %s\n", len(b), baseline)
	}
	return nil
}

// checkExternalModels sets every Setup's command-model timeout and
// evaluates the external models (csv:, command:, go:) before anything is
// simulated: a problem is printed with what a command printed, and stops
// the run with exitRuntime for a failing command, exitConfig otherwise.
func checkExternalModels(setups []validation.Setup, timeout time.Duration, stderr io.Writer) error {
	n, code := 0, exitConfig
	for i := range setups {
		setups[i].ModelTimeout = timeout
		if err := validation.CheckExternal(setups[i]); err != nil {
			fmt.Fprintln(stderr, err)
			n++
			var ce *validation.CommandError
			if errors.As(err, &ce) {
				code = exitRuntime
			}
		}
	}
	if n > 0 {
		return withCode(code, fmt.Errorf("validate: %d experiment(s) with a model that failed; nothing was simulated", n))
	}
	return nil
}

// simulateUnit simulates one point of a validation; tests slow it down to
// interrupt a validate mid-sweep.
var simulateUnit = validation.SimulateUnit

// validateSetups loads the config files like validation.LoadSetups and
// also returns one sweep job per Setup (one unit per sweep point) carrying
// the file's path and text, so that a merge of validate shards can rebuild
// the Setups (mergeValidate).
func validateSetups(paths []string) ([]validation.Setup, []sweep.Job, []error) {
	var setups []validation.Setup
	var jobs []sweep.Job
	var errs []error
	for _, p := range paths {
		data, err := configs.ReadFile(p)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", p, err))
			continue
		}
		ss, err := validation.SetupsFromSource(p, data)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, s := range ss {
			setups = append(setups, s)
			jobs = append(jobs, sweep.Job{Name: s.Name, Hash: s.Hash, Seed: s.Seed, RateUnit: s.RateUnit, Rates: s.Rates,
				Replications: 1, File: p, Source: string(data)})
		}
	}
	return setups, jobs, errs
}

// mergeValidate rebuilds the Setups of a complete set of validate shards
// from the config texts the shards carry, and judges and reports their
// simulated points exactly as an unsharded flitsim validate would.
func mergeValidate(set *sweep.ShardSet[validation.PointResult], opts validation.Options) (validation.Report, error) {
	setups := make([]validation.Setup, len(set.Jobs))
	results := make([][]validation.PointResult, len(set.Jobs))
	parsed := map[string][]validation.Setup{}
	u := 0
	for i, j := range set.Jobs {
		key := j.File + "\x00" + j.Source
		ss, ok := parsed[key]
		if !ok {
			var err error
			if ss, err = validation.SetupsFromSource(j.File, []byte(j.Source)); err != nil {
				return validation.Report{}, fmt.Errorf("%s (carried by the shards): %w", j.File, err)
			}
			parsed[key] = ss
		}
		found := false
		for _, s := range ss {
			if s.Name == j.Name && s.Hash == j.Hash {
				setups[i], found = s, true
				break
			}
		}
		if !found {
			return validation.Report{}, fmt.Errorf("%s (carried by the shards) has no experiment %s with hash %.12s", j.File, j.Name, j.Hash)
		}
		results[i] = make([]validation.PointResult, len(j.Rates))
		for p := range j.Rates {
			results[i][p] = set.Outcomes[u]
			u += j.Replications
		}
	}
	return validation.Finish(setups, results, opts)
}

// printVerdicts writes one line per (config, model): errors over the
// eligible points, saturation loads and the verdict.
func printVerdicts(w io.Writer, rep validation.Report) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "config\tmodel\tpoints\tmean err\tmax err\tmean excess\tsim sat\tmodel sat\tverdict\t")
	pct := func(v float64) string {
		if math.IsNaN(v) {
			return "-"
		}
		return strconv.FormatFloat(100*v, 'f', 1, 64) + "%"
	}
	num := func(v float64) string {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return "-"
		}
		return strconv.FormatFloat(v, 'g', 4, 64)
	}
	for _, cr := range rep.Configs {
		for _, e := range cr.Errors {
			fmt.Fprintf(tw, "%s\t%s\t\t\t\t\t\t\tfail\t\n", cr.Setup.Name, "error: "+e)
		}
		for _, c := range cr.Comparisons {
			model, verdict := c.Model, c.Verdict
			if c.Sim == validation.QSaturation {
				model += " (saturation)"
			}
			if c.Failed() {
				verdict = "FAIL"
				if c.Verdict == validation.NoData {
					verdict = "FAIL no-data"
				}
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t\n", c.Config, model, c.Eligible,
				pct(c.MeanErr), pct(c.MaxErr), pct(c.MeanExcess), num(c.SimSaturation), num(c.ModelSaturation), verdict)
		}
	}
	tw.Flush()
	// Every verdict but a pass with its reason: failures, then what is
	// informational and why, then what had no data.
	for _, want := range []func(validation.Comparison) bool{
		validation.Comparison.Failed,
		func(c validation.Comparison) bool { return !c.Failed() && c.Verdict == validation.Info },
		func(c validation.Comparison) bool { return !c.Failed() && c.Verdict == validation.NoData },
	} {
		for _, c := range rep.Comparisons() {
			if want(c) {
				fmt.Fprintf(w, "%s %s: %s: %s\n", c.Config, validation.BaselineKey(c)[len(c.Config)+1:], c.Verdict, c.Reason)
			}
		}
	}
	for _, r := range rep.Regressions {
		fmt.Fprintf(w, "regression: %+v\n", r)
	}
	fmt.Fprintln(w, "summary: "+rep.Summary())
}
