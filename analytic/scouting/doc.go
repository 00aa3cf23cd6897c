// Package scouting implements the analytical model of Safaei, Khonsari,
// Fathy, Talebanfard and Ould-Khaoua, "Communication Prediction of
// Scouting Switching in Adaptively-Routed Torus Networks" (seed 004,
// Eqs. (1)-(13)), as specified in docs/models.md#safaei: scouting switching with
// scouting distance K (K = 0 is wormhole switching), minimal fully
// adaptive routing over V virtual channels per physical channel, header
// backtracking with negative acknowledgements, in a bidirectional k-ary
// 2-cube under uniform Poisson traffic.
//
// The model is a fixed point (docs/models.md#safaei-solution) between the channel rate
// l_c (3), the path set-up time Cbar (5)-(7), the network latency Sbar (4),
// the VC occupancy P_v of Dally's chain (12) (wormhole.VCOccupancy) and
// the blocking probabilities Pb_i (8)-(10); the source wait (11) and the
// multiplexing degree (13) then give the latency (1):
//
//	Latency = (Sbar + Wbar_s) Vbar
//
// Readings (docs/models.md#safaei-readings, errata E13–E16, docs/errata.md#e13 to #e16): Eq. (8) first case is 0 by
// default (Printed variant: 1); V counts all VCs of a channel; 2K - 1 is
// literal at K = 0; the header distance is counted in both Cbar and (4),
// so the zero-load latency M + 2 Dbar + 2K - 1 exceeds a pipelined
// simulator's by about Dbar (reported by the harness, not fixed here).
//
// # Invariants
//
//   - zero load: Sbar_0 = M + 2 Dbar + 2K - 1 and Latency = Sbar_0;
//   - K = 0: Sbar = M + 2 Dbar - 1 at every load (Eq. (5) never uses Pb);
//   - the latency increases with l_g up to saturation;
//   - P_V = rho_c^V, and Vbar = (1 + 3 rho_c)/(1 + rho_c) for V = 2;
//   - never NaN or a negative delay: rho_c >= 1, l_g Sbar >= V or a fixed
//     point that does not converge return an error wrapping
//     analytic.ErrSaturated; invalid parameters analytic.ErrDomain.
//
// # Units
//
// Time in cycles (one flit crosses one link per cycle); l_g in messages
// per node per cycle; l_c in messages per channel per cycle; M in flits.
package scouting
