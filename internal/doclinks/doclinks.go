// Package doclinks checks that the repository's documentation, comments,
// configs and generated reports name only files and anchors that exist in
// the repository: Markdown links with a relative target (file, directory
// or #anchor), bare mentions of docs/*.md (with or without #anchor), and
// repository paths written in backquotes in Markdown. It also refuses any
// mention of the internal working files that are not part of the project
// (the team's shared working directory and its model specification), so that a reader
// holding only a clone can follow every reference.
//
// Anchors of a Markdown file are its explicit ids (<a id="...">) and the
// GitHub slugs of its headings.
package doclinks

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Problem is one reference that does not resolve.
type Problem struct {
	File string // the file (repository-relative) or source name holding the reference
	Line int    // 1-based line of the reference, 0 if unknown
	Ref  string // the reference as written
	Why  string // what is wrong
}

func (p Problem) String() string {
	return fmt.Sprintf("%s:%d: %q: %s", p.File, p.Line, p.Ref, p.Why)
}

// Checker resolves references against a repository root. It caches the
// anchors of the Markdown files it reads; it is safe for concurrent use.
type Checker struct {
	Root string

	mu      sync.Mutex
	anchors map[string]map[string]bool
}

// New returns a Checker for the repository at root.
func New(root string) *Checker {
	return &Checker{Root: root, anchors: map[string]map[string]bool{}}
}

var (
	// A Markdown inline link or image: [text](target) or [text](target "title").
	mdLink = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	// A bare mention of a documentation page, as comments and reports write it.
	docRef = regexp.MustCompile(`(?:^|[^\w/.-])(docs/[\w./-]*[\w-]\.md)(#[\w-]+)?`)
	// A repository path in backquotes: `configs/x.yaml`, `sim/closed`.
	codePath = regexp.MustCompile("`((?:analytic|cmd|configs|deploy|docs|internal|router|scripts|sim|topology|traffic|validation)/[^`\\s]*)`")
	// The internal working files outside the repository.
	outside = regexp.MustCompile(`[s]hared/|MODELS[.]md`)
	// Explicit anchors.
	idAttr = regexp.MustCompile(`<a\s+(?:name|id)="([^"]+)"`)
	// ATX headings.
	heading = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
)

// CheckText checks the references in text, which belongs to the file name
// (repository-relative, slash-separated; "" for generated text, whose
// relative references are taken from the repository root). Markdown link
// and backquote rules apply when markdown is true.
func (c *Checker) CheckText(name, text string, markdown bool) []Problem {
	var out []Problem
	dir := path.Dir(name)
	if name == "" {
		dir = "."
	}
	inFence := false
	for i, line := range strings.Split(text, "\n") {
		ln := i + 1
		add := func(ref, why string) { out = append(out, Problem{File: name, Line: ln, Ref: ref, Why: why}) }
		if m := outside.FindString(line); m != "" {
			add(m, "names a file outside the repository")
		}
		for _, m := range docRef.FindAllStringSubmatch(line, -1) {
			if why := c.resolve(".", m[1]+m[2]); why != "" {
				add(m[1]+m[2], why)
			}
		}
		if !markdown {
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
			continue
		}
		if inFence || strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t") {
			continue // fenced or indented code
		}
		for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
			t := m[1]
			if strings.Contains(t, "://") || strings.HasPrefix(t, "mailto:") {
				continue
			}
			if strings.HasPrefix(t, "#") {
				t = path.Base(name) + t
			}
			if why := c.resolve(dir, t); why != "" {
				add(m[1], why)
			}
		}
		for _, m := range codePath.FindAllStringSubmatch(line, -1) {
			if why := c.resolvePattern(m[1]); why != "" {
				add(m[1], why)
			}
		}
	}
	return out
}

