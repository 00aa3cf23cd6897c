package slotted_test

import (
	"testing"

	"github.com/flitsim/flitsim/analytic/hypercube"
	"github.com/flitsim/flitsim/sim/slotted"
)

// modelTol is the relative tolerance docs/models.md#jacquet-pins expects between the
// simulation and the Jacquet–Mühlethaler models below 0.5 λ_max ("within
// ~5 %"), on top of the simulation's confidence interval.
const modelTol = 0.05

// Simulation against the analytic models of seed 003 at 0.25 and 0.5 λ_max
// (docs/models.md#jacquet-poisson, docs/models.md#jacquet-bernoulli, docs/models.md#jacquet-simulator): integer delay vs the Poisson approximation T,
// continuous delay vs the Bernoulli model D, time at the head of the queue
// per hop vs the per-hop service x1 = X/d.
//
// Finding: for n ≥ 5 at 0.5 λ_max the Bernoulli model's D lies more than 5 %
// below the simulated continuous delay (n = 5: about 7 %, n = 6: about 8 %;
// docs/models.md#jacquet-pins's independent simulation shows 7.6 % at n = 6), and at
// n = 6, 0.25 λ_max it is about 6 % below, inside the band only through the
// CI allowance; T stays within 2–4 % of the integer delay throughout. Those cases are marked
// dUnder: the test then asserts the documented direction (D below the
// simulation by more than the CI) instead of the 5 % band, so a change that
// moves either side is still caught.
func TestAgainstJacquetMuhlethaler(t *testing.T) {
	cases := []struct {
		n      int
		frac   float64 // of λ_max
		dUnder bool    // D below the simulation by more than modelTol (finding above)
	}{
		{4, 0.25, false}, {4, 0.5, false},
		{5, 0.25, false}, {5, 0.5, true},
		{6, 0.25, false}, {6, 0.5, true},
	}
	for _, tc := range cases {
		c := cube(t, tc.n)
		lambda := tc.frac * c.LambdaMax().Lambda
		T, err := c.Poisson(lambda, hypercube.PoissonOptions{})
		if err != nil {
			t.Fatal(err)
		}
		D, err := c.Bernoulli(lambda, hypercube.BernoulliOptions{})
		if err != nil {
			t.Fatal(err)
		}
		r := run(t, slotted.Config{Dim: tc.n, Rate: lambda, Seed: 2024})
		mustOK(t, r)
		t.Logf("n = %d, λ = %.4f (%.2f λ_max): integer %.4f vs T %.4f, continuous %.4f vs D %.4f, hop %.4f vs x1 %.4f",
			tc.n, lambda, tc.frac, r.Delay.Mean, T.T, r.DelayContinuous.Mean, D.D, r.HopService.Mean, T.X1)
		within(t, "integer delay vs T", r.Delay, T.T, modelTol*T.T)
		within(t, "hop service vs x1", r.HopService, T.X1, modelTol*T.X1)
		if !tc.dUnder {
			within(t, "continuous delay vs D", r.DelayContinuous, D.D, modelTol*D.D)
			continue
		}
		gap := (r.DelayContinuous.Mean - D.D) / D.D
		t.Logf("n = %d at %.2f λ_max: D below the simulated continuous delay by %.1f %% (known, see above)", tc.n, tc.frac, 100*gap)
		if !(D.D < r.DelayContinuous.Mean-ci999(r.DelayContinuous)) {
			t.Errorf("n = %d at %.2f λ_max: D = %v no longer below the simulated %v ± %v: update the finding",
				tc.n, tc.frac, D.D, r.DelayContinuous.Mean, r.DelayContinuous.HalfWidth)
		}
	}
}
