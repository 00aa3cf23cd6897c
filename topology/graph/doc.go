// Package graph describes the networks of today's machines — the
// dragonfly, the flattened butterfly, the k-ary n-tree fat tree, the
// concentrated mesh — and any network read from a graph file, with their
// routing functions and a channel-dependency check that proves them
// deadlock-free.
//
// Unlike package topology (one terminal per router, one port per
// direction), a Network here has routers of any number of ports,
// terminals attached to router ports (several per router: concentration),
// and channels between router ports, each with its own latency. A
// terminal injects into the input side of its port and ejects from the
// output side. Each family's constructor documents its ids and port
// numbering; the dragonfly's documents its global-link arrangement.
//
// # Routing
//
// A Routing maps (router, destination terminal, packet state) to a set of
// candidates (output port, VC class) and the state the packet carries on.
// The state is what a BookSim flit carries besides its destination: the
// intermediate group or router of Valiant routing and its phase, UGAL's
// decision, the hops taken for hop-indexed VC classes. Route is
// allocation-free; an adaptive function (UGAL) reads queue lengths through
// Loads, which must not allocate either.
//
//	dragonfly            minimal (l-g-l, 2 classes), valiant, ugal-l, ugal-g (3 classes)
//	flattened butterfly  minimal (dimension order, 1 class), valiant (2 classes)
//	fat tree             up-down (random up port), dest-mod-k (1 class)
//	concentrated mesh    minimal (dimension order, 1 class)
//	graph file           shortest-path (every shortest next hop, hop-indexed classes)
//
// Check explores every path a routing function admits, from every source
// and for every start state, and builds the channel-dependency graph over
// (channel, class) with the packet's state tracked; it reports a cycle by
// naming its channels. ChannelLoads computes the expected load of every
// channel under a traffic pattern, from which Bound gives the
// channel-load bound on throughput; package analytic/ideal has the closed
// forms, checked against it by the tests.
//
// # Graph files
//
// See Parse for the format. For example, a ring of four routers with one
// terminal each and one slow link:
//
//	router a b c d
//	link a b
//	link b c
//	link c d 4      # 4 cycles
//	link d a
//	terminal a
//	terminal b
//	terminal c
//	terminal d
//
// Graph algorithms off the hot path (breadth-first search, the state
// exploration of Check, the name table of the parser) use the generic
// containers of github.com/emirpasic/gods/v2.
package graph
