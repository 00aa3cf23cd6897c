package sim

import "math/rand/v2"

// Cycle is a point in simulated time, counted in router clock cycles from the
// start of a run (cycle 0).
type Cycle int64

// Purpose names what a random stream is used for. Streams of different
// purposes are independent even for the same index, so that, for example,
// arbitration at router 3 never shares a stream with traffic at node 3.
type Purpose uint64

// Stream purposes used across flitsim. New purposes are appended; existing
// values never change, since they feed the stream derivation and so every
// published result.
const (
	PurposeTrafficArrival Purpose = iota + 1 // injection process (when)
	PurposeTrafficDest                       // destination pattern (where)
	PurposeTrafficLength                     // message-length distribution
	PurposeRouting                           // random / adaptive routing choices
	PurposeArbitration                       // arbiter tie-breaks, random priorities
	PurposeService                           // service-time draws (packet-level modes)
	PurposePlacement                         // initial placement (closed networks)
	PurposeReplication                       // per-replication root derivation
	PurposeSweepPoint                        // per-sweep-point root derivation
)

// splitmix64 is Vigna's SplitMix64 finaliser: a bijective mixer whose
// outputs for consecutive inputs are statistically independent. It is used
// only to derive seeds, never as a generator.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// DeriveSeed returns the seed of the sub-stream (purpose, index) of root.
// It is a pure function: the same arguments always give the same seed.
func DeriveSeed(root uint64, purpose Purpose, index uint64) uint64 {
	h := splitmix64(root)
	h = splitmix64(h ^ uint64(purpose)*0xd1342543de82ef95)
	return splitmix64(h ^ index*0xaf251af3b0f025b5)
}

// NewStream returns an independent PCG random stream for (purpose, index)
// derived from the root seed. Each simulated component owns its streams; a
// stream is never shared between goroutines.
func NewStream(root uint64, purpose Purpose, index uint64) *rand.Rand {
	var p rand.PCG
	SeedStream(&p, root, purpose, index)
	return rand.New(&p)
}

// SeedStream seeds p as stream (purpose, index) of the root seed: p then
// draws what NewStream's Rand draws. It is for state kept in place, such
// as a network's per-terminal streams in one array (a Rand and a PCG each
// are two allocations and two pointers to follow).
func SeedStream(p *rand.PCG, root uint64, purpose Purpose, index uint64) {
	s := DeriveSeed(root, purpose, index)
	p.Seed(s, splitmix64(s^0x5851f42d4c957f2d))
}
