package configs

import (
	"fmt"
	"math"
	"strconv"

	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/sim/delta"
	"github.com/flitsim/flitsim/sim/sweep"
)

// Delta is the delta: section of a mode-delta experiment, the packet-level
// delta network of Makrucki & Mudge (SEL-TR-159, 1982, with the addendum
// SEL-TR-167; docs/models.md#makrucki; sim/delta): n = b^z sources and sinks,
// z stages of b x b switches, an output FIFO of L places per switch output.
// Times are in the unit of 1/mu (cycles when time is slotted).
type Delta struct {
	// Degree is b, the switch size b x b (2..64, default 4).
	Degree int `yaml:"degree" json:"degree"`
	// Stages is z (>= 1, default 3); n = b^z terminals.
	Stages int `yaml:"stages" json:"stages"`
	// Wiring is "omega" (default), "butterfly" or "baseline".
	Wiring string `yaml:"wiring" json:"wiring"`
	// QueueLength is L, the places of each output queue including the one
	// in service (>= 1, default 4). The file may give one integer or a list
	// of distinct integers: a list makes the file a family of experiments,
	// one per L (see [Experiment.Variants]); a resolved variant holds one.
	QueueLength []int `yaml:"queue_length" json:"queue_length" scalar:"list"`
	// Mu is the service rate per time unit (> 0, default 1; slotted: <= 1).
	Mu float64 `yaml:"mu" json:"mu"`
	// Service is "exponential" (default; slotted: geometric cycles) or
	// "fixed" (exactly 1/mu).
	Service string `yaml:"service" json:"service"`
	// Time is "continuous" (default: Poisson sources) or "slotted" (integer
	// cycles, Bernoulli sources).
	Time string `yaml:"time" json:"time"`
	// Rejection is what happens to a packet offered to a full queue:
	// "resubmit-source" (default, the report), "retry-previous" (the
	// addendum) or "drop".
	Rejection string `yaml:"rejection" json:"rejection"`
	// ResubmitDelay is the time a packet rejected at stage i >= 2 takes back
	// to its source (>= 0, default 0; resubmit-source only; slotted: whole
	// cycles).
	ResubmitDelay float64 `yaml:"resubmit_delay" json:"resubmit_delay"`
	// RetryBuffer is where packets wait for room in stage 1: "source"
	// (default: one FIFO per source) or "queue" (one per stage-1 queue).
	// Not with rejection drop.
	RetryBuffer string `yaml:"retry_buffer" json:"retry_buffer"`
}

// maxDegree bounds the switch size of mode delta, maxTerminals its n = b^z:
// the report's networks have 64 terminals, and building one of 2^20 takes
// seconds (the loader builds point 0 to check it).
const (
	maxDegree    = 64
	maxTerminals = 1 << 16
)

// resolveDelta fills the defaults of mode delta (those of the report's
// Figure 6: b = 4, z = 3, L = 4, mu = 1).
func (e *Experiment) resolveDelta(r *reporter) {
	d := &e.Delta
	if !r.set("delta.degree") {
		d.Degree = 4
	}
	if !r.set("delta.stages") {
		d.Stages = 3
	}
	if !r.set("delta.wiring") {
		d.Wiring = "omega"
	}
	if !r.set("delta.queue_length") {
		d.QueueLength = []int{4}
	}
	if !r.set("delta.mu") {
		d.Mu = 1
	}
	if !r.set("delta.service") {
		d.Service = delta.Exponential
	}
	if !r.set("delta.time") {
		d.Time = delta.Continuous
	}
	if !r.set("delta.rejection") {
		d.Rejection = delta.ResubmitSource
	}
	if !r.set("delta.retry_buffer") && d.Rejection != delta.Drop {
		d.RetryBuffer = "source"
	}
}

// deltaTerminals returns b^z and whether it is at most maxTerminals.
func deltaTerminals(d Delta) (int, bool) {
	n, ok := nodeCount(d.Degree, d.Stages)
	return n, ok && n <= maxTerminals
}

