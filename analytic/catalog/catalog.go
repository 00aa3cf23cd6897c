// Package catalog is the one registry of the analytical-model names
// flitsim knows: the families a config's models: list may name (each with
// the simulator mode it describes), and every name the validation harness
// evaluates (family, mode, one-line description, documentation section,
// and whether its curve is a hypothesis that is reported but not judged).
// configs checks models: entries against it at load time; validation
// evaluates, describes and judges by it; flitsim model --list prints it.
// A new model is one row here (and its evaluation in validation).
package catalog

import (
	"slices"
	"sort"
)

// Family is one model family: the name a config's models: list uses, with
// its variants written <family>-<variant> or <family>:<reading>.
type Family struct {
	Name string
	Mode string // the simulator mode whose runs the family predicts
}

// families are the model families in documentation order (docs/models.md):
//
//	reed          Reed 1983 MVA and bounds for closed networks      [§1]
//	makrucki      Makrucki–Mudge delta network with M/M/1/L stages   [§2]
//	jacquet       Jacquet–Mühlethaler slotted hypercube              [§3]
//	safaei        Safaei et al. scouting switching, adaptive 2-D torus [§4]
//	draper-ghosh  Draper–Ghosh wormhole k-ary n-cube (DG-R)          [§5.3]
//	dally1990     Dally 1990 contention model                        [§5.4]
//	dally1992     Dally 1992 virtual-channel occupancy model         [§5.5]
//	ideal         channel-load bound of topology, routing and pattern
//	booksim       BookSim 2 reference curves, booksim:<configuration> (docs/booksim.md)
var families = []Family{
	{"reed", "closed"},
	{"makrucki", "delta"},
	{"jacquet", "slotted"},
	{"safaei", "network"},
	{"draper-ghosh", "network"},
	{"dally1990", "network"},
	{"dally1992", "network"},
	{"ideal", "network"},
	{"booksim", "network"},
}

// Entry is one model name the validation harness evaluates.
type Entry struct {
	Name   string
	Family string
	Mode   string
	// Hypothesis marks a curve that is reported but never judged: a
	// [RECON-L] reading or a sanity curve (docs/models.md#dg-r,
	// docs/models.md#dally-1990).
	Hypothesis bool
	// Section is the documentation section that describes the name: its
	// model in docs/models.md or, for a variant that reproduces a printed
	// formula, its entry in docs/errata.md.
	Section string
	// Doc is a one-line description, for legends, tables and --list.
	Doc string
}

