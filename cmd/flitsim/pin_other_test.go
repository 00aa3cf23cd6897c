//go:build !linux

package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestBenchPinRefused: off Linux there is no sched_setaffinity, and
// bench --cpu says so instead of timing unpinned.
func TestBenchPinRefused(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"bench", "--cpu", "0", "--cycles", "200", "--repeat", "1"}, &out, &errb); code == exitOK || !strings.Contains(errb.String(), "needs Linux") {
		t.Errorf("--cpu 0: exit %d, stderr %q; want a refusal naming Linux", code, errb.String())
	}
}
