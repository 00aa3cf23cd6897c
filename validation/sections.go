package validation

import (
	"strings"

	"github.com/flitsim/flitsim/analytic/catalog"
)

// ModelSection returns the documentation section of a model name (its
// analytic/catalog entry's; flitsim model --list prints it)
// ("docs/models.md#mva"), or "" for an unknown name.
func ModelSection(name string) string {
	if strings.HasPrefix(name, bookSimPrefix) {
		return "docs/booksim.md"
	}
	e, _ := catalog.Lookup(name)
	return e.Section
}

// ModelMode returns the simulator mode a model name applies to ("closed",
// "delta", "slotted", "network"), or "" for an unknown name.
func ModelMode(name string) string {
	s, _ := specOf(name)
	return s.mode
}

// ModelBound returns how a model name's curve is judged: Lower or Upper for
// Reed's bounds, Estimate otherwise.
func ModelBound(name string) Bound {
	switch name {
	case "reed-bjb-lower":
		return Lower
	case "reed-bjb-upper", "reed-asymptotic", "ideal":
		return Upper
	}
	return Estimate
}

// ModelRole is a short word for a model's part in a validation: "estimate",
// "lower bound", "upper bound", "info" (a hypothesis or sanity curve that is
// reported but never fails) or "group" (a name that expands to several).
func ModelRole(name string) string {
	switch {
	case name == "reed-bounds":
		return "group"
	case IsHypothesis(name):
		return "info"
	}
	return strings.ToLower(ModelBound(name).String())
}
