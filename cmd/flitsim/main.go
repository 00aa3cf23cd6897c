// Command flitsim runs flitsim experiments.
//
//	flitsim run CONFIG... [--out DIR] [--workers N] [--threads T] [--seed S] [--resume] [--quiet] [--shard i/n|auto [--shard-count N]]
//	flitsim model CONFIG... [--out DIR] [--models NAME,...] [--extra]
//	flitsim model --list
//	flitsim errata [E1 ... E18]
//	flitsim validate CONFIG... [--out DIR] [--workers N] [--baseline FILE] [--slack S] [--junit FILE]
//	                 [--write-baseline FILE] [--model-timeout D] [--shard i/n|auto] [--resume]
//	flitsim merge DIR... [--out DIR] [--quiet]
//	flitsim plot DIR... --out FILE [--label L,...]
//	flitsim bench [--k K --n N --load L --length F] [--cycles N] [--warmup N] [--repeat R] [--cpu C] [--threads T]
//	              [--window W --windows-out FILE]
//	flitsim version
//
// Exit codes, for scripts:
//
//	0    success
//	2    usage error (unknown command or flag, missing argument, --resume over other results, --out locked by another process)
//	3    invalid config (every problem printed as file:line:col: key: message)
//	4    runtime failure (a run failed, results could not be written)
//	5    merge: shards missing, duplicated, of another run or incomplete; nothing written
//	6    validate: a model and the simulator disagree beyond tolerance (or regressed past the baseline)
//	130  interrupted (Ctrl-C / SIGTERM); finished points are kept, rerun with --resume
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Exit codes.
const (
	exitOK          = 0
	exitUsage       = 2
	exitConfig      = 3
	exitRuntime     = 4
	exitShards      = 5
	exitValidation  = 6
	exitInterrupted = 130
)

// version is the flitsim version written in every result row; release
// builds set it with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// exitError carries an exit code through the call chain.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func withCode(code int, err error) error { return &exitError{code, err} }

const usage = `flitsim: flit-level interconnection-network simulator

Usage:
  flitsim run CONFIG... [--out DIR] [--workers N] [--threads T] [--seed S] [--resume] [--quiet]
              [--shard i/n|auto [--shard-count N]]
  flitsim merge DIR... [--out DIR] [--quiet] [--baseline FILE] [--slack S] [--junit FILE]
              [--write-baseline FILE]
  flitsim plot DIR... --out FILE [--label L,...]
  flitsim model CONFIG... [--out DIR] [--models NAME,...] [--extra]
  flitsim model --list
  flitsim errata [E1 ... E18]
  flitsim validate CONFIG... [--out DIR] [--workers N] [--baseline FILE] [--slack S]
              [--junit FILE] [--write-baseline FILE] [--model-timeout D]
              [--shard i/n|auto [--shard-count N]] [--resume] [--quiet]
  flitsim bench [--k K --n N --load L --length F] [--threads T] [--cycles N] [--warmup N] [--repeat R]
              [--cpu C] [--window W --windows-out FILE]
  flitsim version

Run "flitsim COMMAND --help" for the flags of a command. Exit codes: 0 ok,
2 usage, 3 invalid config, 4 runtime failure, 5 shards missing or
mismatched (merge), 6 validation failed, 130 interrupted.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop() // a second Ctrl-C kills at once
	}()
	os.Exit(Main(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// Main runs the command line args and returns the exit code.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	err := dispatch(ctx, args, stdout, stderr)
	if err == nil {
		return exitOK
	}
	code := exitRuntime
	var ee *exitError
	if errors.As(err, &ee) {
		code = ee.code
	}
	if msg := err.Error(); msg != "" {
		fmt.Fprintln(stderr, "flitsim:", msg)
	}
	return code
}

func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return withCode(exitUsage, errors.New("no command"))
	}
	switch args[0] {
	case "run":
		return cmdRun(ctx, args[1:], stdout, stderr)
	case "merge":
		return cmdMerge(ctx, args[1:], stdout, stderr)
	case "model":
		return cmdModel(ctx, args[1:], stdout, stderr)
	case "validate":
		return cmdValidate(ctx, args[1:], stdout, stderr)
	case "plot":
		return cmdPlot(ctx, args[1:], stdout, stderr)
	case "bench":
		return cmdBench(ctx, args[1:], stdout, stderr)
	case "errata":
		return cmdErrata(ctx, args[1:], stdout, stderr)
	case "version", "--version":
		fmt.Fprintf(stdout, "flitsim %s\n", version)
		return nil
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return withCode(exitUsage, fmt.Errorf("unknown command %q", args[0]))
}
