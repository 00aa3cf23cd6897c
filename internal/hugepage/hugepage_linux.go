package hugepage

import (
	"syscall"
	"unsafe"
)

const madvHugepage = 14 // MADV_HUGEPAGE, linux/mman.h (not exported by package syscall)

func advise(p unsafe.Pointer, n uintptr) bool {
	return syscall.Madvise(unsafe.Slice((*byte)(p), n), madvHugepage) == nil
}
