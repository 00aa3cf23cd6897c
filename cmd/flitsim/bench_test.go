package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestBenchPrintsHeadline(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"bench", "--cycles", "200", "--warmup", "200", "--repeat", "1"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"cycles/s best", "allocs/cycle", "8x8 torus", "16x16 torus", "300000", "30000"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestBenchUsage(t *testing.T) {
	for _, args := range [][]string{{"bench", "extra"}, {"bench", "--cycles", "0"}, {"bench", "--nope"}} {
		var out, errb bytes.Buffer
		if code := Main(context.Background(), args, &out, &errb); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}
