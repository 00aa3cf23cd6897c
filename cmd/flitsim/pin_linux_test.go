//go:build linux

package main

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestBenchPinned times with the thread pinned to the first CPU this process
// may run on (CPU 0 need not be one: a container's cgroup cpuset can leave it
// out, and sched_setaffinity then refuses it) and refuses a CPU that does not
// exist.
func TestBenchPinned(t *testing.T) {
	var allowed unix.CPUSet
	if err := unix.SchedGetaffinity(0, &allowed); err != nil {
		t.Fatal(err)
	}
	cpu := 0
	for !allowed.IsSet(cpu) {
		cpu++
	}
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
