package delta

import (
	"math"

	"github.com/flitsim/flitsim/analytic"
	"github.com/flitsim/flitsim/analytic/queue"
)

// Network is a delta network of Makrucki–Mudge §2 (docs/models.md#makrucki-inputs):
// n = b^z sources and sinks joined by z stages of b x b crossbar switches,
// every switch output feeding a FIFO of capacity L served at rate mu.
// Each stage holds n output queues.
type Network struct {
	Sources int     // n = b^z, the number of sources (and sinks)
	Degree  int     // b, the switch degree: a power of two, >= 2 (reading R1)
	Queue   int     // L, queue capacity in packets including the one in service, >= 1
	Mu      float64 // mu, service rate of every queue, packets / time, > 0
}

// Stages returns z = log_b n, or an error wrapping analytic.ErrDomain when
// the network is not a delta network of the report (n = b^z, b = 2^k >= 2,
// z >= 1, L >= 1, 0 < mu < inf).
func (nw Network) Stages() (int, error) {
	b, n := nw.Degree, nw.Sources
	switch {
	case b < 2 || b&(b-1) != 0:
		return 0, analytic.Domain("delta.Network", "b = %d, want a power of two >= 2", b)
	case nw.Queue < 1:
		return 0, analytic.Domain("delta.Network", "L = %d, want L >= 1", nw.Queue)
	case !(nw.Mu > 0) || math.IsInf(nw.Mu, 1):
		return 0, analytic.Domain("delta.Network", "mu = %v, want 0 < mu < inf", nw.Mu)
	}
	z, m := 0, 1
	for m < n {
		m *= b
		z++
	}
	if m != n || z < 1 {
		return 0, analytic.Domain("delta.Network", "n = %d is not a positive power of b = %d", n, b)
	}
	return z, nil
}

// PDTVariant selects the resubmission-to-source delay formula (erratum E4, docs/errata.md#e4).
type PDTVariant int

const (
	// PDTCorrected (the default) charges the unconditional mean time lost
	// per attempt, U of Eq. (6), once per success:
	//
	//	PDT = sum_i E[T_i] + U / P
	PDTCorrected PDTVariant = iota
	// PDTPrinted is the report's Eq. (5) with E[T_rej] := U of Eq. (6):
	//
	//	PDT = sum_i E[T_i] + ((1-P)/P) U
	//
	// It treats the unconditional U as the conditional loss time and so
	// under-counts the penalty by the factor (1-P). Figure 6 needs it.
	PDTPrinted
)

// NTPVariant selects the reading of the report's damaged Case I throughput
// formula (erratum E5, docs/errata.md#e5, reading R4).
type NTPVariant int

const (
	// NTPZSum (the default) subtracts the loss rate of every stage:
	//
	//	NTP = n lambda - n sum_{i=1}^{z} a_i p_{L,i}
	//
	// with a_i the arrival rate per stage-i queue (Case I: n lambda (1 - z p_L)).
	NTPZSum NTPVariant = iota
	// NTPSingleStage subtracts the stage-1 loss rate only,
	// NTP = n lambda (1 - p_{L,1}). The report prints it for no case; it is
	// the alternative reading of Case I's OCR and applies the same rule to
	// Cases II and III.
	NTPSingleStage
)

// Options tunes [Network.Solve]. The zero value is the default model:
// automatic case selection with the Figure 3 validity parameters, the
// corrected PDT, the z-sum NTP.
type Options struct {
	Case     Case       // CaseAuto (default) selects with Validity.Select
	PDT      PDTVariant // PDTCorrected (default) or PDTPrinted
	NTP      NTPVariant // NTPZSum (default) or NTPSingleStage
	Validity Validity   // region parameters; zero fields mean the Figure 3 values

	// AllowOutsideValidity evaluates an explicitly chosen case even where
	// (L, rho) lies outside its validity region; by default that is an
	// error wrapping analytic.ErrDomain. It does not admit a negative NTP.
	AllowOutsideValidity bool
}

