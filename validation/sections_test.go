package validation

import (
	"testing"

	"github.com/flitsim/flitsim/internal/doclinks"
)

// Every model name has a documentation section that exists, a mode, and a
// role; the roles agree with the bounds Evaluate gives the curves.
func TestModelSections(t *testing.T) {
	chk := doclinks.New("..")
	for _, n := range ModelNames() {
		sec := ModelSection(n)
		if sec == "" {
			t.Errorf("%s: no section in analytic/catalog (add one, and a section to docs/models.md)", n)
			continue
		}
		for _, p := range chk.CheckText("", sec, false) {
			t.Errorf("%s: %v", n, p)
		}
		if ModelMode(n) == "" || ModelRole(n) == "" {
			t.Errorf("%s: mode %q role %q", n, ModelMode(n), ModelRole(n))
		}
	}
	s := reedSetup(1, 2)
	s.Models = []string{"reed-bounds", "reed"}
	cs, err := Evaluate(s)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"reed-bjb-lower": "lower bound", "reed-bjb-upper": "upper bound", "reed-asymptotic": "upper bound", "reed": "estimate"}
	for _, c := range cs {
		if c.Bound.String() != want[c.Model] || ModelRole(c.Model) != want[c.Model] {
			t.Errorf("%s: curve bound %v, role %q, want %q", c.Model, c.Bound, ModelRole(c.Model), want[c.Model])
		}
	}
}
