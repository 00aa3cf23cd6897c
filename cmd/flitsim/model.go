package main

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/sim/sweep"
	"github.com/flitsim/flitsim/validation"
)

// cmdModel evaluates every config's analytical models over its sweep and
// prints/writes the same table and files as run, one row per (config,
// model, offered load) with source "model:<name>". --list prints the model
// names instead (no config needed); --models replaces the configs' models:
// lists; --extra adds the values the models compute besides the compared
// one (docs/config.md#model-extra).
func cmdModel(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newCommand("model", "CONFIG... [flags]  |  flitsim model --list", stderr)
	out := fs.StringP("out", "o", "", "directory for results.csv and results.json (default: table only)")
	list := fs.Bool("list", false, "list every model name and variant with its mode, role, docs section and description; takes no config")
	extra := fs.Bool("extra", false, "also print the values the models compute but do not compare (lambda_max, per-stage p_L, ...) and the values of points outside the judged domain, marked; with --out also extra.csv")
	var names []string
	fs.StringSliceVar(&names, "models", nil, "evaluate these model names instead of each config's models: list (comma-separated, e.g. jacquet-poisson,jacquet-poisson:printed)")
	what := "config file"
	if slices.Contains(args, "--list") {
		what = ""
	}
	if help, err := fs.parse(args, what); help || err != nil {
		return err
	}
	if *list {
		printModelList(stdout)
		return nil
	}
	for _, n := range names {
		if validation.ModelMode(n) == "" && !validation.IsExternal(n) {
			return withCode(exitUsage, fmt.Errorf("model: --models: unknown model %q (flitsim model --list names them)", n))
		}
	}
	exps, err := loadExperiments(fs.Args(), stderr)
	if err != nil {
		return err
	}
	var rows []sweep.Row
	var extras []extraRow
	for _, e := range exps {
		setups, err := validation.FromExperiments([]*configs.Experiment{e})
		if err != nil {
			return withCode(exitConfig, fmt.Errorf("%s: %w", e.File, err))
		}
		hash := e.Hash()
		for _, s := range setups {
			if names != nil {
				s.Models = names
			}
			if len(s.Models) == 0 {
				fmt.Fprintf(stderr, "flitsim: %s: no models: listed; nothing to evaluate\n", e.File)
			}
			curves, err := validation.Evaluate(s)
			if err != nil {
				return withCode(exitConfig, fmt.Errorf("%s: %w", e.File, err))
			}
			for _, c := range curves {
				for _, p := range c.Points {
					rows = append(rows, modelRow(s, hash, c, p))
				}
				extras = append(extras, extraRows(s, c)...)
			}
		}
	}
	printTable(stdout, rows)
	if *extra {
		printExtra(stdout, extras)
	}
	if *out != "" {
		lock, err := lockOut(*out, "results")
		if err != nil {
			return err
		}
		defer lock.Unlock()
		if err := sweep.WriteFiles(*out, rows); err != nil {
			return withCode(exitRuntime, err)
		}
		if *extra {
			if err := writeExtraCSV(filepath.Join(*out, "extra.csv"), extras); err != nil {
				return withCode(exitRuntime, err)
			}
		}
		if err := writePlots(*out, rows); err != nil {
			return err
		}
	}
	return nil
}

// modelRow puts a model's value in the column that holds the same quantity
// in a simulation row of that mode (docs/config.md, result columns): delays
// and latencies in latency (continuous or network-only variants in
// network_latency); Reed's X0 in accepted with the cycle time N/X0 in
// latency; Makrucki's NTP and the ideal throughput in accepted.
func modelRow(s validation.Setup, hash string, c validation.Curve, p validation.ModelPoint) sweep.Row {
	row := sweep.Row{Config: s.Name, Source: "model:" + c.Model, Rate: p.Rate, RateUnit: s.RateUnit,
		Status: p.Status, Reason: p.Reason, Seed: s.Seed, ConfigHash: hash, Version: version}
	if p.Status != sim.StatusOK || math.IsNaN(p.Value) || math.IsInf(p.Value, 0) {
		return row
	}
	v := p.Value
	switch c.Sim {
	case validation.QX0:
		row.Accepted = &v
		if v > 0 {
			r0 := p.Rate / v
			row.Latency = &r0
		}
	case validation.QNTP, validation.QAccepted, validation.QThroughput:
		row.Accepted = &v
	case validation.QPDTNetwork, validation.QDelayContinuous:
		row.NetworkLatency = &v
	default:
		row.Latency = &v
	}
	return row
}