// resolve checks a relative reference "file#anchor", "file" or "dir/".
func (c *Checker) resolve(dir, ref string) string {
	file, anchor, _ := strings.Cut(ref, "#")
	p := path.Clean(path.Join(dir, file))
	if p == ".." || strings.HasPrefix(p, "../") {
		return "points outside the repository"
	}
	st, err := os.Stat(filepath.Join(c.Root, filepath.FromSlash(p)))
	if err != nil {
		return "no such file in the repository"
	}
	if anchor == "" {
		return ""
	}
	if st.IsDir() || !strings.HasSuffix(p, ".md") {
		return "anchor on a file that is not Markdown"
	}
	a, err := c.Anchors(p)
	if err != nil {
		return err.Error()
	}
	if !a[anchor] {
		return "no anchor #" + anchor + " in " + p
	}
	return ""
}

// resolvePattern checks a backquoted repository path, which may be a
// directory, a file, a glob (*) or a brace list ({a,b}); "..." and
// placeholders in capitals are not paths and pass.
func (c *Checker) resolvePattern(p string) string {
	p = strings.TrimRight(p, ".,:;")
	if strings.Contains(p, "...") || strings.ContainsAny(p, "<>$") || regexp.MustCompile(`[A-Z]{3,}`).MatchString(p) {
		return ""
	}
	if strings.Contains(p, "#") {
		return c.resolve(".", p)
	}
	for _, alt := range expandBraces(p) {
		m, _ := filepath.Glob(filepath.Join(c.Root, filepath.FromSlash(alt)))
		if len(m) == 0 && strings.Contains(path.Base(alt), ".") {
			// A Go identifier: `analytic/scouting.Saturation`.
			pkg, _, _ := strings.Cut(alt, ".")
			if st, err := os.Stat(filepath.Join(c.Root, filepath.FromSlash(pkg))); err == nil && st.IsDir() {
				continue
			}
		}
		if len(m) == 0 {
			return "no such file in the repository"
		}
	}
	return ""
}

// expandBraces expands the first {a,b,...} group recursively.
func expandBraces(p string) []string {
	i := strings.Index(p, "{")
	j := strings.Index(p, "}")
	if i < 0 || j < i {
		return []string{p}
	}
	var out []string
	for _, alt := range strings.Split(p[i+1:j], ",") {
		out = append(out, expandBraces(p[:i]+alt+p[j+1:])...)
	}
	return out
}

// Anchors returns the anchors of the Markdown file p (repository-relative).
func (c *Checker) Anchors(p string) (map[string]bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if a, ok := c.anchors[p]; ok {
		return a, nil
	}
	b, err := os.ReadFile(filepath.Join(c.Root, filepath.FromSlash(p)))
	if err != nil {
		return nil, err
	}
	a := map[string]bool{}
	seen := map[string]int{}
	inFence := false
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		for _, m := range idAttr.FindAllStringSubmatch(line, -1) {
			a[m[1]] = true
		}
		if m := heading.FindStringSubmatch(line); m != nil {
			s := Slug(m[1])
			if n := seen[s]; n > 0 {
				a[fmt.Sprintf("%s-%d", s, n)] = true
			} else {
				a[s] = true
			}
			seen[s]++
		}
	}
	c.anchors[p] = a
	return a, nil
}

// Slug is GitHub's anchor for a heading text: lower case, Markdown link
// and code markup dropped, punctuation other than '-' and '_' removed,
// spaces turned into '-'.
func Slug(h string) string {
	h = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`).ReplaceAllString(h, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_':
			b.WriteRune(r)
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r > 127 && isLetterOrDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isLetterOrDigit(r rune) bool {
	return strings.ContainsRune("äöüéèàçñøåæœßμλρφ", r) || (r >= 0x0370 && r <= 0x03ff) || (r >= 0x00c0 && r <= 0x024f)
}

// Files lists the repository files whose references are checked:
// Markdown, Go and YAML files, skipping .git and testdata.
func Files(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == ".git" || n == "testdata" || (strings.HasPrefix(n, ".") && p != root) {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(p) {
		case ".md", ".go", ".yaml", ".yml":
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// CheckRepo checks every file of Files(root).
func (c *Checker) CheckRepo() ([]Problem, error) {
	files, err := Files(c.Root)
	if err != nil {
		return nil, err
	}
	var out []Problem
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(c.Root, filepath.FromSlash(f)))
		if err != nil {
			return nil, err
		}
		out = append(out, c.CheckText(f, string(b), strings.HasSuffix(f, ".md"))...)
	}
	return out, nil
}