// Stage is the M/M/1/L description of one queue of stage i (all n queues of
// a stage behave alike).
type Stage struct {
	Arrival float64 // a_i, Poisson arrival rate offered to the queue, packets / time
	Rho     float64 // load used for the stage's occupancy law (1 for Case II stages >= 2 and Case III)
	PL      float64 // p_{L,i}, probability that an arrival finds the queue full
	N       float64 // E[N_i], time-average number of packets in the queue
	T       float64 // E[T_i], mean time an accepted packet spends in the queue, including service
}

// Result is the network-level solution (docs/models.md#makrucki-resubmission to docs/models.md#makrucki-addendum). Times are in
// the unit of 1/mu, rates in packets per that unit.
type Result struct {
	Case   Case    // the case evaluated
	Rho    float64 // lambda/mu
	Stages []Stage // stage 1 (source side) .. stage z

	// P is the probability that an attempt crosses all stages,
	// P = prod_i (1 - p_{L,i}).
	P float64
	// U is Eq. (6), the mean time an attempt wastes before being rejected
	// (zero for an accepted attempt or a stage-1 loss); the report calls it
	// E[T_rej]:
	//
	//	U = sum_{j=2}^{z} p_{L,j} prod_{i<j}(1-p_{L,i}) sum_{i<j} E[T_i]
	U float64
	// TRej is the mean time lost given that the attempt is lost,
	// U/(1-P) — the report's verbal definition of E[T_rej] (erratum E4, docs/errata.md#e4);
	// 0 when P = 1.
	TRej float64
	// PDT is the mean delay from first emission to delivery with
	// resubmission to the source, in the variant of Options.PDT.
	PDT float64
	// PDTRetry is the addendum's (SEL-TR-167) delay when a packet rejected at
	// stage i >= 2 retries from its stage-(i-1) queue:
	//
	//	PDT_add = sum_i E[T_i] + sum_{i=2}^{z} [p_{L,i}/(1-p_{L,i})] E[T_{i-1}]
	PDTRetry float64
	// NTP is the packet rate leaving the network at the sinks, in the
	// variant of Options.NTP. Resubmitted traffic is not added to the stage
	// loads (the report's simplification).
	NTP float64
}

// Solve evaluates the network at emission rate lambda (packets / time /
// source) with the stage approximation chosen by o.Case (docs/models.md#makrucki-case-i to docs/models.md#makrucki-addendum):
//
//	Case I:   a_i = lambda,  rho_i = rho                   for i = 1..z
//	Case II:  a_1 = lambda,  rho_1 = rho;  a_i = mu, rho_i = 1 for i >= 2
//	Case III: a_i = lambda,  rho_i = 1  (the report sets lambda = mu)
//
// Every stage is then an M/M/1/L station (Eqs. (1.1), (2)); P, U, PDT,
// PDTRetry and NTP follow from the per-stage p_{L,i} and E[T_i] by the
// finite sums of Eqs. (5), (6) and the addendum — exactly equal to the
// closed forms (CI.1), (CI.2) and the Case II/III expressions, but stable
// as p_L -> 0.
//
// Errors (all wrap analytic.ErrDomain): an invalid network, option or
// lambda (lambda must be >= 0 and finite); an explicit case outside its
// validity region without AllowOutsideValidity; CaseAuto where no case is
// valid; Case II at rho = 0; a negative NTP (the report: "incorrect use of
// the approximation can result in NTP < 0"), in any case and mode. When the
// success probability P underflows to 0 (p_L = 1 in float64, absurd loads)
// the error wraps analytic.ErrSaturated.
// Result.Stages is freshly allocated (Solve is not a hot-path function).
func (nw Network) Solve(lambda float64, o Options) (Result, error) {
	z, err := nw.Stages()
	if err != nil {
		return Result{}, err
	}
	if !(lambda >= 0) || math.IsInf(lambda, 1) {
		return Result{}, analytic.Domain("delta.Solve", "lambda = %v, want 0 <= lambda < inf", lambda)
	}
	if _, err := o.Validity.resolved(); err != nil {
		return Result{}, err
	}
	if o.PDT != PDTCorrected && o.PDT != PDTPrinted {
		return Result{}, analytic.Domain("delta.Solve", "unknown PDT variant %d", o.PDT)
	}
	if o.NTP != NTPZSum && o.NTP != NTPSingleStage {
		return Result{}, analytic.Domain("delta.Solve", "unknown NTP variant %d", o.NTP)
	}
	L, mu := nw.Queue, nw.Mu
	rho := lambda / mu
	if math.IsInf(rho, 1) {
		return Result{}, analytic.Domain("delta.Solve", "rho = lambda/mu = %v/%v overflows", lambda, mu)
	}
	c := o.Case
	switch c {
	case CaseAuto:
		if c, err = o.Validity.Select(L, rho); err != nil {
			return Result{}, err
		}
	case CaseI, CaseII, CaseIII:
		ok, err := o.Validity.Contains(c, L, rho)
		if err != nil {
			return Result{}, err
		}
		if !ok && !o.AllowOutsideValidity {
			return Result{}, analytic.Domain("delta.Case"+c.String(),
				"(L = %d, rho = %v) outside the case's validity region (set AllowOutsideValidity to evaluate anyway)", L, rho)
		}
	default:
		return Result{}, analytic.Domain("delta.Solve", "unknown case %d", c)
	}
	if c == CaseII && rho == 0 {
		return Result{}, analytic.Domain("delta.CaseII", "rho = 0: a saturated first stage needs lambda > 0")
	}

	r := Result{Case: c, Rho: rho, Stages: make([]Stage, z)}
	first := stageOf(lambda, lambda, L, mu)
	atOne := stageOf(mu, mu, L, mu)
	for i := range r.Stages {
		switch {
		case c == CaseI || (c == CaseII && i == 0):
			r.Stages[i] = first
		case c == CaseII:
			r.Stages[i] = atOne
		default: // Case III: occupancy at rho = 1, offered rate lambda (= mu in the report)
			s := atOne
			s.Arrival = lambda
			r.Stages[i] = s
		}
	}
	r.network(nw.Sources, lambda, o)
	if !(r.P > 0) {
		return Result{}, analytic.Saturated("delta.Case"+c.String(),
			"P = prod(1 - p_L,i) = 0 at L = %d, rho = %v: no attempt gets through", L, rho)
	}
	if r.NTP < 0 {
		return Result{}, analytic.Domain("delta.Case"+c.String(),
			"NTP = %v < 0 at L = %d, rho = %v: the approximation does not hold", r.NTP, L, rho)
	}
	return r, nil
}

