package router

import "unsafe"

// MemoryBytes estimates the bytes New allocates for one router with the
// given ports, configuration and VC classes (adaptive: Config.Adaptive;
// scouting with a distance K >= 1 adds its per-VC header state), built as a
// network builds its routers, with a Storage (its share included: what
// StorageBytes gives), from the sizes of its own types and the lengths New
// gives its slices. With n = ports × VCs input (and output) VCs:
//
//	Router struct                               sizeof(Router)
//	its share of the Storage                    StorageBytes (buffers: n·B·sizeof(slot), or n·2·sizeof(slot) with heads' and tails' slots only: HeadTailServes)
//	adaptive or scouting state                  sizeof(richState)
//	adaptive candidates                         n·((ports+1)·sizeof(cand) + 4)
//	scouting                                    n·sizeof(scoutVC) + 2·ports·sizeof(Control)
//
// The input buffers dominate deep routers (sizeof(slot) is 16 bytes a flit
// slot); the Router struct (512 bytes, in the storage's one array) and its per-port state (56 bytes
// a port), shallow ones.
// sim/network's EstimateMemory sums it over the routers of a network.
func MemoryBytes(ports int, cfg Arch, classes int, adaptive, headsAndTails bool) int64 {
	n := int64(ports) * int64(cfg.VCs)
	p := int64(ports)
	b := int64(unsafe.Sizeof(Router{})) + StorageBytes(ports, cfg, headsAndTails)
	scouting := cfg.Switching == Scouting && cfg.ScoutingDistance > 0
	if adaptive || scouting {
		b += int64(unsafe.Sizeof(richState{}))
	}
	if adaptive {
		b += n * ((p+1)*int64(unsafe.Sizeof(cand{})) + 4)
	}
	if scouting {
		b += n*int64(unsafe.Sizeof(scoutVC{})) + 2*p*int64(unsafe.Sizeof(Control{}))
	}
	return b
}

// PlaneMemoryBytes estimates a router's share of what NewPlane allocates
// for a plane of routers built with one Storage, whose input VCs, buffers
// and credits the plane uses in place (nothing is copied or freed; the
// output VCs' down entries are the Storage's, StorageBytes):
//
//	dec, qset              16 + 8
//	waiter                 ports·VCs·4 (per input VC, the feeder waiting for room in its buffer)
//	Ejected                sizeof(Flit) (one port to a sink, the local one, in a direct network)
//	its word's share       sizeof(planeWord)/64
//	ejecting               sinkPorts·VCs·8 with wormhole switching (anonymous bodies,
//	                       Plane.anon; counted whatever the delays and routing)
//	injecting              VCs·4 with wormhole switching (slotless local VCs,
//	                       NewPlane's injectLatency; counted likewise)
//
// sinkPorts is the number of ports that lead to a sink at some router: 1
// (the local port) in a torus or hypercube, every port in a mesh (its edges).
func PlaneMemoryBytes(ports int, cfg Arch, sinkPorts int) int64 {
	b := int64(0)
	if cfg.Switching != VirtualCutThrough && cfg.Switching != StoreAndForward {
		b += int64(sinkPorts) * int64(cfg.VCs) * 8 // ejecting
		b += int64(cfg.VCs) * 4                    // injecting
	}
	b += 16 + 8                            // dec, qset
	b += int64(ports) * int64(cfg.VCs) * 4 // waiter
	b += int64(unsafe.Sizeof(Flit{}))
	b += int64(unsafe.Sizeof(planeWord{}))/64 + 1
	return b
}
