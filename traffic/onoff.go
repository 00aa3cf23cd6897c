package traffic

import (
	"math"
	"math/rand/v2"
)

// NewOnOff returns the two-state Markov-modulated Bernoulli source (an on/off
// source, a discrete-time MMBP) of mean rate `rate` messages per cycle, mean
// burst length `burst` cycles and duty cycle `duty`:
//
//   - a hidden state s_c in {on, off} for every cycle c, a Markov chain that
//     leaves on with probability a = 1/burst and leaves off with probability
//     b = duty / (burst (1-duty)) at the end of each cycle; its on periods
//     are geometric with mean burst cycles, its off periods geometric with
//     mean burst (1-duty)/duty cycles, and its stationary probability of
//     being on is b/(a+b) = duty;
//   - in an on cycle one message is generated with probability
//     p = rate/duty (the peak rate), in an off cycle none.
//
// The source starts in its stationary distribution (on with probability
// duty at cycle 0), so it is stationary from time 0 and the offered load is
// exactly rate messages per cycle: E[X_c] = duty * p = rate for the
// indicator X_c of a message in cycle c. Rate() returns rate as given.
// Arrival times are integers, as for [NewBernoulli]; duty = 1 is the
// Bernoulli process of rate p = rate.
//
// Count per window. Let N_T = X_1 + ... + X_T be the messages in T
// consecutive cycles, lambda = rate and r = 1 - a - b, the second
// eigenvalue of the chain. Then E[N_T] = lambda T, and since
// Cov(s_c, s_{c+k}) = duty (1-duty) r^k for the on-indicator and the X_c
// are conditionally independent given the states,
//
//	Var X_c              = lambda (1 - lambda)
//	Cov(X_c, X_{c+k})    = p^2 duty (1-duty) r^k,                k >= 1
//	Var N_T = T lambda (1-lambda) + 2 p^2 duty (1-duty) S(T)
//	S(T)    = sum_{k=1}^{T-1} (T-k) r^k = r (T (1-r) - 1 + r^T) / (1-r)^2
//
// ([OnOffCountMean] and [OnOffCountVariance]; the sum is the standard
// arithmetico-geometric series, S(1) = 0, S(2) = r). For large T,
// Var N_T / T tends to lambda(1-lambda) + 2 p^2 duty(1-duty) r/(1-r), the
// asymptotic index of dispersion: it grows linearly with the burst length
// (r/(1-r) is about burst(1-duty) for long bursts), while a Bernoulli
// source (duty = 1) has Var N_T = T lambda (1-lambda).
//
// Domain: rate > 0, duty in (0, 1], rate <= duty (p <= 1), burst >= 1 and,
// for duty < 1, a mean off period burst (1-duty)/duty >= 1 (b <= 1). This
// is the on/off source of the self-similar-traffic literature and of
// BookSim's "onoff" injection process (alpha = b, beta = a, r1 = p).
func NewOnOff(rate, burst, duty float64) (Process, error) {
	const name = "onoff"
	switch {
	case !(rate > 0 && !math.IsInf(rate, 1)):
		return nil, invalid(name, "rate = %v, want a positive finite number of messages per cycle", rate)
	case !(duty > 0 && duty <= 1):
		return nil, invalid(name, "duty cycle = %v outside (0, 1]", duty)
	case !(burst >= 1 && !math.IsInf(burst, 1)):
		return nil, invalid(name, "mean burst length = %v cycles, want a finite number >= 1", burst)
	case rate > duty:
		return nil, invalid(name, "rate %v > duty cycle %v: the peak rate rate/duty = %v exceeds one message per cycle", rate, duty, rate/duty)
	}
	o := &onOff{rate: rate, burst: burst, duty: duty, p: rate / duty, a: 1 / burst}
	if duty < 1 {
		off := burst * (1 - duty) / duty
		if off < 1 {
			return nil, invalid(name, "mean off period burst*(1-duty)/duty = %v cycles < 1: with duty %v the burst must be at least %v cycles", off, duty, duty/(1-duty))
		}
		o.b = 1 / off
	} else {
		o.a = 0 // always on: the Bernoulli process of rate p = rate
	}
	o.logStay = math.Log1p(-o.a) // log(1-a): 0 when a = 0 (never leaves on)
	o.logWait = math.Log1p(-o.p)
	o.logOff = math.Log1p(-o.b)
	return o, nil
}

