package closed

import (
	"github.com/flitsim/flitsim/sim"
)

// Run statuses are sim's. A closed network of infinite FCFS queues has a
// finite population and never holds one server while waiting for another,
// so it can neither saturate nor deadlock: Run reports sim.StatusOK, or
// sim.StatusUnconverged when the CI rule of sim.Conclude is not met.

// Result is what one closed run measured after warm-up. The model of Reed
// (1983) predicts X0, CycleTime (R_0(N) = N/X_0(N)), Hops (LV, Eq. (1)), the
// utilisations (U_t = X_0 V_t S_t) and the queue lengths (n_t of Figure II);
// each is measured with its 95% confidence interval.
type Result struct {
	// Status is sim.StatusOK, or sim.StatusUnconverged when X0 missed the
	// CI rule of sim.Conclude (no interval, lag-1 check failed, or at
	// MaxTime a half-width above Run.CapRelCI). An unconverged run keeps
	// its estimates for inspection; the harness does not compare them.
	Status string
	// Reason explains the status, with a warning when the warm-up was not
	// detected by MaxWarmup.
	Reason string

	// Population is N, messages.
	Population int
	// Nodes is K, the PEs; Links is the number of link servers (Numlinks).
	Nodes, Links int

	// X0 is the message completion rate: PE service completions per time
	// unit over the whole network, messages / time unit.
	X0 sim.Estimate
	// CycleTime is the mean time from a message's creation (the end of the
	// PE service that created it) to the end of its own PE service at its
	// destination, time units. Little's law makes it N / X0.
	CycleTime sim.Estimate
	// Hops is the mean number of link crossings per message, links (Reed's
	// LV).
	Hops sim.Estimate
	// PEUtilisation is the fraction of time a PE is busy, averaged over the
	// K PEs (dimensionless, 0..1). Utilisation law: X0 * S_PE / K.
	PEUtilisation sim.Estimate
	// LinkUtilisation is the fraction of time a link server is busy,
	// averaged over the link servers (0..1): X0 * LV * S_CL / Links.
	LinkUtilisation sim.Estimate
	// MaxLinkUtilisation is the busy fraction of the busiest link server
	// over the measurement window (0..1; no CI).
	MaxLinkUtilisation float64
	// PEQueue is the time-average number of messages at one PE, waiting or
	// in service, averaged over the PEs (messages): Reed's n_PE(N).
	PEQueue sim.Estimate
	// LinkQueue is the same for one link server (messages): n_CL(N).
	// Nodes*PEQueue + Links*LinkQueue = N exactly, period by period.
	LinkQueue sim.Estimate

	// Converged reports whether X0 reached Run.TargetRelCI before MaxTime.
	Converged bool
	// WarmupDetected is true for a fixed warm-up and when MSER-5 found the
	// end of the transient before MaxWarmup.
	WarmupDetected bool
	// Warmup is the simulated time discarded before measurement, time units.
	Warmup float64
	// Measured is the length of the measurement window, time units.
	Measured float64
	// Period is the observation period used, time units.
	Period float64
	// Completions is the number of messages completed in the window.
	Completions int64
	// Events is the number of service completions simulated in the whole
	// run, warm-up included.
	Events int64
	// Batches and BatchSize describe the X0 batch means: complete batches
	// and periods per batch.
	Batches   int
	BatchSize int64
}
