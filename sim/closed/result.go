package closed

import (
	"math"

	"github.com/flitsim/flitsim/sim"
)

// Run statuses, shared with the other simulator modes. A closed network of
// infinite FCFS queues has a finite population and never holds one server
// while waiting for another, so it can neither saturate nor deadlock: Run
// always reports StatusOK. The other two names exist so that the harness
// can treat every mode alike.
const (
	StatusOK        = "ok"
	StatusSaturated = "saturated"
	StatusDeadlock  = "deadlock"
)

// Estimate is a steady-state mean with the half-width of its 95% confidence
// interval, both in the unit of the quantity: the interval is
// Mean ± HalfWidth. The half-width comes from non-overlapping batch means
// (sim.BatchMeans).
type Estimate struct {
	Mean      float64
	HalfWidth float64
}

// Contains reports whether x lies in the 95% interval Mean ± HalfWidth.
func (e Estimate) Contains(x float64) bool {
	return math.Abs(x-e.Mean) <= e.HalfWidth
}

func estimate(b *sim.BatchMeans) Estimate {
	hw, ok := b.CI95()
	if !ok {
		hw = math.Inf(1)
	}
	return Estimate{Mean: b.Mean(), HalfWidth: hw}
}

// Result is what one closed run measured after warm-up. The model of Reed
// (1983) predicts X0, CycleTime (R_0(N) = N/X_0(N)), Hops (LV, Eq. (1)), the
// utilisations (U_t = X_0 V_t S_t) and the queue lengths (n_t of Figure II);
// each is measured with its 95% confidence interval.
type Result struct {
	// Status is StatusOK (see the Status constants).
	Status string
	// Reason is empty for a clean run, otherwise a warning: the warm-up was
	// not detected by MaxWarmup, or the target CI was not reached by MaxTime.
	Reason string

	// Population is N, messages.
	Population int
	// Nodes is K, the PEs; Links is the number of link servers (Numlinks).
	Nodes, Links int

	// X0 is the message completion rate: PE service completions per time
	// unit over the whole network, messages / time unit.
	X0 Estimate
	// CycleTime is the mean time from a message's creation (the end of the
	// PE service that created it) to the end of its own PE service at its
	// destination, time units. Little's law makes it N / X0.
	CycleTime Estimate
	// Hops is the mean number of link crossings per message, links (Reed's
	// LV).
	Hops Estimate
	// PEUtilisation is the fraction of time a PE is busy, averaged over the
	// K PEs (dimensionless, 0..1). Utilisation law: X0 * S_PE / K.
	PEUtilisation Estimate
	// LinkUtilisation is the fraction of time a link server is busy,
	// averaged over the link servers (0..1): X0 * LV * S_CL / Links.
	LinkUtilisation Estimate
	// MaxLinkUtilisation is the busy fraction of the busiest link server
	// over the measurement window (0..1; no CI).
	MaxLinkUtilisation float64
	// PEQueue is the time-average number of messages at one PE, waiting or
	// in service, averaged over the PEs (messages): Reed's n_PE(N).
	PEQueue Estimate
	// LinkQueue is the same for one link server (messages): n_CL(N).
	// Nodes*PEQueue + Links*LinkQueue = N exactly, period by period.
	LinkQueue Estimate

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
