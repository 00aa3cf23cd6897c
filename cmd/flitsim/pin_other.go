//go:build !linux

package main

import "fmt"

// pinToCPU is not available off Linux: bench --cpu says so.
func pinToCPU(cpu int) (release func(), err error) {
	return nil, fmt.Errorf("bench: --cpu needs Linux (sched_setaffinity)")
}
