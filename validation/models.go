package validation

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/flitsim/flitsim/analytic"
	"github.com/flitsim/flitsim/analytic/catalog"
	"github.com/flitsim/flitsim/analytic/delta"
	"github.com/flitsim/flitsim/analytic/hypercube"
	"github.com/flitsim/flitsim/analytic/reed"
	"github.com/flitsim/flitsim/analytic/scouting"
	"github.com/flitsim/flitsim/analytic/wormhole"
	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/sim/closed"
	simdelta "github.com/flitsim/flitsim/sim/delta"
	"github.com/flitsim/flitsim/validation/booksim"
)

// Bound says how a curve is judged: a model estimate (relative error), or a
// bound the simulated value must respect (containment).
type Bound int

const (
	// Estimate is a model prediction judged by its relative error.
	Estimate Bound = iota
	// Lower is a lower bound: the simulated value must not lie below it.
	Lower
	// Upper is an upper bound: the simulated value must not lie above it.
	Upper
)

// String returns "estimate", "lower bound" or "upper bound".
func (b Bound) String() string {
	switch b {
	case Lower:
		return "lower bound"
	case Upper:
		return "upper bound"
	}
	return "estimate"
}

// Simulated quantities a curve is compared with (keys of SimPoint.Values):
// each mode's row of the mode table measures them (configs.Mode.Measure).
const (
	QLatency         = configs.QLatency         // network mode: generation to tail delivery, cycles
	QX0              = configs.QX0              // closed: message completion rate, messages / time unit
	QPDT             = configs.QPDT             // delta: first emission to delivery, time units
	QPDTNetwork      = configs.QPDTNetwork      // delta: PDT without source retry-buffer waiting
	QNTP             = configs.QNTP             // delta: delivered packets per time unit, whole network
	QDelay           = configs.QDelay           // slotted: integer-slot delay, slots
	QDelayContinuous = configs.QDelayContinuous // slotted: continuous delay, slots
	QAccepted        = configs.QAccepted        // network mode: accepted throughput, flits/node/cycle
)

// ModelPoint is a model's value at one sweep point.
type ModelPoint struct {
	// Rate is the offered load in the Setup's RateUnit.
	Rate float64
	// Value is the model's prediction: NaN when saturated; for an
	// out-of-domain point NaN, or the value the paper draws there all the same
	// (Makrucki–Mudge Case I beyond its validity region), plotted in the
	// shaded region and never judged.
	Value float64
	// Status is sim.StatusOK, sim.StatusSaturated or sim.StatusOutOfDomain.
	Status string
	// Reason is the model's error message for a point that is not ok.
	Reason string
	// Extra holds the other values the model computes at this load (see
	// Extra); empty where the model has no solution.
	Extra []Extra
}

// Extra is a value a model computes besides the one compared with the
// simulator: Jacquet's lambda_max, Makrucki's per-stage p_L, Safaei's
// fixed-point quantities, DG-R's source wait... flitsim model --extra
// prints them (docs/config.md#model-extra).
type Extra struct {
	Name  string  // e.g. "lambda_max", "p_L[2]"
	Value float64 //
	Unit  string  // "" for a probability or a pure number
}

// Curve is one model evaluated over a Setup's sweep.
type Curve struct {
	// Model is the name as requested (e.g. "jacquet-bernoulli:printed").
	Model string
	// Label is a short description for legends and tables.
	Label string
	// Sim names the simulated quantity the curve is compared with (QLatency, ...).
	Sim string
	// Unit is the unit of Value.
	Unit string
	// Bound says whether the curve is an estimate or a bound.
	Bound Bound
	// Points has one entry per sweep rate, in order.
	Points []ModelPoint
	// Saturation is the model's saturation load in the Setup's RateUnit
	// (the largest non-saturated load), or NaN when the model has none.
	Saturation float64
	// Extra holds values of the model that do not depend on the load
	// (Jacquet's lambda_max with p and X there, Reed's LV and demands).
	Extra []Extra
}

// modelSpec describes one model name (its row of analytic/catalog, or a
// BookSim reference curve).
type modelSpec struct {
	doc  string
	mode string // simulator mode the model applies to
	// hypothesis marks a curve that is reported but never judged: a
	// [RECON-L] reading or a sanity curve (docs/models.md#dg-r, docs/models.md#dally-1990).
	hypothesis bool
}