// entries are the names evaluated, but the BookSim reference curves
// (booksim:<configuration>, whose names come from validation/booksim).
var entries = []Entry{
	{Name: "reed", Family: "reed", Mode: "closed", Hypothesis: false,
		Section: "docs/models.md#mva",
		Doc:     "Reed 1983 exact MVA X_0(N) (Figure II), corrected routing (= reed-mva)"},
	{Name: "reed-mva", Family: "reed", Mode: "closed", Hypothesis: false,
		Section: "docs/models.md#mva",
		Doc:     "Reed 1983 exact MVA X_0(N) (Figure II), corrected routing"},
	{Name: "reed-mva:printed", Family: "reed", Mode: "closed", Hypothesis: false,
		Section: "docs/errata.md#e2",
		Doc:     "Reed MVA with the printed decay distribution (erratum E2)"},
	{Name: "reed-bounds", Family: "reed", Mode: "closed", Hypothesis: false,
		Section: "docs/models.md#balanced-job-bounds",
		Doc:     "expands to reed-bjb-lower, reed-bjb-upper, reed-asymptotic"},
	{Name: "reed-bjb-lower", Family: "reed", Mode: "closed", Hypothesis: false,
		Section: "docs/models.md#balanced-job-bounds",
		Doc:     "Reed balanced job bound, lower (Eq. 7)"},
	{Name: "reed-bjb-upper", Family: "reed", Mode: "closed", Hypothesis: false,
		Section: "docs/models.md#balanced-job-bounds",
		Doc:     "Reed balanced job bound, upper (Eq. 7)"},
	{Name: "reed-asymptotic", Family: "reed", Mode: "closed", Hypothesis: false,
		Section: "docs/models.md#asymptotic-bounds",
		Doc:     "Reed asymptotic upper bound (Eq. 5)"},
	{Name: "makrucki", Family: "makrucki", Mode: "delta", Hypothesis: false,
		Section: "docs/models.md#makrucki-variants",
		Doc:     "Makrucki–Mudge, the delay of the config's rejection mode: PDT corrected (resubmit-source), PDT_add (retry-previous), NTP (drop)"},
	{Name: "makrucki:printed", Family: "makrucki", Mode: "delta", Hypothesis: false,
		Section: "docs/errata.md#e4",
		Doc:     "Makrucki–Mudge PDT as printed, Eq. (5) with (6) (Figure 6)"},
	{Name: "makrucki-pdt", Family: "makrucki", Mode: "delta", Hypothesis: false,
		Section: "docs/models.md#makrucki-resubmission",
		Doc:     "Makrucki–Mudge PDT corrected, sum E[T_i] + U/P"},
	{Name: "makrucki-retry", Family: "makrucki", Mode: "delta", Hypothesis: false,
		Section: "docs/models.md#makrucki-addendum",
		Doc:     "Makrucki–Mudge addendum PDT_add, retry at stage i-1"},
	{Name: "makrucki-ntp", Family: "makrucki", Mode: "delta", Hypothesis: false,
		Section: "docs/models.md#makrucki-case-i",
		Doc:     "Makrucki–Mudge NTP, z-sum reading R4"},
	{Name: "makrucki-ntp:single-stage", Family: "makrucki", Mode: "delta", Hypothesis: false,
		Section: "docs/errata.md#e5",
		Doc:     "Makrucki–Mudge NTP, single-stage reading"},
	{Name: "jacquet", Family: "jacquet", Mode: "slotted", Hypothesis: false,
		Section: "docs/models.md#jacquet-poisson",
		Doc:     "Jacquet–Mühlethaler Poisson approximation T (= jacquet-poisson)"},
	{Name: "jacquet-poisson", Family: "jacquet", Mode: "slotted", Hypothesis: false,
		Section: "docs/models.md#jacquet-poisson",
		Doc:     "Jacquet–Mühlethaler Poisson approximation T, normalised Q"},
	{Name: "jacquet-poisson:printed", Family: "jacquet", Mode: "slotted", Hypothesis: false,
		Section: "docs/errata.md#e9",
		Doc:     "Jacquet–Mühlethaler T with the printed, unnormalised Q (erratum E9)"},
	{Name: "jacquet-bernoulli", Family: "jacquet", Mode: "slotted", Hypothesis: false,
		Section: "docs/models.md#jacquet-bernoulli",
		Doc:     "Jacquet–Mühlethaler Bernoulli model D = M/lambda"},
	{Name: "jacquet-bernoulli:printed", Family: "jacquet", Mode: "slotted", Hypothesis: false,
		Section: "docs/errata.md#e8",
		Doc:     "Jacquet–Mühlethaler Bernoulli model, printed mu, appendix q'(1) and D (errata E8, E10, E11)"},
	{Name: "safaei", Family: "safaei", Mode: "network", Hypothesis: false,
		Section: "docs/models.md#safaei-equations",
		Doc:     "Safaei et al. scouting switching, corrected Eq. (8)"},
	{Name: "safaei:printed", Family: "safaei", Mode: "network", Hypothesis: false,
		Section: "docs/errata.md#e13",
		Doc:     "Safaei et al. with the printed Eq. (8) (erratum E13)"},
	{Name: "draper-ghosh", Family: "draper-ghosh", Mode: "network", Hypothesis: true,
		Section: "docs/models.md#dg-r",
		Doc:     "DG-R reconstruction, plain reading (pessimistic on tori; reported, docs/validation.md)"},
	{Name: "draper-ghosh:exclude-own-flow", Family: "draper-ghosh", Mode: "network", Hypothesis: false,
		Section: "docs/models.md#dg-r",
		Doc:     "DG-R with the ExcludeOwnFlow correction [RECON-L], the judged reading"},
	{Name: "draper-ghosh:vc-multiplexing", Family: "draper-ghosh", Mode: "network", Hypothesis: true,
		Section: "docs/models.md#dally-1992",
		Doc:     "DG-R times the Dally 1992 multiplexing degree [RECON-L]"},
	{Name: "dally1990", Family: "dally1990", Mode: "network", Hypothesis: true,
		Section: "docs/models.md#dally-1990",
		Doc:     "Dally 1990 contention form (sanity curve, k >= 3)"},
	{Name: "dally1992", Family: "dally1992", Mode: "network", Hypothesis: true,
		Section: "docs/models.md#dally-1992",
		Doc:     "Dally 1992 VC occupancy applied to DG-R (= draper-ghosh:vc-multiplexing)"},
	{Name: "ideal", Family: "ideal", Mode: "network", Hypothesis: false,
		Section: "docs/models.md#ideal-throughput",
		Doc:     "ideal throughput: the channel-load bound of the topology, routing and pattern (analytic/ideal; an upper bound on accepted flits/node/cycle)"},
}

// Families returns the family names in documentation order.
func Families() []string {
	out := make([]string, len(families))
	for i, f := range families {
		out[i] = f.Name
	}
	return out
}

// FamilyMode returns the mode family fam describes, or "" for an unknown
// family.
func FamilyMode(fam string) string {
	for _, f := range families {
		if f.Name == fam {
			return f.Mode
		}
	}
	return ""
}

// Lookup returns the entry of name.
func Lookup(name string) (Entry, bool) {
	i := slices.IndexFunc(entries, func(e Entry) bool { return e.Name == name })
	if i < 0 {
		return Entry{}, false
	}
	return entries[i], true
}

// Names returns every entry's name, sorted.
func Names() []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e.Name
	}
	sort.Strings(out)
	return out
}