type onOff struct {
	rate, burst, duty float64
	p, a, b           float64 // peak rate, Pr{on -> off}, Pr{off -> on}
	// logs of the complements, for geometric draws by inversion
	logStay, logWait, logOff float64
}

func (o *onOff) Name() string  { return "onoff" }
func (o *onOff) Rate() float64 { return o.rate }

// failures draws the failures before the first success of independent
// trials whose failure probability has logarithm logq, geometric on
// {0, 1, ...}: floor(log U / logq) for U uniform on (0, 1]. logq = 0 (no
// success ever) gives +Inf, logq = -Inf (success at once) gives 0.
func failures(logq float64, r *rand.Rand) float64 {
	if math.IsInf(logq, -1) {
		return 0
	}
	if logq == 0 {
		return math.Inf(1)
	}
	return math.Floor(math.Log1p(-r.Float64()) / logq)
}

// First draws the state of cycle 0 from the stationary distribution (on
// with probability duty) and returns the first cycle with a message.
func (o *onOff) First(r *rand.Rand) float64 {
	if r.Float64() < o.duty {
		if r.Float64() < o.p {
			return 0
		}
		return o.after(0, r)
	}
	// Off at cycle 0: by memorylessness the off cycles from 0 on are
	// geometric on {1, 2, ...} with parameter b.
	t := 1 + failures(o.logOff, r)
	if r.Float64() < o.p {
		return t
	}
	return o.after(t, r)
}

// Next returns the cycle of the message after one in cycle prev (the
// source is on in cycle prev).
func (o *onOff) Next(prev float64, r *rand.Rand) float64 { return o.after(prev, r) }

// after returns the first cycle after t with a message, given that the
// source is on in cycle t and whether t had a message is already decided.
// Each round draws the further on cycles R (geometric on {0, 1, ...} with
// success probability a) and the wait G for a message (geometric on
// {1, 2, ...} with parameter p): a message within the on period ends the
// search; otherwise an off period of geometric length D (on {1, 2, ...},
// parameter b) follows, and the first on cycle after it has a message with
// probability p.
func (o *onOff) after(t float64, r *rand.Rand) float64 {
	for {
		rest := failures(o.logStay, r)
		g := 1 + failures(o.logWait, r)
		if g <= rest {
			return t + g
		}
		t += rest + 1 + (1 + failures(o.logOff, r)) // rest more on cycles, then D >= 1 off cycles
		if r.Float64() < o.p {
			return t
		}
	}
}

// OnOffCountMean returns E[N_T] = rate*T, the mean number of messages of
// an on/off source of the given rate in T consecutive cycles (see
// [NewOnOff]).
func OnOffCountMean(rate float64, T int) float64 { return rate * float64(T) }

// OnOffCountVariance returns Var N_T, the variance of the number of
// messages of NewOnOff(rate, burst, duty) in T >= 1 consecutive cycles:
//
//	Var N_T = T lambda (1-lambda) + 2 p^2 duty (1-duty) r (T (1-r) - 1 + r^T) / (1-r)^2
//
// with lambda = rate, p = rate/duty, r = 1 - 1/burst - duty/(burst (1-duty))
// (derivation at [NewOnOff]); for duty = 1 the second term is 0.
func OnOffCountVariance(rate, burst, duty float64, T int) float64 {
	tf := float64(T)
	v := tf * rate * (1 - rate)
	if duty >= 1 {
		return v
	}
	p := rate / duty
	r := 1 - 1/burst - duty/(burst*(1-duty))
	s := r * (tf*(1-r) - 1 + math.Pow(r, tf)) / ((1 - r) * (1 - r))
	return v + 2*p*p*duty*(1-duty)*s
}