// bookSimPrefix starts the name of a BookSim 2 reference curve:
// "booksim:<configuration>", a configuration of package validation/booksim
// (docs/booksim.md). It is a reference source beside the models: its
// values are BookSim's measured latencies at the sweep's loads, judged
// with the same tolerances and reported and plotted the same way.
const bookSimPrefix = "booksim:"

// bookSimRef is the committed BookSim reference, read once.
var bookSimRef = sync.OnceValues(booksim.Load)

// specOf returns the description of model name.
func specOf(name string) (modelSpec, bool) {
	if cfg, ok := strings.CutPrefix(name, bookSimPrefix); ok {
		ref, err := bookSimRef()
		if err != nil {
			return modelSpec{}, false
		}
		c, ok := ref.Config(cfg)
		if !ok {
			return modelSpec{}, false
		}
		return modelSpec{doc: "BookSim 2 reference, configuration " + cfg + " (" + c.Provenance() + "; docs/booksim.md)", mode: "network"}, true
	}
	e, ok := catalog.Lookup(name)
	return modelSpec{doc: e.Doc, mode: e.Mode, hypothesis: e.Hypothesis}, ok
}

// BookSimNames returns the names of the BookSim reference curves,
// "booksim:<configuration>", sorted (none when the reference cannot be
// read).
func BookSimNames() []string {
	ref, err := bookSimRef()
	if err != nil {
		return nil
	}
	var out []string
	for _, c := range ref.Configs {
		out = append(out, bookSimPrefix+c.Name)
	}
	return out
}

// ModelNames returns every model name the bridge evaluates, sorted, but
// the BookSim reference curves (BookSimNames). A name
// is a configs.KnownModels name, optionally with a suffix selecting a variant
// ("-mva", "-bounds", "-bernoulli", ":printed", ...); ModelDoc describes each.
func ModelNames() []string {
	return catalog.Names()
}

// ModelDoc returns the one-line description of a model name ("" if unknown).
func ModelDoc(name string) string {
	s, _ := specOf(name)
	return s.doc
}

// IsHypothesis reports whether a model name is a hypothesis or sanity curve
// (DG-R's [RECON-L] knobs, Dally 1990 and 1992): Run reports its errors with
// verdict info and never fails on it.
func IsHypothesis(name string) bool {
	s, _ := specOf(name)
	return s.hypothesis
}

// expand replaces the group names (reed-bounds) by their members.
func expand(models []string) []string {
	var out []string
	for _, m := range models {
		if m == "reed-bounds" {
			out = append(out, "reed-bjb-lower", "reed-bjb-upper", "reed-asymptotic")
			continue
		}
		out = append(out, m)
	}
	return out
}

// Evaluate evaluates every model of s.Models (groups expanded) over the
// sweep of s. An unknown model name, a model that does not apply to the
// Setup's mode or parameters the model cannot represent at all (a mesh for
// MVA, a bidirectional torus for DG-R) is an error; a point outside the
// model's domain or beyond its saturation is not, it is a point status.
func Evaluate(s Setup) ([]Curve, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	var errs []error
	var out []Curve
	for _, m := range expand(s.Models) {
		if IsExternal(m) {
			cs, err := evaluateExternal(s, m)
			if err != nil {
				errs = append(errs, err)
			}
			out = append(out, cs...)
			continue
		}
		c, err := EvaluateModel(s, m)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, c)
	}
	return out, errors.Join(errs...)
}

// evaluators maps each mode that has models (analytic/catalog's Mode of a
// model) to the function evaluating them over a Setup: the models of a
// mode read its Setup field, so they are the mode's, not the table's.
var evaluators = map[string]func(*Curve, Setup) error{
	"closed":  evalReed,
	"delta":   evalMakrucki,
	"slotted": evalJacquet,
	"network": evalNetwork,
}

