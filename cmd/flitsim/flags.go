package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/spf13/pflag"

	"github.com/flitsim/flitsim/sim/sweep"
)

// command is one subcommand's flag set, with the parsing every subcommand
// shares: --help, interspersed flags (pflag), the positional arguments it
// needs, and the --workers and shard flags of run and validate.
type command struct {
	name string
	*pflag.FlagSet
	workers    *int
	shardSpec  *string
	shardCount *int
}

// newCommand returns the flag set of `flitsim name`; synopsis follows the
// name in the usage text ("CONFIG... [flags]").
func newCommand(name, synopsis string, stderr io.Writer) *command {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: flitsim %s %s\n\nFlags:\n%s", name, synopsis, fs.FlagUsages())
	}
	return &command{name: name, FlagSet: fs}
}

// parse parses args. help is true when --help was asked for (the usage is
// printed; nothing else to do). No positional argument is a usage error
// naming what was expected ("config file"); with what empty the command
// takes none, and any positional argument is the usage error.
func (c *command) parse(args []string, what string) (help bool, err error) {
	if err := c.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return true, nil
		}
		return false, withCode(exitUsage, err)
	}
	switch {
	case what == "" && c.NArg() > 0:
		c.Usage()
		return false, withCode(exitUsage, fmt.Errorf("%s: takes no arguments, got %q", c.name, c.Arg(0)))
	case what != "" && c.NArg() == 0:
		c.Usage()
		return false, withCode(exitUsage, fmt.Errorf("%s: no %s given", c.name, what))
	case c.workers != nil && *c.workers < 1:
		return false, withCode(exitUsage, fmt.Errorf("%s: --workers %d, want >= 1", c.name, *c.workers))
	}
	return false, nil
}

// addWorkersFlag registers --workers (-j), default the number of CPUs;
// usage says what runs in parallel. parse refuses a value below 1.
func (c *command) addWorkersFlag(usage string) *int {
	c.workers = c.IntP("workers", "j", runtime.NumCPU(), usage)
	return c.workers
}

// addShardFlags registers --shard and --shard-count; usage says what a
// shard of this command runs.
func (c *command) addShardFlags(usage string) {
	c.shardSpec = c.String("shard", "", usage+" (numbered from 0), or auto: from a Slurm array or a Kubernetes Indexed Job")
	c.shardCount = c.Int("shard-count", 0, "number of shards for --shard auto in a Kubernetes Indexed Job (its completions)")
}

// shard returns the shard the flags select; sharded is false without
// --shard, and --shard-count alone is a usage error.
func (c *command) shard() (s sweep.Shard, sharded bool, err error) {
	if *c.shardSpec == "" {
		if c.Changed("shard-count") {
			return s, false, withCode(exitUsage, fmt.Errorf("%s: --shard-count without --shard", c.name))
		}
		return s, false, nil
	}
	if s, err = sweep.ParseShard(*c.shardSpec, *c.shardCount, os.Getenv); err != nil {
		return s, false, withCode(exitUsage, fmt.Errorf("%s: %w", c.name, err))
	}
	return s, true, nil
}

// lockOut takes the lock of product (sweep.LockDir: "results", a shard
// file's name, "report") in the output directory dir, creating it, before
// any work: a directory that cannot be created or written, or one another
// flitsim process is writing the same product into, is refused at once
// (the latter with the holder's process id, exit 2). The caller releases it
// when everything it writes is written.
func lockOut(dir, product string) (*sweep.Lock, error) {
	l, err := sweep.LockDir(dir, product)
	switch {
	case err == nil:
		return l, nil
	case errors.Is(err, sweep.ErrLocked):
		return nil, withCode(exitUsage, err)
	}
	return nil, withCode(exitRuntime, fmt.Errorf("output directory %s cannot be written: %w", dir, err))
}
