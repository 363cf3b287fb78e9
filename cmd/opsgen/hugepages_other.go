//go:build !linux

package main

// hugePages does nothing outside Linux (see hugepages_linux.go).
func hugePages(size int) (start, end uintptr) { return 0, 0 }
