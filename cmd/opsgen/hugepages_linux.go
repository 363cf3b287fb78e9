package main

import (
	"os"
	"runtime"
	"strings"
	"syscall"
	"unsafe"
)

// hugePageSize is the size of a transparent huge page on the platforms
// Go's linux ports run on with 4 KiB pages (amd64, arm64, ...).
const hugePageSize = 2 << 20

// hugePages asks Linux to back the next size bytes of the heap with
// transparent huge pages, where the system leaves that to each program
// (/sys/kernel/mm/transparent_hugepage/enabled set to "madvise", the
// default of many distributions): Go's runtime does not ask. A generation
// builds a heap of a few hundred megabytes from nothing and drops it; with
// 4 KiB pages about a third of its CPU time went to the kernel's page
// faults (90,000 of them on GitHub's description; 4,300 with this).
//
// The heap is grown by size at once, by an allocation that is never
// touched (fresh memory needs no zeroing, so no page is faulted in), the
// advice is given on its pages (it stays with the mapping, which the
// runtime never unmaps), and a collection frees them for the allocations
// that follow. Errors are ignored: where huge pages are off or absent the
// advice does nothing. GODEBUG=disablethp=1, the runtime's own switch for
// huge pages, turns this off too. It returns the range advised (for the
// tests), empty when none is.
func hugePages(size int) (start, end uintptr) {
	if strings.Contains(os.Getenv("GODEBUG"), "disablethp=1") {
		return 0, 0
	}
	ballast := make([]byte, size)
	base := uintptr(unsafe.Pointer(unsafe.SliceData(ballast)))
	start = (base + hugePageSize - 1) &^ (hugePageSize - 1)
	end = max(start, (base+uintptr(size))&^(hugePageSize-1))
	if start < end {
		syscall.Syscall(syscall.SYS_MADVISE, start, end-start, syscall.MADV_HUGEPAGE)
	}
	runtime.KeepAlive(ballast)
	runtime.GC() // frees it
	return start, end
}