// EvaluateModel evaluates one model name (see ModelNames) over the sweep of s.
func EvaluateModel(s Setup, name string) (Curve, error) {
	spec, ok := specOf(name)
	if !ok {
		return Curve{}, fmt.Errorf("validation: %s: unknown model %q (known: %s)", s.Name, name, strings.Join(ModelNames(), ", "))
	}
	if name == "reed-bounds" {
		return Curve{}, fmt.Errorf("validation: %s: reed-bounds is a group; use Evaluate", s.Name)
	}
	if mode := s.Mode(); mode != spec.mode {
		return Curve{}, fmt.Errorf("validation: %s: model %q applies to mode %s, not %s", s.Name, name, spec.mode, mode)
	}
	c := Curve{Model: name, Label: spec.doc, Saturation: math.NaN(), Points: make([]ModelPoint, len(s.Rates))}
	eval := evaluators[spec.mode]
	if name == "ideal" {
		eval = evalIdeal
	}
	if eval == nil {
		return Curve{}, fmt.Errorf("validation: %s: model %q: the harness evaluates no model of mode %s", s.Name, name, spec.mode)
	}
	if err := eval(&c, s); err != nil {
		return Curve{}, fmt.Errorf("validation: %s: model %s: %w", s.Name, name, err)
	}
	return c, nil
}

// setPoint records a model result or classifies its error.
func setPoint(p *ModelPoint, rate, v float64, err error) {
	p.Rate = rate
	p.Value = math.NaN()
	switch {
	case err == nil && !math.IsNaN(v) && !math.IsInf(v, 0):
		p.Value, p.Status = v, sim.StatusOK
	case err == nil:
		p.Status, p.Reason = sim.StatusSaturated, "non-finite model value"
	case errors.Is(err, analytic.ErrSaturated):
		p.Status, p.Reason = sim.StatusSaturated, err.Error()
	default:
		p.Status, p.Reason = sim.StatusOutOfDomain, err.Error()
	}
}

// evalReed maps a closed.Config onto Reed's two-type workload (docs/models.md#reed-visits, docs/models.md#reed-simulator):
// the profile from Network/Radix/Dims, Phi from the pattern,
// one device per link (half duplex) or per direction (full), S_PE and S_CL
// from the service means (with the simulator's defaults, closed.Config.
// WithDefaults; PE "none" gives S_PE = 0). The rate column is the
// population N.
func evalReed(c *Curve, s Setup) error {
	cfg := s.Closed.WithDefaults()
	if s.RateUnit != UnitPopulation {
		return fmt.Errorf("sweep unit %q, want %q", s.RateUnit, UnitPopulation)
	}
	var prof reed.Profile
	var err error
	switch cfg.Network {
	case closed.Ring:
		prof, err = reed.Ring(cfg.Radix)
	case closed.Bus:
		prof, err = reed.Bus(cfg.Radix)
	case closed.Torus:
		prof, err = reed.Torus(cfg.Radix, cfg.Dims)
	case closed.Hypercube:
		prof, err = reed.Hypercube(cfg.Dims)
	default:
		return fmt.Errorf("network %q is not symmetric; Reed's per-type MVA does not apply", cfg.Network)
	}
	if err != nil {
		return err
	}
	variant := reed.Corrected
	if strings.HasSuffix(c.Model, ":printed") {
		variant = reed.Printed
	}
	var r reed.Routing
	switch cfg.Pattern.Name {
	case "", "uniform":
		r, err = reed.Uniform(prof)
	case "locality":
		r, err = reed.Locality(prof, cfg.Pattern.Phi, cfg.Pattern.Radius)
	case "decay":
		r, err = reed.Decay(prof, cfg.Pattern.Decay, variant)
	default:
		return fmt.Errorf("pattern %q is not one of Reed's routing distributions", cfg.Pattern.Name)
	}
	if err != nil {
		return err
	}
	duplex := reed.HalfDuplex
	if cfg.Duplex == closed.FullDuplex {
		duplex = reed.FullDuplex
	}
	sPE := cfg.PE.Mean
	if cfg.PE.Distribution == closed.None {
		sPE = 0
	}
	w, err := reed.NetworkWorkload(r, duplex, sPE, cfg.Link.Mean)
	if err != nil {
		return err
	}
	c.Sim, c.Unit = QX0, "messages/time unit"
	c.Extra = []Extra{{"LV", r.LV(), "links"}, {"R_0", w.R0(), "time units"}, {"D_b", w.Db(), "time units"}, {"1/D_b", 1 / w.Db(), "messages/time unit"}}
	nmax := 0
	for _, n := range s.Rates {
		if n >= 1 && n == math.Trunc(n) && n <= 1<<20 {
			nmax = max(nmax, int(n))
		}
	}
	var mva []reed.MVAPoint
	if nmax > 0 && (c.Model == "reed" || strings.HasPrefix(c.Model, "reed-mva")) {
		if mva, err = w.MVA(nmax); err != nil {
			return err
		}
	}
	c.Bound = ModelBound(c.Model)
	for i, rate := range s.Rates {
		if rate < 1 || rate != math.Trunc(rate) || rate > 1<<20 {
			setPoint(&c.Points[i], rate, 0, analytic.Domain("reed", "population %g is not an integer in [1, 2^20]", rate))
			continue
		}
		n := int(rate)
		var v float64
		var b reed.Bounds
		switch c.Model {
		case "reed-bjb-lower", "reed-bjb-upper":
			b, err = w.BalancedJobBounds(n)
			v = b.Lower
			if c.Model == "reed-bjb-upper" {
				v = b.Upper
			}
		case "reed-asymptotic":
			b, err = w.Asymptotic(n)
			v = b.Upper
		default:
			v, err = mva[n-1].X0, nil
			c.Points[i].Extra = reedExtra(w, mva[n-1])
		}
		setPoint(&c.Points[i], rate, v, err)
	}
	return nil
}