// stageOf is one M/M/1/L stage (Eqs. (1.1), (2), reading R8) offered
// Poisson rate offered; arrival is the rate reported in Stage.Arrival. With
// no offered traffic the stage is empty: p_L = 0, E[N] = 0, E[T] = 1/mu.
func stageOf(arrival, offered float64, L int, mu float64) Stage {
	if offered == 0 {
		return Stage{Arrival: arrival, T: 1 / mu}
	}
	q, err := queue.NewMM1L(offered, mu, L)
	if err != nil {
		panic("delta: parameters checked by Solve: " + err.Error())
	}
	return Stage{Arrival: arrival, Rho: q.Rho(), PL: q.Blocking(), N: q.MeanNumber(), T: q.MeanTime()}
}

// network fills P, U, TRej, PDT, PDTRetry and NTP from r.Stages by the
// finite sums; every term is non-negative, so the sums are stable for any
// p_L including 0.
func (r *Result) network(n int, lambda float64, o Options) {
	st := r.Stages
	pass := 1.0  // prod_{i<j} (1 - p_{L,i})
	spent := 0.0 // sum_{i<j} E[T_i]
	retry := 0.0
	loss := 0.0 // sum_i a_i p_{L,i}
	for j, s := range st {
		if j > 0 {
			r.U += s.PL * pass * spent
			retry += s.PL / (1 - s.PL) * st[j-1].T
		}
		pass *= 1 - s.PL
		spent += s.T
		loss += s.Arrival * s.PL
	}
	r.P = pass
	if pass < 1 {
		r.TRej = r.U / (1 - pass)
	}
	switch o.PDT {
	case PDTPrinted:
		r.PDT = spent + (1-pass)/pass*r.U
	default:
		r.PDT = spent + r.U/pass
	}
	r.PDTRetry = spent + retry
	nf := float64(n)
	switch o.NTP {
	case NTPSingleStage:
		r.NTP = nf * lambda * (1 - st[0].PL)
	default:
		r.NTP = nf*lambda - nf*loss
	}
}