// validateDelta checks the delta: section.
func validateDelta(e *Experiment, r *reporter) {
	d := &e.Delta
	degOK := intRange(r, "delta.degree", d.Degree, 2, maxDegree)
	stOK := intRange(r, "delta.stages", d.Stages, 1, maxDimensions)
	if degOK && stOK {
		if n, fits := deltaTerminals(*d); !fits {
			r.errorf("delta.stages", "%d^%d terminals is more than the %d supported", d.Degree, d.Stages, maxTerminals)
		} else if n < 2 {
			r.errorf("delta.stages", "the network has %d terminal; at least 2 are needed", n)
		}
	}
	oneOf(r, "delta.wiring", d.Wiring, "omega", "butterfly", "baseline")
	if len(d.QueueLength) == 0 && !r.isBad("delta.queue_length") {
		r.errorf("delta.queue_length", "the list is empty")
	}
	seen := map[int]int{}
	for i, l := range d.QueueLength {
		p := fmt.Sprintf("delta.queue_length[%d]", i)
		if !r.set(p) {
			p = "delta.queue_length" // written as one integer
		}
		if !intRange(r, p, l, 1, maxBufferDepth) {
			continue
		}
		if j, dup := seen[l]; dup {
			r.errorf(p, "queue length %d repeats delta.queue_length[%d]", l, j)
			continue
		}
		seen[l] = i
	}
	muOK := positive(r, "delta.mu", d.Mu, 1e9)
	svcOK := oneOf(r, "delta.service", d.Service, delta.Exponential, delta.Fixed)
	timeOK := oneOf(r, "delta.time", d.Time, delta.Continuous, delta.Slotted)
	rejOK := oneOf(r, "delta.rejection", d.Rejection, delta.ResubmitSource, delta.RetryPrevious, delta.Drop)
	// A key of another rejection mode is refused only when it would change
	// something: resubmit_delay 0 and retry_buffer source are the defaults
	// and may be spelled out.
	if rejOK && d.Rejection != delta.ResubmitSource && d.ResubmitDelay != 0 {
		r.errorf("delta.resubmit_delay", "applies only to rejection: resubmit-source (rejection is %s); only 0 may be written here", d.Rejection)
	}
	if !(d.ResubmitDelay >= 0 && d.ResubmitDelay <= 1e9) {
		r.errorf("delta.resubmit_delay", "%g is out of range [0, 1e9]", d.ResubmitDelay)
	}
	if rejOK && d.Rejection == delta.Drop && r.set("delta.retry_buffer") {
		if d.RetryBuffer != "source" {
			r.errorf("delta.retry_buffer", "a dropped packet is never retried: retry_buffer %q has no effect under rejection: drop", d.RetryBuffer)
		}
		d.RetryBuffer = "" // canonical: drop mode has no retry buffer
	} else if rejOK && d.Rejection != delta.Drop {
		oneOf(r, "delta.retry_buffer", d.RetryBuffer, "source", "queue")
	}
	if timeOK && d.Time == delta.Slotted {
		// Slotted time: one service at most per cycle, integer delays.
		if muOK && d.Mu > 1 {
			r.errorf("delta.mu", "slotted time serves at most one packet per cycle: mu %g > 1", d.Mu)
		} else if muOK && svcOK && d.Service == delta.Fixed {
			if t := 1 / d.Mu; math.Abs(t-math.Round(t)) > 1e-9*t {
				r.errorf("delta.service", "fixed service in slotted time lasts 1/mu whole cycles: 1/mu = %g", t)
			}
		}
		if d.ResubmitDelay != math.Trunc(d.ResubmitDelay) {
			r.errorf("delta.resubmit_delay", "slotted time needs whole cycles, got %g", d.ResubmitDelay)
		}
	}
}

