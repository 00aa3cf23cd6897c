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
	for _, want := range []string{"cycles/s best", "allocs/cycle", "bytes/node", "8x8 torus", "16x16 torus", "300000", "30000"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestBenchUsage(t *testing.T) {
	for _, args := range [][]string{{"bench", "extra"}, {"bench", "--cycles", "0"}, {"bench", "--nope"}, {"bench", "--k", "1"}, {"bench", "--k", "4", "--load", "0"}} {
		var out, errb bytes.Buffer
		if code := Main(context.Background(), args, &out, &errb); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}

// TestBenchHelp: --help prints the flags and exits 0 without timing anything
// (bench parses with the shared command helper, as every subcommand does).
func TestBenchHelp(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"bench", "--help"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d, want %d: %s", code, exitOK, errb.String())
	}
	if !strings.Contains(errb.String(), "--repeat") || out.Len() != 0 {
		t.Errorf("want the usage on stderr and nothing on stdout; stdout %q, stderr %q", out.String(), errb.String())
	}
}

// TestBenchOneNetwork: --k/--n/--load time one k-ary n-cube instead of the
// reference cases, with its measured bytes per node and no target.
func TestBenchOneNetwork(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"bench", "--k", "4", "--n", "3", "--load", "0.05", "--cycles", "100", "--warmup", "100", "--repeat", "1"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if s := out.String(); !strings.Contains(s, "4-ary 3-cube") || strings.Contains(s, "8x8 torus") || !strings.Contains(s, "bytes/node") {
		t.Errorf("output:\n%s", s)
	}
}
