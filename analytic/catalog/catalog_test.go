package catalog

import (
	"strings"
	"testing"
)

// Every entry names a family of the table, is written as that family or a
// variant of it, describes the family's mode, and has a description and a
// section; no name appears twice.
func TestEntries(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range entries {
		if seen[e.Name] {
			t.Errorf("%s listed twice", e.Name)
		}
		seen[e.Name] = true
		mode := FamilyMode(e.Family)
		if mode == "" {
			t.Errorf("%s: unknown family %q", e.Name, e.Family)
		}
		if e.Mode != mode {
			t.Errorf("%s: mode %s, but family %s describes mode %s", e.Name, e.Mode, e.Family, mode)
		}
		if rest, ok := strings.CutPrefix(e.Name, e.Family); !ok || (rest != "" && rest[0] != '-' && rest[0] != ':') {
			t.Errorf("%s is not family %s or a variant of it", e.Name, e.Family)
		}
		if e.Doc == "" || e.Section == "" {
			t.Errorf("%s: doc %q section %q", e.Name, e.Doc, e.Section)
		}
	}
	if _, ok := Lookup("reed-mva"); !ok {
		t.Error("Lookup(reed-mva) failed")
	}
	if _, ok := Lookup("reed-nonesuch"); ok {
		t.Error("Lookup(reed-nonesuch) found an entry")
	}
}