// Variants returns the experiments a file stands for: the experiment itself
// when every list-valued curve key has one value, otherwise one copy per
// value, in file order. Today the only such key is delta.queue_length (one
// Makrucki–Mudge curve per L): the copy for L is named "<name>-L<L>" and
// holds queue_length [L], so its hash, results and seeds are those of a
// file written for that L alone under that name. [LoadAll] returns
// variants; [Load] and [Parse] return the file's experiment as written,
// which [Experiment.DeltaConfig] refuses while it holds several L.
func (e *Experiment) Variants() []*Experiment {
	if e.Mode != "delta" || len(e.Delta.QueueLength) <= 1 {
		return []*Experiment{e}
	}
	out := make([]*Experiment, len(e.Delta.QueueLength))
	for i, l := range e.Delta.QueueLength {
		v := *e
		v.Name = e.Name + "-L" + strconv.Itoa(l)
		v.Delta.QueueLength = []int{l}
		v.Sweep.Rates = append([]float64(nil), e.Sweep.Rates...)
		v.Models = append([]string{}, e.Models...)
		out[i] = &v
	}
	return out
}

// DeltaConfig returns the sim/delta configuration of sweep point `point` of
// a mode-delta experiment (one variant: a single queue length), run with
// root seed `seed` (one replication's seed from the sweep, sweep.UnitSeed).
// The sweep is in rho:
//
//	Rate = rho * mu   (lambda, packets per source per time unit)
//
// delta.* maps one to one onto Degree, Stages, Wiring, QueueLength, Mu,
// Service, Time, Rejection, ResubmitDelay and RetryBuffer, and run: is read
// in time units (cycles when slotted):
//
//	run.warmup → Run.Warmup            run.period → Run.Period
//	run.min_measure → Run.MinMeasure   run.max_time → Run.MaxTime
//	run.target_rel_ci → Run.TargetRelCI
//	run.backlog_limit → Run.MaxBacklog = backlog_limit * n   (per source in the file)
//
// (0 leaves sim/delta's default). It fails for an experiment of another
// mode or one that still holds several queue lengths.
func (e *Experiment) DeltaConfig(point int, seed uint64) (delta.Config, error) {
	if e.Mode != "delta" {
		return delta.Config{}, fmt.Errorf("configs: %s: mode %q is not mode delta", e.Name, e.Mode)
	}
	d := e.Delta
	if len(d.QueueLength) != 1 {
		return delta.Config{}, fmt.Errorf("configs: %s: %d queue lengths: run one variant each (Experiment.Variants)", e.Name, len(d.QueueLength))
	}
	n, _ := deltaTerminals(d)
	rc := e.Run
	return delta.Config{
		Degree: d.Degree, Stages: d.Stages, Wiring: d.Wiring, QueueLength: d.QueueLength[0],
		Rate: e.Sweep.Rates[point] * d.Mu, Mu: d.Mu,
		Service: d.Service, Time: d.Time, Rejection: d.Rejection,
		ResubmitDelay: d.ResubmitDelay, RetryBuffer: d.RetryBuffer,
		Seed: seed,
		Run: delta.Run{
			Warmup: float64(rc.Warmup), Period: float64(rc.Period), MinMeasure: float64(rc.MinMeasure),
			MaxTime: float64(rc.MaxTime), TargetRelCI: rc.TargetRelCI, MaxBacklog: rc.BacklogLimit * n, CapRelCI: rc.CapRelCI,
		},
	}, nil
}

// deltaEngine is mode delta's engine (its mode-table row): sim/delta at
// lambda = rho * mu, rho the sweep rate.
var deltaEngine = engineOf(delta.New, deltaOutcome, measureDelta,
	atPoint0((*Experiment).DeltaConfig),
	func(n *delta.Config, _ int, rate float64, seed uint64) (delta.Config, string, error) {
		cfg := *n
		cfg.Rate, cfg.Seed = rate*cfg.WithDefaults().Mu, seed // rate is rho = lambda/mu
		return cfg, "", nil
	})

