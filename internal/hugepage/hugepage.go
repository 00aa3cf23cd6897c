// Package hugepage asks the operating system to back a large array with
// huge pages (2 MiB on x86-64 Linux instead of 4 KiB).
//
// A simulation of 2^20 routers reaches into gigabytes of flit slots and VC
// state in an order no cache follows: every flit-hop touches a few lines
// far apart. With 4 KiB pages each of those lines also misses the TLB (its
// 2,048 entries cover 8 MiB), and in a virtual machine a TLB miss walks two
// page tables. Linux gives a region transparent huge pages when it is
// advised so (madvise MADV_HUGEPAGE) and the system's setting is "madvise"
// (the common default) or "always"; the Go runtime does not advise its
// heap. Advise marks the 2 MiB-aligned interior of an array that has not
// been touched yet (a fresh make), so that its pages are huge from their
// first write. Measured effect: docs/speed.md#huge-pages.
package hugepage

import "unsafe"

// Size is the huge page size Advise aligns to.
const Size = 2 << 20

// Min is the smallest array Advise advises: below a few huge pages the
// TLB covers it anyway.
const Min = 4 * Size

// Advise asks for huge pages under the 2 MiB-aligned interior of s's
// backing array (up to its capacity) and reports whether the advice was
// given: false for arrays below Min, on systems without transparent huge
// pages, or when the kernel refuses. It changes nothing the program can
// observe but speed and resident size; call it on a fresh allocation,
// before its memory is written.
func Advise[T any](s []T) bool {
	s = s[:cap(s)]
	if len(s) == 0 {
		return false
	}
	n := uintptr(len(s)) * unsafe.Sizeof(s[0])
	if n < Min {
		return false
	}
	p := unsafe.Pointer(unsafe.SliceData(s))
	lo := (uintptr(p) + Size - 1) &^ (Size - 1)
	hi := (uintptr(p) + n) &^ (Size - 1)
	if hi <= lo {
		return false
	}
	return advise(unsafe.Add(p, lo-uintptr(p)), hi-lo)
}

// Make returns make([]T, n), advised (Advise) when it is large enough.
func Make[T any](n int) []T {
	s := make([]T, n)
	Advise(s)
	return s
}
