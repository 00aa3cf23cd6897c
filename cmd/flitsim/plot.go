package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/flitsim/flitsim/internal/runplot"
	"github.com/flitsim/flitsim/sim/sweep"
)

// writePlots draws the figures and index.html of rows into dir (run, model
// and merge call it after results.csv and results.json are written, so a
// plotting failure never loses a result).
func writePlots(dir string, rows []sweep.Row) error {
	if err := runplot.Write(dir, rows); err != nil {
		return withCode(exitRuntime, fmt.Errorf("plots in %s: %w (results.csv and results.json are written)", dir, err))
	}
	return nil
}

// cmdPlot overlays the simulated curves of several results directories
// (each holding results.json) on one figure.
func cmdPlot(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newCommand("plot", "DIR... --out FILE [flags]\n\nEach DIR is a results directory (results.json of flitsim run or merge).\nFILE ends in .png or .svg.", stderr)
	out := fs.StringP("out", "o", "", "figure to write (.png or .svg)")
	var labels []string
	fs.StringSliceVar(&labels, "label", nil, "curve label per DIR, in order (default: the DIR as given)")
	if help, err := fs.parse(args, "results directory"); help || err != nil {
		return err
	}
	if *out == "" {
		fs.Usage()
		return withCode(exitUsage, fmt.Errorf("plot: --out FILE is required"))
	}
	if len(labels) > 0 && len(labels) != fs.NArg() {
		return withCode(exitUsage, fmt.Errorf("plot: %d --label values for %d directories", len(labels), fs.NArg()))
	}
	var sets []runplot.Set
	for i, dir := range fs.Args() {
		rows, err := sweep.ReadJSON(dir)
		if err != nil {
			return withCode(exitUsage, fmt.Errorf("plot: %s: %w", dir, err))
		}
		if len(rows) == 0 {
			return withCode(exitUsage, fmt.Errorf("plot: %s: no %s (or no rows in it)", dir, sweep.JSONFile))
		}
		label := filepath.Clean(dir)
		if len(labels) > 0 {
			label = labels[i]
		}
		sets = append(sets, runplot.Set{Label: label, Rows: rows})
	}
	if err := runplot.Overlay(*out, sets); err != nil {
		return withCode(exitUsage, fmt.Errorf("plot: %w", err))
	}
	fmt.Fprintf(stdout, "wrote %s (%d directories)\n", *out, len(sets))
	return nil
}
