package validation

import (
	"strings"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/sim/closed"
	simdelta "github.com/flitsim/flitsim/sim/delta"
	"github.com/flitsim/flitsim/sim/slotted"
	"github.com/flitsim/flitsim/traffic"
)

// The full validation set is the files of configs/validation (LoadSetups);
// the reduced CI set is built here in Go with the same values and shorter
// runs. Tolerances come from what each paper or docs/models.md claims;
// docs/validation.md records the measurements behind every loosened one.

// Tolerances per model family (see docs/validation.md for the evidence).
var (
	// Reed's MVA is exact for the product-form configuration of
	// docs/models.md#reed-simulator: the simulation must sit on it within its CI (1 % slack for the
	// CI's own 95 % coverage) and between the bounds.
	tolReed = Tolerance{Mean: 0.01, Max: 0.02}
	// Makrucki–Mudge give no accuracy claim; docs/models.md#makrucki-simulator asks for a
	// comparison only where the loss is small. Points outside Case I's
	// validity region (Figure 3) are out of domain and not judged.
	tolMakrucki = Tolerance{Mean: 0.10, Max: 0.20}
	// Jacquet–Mühlethaler: within ~5 % below 0.5 lambda_max, over-predicting
	// above 0.75 lambda_max (docs/models.md#jacquet-pins); judged up to 0.8 lambda_max.
	// Max loosened from 0.12 to 0.18 on evidence (docs/validation.md): the
	// Poisson T over-predicts by 16.0 / 15.5 / 16.3 % beyond the CI at 0.8
	// lambda_max on the 4-, 5- and 6-cube alike, always model > sim. The
	// saturation load lambda_max is judged within 10 %: the 4-cube is
	// stable at 1.0 lambda_max and unstable at 1.1 lambda_max (the
	// model's own analysis).
	tolJacquet = Tolerance{Mean: 0.05, Max: 0.18, Saturation: 0.10}
)

// relaxedReason is the reason of a relaxed-assumption experiment.
const relaxedReason = "relaxed assumption: measures what the model's assumption is worth; the model claims nothing here"

// Tolerances of the flit-level families: Safaei et al. claim at most 15 %
// error near saturation (latency and saturation load alike); their model
// counts the header distance twice (docs/models.md#safaei-readings item 4), so the
// zero-load offset is removed first, and bounded: about Dbar, plus
// 2 (K − D) where the header cannot run K links ahead (sim/network), at
// most 25 % of the simulated zero-load latency on the paper's set-ups
// (8x8 and 16x16, M = 32 and 64, K <= 6; docs/validation.md). DG-R is
// unvalidated (docs/models.md#harness); its c0 is the simulator's
// per-message constant (docs/models.md#dg-r, about one cycle of M + Dbar), removed the same way and
// bounded by DefaultMaxOffset; its saturation load is judged at its Max
// tolerance.
var (
	tolSafaei = Tolerance{Mean: 0.15, Max: 0.15, Saturation: 0.15, SubtractOffset: true, MaxOffset: 0.25}
	tolDGR    = Tolerance{Mean: 0.15, Max: 0.25, SubtractOffset: true}
	// tolBookSim is the conformance target of issue 17 (docs/booksim.md):
	// latency within 5% at every load below 0.9 of BookSim's saturation
	// throughput (the reference runs 0.05, 0.3, 0.5, 0.7, 0.8 and 0.9 of
	// it, so Fraction 0.85 judges all but 0.9), no offset subtracted.
	tolBookSim = Tolerance{Mean: 0.05, Max: 0.05, Fraction: 0.85}
)

// FamilyTolerance returns the tolerance of the model family of a model
// name (the part before "-" or ":"): the starting tolerance of a Setup,
// which the keys of an experiment's validation: section override
// (FromExperiment); the zero Tolerance (package defaults) for an unknown
// family.
func FamilyTolerance(model string) Tolerance {
	fam := model
	if i := strings.IndexAny(fam, "-:"); i >= 0 && !strings.HasPrefix(fam, "draper-ghosh") {
		fam = fam[:i]
	}
	switch {
	case fam == "reed":
		return tolReed
	case fam == "makrucki":
		return tolMakrucki
	case fam == "jacquet":
		return tolJacquet
	case fam == "safaei":
		return tolSafaei
	case strings.HasPrefix(fam, "draper-ghosh"), strings.HasPrefix(fam, "dally"):
		return tolDGR
	case fam == "booksim":
		return tolBookSim
	}
	return Tolerance{}
}

