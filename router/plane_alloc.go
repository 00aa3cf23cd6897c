package router

//go:generate go run gen_plane_alloc.go

// allocateWord runs the switch allocation of the 64 routers of word pw:
// allocate, or for the common shapes its straight-line specialisation
// (plane_alloc_gen.go, written by gen_plane_alloc.go: every index a
// constant, the scratch in registers). Each specialisation leaves pw as
// allocate would (TestPlaneAllocateWordMatchesAllocate), so which one runs
// changes nothing but the cost: on the 8x8 torus of scripts/cost.sh (5
// ports, 2 VCs, one word) 602 instructions per cycle against allocate's
// 3,018, on the 16x16 (four words) 2,408 against 12,064.
//
// The dispatch is one indirect call through a table filled once, small
// enough to inline into Step.
func (pl *Plane) allocateWord(pw *planeWord) {
	planeAllocators[pl.ports&31][pl.vcs&15](pl, pw)
}

// planeAllocators is the allocator of each shape, [ports][VCs]: a
// generated specialisation where there is one, allocate elsewhere. (Sized
// 32 x 16 so that the masked indices need no bounds check; shapes beyond
// MaxPlanePorts and MaxPlaneVCs never occur.)
var planeAllocators = func() (t [32][16]func(*Plane, *planeWord)) {
	for i := range t {
		for j := range t[i] {
			t[i][j] = (*Plane).allocate
		}
	}
	for _, g := range generatedAllocators {
		t[g.ports][g.vcs] = g.f
	}
	return t
}()
