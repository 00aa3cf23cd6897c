package configs

import (
	"fmt"
	"sort"
	"strings"
)

// Error is one problem found in a config file: where it is (file, 1-based
// line and column of the offending key or value) and what is wrong with it.
// Key is the dotted path of the setting, for example "router.vcs" or
// "sweep.rates[3]"; it is empty for a problem with the document as a whole.
type Error struct {
	File   string
	Line   int
	Column int
	Key    string
	Msg    string
}

// Error formats the problem as "file:line:column: key: message", the form
// editors and compilers use, so a terminal or an IDE can jump to it.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, ":%d", e.Column)
		}
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(e.Key)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Errors is every problem found in one or more config files, sorted by file,
// line, column and key. A loader never stops at the first problem: all of
// them are reported together so a user fixes a file in one pass.
type Errors []*Error

// Error joins the problems one per line.
func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// sort orders the problems by position so the report reads top to bottom.
func (es Errors) sort() {
	sort.SliceStable(es, func(i, j int) bool {
		a, b := es[i], es[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		return a.Key < b.Key
	})
}

// pos is a position in the source file.
type pos struct{ line, col int }

// reporter collects problems for one file, looking up the position of each
// key path it was given by the decoder.
type reporter struct {
	file string
	pos  map[string]pos  // dotted key path -> position of the key (or item)
	bad  map[string]bool // key paths whose value could not be decoded
	errs Errors
}

// markBad records that path's value could not be decoded, so later checks
// on its (zero) value are not reported as problems of their own.
func (r *reporter) markBad(path string) {
	if r.bad == nil {
		r.bad = map[string]bool{}
	}
	r.bad[path] = true
}

// isBad reports whether path or one of its ancestors failed to decode.
func (r *reporter) isBad(path string) bool {
	if r.bad[""] {
		return true // the document itself is not a mapping
	}
	for p := path; p != ""; {
		if r.bad[p] {
			return true
		}
		i := strings.LastIndexAny(p, ".[")
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return false
}

// at returns the position of path, or of its nearest ancestor that appeared
// in the file (a missing key is reported where its parent mapping is).
func (r *reporter) at(path string) pos {
	for p := path; ; {
		if q, ok := r.pos[p]; ok {
			return q
		}
		if p == "" {
			return pos{1, 1}
		}
		i := strings.LastIndexAny(p, ".[")
		if i < 0 {
			p = ""
		} else {
			p = p[:i]
		}
	}
}

// set reports whether path was written in the file (as opposed to defaulted).
func (r *reporter) set(path string) bool {
	_, ok := r.pos[path]
	return ok
}

// errorf records a problem at the position of path.
func (r *reporter) errorf(path, format string, args ...any) {
	if r.isBad(path) {
		return
	}
	r.errorAt(r.at(path), path, format, args...)
}

// errorAt records a problem at an explicit position.
func (r *reporter) errorAt(p pos, path, format string, args ...any) {
	r.errs = append(r.errs, &Error{File: r.file, Line: p.line, Column: p.col, Key: path, Msg: fmt.Sprintf(format, args...)})
}
