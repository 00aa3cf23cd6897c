package validation

import "strings"

// modelSections gives every model name the section of the documentation
// that describes it: its model in docs/models.md, or for a variant that
// reproduces a printed formula, its entry in docs/errata.md. flitsim model
// --list prints it; TestModelSections checks that every name has one and
// that it resolves.
var modelSections = map[string]string{
	"reed":                          "docs/models.md#mva",
	"reed-mva":                      "docs/models.md#mva",
	"reed-mva:printed":              "docs/errata.md#e2",
	"reed-bounds":                   "docs/models.md#balanced-job-bounds",
	"reed-bjb-lower":                "docs/models.md#balanced-job-bounds",
	"reed-bjb-upper":                "docs/models.md#balanced-job-bounds",
	"reed-asymptotic":               "docs/models.md#asymptotic-bounds",
	"makrucki":                      "docs/models.md#makrucki-variants",
	"makrucki:printed":              "docs/errata.md#e4",
	"makrucki-pdt":                  "docs/models.md#makrucki-resubmission",
	"makrucki-retry":                "docs/models.md#makrucki-addendum",
	"makrucki-ntp":                  "docs/models.md#makrucki-case-i",
	"makrucki-ntp:single-stage":     "docs/errata.md#e5",
	"jacquet":                       "docs/models.md#jacquet-poisson",
	"jacquet-poisson":               "docs/models.md#jacquet-poisson",
	"jacquet-poisson:printed":       "docs/errata.md#e9",
	"jacquet-bernoulli":             "docs/models.md#jacquet-bernoulli",
	"jacquet-bernoulli:printed":     "docs/errata.md#e8",
	"safaei":                        "docs/models.md#safaei-equations",
	"safaei:printed":                "docs/errata.md#e13",
	"draper-ghosh":                  "docs/models.md#dg-r",
	"draper-ghosh:exclude-own-flow": "docs/models.md#dg-r",
	"draper-ghosh:vc-multiplexing":  "docs/models.md#dally-1992",
	"dally1990":                     "docs/models.md#dally-1990",
	"dally1992":                     "docs/models.md#dally-1992",
	"ideal":                         "docs/models.md#ideal-throughput",
}

// ModelSection returns the documentation section of a model name
// ("docs/models.md#mva"), or "" for an unknown name.
func ModelSection(name string) string {
	if strings.HasPrefix(name, bookSimPrefix) {
		return "docs/booksim.md"
	}
	return modelSections[name]
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
