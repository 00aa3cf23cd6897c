package traffic

import "strconv"

// RateUnit says what an offered-load figure counts. Papers quote load both
// ways: messages per node per cycle (lambda of Draper-Ghosh, l_g of Safaei
// et al.) and flits per node per cycle (the usual x-axis of simulator
// load-latency curves, where 1 is the injection-channel capacity).
type RateUnit uint8

// Rate units.
const (
	MessagesPerNodeCycle RateUnit = iota // messages / node / cycle
	FlitsPerNodeCycle                    // flits / node / cycle
)

// String returns "msgs/node/cycle" or "flits/node/cycle".
func (u RateUnit) String() string {
	switch u {
	case MessagesPerNodeCycle:
		return "msgs/node/cycle"
	case FlitsPerNodeCycle:
		return "flits/node/cycle"
	}
	return "RateUnit(" + strconv.Itoa(int(u)) + ")"
}

// MessagesPerCycle converts rate, counted in unit, to messages per node per
// cycle, the Rate of a Process. With mean length E[M] = l.Mean() flits,
//
//	messages/node/cycle = (flits/node/cycle) / E[M]
//
// l is read only for FlitsPerNodeCycle. It panics on an unknown unit.
func MessagesPerCycle(rate float64, unit RateUnit, l Length) float64 {
	switch unit {
	case MessagesPerNodeCycle:
		return rate
	case FlitsPerNodeCycle:
		return rate / l.Mean()
	}
	panic("traffic: MessagesPerCycle: unknown RateUnit " + unit.String())
}

// FlitsPerCycle converts rate, counted in unit, to flits per node per cycle:
//
//	flits/node/cycle = (messages/node/cycle) * E[M]
//
// l is read only for MessagesPerNodeCycle. It panics on an unknown unit.
func FlitsPerCycle(rate float64, unit RateUnit, l Length) float64 {
	switch unit {
	case MessagesPerNodeCycle:
		return rate * l.Mean()
	case FlitsPerNodeCycle:
		return rate
	}
	panic("traffic: FlitsPerCycle: unknown RateUnit " + unit.String())
}