// relaxed marks a relaxed-assumption experiment: reported, never failing,
// for relaxedReason.
func relaxed(s Setup) Setup {
	s.Tolerance.ReportOnly, s.Tolerance.Reason = true, relaxedReason
	return s
}

func reedRing(name, desc string, pat traffic.PatternSpec, pe, link closed.Service, pops []float64, tol Tolerance, run closed.Run) Setup {
	return Setup{
		Name: name, Description: desc, RateUnit: UnitPopulation, Rates: pops, Seed: 1,
		Models:    []string{"reed-mva", "reed-bounds"},
		Tolerance: tol,
		Closed: &closed.Config{Network: closed.Ring, Radix: 15, Duplex: closed.HalfDuplex,
			Pattern: pat, PE: pe, Link: link, Run: run},
	}
}

func makrucki(name, desc string, L int, rejection, service string, rhos []float64, run simdelta.Run, models ...string) Setup {
	return Setup{
		Name: name, Description: desc, RateUnit: UnitRho, Rates: rhos, Seed: 1,
		Models: models, Tolerance: tolMakrucki,
		Delta: &simdelta.Config{Degree: 4, Stages: 3, QueueLength: L, Mu: 1, Service: service,
			Rejection: rejection, Run: run},
	}
}

func jacquet(name, desc string, n int, arrivals string, rates []float64, run slotted.RunControl) Setup {
	return Setup{
		Name: name, Description: desc, RateUnit: UnitSlots, Rates: rates, Seed: 1,
		Models: []string{"jacquet-poisson", "jacquet-bernoulli"}, Tolerance: tolJacquet,
		Slotted: &slotted.Config{Dim: n, Arrivals: arrivals, Choice: slotted.ChoiceFree, Run: run},
	}
}

var (
	expo      = closed.Service{Distribution: closed.Exponential, Mean: 1}
	fixed     = closed.Service{Distribution: closed.Fixed, Mean: 1}
	uniform   = traffic.PatternSpec{Name: "uniform"}
	decay     = traffic.PatternSpec{Name: "decay", Decay: 0.5}
	fracRates = func(lmax float64, fr ...float64) []float64 {
		out := make([]float64, len(fr))
		for i, f := range fr {
			out[i] = f * lmax
		}
		return out
	}
)

// Capacities lambda_max of the binary 4-, 5- and 6-cube (docs/models.md#jacquet-pins).
const (
	lmax4 = 0.187130351326
	lmax5 = 0.155076412519
	lmax6 = 0.132058922286
)

// ReducedSet is the CI guard: every mode and every paper, with few points
// and short runs: Reed (closed), Makrucki–Mudge (delta), Jacquet (slotted),
// and the flit-level engine with Draper–Ghosh and Safaei; one relaxed
// experiment.
func ReducedSet() []Setup {
	quickClosed := closed.Run{TargetRelCI: 0.01}
	quickDelta := simdelta.Run{TargetRelCI: 0.03, MaxTime: 40000}
	quickSlot := slotted.RunControl{TargetRelCI: 0.02, MaxSlots: 1 << 18}
	return []Setup{
		reedRing("reed-ring15-uniform", "Reed Figure III: 15-node ring, uniform routing, exponential unit service",
			uniform, expo, expo, []float64{1, 2, 4, 8, 15, 30}, tolReed, quickClosed),
		reedRing("reed-ring15-decay", "15-node ring, decay routing d = 0.5, exponential unit service",
			decay, expo, expo, []float64{1, 3, 10, 30}, tolReed, quickClosed),
		relaxed(reedRing("reed-ring15-fixed", "relaxed: 15-node ring, uniform, FIXED unit service (MVA assumes exponential)",
			uniform, fixed, fixed, []float64{2, 8, 30}, tolReed, quickClosed)),
		makrucki("makrucki-L4-resubmit", "n = 64, b = 4, L = 4, resubmission to the source",
			4, simdelta.ResubmitSource, simdelta.Exponential, []float64{0.1, 0.2, 0.3, 0.4, 0.5}, quickDelta, "makrucki", "makrucki:printed"),
		makrucki("makrucki-L8-retry", "n = 64, b = 4, L = 8, retry at stage i-1",
			8, simdelta.RetryPrevious, simdelta.Exponential, []float64{0.2, 0.4, 0.6, 0.7}, quickDelta, "makrucki"),
		jacquet("jacquet-n4", "binary 4-cube, Poisson arrivals, free-neighbour choice",
			4, slotted.ArrivalsPoisson, fracRates(lmax4, 0.1, 0.25, 0.5, 0.75, 0.9), quickSlot),
		reducedNetwork(reducedDG),
		reducedNetwork(reducedSafaei),
	}
}