// reedExtra lists the MVA cycle time and the per-type queue lengths and
// utilisations at one population.
func reedExtra(w reed.Workload, p reed.MVAPoint) []Extra {
	ex := []Extra{{"R_0(N)", p.R0, "time units"}}
	for t, d := range w.Types() {
		ex = append(ex, Extra{"n_" + d.Name, p.Queue[t], "messages"}, Extra{"U_" + d.Name, p.Utilisation[t], ""})
	}
	return ex
}

// MakruckiMaxLoss bounds the model's per-stage rejection probability p_L,i
// at which a Makrucki–Mudge delay (PDT, PDT_add) is inside the model's
// domain: the model does not add resubmitted or retried packets to the
// stage loads, so it is compared "only where (1-P) is small (roughly p_L <
// 0.05)" (docs/models.md#makrucki-simulator): a point whose largest stage p_L,i is 0.05 or
// more is out of domain; its value is kept for the plot.
const MakruckiMaxLoss = 0.05

// evalMakrucki maps a sim/delta Config onto analytic/delta (docs/models.md#makrucki-inputs):
// n = b^z sources, L, mu; the sweep is rho and lambda = rho mu. The case is
// chosen automatically (Figure 3 validity regions); between Case I and Case
// II regions the point is out of the model's domain.
func evalMakrucki(c *Curve, s Setup) error {
	cfg := s.Delta.WithDefaults()
	if s.RateUnit != UnitRho {
		return fmt.Errorf("sweep unit %q, want %q", s.RateUnit, UnitRho)
	}
	n := 1
	for range cfg.Stages {
		n *= cfg.Degree
	}
	nw := delta.Network{Sources: n, Degree: cfg.Degree, Queue: cfg.QueueLength, Mu: cfg.Mu}
	var opt delta.Options
	pick := func(r delta.Result) float64 { return r.PDT }
	c.Sim, c.Unit = QPDTNetwork, "time units (1/mu)"
	model := c.Model
	if model == "makrucki" {
		switch cfg.Rejection {
		case simdelta.RetryPrevious:
			model = "makrucki-retry"
		case simdelta.Drop:
			model = "makrucki-ntp"
		default:
			model = "makrucki-pdt"
		}
	}
	switch model {
	case "makrucki:printed":
		opt.PDT = delta.PDTPrinted
	case "makrucki-retry":
		pick = func(r delta.Result) float64 { return r.PDTRetry }
	case "makrucki-ntp", "makrucki-ntp:single-stage":
		if model == "makrucki-ntp:single-stage" {
			opt.NTP = delta.NTPSingleStage
		}
		pick = func(r delta.Result) float64 { return r.NTP }
		c.Sim, c.Unit = QNTP, "packets/time unit"
	}
	pdt := c.Sim != QNTP
	for i, rho := range s.Rates {
		r, err := nw.Solve(rho*cfg.Mu, opt)
		var v float64
		if err == nil {
			v = pick(r)
			c.Points[i].Extra = makruckiExtra(r)
		}
		setPoint(&c.Points[i], rho, v, err)
		if pl := maxStageLoss(r); err == nil && pdt && pl >= MakruckiMaxLoss {
			c.Points[i].Status = sim.StatusOutOfDomain
			c.Points[i].Reason = fmt.Sprintf("stage rejection probability p_L = %.3g >= %g: the model neglects the resubmitted load (docs/models.md#makrucki-simulator)", pl, MakruckiMaxLoss)
		}
		if errors.Is(err, analytic.ErrDomain) {
			// Between the Case I and Case II regions no approximation is
			// valid; the report's Figure 6 draws Case I there all the same.
			// Keep that value for the plot; the point stays out of domain.
			o := opt
			o.Case, o.AllowOutsideValidity = delta.CaseI, true
			if r1, err1 := nw.Solve(rho*cfg.Mu, o); err1 == nil {
				c.Points[i].Value = pick(r1)
				c.Points[i].Extra = makruckiExtra(r1)
				c.Points[i].Reason += " (value: Case I, as Figure 6 draws it)"
			}
		}
	}
	return nil
}

