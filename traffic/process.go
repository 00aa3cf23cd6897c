package traffic

import (
	"math"
	"math/rand/v2"

	"github.com/flitsim/flitsim/sim"
)

// Process decides when messages are generated at one node: a stationary
// renewal process of arrival times, in cycles (float64).
//
// A message generated at time t belongs to cycle floor(t) (CycleOf) and may
// be injected in that cycle. First returns the first arrival at or after
// time 0; Next returns the arrival after one at prev, never earlier than
// prev (several arrivals may share a cycle, and, for Poisson, in principle a
// time). Both draw from the caller's stream (the engine's
// PurposeTrafficArrival stream of the node) and do not allocate. Rate is
// the long-run mean number of arrivals per cycle.
type Process interface {
	Name() string
	Rate() float64                           // messages per cycle per node
	First(r *rand.Rand) float64              // time of the first arrival at or after 0
	Next(prev float64, r *rand.Rand) float64 // time of the arrival after one at prev (>= prev)
}

// CycleOf returns the cycle a message generated at time t belongs to:
// floor(t). t must be finite and non-negative.
func CycleOf(t float64) sim.Cycle { return sim.Cycle(math.Floor(t)) }

// NewBernoulli returns the Bernoulli process: in each cycle, independently,
// one message is generated with probability p and none otherwise. Arrival
// times are integers and the gaps between arrivals are geometric on
// {1, 2, ...}:
//
//	Pr{first arrival at cycle c} = (1-p)^c p,        c = 0, 1, ...
//	Pr{gap = g}                  = (1-p)^(g-1) p,    g = 1, 2, ...
//
// This is the slotted source of Jacquet and Mühlethaler (seed 003) and the
// usual per-cycle injection of cycle-accurate simulators. Rate() = p
// messages per cycle; it is at most one. p must lie in (0, 1].
func NewBernoulli(p float64) (Process, error) {
	if !(p > 0 && p <= 1) {
		return nil, invalid("bernoulli", "p = %v outside (0, 1]", p)
	}
	return &bernoulli{p: p, logq: math.Log1p(-p)}, nil
}

type bernoulli struct {
	p    float64
	logq float64 // log(1-p)
}

func (b *bernoulli) Name() string  { return "bernoulli" }
func (b *bernoulli) Rate() float64 { return b.p }

// failures draws the number of empty cycles before an arrival, geometric
// on {0, 1, ...}, by inversion: floor(log U / log(1-p)), U uniform on (0,1].
func (b *bernoulli) failures(r *rand.Rand) float64 {
	if b.p == 1 {
		return 0
	}
	return math.Floor(math.Log1p(-r.Float64()) / b.logq)
}

func (b *bernoulli) First(r *rand.Rand) float64 { return b.failures(r) }

func (b *bernoulli) Next(prev float64, r *rand.Rand) float64 {
	return prev + 1 + b.failures(r)
}

// NewPoisson returns the Poisson process of the given rate (messages per
// cycle per node): gaps are independent exponentials of mean 1/rate,
//
//	Pr{gap > x} = exp(-rate x)
//
// so the number of arrivals in any window of T cycles is Poisson with mean
// rate*T, and several arrivals may fall in one cycle (often, at rate > 1).
// This is the source of Makrucki-Mudge (001), Draper-Ghosh (002) and
// Safaei et al. (004). By memorylessness the first arrival after time 0 is
// also exponential, so the process is stationary from 0. rate must be
// positive and finite.
func NewPoisson(rate float64) (Process, error) {
	if !(rate > 0 && !math.IsInf(rate, 1)) {
		return nil, invalid("poisson", "rate = %v, want a positive finite number of messages per cycle", rate)
	}
	return &poisson{rate: rate}, nil
}

type poisson struct{ rate float64 }

func (p *poisson) Name() string                            { return "poisson" }
func (p *poisson) Rate() float64                           { return p.rate }
func (p *poisson) First(r *rand.Rand) float64              { return r.ExpFloat64() / p.rate }
func (p *poisson) Next(prev float64, r *rand.Rand) float64 { return prev + r.ExpFloat64()/p.rate }
