// Package errata evaluates the errata register of docs/errata.md: for each
// of the eighteen errors and ambiguities found in the five papers (E1–E18),
// the value flitsim computes by default and the value of the printed form
// (or of the other reading) at the example points the register quotes, so
// that the difference can be seen in numbers (`flitsim errata`).
//
// Every number comes from the model packages themselves (analytic/reed,
// delta, hypercube, scouting, wormhole) through their variant options; only
// where a package has no option for a reading that is dimensionally or
// logically impossible to select (E12, E15, E16) is the
// alternative computed here, from the package's own intermediate results,
// and the row says so.
package errata

import (
	"fmt"
	"math"
	"strings"

	"github.com/flitsim/flitsim/analytic/delta"
	"github.com/flitsim/flitsim/analytic/hypercube"
	"github.com/flitsim/flitsim/analytic/queue"
	"github.com/flitsim/flitsim/analytic/reed"
	"github.com/flitsim/flitsim/analytic/scouting"
	"github.com/flitsim/flitsim/analytic/wormhole"
)

// Row is one quantity evaluated both ways.
type Row struct {
	// Quantity names the value and the point it is evaluated at.
	Quantity string
	// Default is what flitsim computes by default.
	Default float64
	// Variant is the printed form or the other reading; NaN when the paper
	// offers nothing that can be evaluated.
	Variant float64
}

// Entry is one erratum.
type Entry struct {
	ID      string // "E1" .. "E18"; the anchor is docs/errata.md#e1 ..
	Paper   string
	Title   string
	Variant string // how the variant column is obtained (a model name or an option)
	rows    func() ([]Row, error)
}

// Anchor returns the entry's documentation reference, docs/errata.md#e1 to #e18.
func (e Entry) Anchor() string { return "docs/errata.md#" + strings.ToLower(e.ID) }

// Rows evaluates the entry.
func (e Entry) Rows() ([]Row, error) { return e.rows() }

// Entries returns the register in order E1..E18.
func Entries() []Entry { return entries }

// Find returns the entry with the given id (case-insensitive, "e4" or "E4").
func Find(id string) (Entry, bool) {
	for _, e := range entries {
		if strings.EqualFold(e.ID, id) {
			return e, true
		}
	}
	return Entry{}, false
}

var nan = math.NaN()

// must panics on an error from a model evaluated at the fixed, valid
// example points of the register; Rows recovers it into an error.
func must[T any](v T, err error) T {
	if err != nil {
		panic(errataError{err})
	}
	return v
}

type errataError struct{ err error }

func guard(f func() []Row) func() ([]Row, error) {
	return func() (rows []Row, err error) {
		defer func() {
			if r := recover(); r != nil {
				e, ok := r.(errataError)
				if !ok {
					panic(r)
				}
				err = e.err
			}
		}()
		return f(), nil
	}
}

// The example networks of the register.
var (
	fig6 = []delta.Network{{Sources: 64, Degree: 4, Queue: 2, Mu: 1}, {Sources: 64, Degree: 4, Queue: 4, Mu: 1}} // Makrucki's Figure 6, L = 2 and 4
	saf  = scouting.Params{Radix: 8, M: 32, V: 2}                                                                // Safaei 8x8, M = 32, V = 2
)

func ring15() reed.Profile { return must(reed.Ring(15)) }

func cube(n int) hypercube.Cube { return must(hypercube.New(n)) }

func decayX0(d float64, v reed.Variant, n int) float64 {
	r := must(reed.Decay(ring15(), d, v))
	w := must(reed.NetworkWorkload(r, reed.HalfDuplex, 1, 1))
	return must(w.X0(n))
}

func safaei(p scouting.Params, lg float64) scouting.Result { return must(scouting.Solve(p, lg)) }

