package doclinks

import (
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The package graph of docs/architecture.md is the code's: each package
// with the flitsim packages it imports (non-test files, this platform),
// as go list prints them.
func TestArchitectureGraph(t *testing.T) {
	const module = "github.com/flitsim/flitsim/"
	doc, err := os.ReadFile("../../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(doc), "\n```\nanalytic:\n")
	if !ok {
		t.Fatal("docs/architecture.md: no package graph block starting with analytic:")
	}
	block, _, _ := strings.Cut("analytic:\n"+after, "```")
	var want []string
	err = filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if n := d.Name(); path != "../.." && (strings.HasPrefix(n, ".") || n == "testdata") {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(path, 0)
		if err != nil {
			return nil // no Go files here
		}
		rel, _ := filepath.Rel("../..", path)
		line := filepath.ToSlash(rel) + ":"
		imps := slices.Clone(pkg.Imports)
		slices.Sort(imps)
		for _, imp := range imps {
			if p, ok := strings.CutPrefix(imp, module); ok {
				line += " " + p
			}
		}
		want = append(want, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(want, func(a, b string) int { // by import path, as go list
		pa, _, _ := strings.Cut(a, ":")
		pb, _, _ := strings.Cut(b, ":")
		return strings.Compare(pa, pb)
	})
	got := strings.Split(strings.TrimSuffix(block, "\n"), "\n")
	if !slices.Equal(got, want) {
		t.Errorf("docs/architecture.md's package graph is not the code's; regenerate it (the command is above the block). The code's:\n%s", strings.Join(want, "\n"))
	}
}
