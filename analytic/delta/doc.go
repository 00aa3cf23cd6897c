// Package delta is the queueing model of packet-switched delta networks of
// Makrucki and Mudge, "A Queueing Model of Delta Networks" (SEL-TR-159,
// 1982; CRL-TR-26-83, 1983) with its addendum "Note on a Queueing Model of
// Delta Networks" (SEL-TR-167, 1982) — seed 001, restated in
// docs/models.md#makrucki.
//
// # Model
//
// n = b^z sources emit constant-length packets as independent Poisson
// processes of rate lambda, destinations uniform over all n sinks. The
// network has z stages of b x b crossbars; every switch output owns a FIFO
// of capacity L (the packet in service included) served at exponential rate
// mu. Uniform destinations make every routing digit uniform, so each
// stage-1 queue sees Poisson(lambda) (reading R2). Later stages are fed by
// departure processes, which the report approximates by Poisson processes
// in three regimes (§3.1, Figure 3):
//
//	Case I   (rho <= rho_I(L, D)):      every stage at rate lambda
//	Case II  (rho >= rho_0(L, p0max)):  stage 1 at lambda, stages 2..z at mu (rho = 1)
//	Case III (L >= C/(1-C), lambda = mu): every stage at rho = 1
//
// A packet that finds a queue full is rejected and resubmitted from its
// source (Eqs. (5), (6)) or, in the addendum, retried from its stage-(i-1)
// queue. Resubmitted traffic is not added to the stage loads, so the model
// is meaningful only while losses are small (docs/models.md#makrucki-simulator).
//
// # Units
//
// Continuous time in any unit; rates (lambda, mu, NTP) in packets per that
// unit, delays (E[T_i], PDT) in that unit. Usually mu = 1, so rho = lambda.
//
// # Invariants
//
// PDT >= sum_i E[T_i] >= z/mu (all variants); PDT -> z/mu as rho -> 0;
// 0 <= NTP <= n lambda (a negative NTP is an error); P in (0, 1]. All sums
// are finite sums of non-negative terms, stable as p_L -> 0 and at rho = 1.
//
// # Errata and OCR readings
//
// The seed text is badly damaged; every equation was re-derived
// (docs/models.md#makrucki-readings). Readings used here:
//
//	R1  n = b^z, b = 2^k                       (Network.Stages)
//	R2  stage-1 rate b lambda/b = lambda        (Network.Solve)
//	R3  standard M/M/1/L (1.1), (2)             (analytic/queue.MM1L)
//	R4  Case I NTP = n lambda (1 - z p_L)       (NTPZSum; NTPSingleStage is the other reading, erratum E5: docs/errata.md#e5)
//	R5  rho_I = (D/(1+D))^{1/(L+1)}             (Validity.RhoI)
//	R6  rho_0: non-trivial root of p0max(1-rho^{L+1}) + rho = 1   (Validity.Rho0)
//	R7  C <= L/(L+1)                            (Validity.CaseIIIMinL)
//	R8  E[T] = E[N]/(lambda(1-p_L))             (queue.MM1L.MeanTime)
//	R9, R10  (CI.1), (CI.2)                     (finite sums in Result; closed forms in the tests)
//	R11 Case II stages >= 2: p_L = 1/(L+1), E[T] = (L+1)/(2 mu)
//	R12 Case II E[T_rej]                        (finite sum; closed form in the tests)
//	R13 Case III beta = L/(L+1)
//	R14, R15 addendum: stage i, 2 <= i <= z; Case I [1 + (z-1)(1-rho^{L+1})/(1-rho^L)] E[T]  (Result.PDTRetry)
//	R16 "lightly loaded" (Case I)
//	R17 Figure 6: n = 64, b = 4 (z = 3)
//
// Errata: E4 (docs/errata.md#e4) — Eq. (5) uses the unconditional U of Eq. (6) as a conditional
// loss time; PDTCorrected (default) is sum E[T_i] + U/P, PDTPrinted is the
// report's form (needed to redraw Figure 6). E5 (docs/errata.md#e5) — see R4. E6 (docs/errata.md#e6) — the
// interdeparture density uses the time-average p_0, kept as the default of
// InterdepartureDensity, with the exact pi_0 as EmptyAtDeparture.
//
// Every stage is a queue.MM1L; a stage offered no traffic (lambda = 0) is
// taken as empty, with E[T] = 1/mu.
package delta
