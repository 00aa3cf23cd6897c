package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"strconv"
	"sync"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/flitsim/flitsim/validation"
)

// cmdValidate runs every config through its simulator mode and its models,
// judges them against the configs' tolerances (and an optional committed
// baseline), writes the report and exits with exitValidation when any
// verdict fails.
func cmdValidate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet("validate", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.StringP("out", "o", "validation-report", "directory for report.html, report.md and the plots")
	workers := fs.IntP("workers", "j", runtime.NumCPU(), "simulations in parallel")
	baseline := fs.String("baseline", "", "baseline JSON of mean errors; a mean error above baseline+slack fails")
	slack := fs.Float64("slack", 0.02, "allowed growth of a mean error over the baseline")
	quiet := fs.BoolP("quiet", "q", false, "no progress display")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: flitsim validate CONFIG... [flags]\n\nFlags:\n%s", fs.FlagUsages())
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil
		}
		return withCode(exitUsage, err)
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return withCode(exitUsage, errors.New("validate: no config file given"))
	}
	if *workers < 1 {
		return withCode(exitUsage, fmt.Errorf("validate: --workers %d, want >= 1", *workers))
	}
	setups, errs := validation.LoadSetups(fs.Args())
	for _, s := range setups {
		if len(s.Models) == 0 {
			errs = append(errs, fmt.Errorf("%s: no models: listed; there is nothing to validate", s.Name))
		}
	}
	if len(errs) > 0 {
		for _, e := range errs {
			fmt.Fprintln(stderr, e)
		}
		return withCode(exitConfig, fmt.Errorf("%d config(s) refused; nothing was run", len(errs)))
	}
	opts := validation.Options{Workers: *workers, Dir: *out, Slack: *slack}
	if *baseline != "" {
		b, err := validation.LoadBaseline(*baseline)
		if err != nil {
			return withCode(exitUsage, fmt.Errorf("validate: %w", err))
		}
		opts.Baseline = b
	}
	if !*quiet && isTerminal(stderr) {
		var mu sync.Mutex
		opts.Progress = func(done, total int) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(stderr, "\rvalidate: %d/%d points simulated", done, total)
			if done == total {
				fmt.Fprintln(stderr)
			}
		}
	}
	rep, err := validation.Run(ctx, setups, opts)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return withCode(exitInterrupted, fmt.Errorf("validate: interrupted: %w", err))
		}
		return withCode(exitRuntime, err)
	}
	printVerdicts(stdout, rep)
	if rep.Failed() {
		return withCode(exitValidation, fmt.Errorf("validate: a model and the simulator disagree beyond tolerance (report in %s)", *out))
	}
	fmt.Fprintf(stdout, "all verdicts pass; report in %s\n", *out)
	return nil
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
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t\n", c.Config, c.Model, c.Eligible,
				pct(c.MeanErr), pct(c.MaxErr), pct(c.MeanExcess), num(c.SimSaturation), num(c.ModelSaturation), c.Verdict)
		}
	}
	tw.Flush()
	for _, r := range rep.Regressions {
		fmt.Fprintf(w, "regression: %+v\n", r)
	}
}
