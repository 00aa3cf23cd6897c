package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"text/tabwriter"

	"github.com/flitsim/flitsim/sim/network"
)

// cmdBench prints the headline speed figures: simulated cycles per second,
// flit-hops per second, allocations per cycle and the measured live heap
// per node on the reference networks (network.SpeedConfig), best and
// median of --repeat timings, against the targets, on the calling goroutine (one core; --cpu pins it
// to a given CPU, as `taskset -c` would). It is a measurement, not a
// test: it exits 0 whether or not a target is met. The same figures come from
// `go test ./sim/network -run XXX -bench Torus`.
func cmdBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newCommand("bench", "[flags]", stderr)
	cycles := fs.Int("cycles", 30000, "cycles timed per repeat")
	warmup := fs.Int("warmup", 20000, "cycles simulated before timing")
	repeat := fs.Int("repeat", 3, "timings per network (best and median are printed)")
	cpu := fs.Int("cpu", -1, "pin the timing thread to this CPU (Linux; -1: let the scheduler place it)")
	k := fs.Int("k", 0, "time this k-ary n-cube (torus, the reference router) instead of the reference cases; 0: the reference cases")
	dims := fs.Int("n", 2, "dimensions of the --k network")
	load := fs.Float64("load", 0.1, "offered load of the --k network, flits per node per cycle")
	length := fs.Int("length", network.SpeedLength, "message length of the --k network, flits (the load stays in flits: fewer, longer packets carry it)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole bench to this file (go tool pprof)")
	memProfile := fs.String("memprofile", "", "write a profile of every allocation (sampled at each one: slow) to this file (go tool pprof -sample_index=alloc_objects)")
	window := fs.Int("window", 0, "also time the cycles in windows of this many cycles, written to --windows-out (0: none)")
	windowsOut := fs.String("windows-out", "", "with --window, write each window's time to this file: repeat, window, seconds, flit-hops (scripts/abw.sh compares two builds by it)")
	threads := fs.Int("threads", 1, fmt.Sprintf("threads stepping each network, 1..%d (network.Config.Threads; the threads column says how many did)", network.MaxThreads))
	if help, err := fs.parse(args, ""); help || err != nil {
		return err
	}
	if bad := benchRangeError(*threads, *cpu, *cycles, *warmup, *repeat, *k, *dims, *length, *load, *window, *windowsOut); bad != "" {
		fs.Usage()
		return withCode(exitUsage, fmt.Errorf("bench: %s", bad))
	}
	var windows *os.File
	if *windowsOut != "" {
		f, err := os.Create(*windowsOut)
		if err != nil {
			return withCode(exitRuntime, err)
		}
		defer f.Close() // (on an early return; the end closes it and checks)
		windows = f
		if _, err := fmt.Fprintln(f, "repeat window seconds flit_hops"); err != nil {
			return withCode(exitRuntime, err)
		}
	}
	cases := network.SpeedCases
	if *k > 0 {
		cases = []network.SpeedCase{{K: *k, Dims: *dims, Load: *load, Length: *length}}
	}
	if *cpu >= 0 {
		release, err := pinToCPU(*cpu)
		if err != nil {
			return withCode(exitRuntime, err)
		}
		defer release()
	}
	if *memProfile != "" {
		runtime.MemProfileRate = 1
		defer func() {
			if err := writeHeapProfile(*memProfile); err != nil {
				fmt.Fprintln(stderr, "flitsim bench:", err)
			}
		}()
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return withCode(exitRuntime, err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return withCode(exitRuntime, err)
		}
		defer pprof.StopCPUProfile()
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "network\tload\tthreads\tcycles/s best\tcycles/s median\tflit-hops/s best\tallocs/cycle\tbytes/node\ttarget\tmet\t")
	for _, c := range cases {
		var runs []network.Speed
		for r := 0; r < *repeat; r++ {
			if err := ctx.Err(); err != nil {
				return withCode(exitInterrupted, err)
			}
			cfg := c.Config()
			cfg.Threads = *threads
			s, err := network.MeasureSpeedWindows(cfg, *warmup, *cycles, *window)
			if err != nil {
				return withCode(exitRuntime, err)
			}
			runs = append(runs, s)
			if windows != nil {
				for w, d := range s.Windows {
					if _, err := fmt.Fprintf(windows, "%d %d %.6f %d\n", r, w, d.Seconds(), s.WindowHops[w]); err != nil {
						return withCode(exitRuntime, err)
					}
				}
			}
		}
		slices.SortFunc(runs, func(a, b network.Speed) int { return cmp.Compare(a.Elapsed, b.Elapsed) })
		best, median := runs[0], runs[len(runs)/2]
		met, target := "no", fmt.Sprintf("%.0f", c.Target)
		switch {
		case c.Target == 0:
			met, target = "-", "-"
		case best.CyclesPerSecond() >= c.Target:
			met = "yes"
		}
		fmt.Fprintf(tw, "%s\t%.3g\t%d\t%s\t%s\t%.2f M\t%.2f\t%.0f\t%s\t%s\t\n", c.Name(), c.Load, best.Threads,
			cyclesPerSecond(best), cyclesPerSecond(median), best.FlitHopsPerSecond()/1e6, best.AllocsPerCycle(), best.BytesPerNode(), target, met)
	}
	if windows != nil {
		if err := windows.Close(); err != nil {
			return withCode(exitRuntime, err)
		}
	}
	return tw.Flush()
}

