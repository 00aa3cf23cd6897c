// Package multistage describes delta networks (Patel 1981): n = b^z terminals
// joined by z stages of n/b switches of size b x b, with the unique-path,
// digit-controlled routing of Makrucki & Mudge (seed 001, docs/models.md#makrucki-inputs).
// Three classic wirings are built: the Omega network (Lawrie 1975, a perfect
// b-shuffle before every stage), the indirect butterfly (generalised cube) and
// the baseline network (Wu & Feng 1980). b is any integer >= 2 (the analytic
// model of Makrucki & Mudge asks for b = 2^k; the wiring does not).
//
// # Ids
//
// Everything is a dense int, so a simulator can index flat slices:
//
//	terminal  t in [0, n)               source t and sink t are the same PE
//	stage     s in [0, z)               stage 0 is fed by the sources
//	switch    sw = s*(n/b) + j          j in [0, n/b) within its stage
//	port      p in [0, b)               input and output ports of a switch
//	line      x = j*b + p               the p-th port of switch j of a stage
//	channel   c = l*n + x, l in [0, z]  level l carries the lines into stage l
//
// Level 0 holds the injection channels (source -> stage 0), levels 1..z-1 the
// inter-stage channels, level z the ejection channels (stage z-1 -> sink). A
// channel at level l is named by the line it leaves from: for l = 0 the source
// t (c = t), for l >= 1 the output line x of stage l-1 (c = l*n + x). Every
// wiring is then a list of z+1 permutations of [0, n):
//
//	pi_0(t)      input line of stage 0 fed by source t
//	pi_l(x)      input line of stage l fed by output line x of stage l-1, 1 <= l < z
//	pi_z(x)      sink fed by output line x of stage z-1
//
// # Routing (destination tag)
//
// With the destination written in base b, d = (d_{z-1} ... d_1 d_0), the switch
// of stage s sends a packet for d to its output port
//
//	Route(s, d) = d_{z-1-s} = floor(d / b^{z-1-s}) mod b
//
// in all three wirings (most significant digit first). Each wiring below is
// built so that this tag reaches d from every source:
//
//	Omega:     pi_0 = pi_l = sigma (perfect b-shuffle, sigma(x) = (x*b mod n) + floor(x*b/n)),
//	           pi_z = identity. The line address rotates left one digit per stage and
//	           the switch overwrites its last digit with d_{z-1-s}.
//	Butterfly: stage s pairs the lines that differ only in digit z-1-s; with
//	           pos_s(a) = (a without digit z-1-s)*b + digit_{z-1-s}(a) the wiring is
//	           pi_0 = pos_0, pi_l = pos_l o pos_{l-1}^{-1}, pi_z = pos_{z-1}^{-1} = identity.
//	Baseline:  pi_0 = identity; after stage s the lines of every block of size
//	           m = n/b^s are inverse-shuffled, o -> (o mod b)*(m/b) + floor(o/b);
//	           pi_z = identity.
//
// The three networks are isomorphic (all are banyans) but wired differently;
// the tests check every wiring for the unique-path property (exactly one path
// from each source to each sink, counted over the channel graph without using
// the routing function) and that the tag route from every source reaches
// every sink.
//
// A Network is immutable after New and safe for concurrent use; its tables
// are flat int32 slices and no method allocates, except Path, which appends
// to the caller's buffer.
//
// # Use by a flit-level engine
//
// Switches, ports and channels have dense ids and terminals are separate from
// switches (a terminal is not a router). An engine that runs this network on
// the VC routers needs: terminal nodes that own a NIC but no router; routers
// of b input and b output ports with no local port; per-switch routing by
// Route(stage, dest) (one output port, one VC class: a delta network has no
// cyclic channel dependency, so any VC is deadlock-free); and the channel
// tables In/Out/Injection/Ejection in place of the direct-network port
// convention.
package multistage