// makruckiExtra lists the network solution: the case, P, U, the three
// delays, NTP, and p_L, E[N], E[T] of every stage.
func makruckiExtra(r delta.Result) []Extra {
	ex := []Extra{{"case", float64(r.Case), ""}, {"P", r.P, ""}, {"U", r.U, "time units"}, {"E[T_rej]", r.TRej, "time units"},
		{"PDT", r.PDT, "time units"}, {"PDT_add", r.PDTRetry, "time units"}, {"NTP", r.NTP, "packets/time unit"}}
	for i, st := range r.Stages {
		k := fmt.Sprintf("[%d]", i+1)
		ex = append(ex, Extra{"p_L" + k, st.PL, ""}, Extra{"E[N]" + k, st.N, "packets"}, Extra{"E[T]" + k, st.T, "time units"})
	}
	return ex
}

// evalJacquet maps a sim/slotted Config onto analytic/hypercube (docs/models.md#jacquet):
// n = Dim, lambda = rate (packets/node/slot). The Poisson T is compared
// with the integer-slot delay and the Bernoulli D with the continuous delay
// (docs/models.md#jacquet-simulator). Saturation: lambda_max.
func evalJacquet(c *Curve, s Setup) error {
	if s.RateUnit != UnitSlots {
		return fmt.Errorf("sweep unit %q, want %q", s.RateUnit, UnitSlots)
	}
	cube, err := hypercube.New(s.Slotted.Dim)
	if err != nil {
		return err
	}
	c.Unit = "slots"
	lmax := cube.LambdaMax()
	c.Saturation = lmax.Lambda
	c.Extra = []Extra{{"lambda_max", lmax.Lambda, "packets/slot/node"}, {"p(lambda_max)", lmax.P, ""}, {"X(lambda_max)", lmax.X, "slots"}, {"d", cube.MeanHops(), "hops"}}
	bern := strings.HasPrefix(c.Model, "jacquet-bernoulli")
	printed := strings.HasSuffix(c.Model, ":printed")
	c.Sim = QDelay
	if bern {
		c.Sim = QDelayContinuous
	}
	for i, lambda := range s.Rates {
		var v float64
		if bern {
			var o hypercube.BernoulliOptions
			if printed {
				o = hypercube.BernoulliOptions{Mu: hypercube.MuPrinted, QPrime: hypercube.QPrimePrintedAppendix, D: hypercube.DPrinted}
			}
			var r hypercube.BernoulliDelay
			r, err = cube.Bernoulli(lambda, o)
			v = r.D
			if err == nil {
				c.Points[i].Extra = append(loadExtra(r.Load), Extra{"mu", r.Mu, "packets/slot"}, Extra{"q0", r.Q0, ""},
					Extra{"q'(1)", r.QPrime, "packets"}, Extra{"M", r.M, "packets"})
			}
		} else {
			var o hypercube.PoissonOptions
			if printed {
				o.Q = hypercube.QPrinted
			}
			var r hypercube.PoissonDelay
			r, err = cube.Poisson(lambda, o)
			v = r.T
			if err == nil {
				c.Points[i].Extra = append(loadExtra(r.Load), Extra{"W", r.W, "slots"})
			}
		}
		setPoint(&c.Points[i], lambda, v, err)
	}
	return nil
}