// The flit-level engine in the CI guard: the set-ups of
// configs/validation/dg-torus-k8n2.yaml (DG-R, judged reading
// ExcludeOwnFlow) and safaei-8x8-m32-k6.yaml (judged at the paper's 15 %),
// at the same size with fewer loads and shorter runs. Every load is
// below 0.8 of the model's saturation, the lowest one anchoring the
// subtracted zero-load offset; the last one beyond the simulated
// saturation feeds the saturation judgement.
const (
	reducedDG = `name: dg-torus-k8n2-reduced
description: "DG-R, the unidirectional 8-ary 2-cube, M = 32 (reduced: 5 loads, short runs)"
seed: 1
network: {topology: torus, radix: 8, dimensions: 2, bidirectional: false}
router: {vcs: 2, buffer_depth: 2}
routing: dimension-order
traffic: {pattern: uniform, process: poisson, length: {distribution: fixed, flits: 32}}
sweep:
  unit: messages/node/cycle
  rates: [0.000345, 0.00103, 0.00172, 0.00207, 0.0045]
models: [draper-ghosh, "draper-ghosh:exclude-own-flow"]
run: {period: 1000, min_measure: 10000, max_cycles: 150000, target_rel_ci: 0.03, backlog_limit: 20}
validation: {mean_tolerance: 0.15, max_tolerance: 0.25, subtract_offset: true}
`
	reducedSafaei = `name: safaei-8x8-m32-k6-reduced
description: "Safaei Fig. 1, 8x8 torus, M = 32, V = 2, K = 6 (reduced: 5 loads, short runs)"
seed: 1
network: {topology: torus, radix: 8, dimensions: 2, bidirectional: true, link_latency: 1, credit_delay: 1, injection_latency: 0, ejection_latency: 0, ejection_vcs: 1, injection_vcs: 2}
router: {vcs: 2, buffer_depth: 2}
routing: adaptive
switching: {technique: scouting, scouting_distance: 6}
traffic: {pattern: uniform, process: poisson, length: {distribution: fixed, flits: 32}}
sweep:
  unit: messages/node/cycle
  rates: [0.000821, 0.00246, 0.00411, 0.00575, 0.0115]
models: [safaei]
run: {period: 1000, min_measure: 10000, max_cycles: 150000, target_rel_ci: 0.03, backlog_limit: 20, deadlock_cycles: 20000}
validation: {mean_tolerance: 0.15, max_tolerance: 0.15, subtract_offset: true}
`
)

// reducedNetwork parses one of the reduced flit-level experiments above; a
// text that does not load is a programmer error.
func reducedNetwork(src string) Setup {
	e, err := configs.Parse("validation/sets.go", []byte(src))
	if err != nil {
		panic(err)
	}
	s, err := FromExperiment(e)
	if err != nil {
		panic(err)
	}
	return s
}

// LoadSetups loads each experiment file on its own (configs.Load, then
// every delta variant) and maps it with FromExperiment, so one file the
// loader refuses (a mode not read yet) does not hide the others: the Setups
// of the good files come back with one error per refused file.
func LoadSetups(paths []string) ([]Setup, []error) {
	var out []Setup
	var errs []error
	for _, p := range paths {
		data, err := configs.ReadFile(p)
		if err != nil {
			errs = append(errs, configs.Errors{{File: p, Msg: err.Error()}})
			continue
		}
		ss, err := SetupsFromSource(p, data)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, ss...)
	}
	return out, errs
}

// SetupsFromSource parses one experiment file's text (path names it in
// errors) and returns its Setups, one per delta queue-length variant, after
// checking that every listed model applies (CheckModels): what
// LoadSetups does for a file on disk, and what a merge of flitsim validate
// shards does with the text the shard files carry.
func SetupsFromSource(path string, data []byte) ([]Setup, error) {
	e, err := configs.Parse(path, data)
	if err != nil {
		return nil, err
	}
	setups, err := FromExperiments([]*configs.Experiment{e})
	if err != nil {
		return nil, err
	}
	if err := CheckModels(e, setups); err != nil {
		return nil, err
	}
	return setups, nil
}