var entries = []Entry{
	{ID: "E1", Paper: "Reed 1983", Title: "ring sphere-of-locality mean distance",
		Variant: "printed: reed.RingLocalityLV(..., reed.Printed)",
		rows: guard(func() []Row {
			return []Row{
				{"LV, 15-node ring, phi = 0.5, L = 2", must(reed.RingLocalityLV(15, 0.5, 2, reed.Corrected)), must(reed.RingLocalityLV(15, 0.5, 2, reed.Printed))},
				{"LV, 15-node ring, phi = 0.8, L = 1", must(reed.RingLocalityLV(15, 0.8, 1, reed.Corrected)), must(reed.RingLocalityLV(15, 0.8, 1, reed.Printed))},
				{"LV by the general Eq. (2), phi = 0.5, L = 2", must(reed.LocalityLV(ring15(), 0.5, 2)), nan},
			}
		})},
	{ID: "E2", Paper: "Reed 1983", Title: "decreasing-probability distribution, Eq. (3)",
		Variant: "printed: reed-mva:printed; reed.Decay(..., reed.Printed)",
		rows: guard(func() []Row {
			r := must(reed.Decay(ring15(), 0.5, reed.Corrected))
			p := must(reed.Decay(ring15(), 0.5, reed.Printed))
			return []Row{
				{"sum of Phi(l), 15-node ring, d = 0.5", r.CDF(7), p.CDF(7)},
				{"LV, 15-node ring, d = 0.5", r.LV(), p.LV()},
				{"LV, l_max = 1, d = 0.5 (must be 1)", must(reed.DecayLV(1, 0.5, reed.Corrected)), must(reed.DecayLV(1, 0.5, reed.Printed))},
				{"MVA X_0(10), same ring, unit service", decayX0(0.5, reed.Corrected, 10), decayX0(0.5, reed.Printed, 10)},
			}
		})},
	{ID: "E3", Paper: "Reed 1983", Title: "ring against bus crossing point",
		Variant: "printed: reed.RingBusCrossingLow(..., reed.Printed)",
		rows: guard(func() []Row {
			ring := must(reed.NetworkWorkload(must(reed.Uniform(ring15())), reed.HalfDuplex, 1, 1))
			bus := must(reed.NetworkWorkload(must(reed.Uniform(must(reed.Bus(15)))), reed.HalfDuplex, 1, 1))
			return []Row{
				{"N_low_cross, K = 15", must(reed.RingBusCrossingLow(15, reed.Corrected)), must(reed.RingBusCrossingLow(15, reed.Printed))},
				{"N_low_cross from the workloads (CrossingLow)", must(reed.CrossingLow(ring, bus)), nan},
				{"N_high_cross (upper bounds)", must(reed.CrossingHigh(ring, bus)), nan},
				{"crossing of the exact MVA curves", must(reed.CrossingMVA(ring, bus, 200)), nan},
			}
		})},
	{ID: "E4", Paper: "Makrucki & Mudge", Title: "the delay with resubmission, Eq. (5)",
		Variant: "printed: makrucki:printed; delta.PDTPrinted",
		rows: guard(func() []Row {
			var rows []Row
			for i, rho := range []float64{0.2, 0.5} { // inside Case I's region (rho_I(2) = 0.362, rho_I(4) = 0.544)
				c := must(fig6[i].Solve(rho, delta.Options{}))
				p := must(fig6[i].Solve(rho, delta.Options{PDT: delta.PDTPrinted}))
				rows = append(rows, Row{fmt.Sprintf("PDT, n = 64, b = 4, L = %d, rho = %g", fig6[i].Queue, rho), c.PDT, p.PDT})
			}
			return rows
		})},
	{ID: "E5", Paper: "Makrucki & Mudge", Title: "Case I throughput",
		Variant: "other reading: makrucki-ntp:single-stage; delta.NTPSingleStage",
		rows: guard(func() []Row {
			var rows []Row
			for i, rho := range []float64{0.2, 0.5} {
				c := must(fig6[i].Solve(rho, delta.Options{}))
				p := must(fig6[i].Solve(rho, delta.Options{NTP: delta.NTPSingleStage}))
				rows = append(rows, Row{fmt.Sprintf("NTP, n = 64, b = 4, L = %d, rho = %g", fig6[i].Queue, rho), c.NTP, p.NTP})
			}
			return rows
		})},
	{ID: "E6", Paper: "Makrucki & Mudge", Title: "interdeparture density uses the time-average p_0",
		Variant: "exact: delta.EmptyAtDeparture (the default keeps the report's p_0)",
		rows: guard(func() []Row {
			q := must(queue.NewMM1L(0.5, 1, 2))
			return []Row{
				{"mean interdeparture time, rho = 0.5, L = 2", must(delta.InterdepartureMean(0.5, 1, 2, delta.EmptyTimeAverage)), must(delta.InterdepartureMean(0.5, 1, 2, delta.EmptyAtDeparture))},
				{"1/lambda_eff (what the mean must be)", 1 / q.Accepted(), nan},
			}
		})},
	{ID: "E7", Paper: "Makrucki & Mudge", Title: "everything else in the report (OCR)",
		Variant: "none: the scan is unreadable",
		rows: guard(func() []Row {
			q := must(queue.NewMM1L(0.5, 1, 2))
			c := must(fig6[1].Solve(0.5, delta.Options{}))
			return []Row{
				{"p_L of M/M/1/L, rho = 0.5, L = 2 (reading R3)", q.Blocking(), nan},
				{"E[T] of M/M/1/L, rho = 0.5, L = 2 (reading R8)", q.MeanTime(), nan},
				{"P = (1 - p_L)^3, n = 64, b = 4, L = 4, rho = 0.5", c.P, nan},
			}
		})},
	{ID: "E8", Paper: "Jacquet & Mühlethaler", Title: "transit arrival rate mu of the Bernoulli model",
		Variant: "printed: hypercube.MuPrinted (in jacquet-bernoulli:printed)",
		rows: guard(func() []Row {
			c := cube(4)
			lmax := c.LambdaMax().Lambda
			corr := must(c.Bernoulli(0.5*lmax, hypercube.BernoulliOptions{}))
			pr := must(c.Bernoulli(0.5*lmax, hypercube.BernoulliOptions{Mu: hypercube.MuPrinted}))
			near := 0.999999 * lmax
			cn := must(c.Bernoulli(near, hypercube.BernoulliOptions{}))
			pn := must(c.Bernoulli(near, hypercube.BernoulliOptions{Mu: hypercube.MuPrinted}))
			return []Row{
				{"mu, n = 4, 0.5 lambda_max", corr.Mu, pr.Mu},
				{"D, n = 4, 0.5 lambda_max (mu alone changed)", corr.D, pr.D},
				{"q0 at 0.999999 lambda_max (0 at saturation)", cn.Q0, pn.Q0},
			}
		})},
	{ID: "E9", Paper: "Jacquet & Mühlethaler", Title: "normalisation of Q",
		Variant: "printed: jacquet-poisson:printed; hypercube.QPrinted",
		rows: guard(func() []Row {
			c := cube(4)
			lmax := c.LambdaMax().Lambda
			var rows []Row
			for _, f := range []float64{0.05, 0.5, 0.9} {
				d := must(c.Poisson(f*lmax, hypercube.PoissonOptions{}))
				p := must(c.Poisson(f*lmax, hypercube.PoissonOptions{Q: hypercube.QPrinted}))
				rows = append(rows, Row{fmt.Sprintf("T, n = 4, %g lambda_max", f), d.T, p.T})
			}
			return rows
		})},
	{ID: "E10", Paper: "Jacquet & Mühlethaler", Title: "q'(1), the mean embedded queue length",
		Variant: "printed: hypercube.QPrimePrintedAppendix (in jacquet-bernoulli:printed), hypercube.QPrimePrintedMain",
		rows: guard(func() []Row {
			c := cube(4)
			l := 0.5 * c.LambdaMax().Lambda
			d := must(c.Bernoulli(l, hypercube.BernoulliOptions{}))
			a := must(c.Bernoulli(l, hypercube.BernoulliOptions{QPrime: hypercube.QPrimePrintedAppendix}))
			m := must(c.Bernoulli(l, hypercube.BernoulliOptions{QPrime: hypercube.QPrimePrintedMain}))
			return []Row{
				{"q'(1), n = 4, 0.5 lambda_max, appendix version", d.QPrime, a.QPrime},
				{"q'(1), n = 4, 0.5 lambda_max, main-text version", d.QPrime, m.QPrime},
				{"D, appendix version", d.D, a.D},
			}
		})},
	{ID: "E11", Paper: "Jacquet & Mühlethaler", Title: "the Bernoulli model's delay D",
		Variant: "printed: hypercube.DPrinted (in jacquet-bernoulli:printed)",
		rows: guard(func() []Row {
			c := cube(4)
			lmax := c.LambdaMax().Lambda
			var rows []Row
			for _, f := range []float64{0.25, 0.5} {
				d := must(c.Bernoulli(f*lmax, hypercube.BernoulliOptions{}))
				p := must(c.Bernoulli(f*lmax, hypercube.BernoulliOptions{D: hypercube.DPrinted}))
				rows = append(rows, Row{fmt.Sprintf("D, n = 4, %g lambda_max", f), d.D, p.D})
			}
			return append(rows, Row{"minimum possible delay d, n = 4", c.MeanHops(), nan})
		})},
	{ID: "E12", Paper: "Jacquet & Mühlethaler", Title: "per-packet symbols where per-hop moments are meant",
		Variant: "literal: X, Q in place of x1, x2 in M (computed here; no model option)",
		rows: guard(func() []Row {
			c := cube(4)
			l := 0.5 * c.LambdaMax().Lambda
			r := must(c.Bernoulli(l, hypercube.BernoulliOptions{}))
			lit := func(x1, x2 float64) float64 {
				return (r.QPrime*x1 + l/2*((1-r.Q0)*x2+r.Q0) + r.Mu/2*(1-r.Q0)*(x2-x1)) / ((1-r.Q0)*x1 + r.Q0)
			}
			return []Row{
				{"M, n = 4, 0.5 lambda_max", r.M, lit(r.X, r.Q)},
				{"M recomputed from x1 = X/d, x2 = Q/d (check)", lit(r.X1, r.X2), nan},
			}
		})},
	{ID: "E13", Paper: "Safaei et al.", Title: "Eq. (8), i < kbar",
		Variant: "printed: safaei:printed; scouting.Printed",
		rows: guard(func() []Row {
			p := saf
			p.Variant = scouting.Printed
			k3, k3p := saf, p
			k3.K, k3p.K = 3, 3
			return []Row{
				{"latency, 8x8, M = 32, V = 2, K = 0, l_g = 0.004", safaei(saf, 0.004).Latency, safaei(p, 0.004).Latency},
				{"latency, same, K = 0, l_g = 0.010", safaei(saf, 0.010).Latency, safaei(p, 0.010).Latency},
				{"latency, same, K = 3, l_g = 0.008", safaei(k3, 0.008).Latency, safaei(k3p, 0.008).Latency},
			}
		})},
	{ID: "E14", Paper: "Safaei et al.", Title: "the number of virtual channels",
		Variant: "other reading: V - 1 VCs (the model given V = 1)",
		rows: guard(func() []Row {
			one := saf
			one.V = 1
			return []Row{
				{"latency, 8x8, M = 32, V = 2, K = 0, l_g = 0.004", safaei(saf, 0.004).Latency, safaei(one, 0.004).Latency},
				{"saturation l_g, same", must(scouting.Saturation(saf)), must(scouting.Saturation(one))},
			}
		})},
	{ID: "E15", Paper: "Safaei et al.", Title: "2K - 1 at K = 0 in Eqs. (7), (11)",
		Variant: "other reading: no -1 term at K = 0 (computed here; no model option)",
		rows: guard(func() []Row {
			r := safaei(saf, 0)
			return []Row{
				{"Cbar, 8x8, M = 32, K = 0, zero load", r.Cbar, r.Cbar + 1},
				{"zero-load latency Sbar_0", r.Sbar, r.Sbar + 1},
			}
		})},
	{ID: "E16", Paper: "Safaei et al.", Title: "Eq. (4) counts the header distance twice",
		Variant: "without the second Dbar (computed here; the model keeps it)",
		rows: guard(func() []Row {
			var rows []Row
			for _, k := range []int{8, 16} {
				p := saf
				p.Radix = k
				_, dbar := must2(scouting.Distances(k))
				r := safaei(p, 0)
				rows = append(rows, Row{fmt.Sprintf("zero-load latency, %dx%d, M = 32, K = 0", k, k), r.Latency, r.Latency - float64(dbar)})
			}
			return rows
		})},
	{ID: "E17", Paper: "Draper & Ghosh", Title: "the model is missing; DG-R reconstructs it",
		Variant: "reading: draper-ghosh:exclude-own-flow (the plain reading is the default of the package)",
		rows: guard(func() []Row {
			g := must(wormhole.NewUniform(8, 2))
			plain := wormhole.Options{M: 32}
			eof := wormhole.Options{M: 32, ExcludeOwnFlow: true}
			return []Row{
				{"T, unidirectional 8-ary 2-cube, M = 32, lambda = 6e-4", must(g.Latency(6e-4, plain)).Latency, must(g.Latency(6e-4, eof)).Latency},
				{"saturation lambda, same", must(g.Saturation(plain)), must(g.Saturation(eof))},
			}
		})},
	{ID: "E18", Paper: "Dally 1990", Title: "contention term taken from secondary sources",
		Variant: "none: the original is not available",
		rows: guard(func() []Row {
			r0 := must(wormhole.Dally1990(8, 2, 32, 0))
			r := must(wormhole.Dally1990(8, 2, 32, 6e-4))
			return []Row{
				{"T_0, unidirectional 8-ary 2-cube, B = 32", r0.T0, nan},
				{"T at lambda = 6e-4 (DG-R: 48.497041)", r.Latency, nan},
				{"saturation lambda (rho = 1)", must(wormhole.Dally1990Saturation(8, 32)), nan},
			}
		})},
}

func must2[A, B any](a A, b B, err error) (A, B) {
	if err != nil {
		panic(errataError{err})
	}
	return a, b
}
