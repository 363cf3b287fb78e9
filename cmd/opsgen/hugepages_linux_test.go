package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestHugePages checks that the heap range hugePages advises is marked for
// huge pages ("hg" among the flags of its mapping in /proc/self/smaps),
// and that GODEBUG=disablethp=1 turns it off.
func TestHugePages(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("this kernel has no transparent huge pages:", err)
	}
	t.Setenv("GODEBUG", "")
	start, end := hugePages(16 << 20)
	if end-start < 12<<20 {
		t.Fatalf("advised %#x-%#x, want most of 16 MiB", start, end)
	}
	flags, err := vmFlags(start)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("the mapping at %#x has flags %q, without hg", start, flags)
	}
	t.Setenv("GODEBUG", "disablethp=1")
	if start, end := hugePages(16 << 20); start != end {
		t.Errorf("with disablethp=1: advised %#x-%#x", start, end)
	}
}

// vmFlags returns the VmFlags of the mapping that holds addr.
func vmFlags(addr uintptr) (string, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return "", err
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 {
			in = lo <= addr && addr < hi
			continue
		}
		if flags, ok := strings.CutPrefix(line, "VmFlags:"); ok && in {
			return strings.TrimSpace(flags), nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("no mapping holds %#x", addr)
}