// loadExtra lists the independence approximation at one rate.
func loadExtra(l hypercube.Load) []Extra {
	return []Extra{{"p", l.P, ""}, {"X", l.X, "slots"}, {"Q", l.Q, "slots^2"}, {"lambda X", l.Lambda * l.X, ""}}
}

// evalNetwork maps a flit-level experiment onto Safaei, DG-R or Dally 1990
// (docs/models.md#safaei-simulator, docs/models.md#dg-simulator): messages/node/cycle from the sweep (converted from
// flits by the mean length), M = the fixed message length. Saturation loads
// are converted back into the sweep's unit.
func evalNetwork(c *Curve, s Setup) error {
	e := s.Network
	nw := e.Network
	if e.Traffic.Length.Distribution != "fixed" {
		return errors.New("the model needs fixed-length messages")
	}
	M := e.Traffic.Length.Flits
	toSweep := 1.0 // sweep unit per message/node/cycle
	if e.Sweep.Unit == configs.UnitFlits {
		toSweep = float64(M)
	}
	c.Sim, c.Unit = QLatency, "cycles"
	if strings.HasPrefix(c.Model, bookSimPrefix) {
		return evalBookSim(c, s, toSweep/float64(M))
	}
	var eval func(lambda float64) (float64, []Extra, error)
	var sat float64
	var err error
	switch {
	case strings.HasPrefix(c.Model, "safaei"):
		if nw.Topology != "torus" || nw.Dimensions != 2 || !nw.Bidirectional {
			return fmt.Errorf("needs a bidirectional 2-D torus, have %s (radix %d, %d dims)", nw.Topology, nw.Radix, nw.Dimensions)
		}
		if e.Traffic.Pattern != "uniform" {
			return fmt.Errorf("Safaei et al. is evaluated for uniform traffic only (seed 004 §3.1), have %q", e.Traffic.Pattern)
		}
		p := scouting.Params{Radix: nw.Radix, M: M, V: e.Router.VCs, K: e.Switching.ScoutingDistance}
		if strings.HasSuffix(c.Model, ":printed") {
			p.Variant = scouting.Printed
		}
		if sat, err = scouting.Saturation(p); err != nil {
			return err
		}
		eval = func(l float64) (float64, []Extra, error) {
			r, err := scouting.Solve(p, l)
			return r.Latency, []Extra{{"Sbar", r.Sbar, "cycles"}, {"Cbar", r.Cbar, "cycles"}, {"l_c", r.Lc, "messages/cycle"},
				{"P_V", r.PV, ""}, {"Ws", r.Ws, "cycles"}, {"Vbar", r.Vbar, ""}, {"iterations", float64(r.Iterations), ""}}, err
		}
	case strings.HasPrefix(c.Model, "draper-ghosh"), c.Model == "dally1992":
		k, n := nw.Radix, nw.Dimensions
		switch {
		case nw.Topology == "hypercube":
			k = 2
		case nw.Topology == "torus" && !nw.Bidirectional:
		case nw.Topology == "ring" && !nw.Bidirectional:
			n = 1
		default:
			return fmt.Errorf("DG-R needs a unidirectional torus or ring or a binary hypercube, have %s (bidirectional %v)", nw.Topology, nw.Bidirectional)
		}
		if e.Traffic.Pattern != "uniform" {
			return fmt.Errorf("DG-R is evaluated for uniform traffic only, have %q", e.Traffic.Pattern)
		}
		g, err := wormhole.NewUniform(k, n)
		if err != nil {
			return err
		}
		opt := wormhole.Options{M: M}
		switch c.Model {
		case "draper-ghosh:exclude-own-flow":
			opt.ExcludeOwnFlow = true
		case "draper-ghosh:vc-multiplexing", "dally1992":
			opt.VCMultiplexing = true
		}
		if sat, err = g.Saturation(opt); err != nil {
			return err
		}
		eval = func(l float64) (float64, []Extra, error) {
			r, err := g.Latency(l, opt)
			return r.Latency, []Extra{{"S_INJ", r.SInj, "cycles"}, {"W_INJ", r.WInj, "cycles"}, {"W_EJ", r.WEj, "cycles"},
				{"Dbar", r.Dbar, "hops"}, {"Vbar", r.Vbar, ""}}, err
		}
	case c.Model == "dally1990":
		if nw.Bidirectional || (nw.Topology != "torus" && nw.Topology != "ring") {
			return fmt.Errorf("Dally 1990 needs a unidirectional k-ary n-cube, have %s (bidirectional %v)", nw.Topology, nw.Bidirectional)
		}
		n := nw.Dimensions
		if nw.Topology == "ring" {
			n = 1
		}
		if sat, err = wormhole.Dally1990Saturation(nw.Radix, float64(M)); err != nil {
			return err
		}
		eval = func(l float64) (float64, []Extra, error) {
			r, err := wormhole.Dally1990(nw.Radix, n, float64(M), l)
			return r.Latency, []Extra{{"T_0", r.T0, "cycles"}, {"rho", r.Rho, ""}}, err
		}
	default:
		return fmt.Errorf("no network-mode mapping")
	}
	c.Saturation = sat * toSweep
	c.Extra = []Extra{{"saturation", sat, "messages/node/cycle"}}
	for i, rate := range s.Rates {
		v, ex, err := eval(e.MessageRate(i))
		setPoint(&c.Points[i], rate, v, err)
		if err == nil {
			c.Points[i].Extra = ex
		}
	}
	return nil
}

