// Package sim holds the network-agnostic engine primitives of flitsim:
// the simulated clock ([Cycle]), deterministic random-number streams
// ([Stream]), statistics (accumulators, batch means with confidence
// intervals, warm-up truncation, histograms) and run control.
//
// sim knows cycles, random streams, statistics and run control, and nothing
// of networks: routers, topologies and traffic import sim, never the other
// way round. Network models built on these primitives live in sub-packages
// (sim/network for the flit-level VC-router network, and one package per
// paper-specific mode).
//
// # Determinism
//
// Every random decision draws from a stream derived from one root seed, a
// [Purpose] and an index (usually a node or router id):
//
//	stream = PCG(splitmix(root, purpose, index))
//
// so changing the traffic of one node never perturbs the arbitration of
// another, and a result never depends on worker count or run order. The
// global math/rand source is never used.
package sim
