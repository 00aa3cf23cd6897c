package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"text/tabwriter"
	"time"

	"golang.org/x/term"

	"github.com/flitsim/flitsim/sim/sweep"
)

// unitFunc builds the function that runs one sweep unit of exps; tests
// replace it with a fake engine.
var unitFunc = engineUnitFunc

// isTerminal reports whether w is a terminal (progress is drawn only there).
var isTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progressInterval is the redraw period of the progress line.
var progressInterval = 250 * time.Millisecond

// startProgress draws prog's status line on stderr, cut to the terminal's
// width, while a sweep runs (when on and stderr is a terminal; off a
// terminal nothing is written) and returns the function that draws the last
// line and stops.
func startProgress(prog *sweep.Progress, on bool, stderr io.Writer) (stop func()) {
	if !on || !isTerminal(stderr) {
		return func() {}
	}
	if f, ok := stderr.(*os.File); ok {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil {
			prog.Width = w
		}
	}
	return prog.Render(stderr, progressInterval)
}

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newCommand("run", "CONFIG... [flags]", stderr)
	out := fs.StringP("out", "o", "results", "directory for results.csv, results.json, index.html and plots/")
	workers := fs.addWorkersFlag("runs in parallel")
	seed := fs.Uint64("seed", 0, "root seed, overriding every config's seed")
	resume := fs.Bool("resume", false, "keep finished points in --out and run only the rest")
	quiet := fs.BoolP("quiet", "q", false, "no progress display")
	threads := fs.addThreadsFlag()
	fs.addShardFlags("run only shard i/n of the units")
	if help, err := fs.parse(args, "config file"); help || err != nil {
		return err
	}
	if err := checkThreads("run", *threads); err != nil {
		return err
	}
	shard, sharded, err := fs.shard()
	if err != nil {
		return err
	}
	exps, err := loadExperiments(fs.Args(), stderr)
	if err != nil {
		return err
	}
	perPoint := setThreads(exps, *threads)
	jobs := make([]sweep.Job, len(exps))
	for i, e := range exps {
		if fs.Changed("seed") {
			e.Seed = *seed
		}
		jobs[i] = sweep.Job{Name: e.Name, Hash: e.Hash(), Seed: e.Seed, RateUnit: e.Sweep.Unit, Rates: e.Sweep.Rates,
			Replications: e.Run.Replications, Cost: unitCosts(e)}
	}
	peak, limit, errs, busy := checkMemory(exps)
	if len(errs) > 0 {
		for _, e := range errs {
			fmt.Fprintln(stderr, e)
		}
		return withCode(exitConfig, fmt.Errorf("%d config(s) too large for this machine; nothing was run", len(errs)))
	}
	if busy != nil {
		return withCode(exitRuntime, busy)
	}
	*workers = threadWorkers(*workers, fs.Changed("workers"), perPoint, stderr)
	*workers = fitWorkers(*workers, peak, limit, stderr)
	fn, err := unitFunc(exps)
	if err != nil {
		return withCode(exitConfig, err)
	}
	if sharded {
		return runShard(ctx, jobs, shard, fn, sweep.ShardOptions{Kind: "run", Workers: *workers, Dir: *out, Resume: *resume, Version: version}, !*quiet, stdout, stderr)
	}
	lock, err := lockOut(*out, "results")
	if err != nil {
		return err
	}
	defer lock.Unlock()
	var prog sweep.Progress
	stopProgress := startProgress(&prog, !*quiet, stderr)
	rows, err := sweep.Run(ctx, jobs, fn, sweep.Options{Workers: *workers, Dir: *out, Resume: *resume, Version: version, Progress: &prog})
	stopProgress() // the last progress line ends before the table starts
	printTable(stdout, rows)
	if perr := writePlots(*out, rows); perr != nil && err == nil {
		return perr
	}
	total := 0
	for _, j := range jobs {
		total += len(j.Rates)
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return withCode(exitInterrupted, fmt.Errorf("interrupted: %d of %d points finished and kept in %s; rerun with --resume to finish", len(rows), total, *out))
	case errors.Is(err, sweep.ErrResumeMismatch):
		return withCode(exitUsage, err)
	}
	return withCode(exitRuntime, err)
}

// printTable writes the rows as an aligned table.
func printTable(w io.Writer, rows []sweep.Row) {
	if len(rows) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "config\tsource\trate\tunit\tlatency\t±ci95\tnet.latency\taccepted\tstatus\t")
	num := func(v *float64, prec int) string {
		if v == nil {
			return "-"
		}
		return strconv.FormatFloat(*v, 'f', prec, 64)
	}
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%g\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.Config, r.Source, r.Rate, r.RateUnit,
			num(r.Latency, 2), num(r.LatencyCI95, 2), num(r.NetworkLatency, 2), num(r.Accepted, 4), r.Status)
	}
	tw.Flush()
}
