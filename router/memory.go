package router

import "unsafe"

// MemoryBytes estimates the bytes New allocates for one router with the
// given ports, configuration and VC classes (adaptive: Config.Adaptive is
// set; scouting with a distance K >= 1 adds its per-VC header state), from
// the sizes of its own types and the lengths New gives its slices. With n =
// ports × VCs input (and output) VCs and B = BufferDepth:
//
//	Router struct                               sizeof(Router)
//	input buffers                               n·B·sizeof(slot)
//	input VC state                              n·sizeof(inputVC)
//	per-VC int32/uint8/bool arrays              n·(6·4 + 2 + 1)
//	per-port arrays                             ports·(sizeof(portState) + sizeof(Departure) + sizeof(CreditReturn) + 4 + 8 + sizeof(upLink) + 8·(V+1))
//	adaptive candidates                         n·((ports+1)·sizeof(cand) + 4)
//	scouting                                    n·sizeof(scoutVC) + 2·ports·sizeof(Control)
//
// The input buffers dominate deep routers (sizeof(slot) is 32 bytes a flit
// slot); the Router struct (about 1 KiB) and its per-port state (80 bytes
// a port), shallow ones.
// sim/network's EstimateMemory sums it over the routers of a network.
func MemoryBytes(ports int, cfg Arch, classes int, adaptive bool) int64 {
	n := int64(ports) * int64(cfg.VCs)
	p := int64(ports)
	b := int64(unsafe.Sizeof(Router{}))
	b += n * int64(cfg.BufferDepth) * int64(unsafe.Sizeof(slot{}))
	b += n * int64(unsafe.Sizeof(inputVC{}))
	b += n * (6*4 + 2 + 1) // ovOwner, ovCredits, vaPtr, ovPtr, vaReq, vaTouched; portOf, vcOf; vaMany
	b += (p + 1) * int64(unsafe.Sizeof(Candidate{}))
	b += p * (int64(unsafe.Sizeof(portState{})+unsafe.Sizeof(Departure{})+unsafe.Sizeof(CreditReturn{})+unsafe.Sizeof(upLink{})) + 4 + 8 + 8*int64(cfg.VCs+1))
	b += int64(classes+1) * 4
	if adaptive {
		b += n * ((p+1)*int64(unsafe.Sizeof(cand{})) + 4)
	}
	if cfg.Switching == Scouting && cfg.ScoutingDistance > 0 {
		b += n*int64(unsafe.Sizeof(scoutVC{})) + 2*p*int64(unsafe.Sizeof(Control{}))
	}
	return b
}

// PlaneMemoryBytes estimates a router's share of what NewPlane allocates
// for a plane of such routers (added) and what of the router's own
// allocation the plane replaces (freed): the plane keeps every router's
// input buffers, VC state and output credits in its own arrays and points
// the router at its window of them, so the router's arrays become garbage
// once NewPlane has copied them. With n = ports × VCs and B = BufferDepth:
//
//	added  n·B·sizeof(slot) + n·(sizeof(inputVC) + 4 + 8 + 4) + 24 + ports·sizeof(Flit) + sizeof(planeWord)/64
//	freed  n·B·sizeof(slot) + n·(sizeof(inputVC) + 4)
//
// Between the two (while the network is built) both are held.
func PlaneMemoryBytes(ports int, cfg Arch) (added, freed int64) {
	n := int64(ports) * int64(cfg.VCs)
	buffers := n * int64(cfg.BufferDepth) * int64(unsafe.Sizeof(slot{}))
	added = buffers + n*(int64(unsafe.Sizeof(inputVC{}))+4+8+4)
	added += 16 + 8 // dec, qset
	added += int64(ports) * int64(unsafe.Sizeof(Flit{}))
	added += int64(unsafe.Sizeof(planeWord{}))/64 + 1
	freed = buffers + n*(int64(unsafe.Sizeof(inputVC{}))+4)
	return added, freed
}
