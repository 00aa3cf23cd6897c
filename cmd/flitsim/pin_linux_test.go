//go:build linux

package main

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestBenchPinned times with the thread pinned to the first CPU this process
// may run on (CPU 0 need not be one: a container's cgroup cpuset can leave it
// out, and sched_setaffinity then refuses it) and refuses a CPU that does not
// exist.
func TestBenchPinned(t *testing.T) {
	cpu := allowedCPUs(t, 1)[0]
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"bench", "--cpu", strconv.Itoa(cpu), "--cycles", "200", "--warmup", "200", "--repeat", "1"}, &out, &errb); code != exitOK {
		t.Fatalf("--cpu %d: exit %d: %s", cpu, code, errb.String())
	}
	if !strings.Contains(out.String(), "8x8 torus") {
		t.Errorf("output lacks the 8x8 row:\n%s", out.String())
	}
	out.Reset()
	errb.Reset()
	if code := Main(context.Background(), []string{"bench", "--cpu", "100000", "--cycles", "200", "--repeat", "1"}, &out, &errb); code == exitOK || !strings.Contains(errb.String(), "CPU 100000") {
		t.Errorf("--cpu 100000: exit %d, stderr %q; want a refusal naming the CPU", code, errb.String())
	}
}

// allowedCPUs returns the first k CPUs (at most) this process may run on,
// in order.
func allowedCPUs(tb testing.TB, k int) []int {
	var allowed unix.CPUSet
	if err := unix.SchedGetaffinity(0, &allowed); err != nil {
		tb.Fatal(err)
	}
	var cpus []int
	for c := 0; c < 8*int(unsafe.Sizeof(allowed)) && len(cpus) < k; c++ {
		if allowed.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return cpus
}
