package main

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// longFlag matches a long flag as usage texts write it.
var longFlag = regexp.MustCompile(`--[a-z][a-z0-9-]*`)

// longFlags returns the long flags text names, sorted, each once.
func longFlags(text string) []string {
	flags := longFlag.FindAllString(text, -1)
	slices.Sort(flags)
	return slices.Compact(flags)
}

// flagsOf returns the long flags in the lines of text that describe
// `flitsim cmd`: each line naming "flitsim cmd " and the indented
// continuation lines after it (a line naming another command, or not
// indented deeper, ends them).
func flagsOf(text, cmd string) []string {
	var lines strings.Builder
	in := false
	for line := range strings.SplitSeq(text, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "flitsim "+cmd+" "):
			in = true
		case strings.HasPrefix(trimmed, "flitsim "), trimmed == "", !strings.HasPrefix(line, "  "):
			in = false
		}
		if in {
			// What follows a '#' is a comment, not a flag of the command.
			code, _, _ := strings.Cut(line, "#")
			lines.WriteString(code + "\n")
		}
	}
	return longFlags(lines.String())
}

// TestUsageTextsListTheFlags holds the README's command-line section and
// the top-level usage text to each command's own flags (its --help), both
// ways: a flag a text names exists, and every flag of a command is named,
// but for the profiling flags of bench, which only the command's --help
// lists. (The README had lost --threads, --slack, --resume and bench.)
func TestUsageTextsListTheFlags(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	section := string(readme)
	start := strings.Index(section, "## Command line")
	if start < 0 {
		t.Fatal("README.md has no \"## Command line\" section")
	}
	section = section[start:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	helpOnly := map[string]bool{"--help": true, "--cpuprofile": true, "--memprofile": true}
	for _, cmd := range []string{"run", "merge", "plot", "model", "validate", "bench"} {
		var stdout, stderr bytes.Buffer
		if err := dispatch(context.Background(), []string{cmd, "--help"}, &stdout, &stderr); err != nil {
			t.Fatalf("flitsim %s --help: %v", cmd, err)
		}
		own := longFlags(stdout.String() + stderr.String())
		if len(own) < 2 {
			t.Fatalf("flitsim %s --help lists %v: no flags found in\n%s%s", cmd, own, stdout.String(), stderr.String())
		}
		for _, text := range []struct{ name, body string }{{"README.md", section}, {"the usage text", usage}} {
			named := flagsOf(text.body, cmd)
			for _, f := range named {
				if !slices.Contains(own, f) {
					t.Errorf("%s names %s for flitsim %s, which has no such flag (its flags: %v)", text.name, f, cmd, own)
				}
			}
			for _, f := range own {
				if !helpOnly[f] && !slices.Contains(named, f) {
					t.Errorf("%s does not name flitsim %s's flag %s", text.name, cmd, f)
				}
			}
		}
	}
}
