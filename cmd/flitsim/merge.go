package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/flitsim/flitsim/sim/sweep"
	"github.com/flitsim/flitsim/validation"
)

// cmdMerge combines the shard files of a sharded run into results.csv and
// results.json, byte-identical to an unsharded run; a missing, duplicated,
// foreign or incomplete shard is reported by name and nothing is written.
func cmdMerge(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newCommand("merge", "DIR... [flags]\n\nEach DIR is a directory of shard files (shard-I-of-N.json) or one such file.", stderr)
	out := fs.StringP("out", "o", "", "directory for results.csv and results.json (default: the first DIR)")
	quiet := fs.BoolP("quiet", "q", false, "no table of the merged points")
	baseline := fs.String("baseline", "", "validate shards: baseline JSON of mean errors (as flitsim validate --baseline)")
	slack := fs.Float64("slack", 0.02, "validate shards: allowed growth of a mean error over the baseline")
	junit := fs.String("junit", "", "validate shards: also write the verdicts as JUnit XML to this file")
	writeBaseline := fs.String("write-baseline", "", "validate shards: write the mean errors as a baseline JSON file")
	if help, err := fs.parse(args, "shard directory"); help || err != nil {
		return err
	}
	dirs := fs.Args()
	if *out == "" {
		*out = dirs[0]
		if st, err := os.Stat(dirs[0]); err == nil && !st.IsDir() {
			return withCode(exitUsage, fmt.Errorf("merge: %s is a file; give --out", dirs[0]))
		}
	}
	kind, err := sweep.ShardKind(dirs...)
	if err != nil {
		return withCode(exitShards, fmt.Errorf("merge: %w", err))
	}
	switch kind {
	case "run":
		set, err := sweep.ReadShards[sweep.Outcome]("run", dirs...)
		if err != nil {
			return withCode(exitShards, fmt.Errorf("merge: %w", err))
		}
		rows := sweep.MergeRows(set)
		lock, err := lockOut(*out, "results")
		if err != nil {
			return err
		}
		defer lock.Unlock()
		if err := sweep.WriteFiles(*out, rows); err != nil {
			return withCode(exitRuntime, err)
		}
		if err := writePlots(*out, rows); err != nil {
			return err
		}
		if !*quiet {
			printTable(stdout, rows)
		}
		fmt.Fprintf(stdout, "merged %d shards (%d points, %d runs) into %s\n", set.Count, len(rows), len(set.Outcomes), *out)
		return nil
	case "validate":
		set, err := sweep.ReadShards[validation.PointResult]("validate", dirs...)
		if err != nil {
			return withCode(exitShards, fmt.Errorf("merge: %w", err))
		}
		lock, err := lockOut(*out, "report")
		if err != nil {
			return err
		}
		defer lock.Unlock()
		opts := validation.Options{Dir: *out, Slack: *slack}
		if *baseline != "" {
			if opts.Baseline, err = validation.LoadBaseline(*baseline); err != nil {
				return withCode(exitUsage, fmt.Errorf("merge: %w", err))
			}
		}
		rep, err := mergeValidate(set, opts)
		if err != nil {
			return withCode(exitShards, fmt.Errorf("merge: %w", err))
		}
		printVerdicts(stdout, rep)
		if err := writeVerdictFiles("merge", rep, *junit, *writeBaseline, stdout); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "merged %d validate shards (%d points) into the report in %s\n", set.Count, len(set.Outcomes), *out)
		if rep.Failed() {
			return withCode(exitValidation, fmt.Errorf("merge: a model and the simulator disagree beyond tolerance (report in %s)", *out))
		}
		return nil
	}
	return withCode(exitShards, fmt.Errorf("merge: shard files of an unknown command %q", kind))
}
