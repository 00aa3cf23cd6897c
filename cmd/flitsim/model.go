package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/sim/sweep"
	"github.com/flitsim/flitsim/validation"
)

// cmdModel evaluates every config's analytical models over its sweep and
// prints/writes the same table and files as run, one row per (config,
// model, offered load) with source "model:<name>".
func cmdModel(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newCommand("model", "CONFIG... [flags]", stderr)
	out := fs.StringP("out", "o", "", "directory for results.csv and results.json (default: table only)")
	if help, err := fs.parse(args, "config file"); help || err != nil {
		return err
	}
	exps, err := loadExperiments(fs.Args(), stderr)
	if err != nil {
		return err
	}
	var rows []sweep.Row
	for _, e := range exps {
		setups, err := validation.FromExperiments([]*configs.Experiment{e})
		if err != nil {
			return withCode(exitConfig, fmt.Errorf("%s: %w", e.File, err))
		}
		hash := e.Hash()
		for _, s := range setups {
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
			}
		}
	}
	printTable(stdout, rows)
	if *out != "" {
		if err := sweep.WriteFiles(*out, rows); err != nil {
			return withCode(exitRuntime, err)
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
// latency; Makrucki's NTP in accepted.
func modelRow(s validation.Setup, hash string, c validation.Curve, p validation.ModelPoint) sweep.Row {
	row := sweep.Row{Config: s.Name, Source: "model:" + c.Model, Rate: p.Rate, RateUnit: s.RateUnit,
		Status: p.Status, Reason: p.Reason, Seed: s.Seed, ConfigHash: hash, Version: version}
	if p.Status != validation.StatusOK || math.IsNaN(p.Value) || math.IsInf(p.Value, 0) {
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
	case validation.QNTP:
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
