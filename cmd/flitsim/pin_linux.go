//go:build linux

package main

import (
	"fmt"
	"runtime"

	"golang.org/x/sys/unix"
)

// pinToCPU binds the calling goroutine to its OS thread and that thread to
// CPU cpu, so that a timing runs on one core and is not moved between
// cores by the scheduler (on a shared VM a migration costs the caches and
// shows as tens of percent). release restores the thread's previous
// affinity and unbinds the goroutine.
func pinToCPU(cpu int) (release func(), err error) {
	runtime.LockOSThread()
	var old, set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		runtime.UnlockOSThread()
		return nil, fmt.Errorf("bench: read CPU affinity: %w", err)
	}
	set.Set(cpu)
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		runtime.UnlockOSThread()
		return nil, fmt.Errorf("bench: pin to CPU %d: %w", cpu, err)
	}
	return func() {
		_ = unix.SchedSetaffinity(0, &old) // best effort: the thread is unbound next
		runtime.UnlockOSThread()
	}, nil
}