// cyclesPerSecond formats s's simulated cycles per second: whole cycles
// from 100 on, three significant digits below (a 2^20-node network runs
// some ten cycles a second, where whole cycles would be one digit).
func cyclesPerSecond(s network.Speed) string {
	v := s.CyclesPerSecond()
	if v < 100 {
		return fmt.Sprintf("%.3g", v)
	}
	return fmt.Sprintf("%.0f", v)
}

// writeHeapProfile writes the allocation profile to path.
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// benchRangeError names the first of bench's flags out of its range (or
// --threads with --cpu, or one of --window and --windows-out without the
// other), with the value given and the range, or returns "" when all are
// in range.
func benchRangeError(threads, cpu, cycles, warmup, repeat, k, dims, length int, load float64, window int, windowsOut string) string {
	switch {
	case threads < 1 || threads > network.MaxThreads || threads > 1 && cpu >= 0:
		return fmt.Sprintf("--threads %d, want 1..%d, and not with --cpu (it pins one thread)", threads, network.MaxThreads)
	case cycles < 1:
		return fmt.Sprintf("--cycles %d, want >= 1", cycles)
	case warmup < 0:
		return fmt.Sprintf("--warmup %d, want >= 0", warmup)
	case repeat < 1:
		return fmt.Sprintf("--repeat %d, want >= 1", repeat)
	case k < 0 || k == 1:
		return fmt.Sprintf("--k %d, want >= 2 (or 0: the reference cases)", k)
	case k > 0 && dims < 1:
		return fmt.Sprintf("--n %d, want >= 1", dims)
	case k > 0 && !(load > 0 && load <= 1):
		return fmt.Sprintf("--load %g, want 0 < load <= 1 flits/node/cycle", load)
	case k > 0 && (length < 1 || length > network.MaxMessageFlits):
		return fmt.Sprintf("--length %d, want 1..%d flits", length, network.MaxMessageFlits)
	case k == 0 && length != network.SpeedLength:
		return fmt.Sprintf("--length %d without --k: the reference cases' messages are %d flits (their targets are for those)", length, network.SpeedLength)
	case window < 0 || window > cycles:
		return fmt.Sprintf("--window %d, want 0..%d (the timed cycles)", window, cycles)
	case window > 0 && windowsOut == "":
		return fmt.Sprintf("--window %d without --windows-out: the windows' times go to that file", window)
	case window == 0 && windowsOut != "":
		return "--windows-out without --window: give the window's cycles"
	}
	return ""
}