// evalBookSim sets c to BookSim's measured latency at every sweep load
// (validation/booksim; docs/booksim.md). toSweep converts flits/node/cycle,
// BookSim's unit, into the sweep's. A load BookSim was not run at is out of
// domain; one where every BookSim run ended "unstable" (latency above its
// latency_thres) is saturated. The curve's saturation is BookSim's
// saturation throughput (sim_type = throughput at offered load 1.0), or
// none where that run deadlocks (ref-adaptive's mesh and torus: every load
// is then judged).
func evalBookSim(c *Curve, s Setup, toSweep float64) error {
	ref, err := bookSimRef()
	if err != nil {
		return err
	}
	name := strings.TrimPrefix(c.Model, bookSimPrefix)
	cv := ref.Curve(name)
	if len(cv.Loads) == 0 {
		return fmt.Errorf("the BookSim reference has no figures for %s", name)
	}
	if cv.Saturation.N > 0 {
		c.Saturation = cv.Saturation.Mean * toSweep
		c.Extra = []Extra{{"saturation throughput", cv.Saturation.Mean, "flits/node/cycle"}, {"BookSim seeds", float64(cv.Saturation.N), ""}}
	}
	for i, rate := range s.Rates {
		flits := rate / toSweep
		p := &c.Points[i]
		p.Rate, p.Value, p.Status = rate, math.NaN(), sim.StatusOutOfDomain
		p.Reason = fmt.Sprintf("BookSim was not run at %.4f flits/node/cycle", flits)
		for _, l := range cv.Loads {
			if math.Abs(l.Offered-flits) > 5e-5 {
				continue
			}
			if l.Latency.N == 0 {
				p.Status, p.Reason = sim.StatusSaturated, fmt.Sprintf("all %d BookSim runs unstable", l.Unstable)
				break
			}
			p.Value, p.Status, p.Reason = l.Latency.Mean, sim.StatusOK, ""
			p.Extra = []Extra{{"BookSim min", l.Latency.Min, "cycles"}, {"BookSim max", l.Latency.Max, "cycles"},
				{"fraction of saturation", l.Fraction, ""}}
			break
		}
	}
	return nil
}

// maxStageLoss returns the largest per-stage rejection probability p_L,i of
// a Makrucki–Mudge solution (0 without stages).
func maxStageLoss(r delta.Result) float64 {
	pl := 0.0
	for _, st := range r.Stages {
		pl = max(pl, st.PL)
	}
	return pl
}