// loadExperiments loads config files, printing every problem (file, line,
// key) to stderr and returning an exitConfig error if there is any.
func loadExperiments(paths []string, stderr io.Writer) ([]*configs.Experiment, error) {
	exps, err := configs.LoadAll(paths)
	if err == nil {
		return exps, nil
	}
	var es configs.Errors
	if errors.As(err, &es) {
		for _, e := range es {
			fmt.Fprintln(stderr, e)
		}
		return nil, withCode(exitConfig, fmt.Errorf("%d problem(s) in the config; nothing was run", len(es)))
	}
	return nil, withCode(exitConfig, err)
}

// printModelList prints every model name the validation bridge evaluates,
// with the simulator mode it applies to, its role in a validation, its
// section of the documentation and its one-line description.
func printModelList(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "model\tmode\trole\tsection\tdescription")
	for _, n := range validation.ModelNames() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", n, validation.ModelMode(n), validation.ModelRole(n), validation.ModelSection(n), validation.ModelDoc(n))
	}
	tw.Flush()
	fmt.Fprintln(w, "\nA name goes in a config's models: list or in --models. Roles: estimate and bounds are judged by flitsim validate;")
	fmt.Fprintln(w, "info curves are reported, never failing. flitsim model CONFIG --extra prints the values each model computes besides the compared one.")
	fmt.Fprintln(w, "Models from outside flitsim are named csv:PATH, command:CMD or go:NAME (docs/external-models.md).")
	fmt.Fprintln(w, "\nReference source (mode network, judged as an estimate, docs/booksim.md): booksim:<configuration>, BookSim 2's measured")
	fmt.Fprintf(w, "latency at the sweep's loads; configurations: %s\n", strings.Join(validation.BookSimNames(), ", "))
}

// extraRow is one value of flitsim model --extra: a model's value that no
// result row carries (rate "-" for a value independent of the load), or the
// value of a point outside the judged domain, marked by its status.
type extraRow struct {
	Config, Model  string
	Rate           string // the sweep rate, "-" for a curve-level value
	RateUnit       string
	Quantity, Unit string
	Value          float64
	Status, Note   string // the point's status and reason ("" for curve-level values)
}

// extraRows lists a curve's extra values: the curve-level ones first, then
// per point the value of a point that is not ok but was computed all the
// same (Makrucki–Mudge Case I between the validity regions, a delay beyond
// the loss limit), and the point's other quantities.
func extraRows(s validation.Setup, c validation.Curve) []extraRow {
	var out []extraRow
	for _, x := range c.Extra {
		out = append(out, extraRow{Config: s.Name, Model: c.Model, Rate: "-", RateUnit: s.RateUnit, Quantity: x.Name, Unit: x.Unit, Value: x.Value})
	}
	for _, p := range c.Points {
		rate := strconv.FormatFloat(p.Rate, 'g', -1, 64)
		row := extraRow{Config: s.Name, Model: c.Model, Rate: rate, RateUnit: s.RateUnit}
		if p.Status != sim.StatusOK {
			row.Status, row.Note = p.Status, p.Reason
		}
		add := func(q, unit string, v float64) {
			r := row
			r.Quantity, r.Unit, r.Value = q, unit, v
			out = append(out, r)
			row.Note = "" // the reason once per point
		}
		if p.Status != sim.StatusOK && !math.IsNaN(p.Value) && !math.IsInf(p.Value, 0) {
			add(c.Sim, c.Unit, p.Value)
		}
		for _, x := range p.Extra {
			add(x.Name, x.Unit, x.Value)
		}
	}
	return out
}

// printExtra prints the extra values after the result table.
func printExtra(w io.Writer, rows []extraRow) {
	fmt.Fprintln(w, "\nextra values (computed by the models, not compared with the simulator; a status other than ok marks a value outside the judged domain):")
	if len(rows) == 0 {
		fmt.Fprintln(w, "(none)")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "config\tmodel\trate\tquantity\tvalue\tunit\tstatus")
	for _, r := range rows {
		st := r.Status
		if st == "" {
			st = "ok"
			if r.Rate == "-" {
				st = "-"
			}
		} else if r.Note != "" {
			st += ": " + r.Note
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.10g\t%s\t%s\n", r.Config, r.Model, r.Rate, r.Quantity, r.Value, r.Unit, st)
	}
	tw.Flush()
}

// writeExtraCSV writes the extra values as CSV (columns as printed, the
// status and its reason apart).
func writeExtraCSV(path string, rows []extraRow) error {
	var b strings.Builder
	cw := csv.NewWriter(&b)
	cw.Write([]string{"config", "model", "rate", "rate_unit", "quantity", "value", "unit", "status", "reason"})
	for _, r := range rows {
		st := r.Status
		if st == "" && r.Rate != "-" {
			st = sim.StatusOK
		}
		cw.Write([]string{r.Config, r.Model, r.Rate, r.RateUnit, r.Quantity, strconv.FormatFloat(r.Value, 'g', -1, 64), r.Unit, st, r.Note})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
