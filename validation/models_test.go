package validation

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/sim/closed"
	simdelta "github.com/flitsim/flitsim/sim/delta"
	"github.com/flitsim/flitsim/sim/slotted"
	"github.com/flitsim/flitsim/traffic"
)

// netExp parses a network-mode experiment for the bridge tests.
func netExp(t testing.TB, yaml string) *configs.Experiment {
	t.Helper()
	e, err := configs.Parse("test.yaml", []byte(yaml))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return e
}

const safaeiYAML = `
name: safaei-8x8
network: {topology: torus, radix: 8, dimensions: 2}
router: {vcs: 2, buffer_depth: 2}
routing: random-minimal
traffic: {pattern: uniform, process: poisson, length: {distribution: fixed, flits: 32}}
sweep: {unit: messages/node/cycle, rates: [0.001, 0.004, 0.010]}
models: [safaei]
`

const dgYAML = `
name: dg-torus
network: {topology: torus, radix: 8, dimensions: 2, bidirectional: false}
router: {vcs: 2, buffer_depth: 1}
routing: dimension-order
traffic: {pattern: uniform, process: poisson, length: {distribution: fixed, flits: 32}}
sweep: {unit: flits/node/cycle, rates: [0.0032, 0.0192, 0.032]}
models: [draper-ghosh, dally1990]
`

const dgCubeYAML = `
name: dg-cube
network: {topology: hypercube, dimensions: 6}
router: {vcs: 2, buffer_depth: 1}
routing: dimension-order
traffic: {pattern: uniform, process: poisson, length: {distribution: fixed, flits: 32}}
sweep: {unit: messages/node/cycle, rates: [0.002, 0.005, 0.010, 0.02]}
models: [draper-ghosh]
`

func reedSetup(rates ...float64) Setup {
	return Setup{
		Name: "reed", RateUnit: UnitPopulation, Rates: rates,
		Models: []string{"reed-mva", "reed-bounds"},
		Closed: &closed.Config{Network: closed.Ring, Radix: 15},
	}
}