// measureDelta sets PDT, PDT-network and NTP of a delta run that is ok,
// with their CIs.
func measureDelta(_ delta.Config, r delta.Result, _ string, set SetQuantity) {
	if r.Status == sim.StatusOK {
		set(QPDT, r.PDT.Mean, r.PDT.HalfWidth, true)
		set(QPDTNetwork, r.PDTNetwork.Mean, r.PDTNetwork.HalfWidth, true)
		set(QNTP, r.NTP.Mean, r.NTP.HalfWidth, true)
	}
}

// deltaOutcome maps a Makrucki–Mudge delta-network run onto a results row:
//
//	latency          PDT, first emission to delivery (time units), with its CI
//	network_latency  PDT without the source retry-buffer wait (time units), with its CI
//	accepted         NTP, packets delivered per time unit, whole network
//	offered          packets emitted per time unit, whole network
//	cycles           simulated time, rounded (time units; cycles when slotted)
//	extra            NTP with its CI; per stage i (1-based, as in the paper): the
//	                 rejection probability p_L[i], the mean queue length E[N][i]
//	                 (packets per queue), the sojourn E[T][i] (time units) and the
//	                 arrival rate a[i] (attempts per queue per time unit), each with its CI
//
// A saturated run has no estimates; its accepted and offered are empty.
func deltaOutcome(r delta.Result) sweep.Outcome {
	o := sweep.Outcome{
		Status: r.Status, Reason: r.Reason,
		Latency: noNumber, LatencyCI95: noNumber, NetworkLatency: noNumber, NetworkLatencyCI95: noNumber,
		Accepted: noNumber, Offered: noNumber,
		Cycles: int64(math.Round(r.End)),
	}
	if r.Status != sim.StatusOK {
		return o
	}
	o.Latency, o.LatencyCI95 = r.PDT.Mean, r.PDT.HalfWidth
	o.NetworkLatency, o.NetworkLatencyCI95 = r.PDTNetwork.Mean, r.PDTNetwork.HalfWidth
	o.Accepted, o.Offered = r.NTP.Mean, r.Offered.Mean
	o.Extra = append(o.Extra, metric("NTP packets/time", r.NTP.Mean, r.NTP.HalfWidth))
	for i, st := range r.Stages {
		k := strconv.Itoa(i + 1)
		o.Extra = append(o.Extra,
			metric("p_L["+k+"]", st.Rejection.Mean, st.Rejection.HalfWidth),
			metric("E[N]["+k+"] packets", st.Occupancy.Mean, st.Occupancy.HalfWidth),
			metric("E[T]["+k+"] time", st.Sojourn.Mean, st.Sojourn.HalfWidth),
			metric("a["+k+"] attempts/time", st.ArrivalRate.Mean, st.ArrivalRate.HalfWidth))
	}
	return o
}

// deltaLinks ties each field of the delta.Config DeltaConfig builds to the
// key it comes from (for the engine's refusals, engineKeys).
func deltaLinks(e *Experiment) (any, []fieldLink) {
	c := &delta.Config{}
	d, r := &e.Delta, &e.Run
	return c, []fieldLink{
		link(&c.Degree, &d.Degree), link(&c.Stages, &d.Stages), link(&c.Wiring, &d.Wiring),
		link(&c.QueueLength, &d.QueueLength), {engine: &c.Rate, schema: &e.Sweep.Rates, note: "rho times delta.mu"},
		link(&c.Mu, &d.Mu), link(&c.Service, &d.Service), link(&c.Time, &d.Time), link(&c.Rejection, &d.Rejection),
		link(&c.ResubmitDelay, &d.ResubmitDelay), link(&c.RetryBuffer, &d.RetryBuffer), link(&c.Seed, &e.Seed),
		link(&c.Run.Warmup, &r.Warmup), link(&c.Run.Period, &r.Period), link(&c.Run.MinMeasure, &r.MinMeasure),
		link(&c.Run.MaxTime, &r.MaxTime), link(&c.Run.TargetRelCI, &r.TargetRelCI),
		{engine: &c.Run.MaxBacklog, schema: &r.BacklogLimit, note: "times n"}, link(&c.Run.CapRelCI, &r.CapRelCI),
	}
}
