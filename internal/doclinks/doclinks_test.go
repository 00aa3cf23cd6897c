package doclinks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// repoRoot is the module root, two levels above this package.
const repoRoot = "../.."

// TestRepositoryReferences is the guard of docs/models.md and
// docs/errata.md: every Markdown link, every docs/*.md#anchor named in a
// comment, config or doc, and every backquoted repository path in the docs
// must resolve inside the repository; nothing may name the working files
// outside it.
func TestRepositoryReferences(t *testing.T) {
	probs, err := New(repoRoot).CheckRepo()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range probs {
		t.Error(p)
	}
}

// The checker itself: a small repository with one doc and a few sources.
func TestCheckerFindsBrokenReferences(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("docs/models.md", "# Models\n\n<a id=\"reed-pins\"></a>\n## Reed: the pins\n\n```\n# not a heading\n```\n")
	write("configs/a.yaml", "x: 1\n")
	c := New(root)
	a, err := c.Anchors("docs/models.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"models", "reed-pins", "reed-the-pins"} {
		if !a[want] {
			t.Errorf("anchor %q missing from %v", want, a)
		}
	}
	if a["not-a-heading"] {
		t.Error("a line inside a code fence was taken as a heading")
	}
	outside := "s" + "hared/MODELS" + ".md"
	d := "do" + "cs/" // split so that this file is not itself checked
	cases := []struct {
		name, text string
		md         bool
		bad        []string
	}{
		{"x.go", "// see " + d + "models.md#reed-pins and " + d + "models.md", false, nil},
		{"x.go", "// see " + d + "models.md#reed-pin (typo)", false, []string{d + "models.md#reed-pin"}},
		{"x.go", "// see " + d + "model.md", false, []string{d + "model.md"}},
		{"x.go", "// judged as in " + outside + " §8", false, []string{"s" + "hared/"}},
		{d + "x.md", "[pins](models.md#reed-pins), [top](#models), [cfg](../configs/a.yaml)", true, []string{"#models"}},
		{d + "x.md", "[gone](missing.md), [far](../../etc/passwd)", true, []string{"missing.md", "../../etc/passwd"}},
		{d + "x.md", "`configs/a.yaml`, `configs/{a,b}.yaml`, `configs/*.yaml`, `configs/CONFIG.yaml`", true, []string{"configs/{a,b}.yaml"}},
		{d + "x.md", "```\n[not checked](nowhere.md)\n```\n[web](https://example.org/x.md)", true, nil},
		{"", "Errors are judged as in " + d + "models.md#harness.", false, []string{d + "models.md#harness"}},
	}
	for _, tc := range cases {
		got := c.CheckText(tc.name, tc.text, tc.md)
		var refs []string
		for _, p := range got {
			refs = append(refs, p.Ref)
		}
		if strings.Join(refs, "|") != strings.Join(tc.bad, "|") {
			t.Errorf("%s %q: problems %v, want %v", tc.name, tc.text, got, tc.bad)
		}
	}
}

func TestSlug(t *testing.T) {
	for h, want := range map[string]string{
		"Reed (1983): routing distributions":  "reed-1983-routing-distributions",
		"E1 — ring sphere-of-locality mean":   "e1--ring-sphere-of-locality-mean",
		"Names accepted in `models:`":         "names-accepted-in-models",
		"[link](x.md) text":                   "link-text",
		"M/M/1/L (Makrucki–Mudge Eqs. (1.1))": "mm1l-makruckimudge-eqs-11",
	} {
		if got := Slug(h); got != want {
			t.Errorf("Slug(%q) = %q, want %q", h, got, want)
		}
	}
}