// TestModelPins checks the bridge end to end against the pinned values of
// docs/models.md: if a parameter were mapped or a unit converted wrongly,
// these would move. Tolerance 1e-7 relative (the pins carry 8-9 digits).
func TestModelPins(t *testing.T) {
	dgTorus, dgCube, saf := netExp(t, dgYAML), netExp(t, dgCubeYAML), netExp(t, safaeiYAML)
	mustSetup := func(e *configs.Experiment) Setup {
		s, err := FromExperiment(e)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	cases := []struct {
		name, model string
		setup       Setup
		point       int
		want        float64
		source      string
	}{
		{"reed N=1", "reed-mva", reedSetup(1, 2, 3, 10), 0, 0.2, "docs/models.md#reed-pins MVA table"},
		{"reed N=2", "reed-mva", reedSetup(1, 2, 3, 10), 1, 75.0 / 196, "docs/models.md#reed-pins exact 75/196"},
		{"reed N=3", "reed", reedSetup(1, 2, 3, 10), 2, 441.0 / 802, "docs/models.md#reed-pins exact 441/802"},
		{"reed N=10", "reed-mva", reedSetup(1, 2, 3, 10), 3, 1.40539932686107, "docs/models.md#reed-pins"},
		{"reed BJB lower N=10", "reed-bjb-lower", reedSetup(1, 2, 3, 10), 3, 1.35135135, "docs/models.md#reed-pins"},
		{"reed BJB upper N=10", "reed-bjb-upper", reedSetup(1, 2, 3, 10), 3, 1.53846154, "docs/models.md#reed-pins"},
		{"reed asymptotic N=10", "reed-asymptotic", reedSetup(1, 2, 3, 10), 3, 2.0, "docs/models.md#reed-pins"},
		{"makrucki printed L=2 rho=.2", "makrucki:printed", deltaSetup(2, simdelta.ResubmitSource, 0.2, 0.5), 0, 3.51105148, "docs/models.md#makrucki-pins"},
		{"makrucki corrected L=2 rho=.2", "makrucki", deltaSetup(2, simdelta.ResubmitSource, 0.2, 0.5), 0, 3.617962963, "docs/models.md#makrucki-pins"},
		{"makrucki retry L=2 rho=.2", "makrucki", deltaSetup(2, simdelta.RetryPrevious, 0.2, 0.5), 0, 3.577777778, "docs/models.md#makrucki-pins"},
		{"makrucki NTP L=2 rho=.2", "makrucki", deltaSetup(2, simdelta.Drop, 0.2, 0.5), 0, 11.56129032, "docs/models.md#makrucki-pins"},
		{"makrucki L=4 rho=.5", "makrucki-pdt", deltaSetup(4, simdelta.Drop, 0.2, 0.5), 1, 5.375259259, "docs/models.md#makrucki-pins"},
		{"makrucki NTP single L=2 rho=.2", "makrucki-ntp:single-stage", deltaSetup(2, simdelta.Drop, 0.2, 0.5), 0, 12.38709677, "docs/models.md#makrucki-pins"},
		{"jacquet T n=4 0.05", "jacquet", slottedSetup(4, 0.01, 0.05, 0.1), 1, 2.5742418, "docs/models.md#jacquet-pins"},
		{"jacquet T n=4 0.1", "jacquet-poisson", slottedSetup(4, 0.01, 0.05, 0.1), 2, 3.6280761, "docs/models.md#jacquet-pins"},
		{"jacquet D n=4 .5 lmax", "jacquet-bernoulli", slottedSetup(4, 0.093565176), 0, 3.7887723, "docs/models.md#jacquet-pins"},
		{"jacquet D printed n=4 .5 lmax", "jacquet-bernoulli:printed", slottedSetup(4, 0.093565176), 0, 0, "skip"},
		{"safaei K=0 0.004", "safaei", mustSetup(saf), 1, 51.909118, "docs/models.md#safaei-pins"},
		{"safaei K=0 0.001", "safaei", mustSetup(saf), 0, 42.353835, "docs/models.md#safaei-pins"},
		{"safaei printed K=0 0.010", "safaei:printed", mustSetup(saf), 2, 75.148550, "docs/models.md#safaei-pins printed"},
		{"DG-R torus 6e-4 (flits 0.0192)", "draper-ghosh", mustSetup(dgTorus), 1, 48.497041, "docs/models.md#dg-pins"},
		{"DG-R torus 1e-4 (flits 0.0032)", "draper-ghosh", mustSetup(dgTorus), 0, 40.249376, "docs/models.md#dg-pins"},
		{"DG-R cube 0.005", "draper-ghosh", mustSetup(dgCube), 1, 49.822322, "docs/models.md#dg-pins"},
		{"DG-R cube 0.010", "draper-ghosh", mustSetup(dgCube), 2, 156.903587, "docs/models.md#dg-pins"},
	}
	for _, tc := range cases {
		if tc.source == "skip" {
			continue
		}
		c, err := EvaluateModel(tc.setup, tc.model)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		p := c.Points[tc.point]
		tol := 1e-7
		if strings.Contains(tc.source, "4 decimals") {
			tol = 1e-5
		}
		// The value is pinned whatever the status: a Makrucki point beyond
		// MakruckiMaxLoss is out of domain but keeps its value.
		if p.Status == sim.StatusSaturated || !(math.Abs(p.Value-tc.want) <= tol*tc.want) {
			t.Errorf("%s: got %v (%s %s), want %v (%s)", tc.name, p.Value, p.Status, p.Reason, tc.want, tc.source)
		}
	}
}

func deltaSetup(L int, rejection string, rhos ...float64) Setup {
	return Setup{
		Name: "delta", RateUnit: UnitRho, Rates: rhos, Models: []string{"makrucki"},
		Delta: &simdelta.Config{Degree: 4, Stages: 3, QueueLength: L, Mu: 1, Rejection: rejection},
	}
}

func slottedSetup(n int, rates ...float64) Setup {
	return Setup{
		Name: "slotted", RateUnit: UnitSlots, Rates: rates, Models: []string{"jacquet", "jacquet-bernoulli"},
		Slotted: &slotted.Config{Dim: n},
	}
}

// TestModelStatuses checks the classification of model errors and the
// saturation loads in the sweep's unit.
func TestModelStatuses(t *testing.T) {
	// Safaei K=3 is saturated at 0.010 (docs/models.md#safaei-pins).
	// Loaded as the configs/validation/safaei-* files are: adaptive
	// routing, scouting switching in mode network.
	e := netExp(t, strings.Replace(strings.Replace(safaeiYAML, "routing: random-minimal", "routing: adaptive", 1),
		"models:", "switching: {technique: scouting, scouting_distance: 3}\nmodels:", 1))
	s, err := FromExperiment(e)
	if err != nil {
		t.Fatal(err)
	}
	c, err := EvaluateModel(s, "safaei")
	if err != nil {
		t.Fatal(err)
	}
	if c.Points[2].Status != sim.StatusSaturated || math.Abs(c.Points[1].Value-62.183050) > 1e-6 {
		t.Errorf("safaei K=3: %+v, want 62.183050 at 0.004 and saturated at 0.010 (docs/models.md#safaei-pins)", c.Points)
	}

	// Jacquet: lambda_max(n=4) = 0.187130351326; 0.2 is saturated.
	c, err = EvaluateModel(slottedSetup(4, 0.1, 0.2), "jacquet")
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(c.Saturation-0.187130351326) > 1e-11 || c.Points[1].Status != sim.StatusSaturated || c.Points[0].Status != sim.StatusOK {
		t.Errorf("jacquet: sat %v, points %+v", c.Saturation, c.Points)
	}

	// Makrucki L=2: rho_I(2) = 0.36246012, rho_0(2) = 3.887 (docs/models.md#makrucki-domain):
	// rho = 0.5 lies between the Case I and Case II regions, so it is out of
	// the model's domain, but the value is Case I's (Figure 6 draws Case I
	// over the whole range): exact 39457/9261 printed, 127/27 corrected.
	for _, m := range []struct {
		model string
		want  float64
	}{{"makrucki:printed", 39457.0 / 9261}, {"makrucki", 127.0 / 27}} {
		c, err = EvaluateModel(deltaSetup(2, simdelta.ResubmitSource, 0.01, 0.3, 0.5), m.model)
		if err != nil {
			t.Fatal(err)
		}
		// rho = 0.01: p_L per stage < 0.002, ok; rho = 0.3: inside Case I
		// but the largest stage p_L = 0.0647 >= MakruckiMaxLoss; rho = 0.5:
		// no case valid.
		if c.Points[0].Status != sim.StatusOK || c.Points[1].Status != sim.StatusOutOfDomain || c.Points[2].Status != sim.StatusOutOfDomain ||
			!strings.Contains(c.Points[1].Reason, "p_L = 0.0647") || !strings.Contains(c.Points[2].Reason, "Case I") ||
			!math.IsNaN(c.Saturation) || math.Abs(c.Points[2].Value-m.want) > 1e-12*m.want {
			t.Errorf("%s L=2: %+v sat %v, want ok, out-of-domain (loss), out-of-domain %v", m.model, c.Points, c.Saturation, m.want)
		}
	}

	// DG-R on the 8-ary 2-cube saturates near 0.001380 msgs (docs/models.md#dg-pins),
	// i.e. 0.04416 flits/node/cycle at M = 32.
	s, err = FromExperiment(netExp(t, dgYAML))
	if err != nil {
		t.Fatal(err)
	}
	c, err = EvaluateModel(s, "draper-ghosh")
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(c.Saturation/32-0.001380) > 0.000005 {
		t.Errorf("DG-R saturation %v flits (%v msgs), want ~0.001380 msgs", c.Saturation, c.Saturation/32)
	}

	// Reed: a non-integer population is out of the model's domain.
	c, err = EvaluateModel(reedSetup(1.5, 2), "reed-mva")
	if err != nil {
		t.Fatal(err)
	}
	if c.Points[0].Status != sim.StatusOutOfDomain || c.Points[1].Status != sim.StatusOK {
		t.Errorf("reed 1.5: %+v", c.Points)
	}
}

// TestModelRefusals checks that models never silently apply to a setup they
// cannot represent.
func TestModelRefusals(t *testing.T) {
	dg, _ := FromExperiment(netExp(t, dgYAML))
	saf, _ := FromExperiment(netExp(t, safaeiYAML))
	mesh := reedSetup(1, 2)
	mesh.Closed = &closed.Config{Network: closed.Mesh, Radix: 4, Dims: 2}
	hot := reedSetup(1, 2)
	hot.Closed = &closed.Config{Network: closed.Ring, Radix: 15, Pattern: traffic.PatternSpec{Name: "hotspot"}}
	cases := []struct {
		name  string
		s     Setup
		model string
		want  string
	}{
		{"unknown", dg, "nope", "unknown model"},
		{"wrong mode", dg, "reed", "applies to mode closed"},
		{"safaei on unidirectional", dg, "safaei", "bidirectional 2-D torus"},
		{"DG-R on bidirectional", saf, "draper-ghosh", "unidirectional"},
		{"mesh MVA", mesh, "reed-mva", "not symmetric"},
		{"hotspot MVA", hot, "reed-mva", "routing distributions"},
		{"group", reedSetup(1), "reed-bounds", "group"},
	}
	for _, tc := range cases {
		_, err := EvaluateModel(tc.s, tc.model)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, err := FromExperiment(&configs.Experiment{Name: "x", Mode: "closed"}); err == nil {
		t.Error("FromExperiment accepted mode closed")
	}
	cs, err := Evaluate(reedSetup(1, 2, 3))
	if err != nil || len(cs) != 4 {
		t.Fatalf("Evaluate reed: %d curves, %v", len(cs), err)
	}
	for _, c := range cs {
		for i := range c.Points {
			if c.Bound == Lower && c.Points[i].Value > cs[0].Points[i].Value+1e-12 ||
				c.Bound == Upper && c.Points[i].Value < cs[0].Points[i].Value-1e-12 {
				t.Errorf("%s at N=%v: %v does not bound MVA %v", c.Model, c.Points[i].Rate, c.Points[i].Value, cs[0].Points[i].Value)
			}
		}
	}
}

// BenchmarkEvaluateAll evaluates every model family over 100 sweep points:
// the cost of `flitsim model` (issue 4 point 8: milliseconds).
func BenchmarkEvaluateAll(b *testing.B) {
	rates := func(n int, lo, hi float64) []float64 {
		r := make([]float64, n)
		for i := range r {
			r[i] = lo + (hi-lo)*float64(i)/float64(n-1)
		}
		return r
	}
	ints := make([]float64, 100)
	for i := range ints {
		ints[i] = float64(i + 1)
	}
	reedS := reedSetup(ints...)
	deltaS := deltaSetup(4, simdelta.ResubmitSource, rates(100, 0.01, 1.0)...)
	deltaS.Models = []string{"makrucki", "makrucki:printed", "makrucki-retry", "makrucki-ntp"}
	slotS := slottedSetup(6, rates(100, 0.001, 0.14)...)
	list := func(r []float64) string {
		s := make([]string, len(r))
		for i, v := range r {
			s[i] = strconv.FormatFloat(v, 'g', -1, 64)
		}
		return "[" + strings.Join(s, ", ") + "]"
	}
	saf, err := FromExperiment(netExp(b, strings.Replace(safaeiYAML, "[0.001, 0.004, 0.010]", list(rates(100, 0.0001, 0.012)), 1)))
	if err != nil {
		b.Fatal(err)
	}
	saf.Models = []string{"safaei", "safaei:printed"}
	dg, err := FromExperiment(netExp(b, strings.Replace(dgYAML, "[0.0032, 0.0192, 0.032]", list(rates(100, 0.0001, 0.05)), 1)))
	if err != nil {
		b.Fatal(err)
	}
	dg.Models = []string{"draper-ghosh", "draper-ghosh:exclude-own-flow", "draper-ghosh:vc-multiplexing", "dally1990"}
	reedS.Name, deltaS.Name, slotS.Name, saf.Name, dg.Name = "reed", "makrucki", "jacquet", "safaei", "draper-ghosh"
	setups := []Setup{reedS, deltaS, slotS, saf, dg}
	b.Run("all", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range setups {
				if _, err := Evaluate(s); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	for _, s := range setups {
		b.Run(s.Name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Evaluate(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
