package output

import (
	"fmt"
	"strings"
)

// maxEdits bounds the Myers search (its trace takes O(D²) memory); past it,
// the differing middle is shown as removed then added as a whole.
const maxEdits = 2000

type opKind int8

const (
	opEqual opKind = iota
	opDelete
	opInsert
)

type edit struct {
	kind opKind
	line string // with its "\n", except a last line without one
}

// Unified returns a unified diff (3 lines of context) from a to b, with
// "--- fromName" and "+++ toName" headers, showing at most maxLines lines
// after the headers; "" when a and b are equal.
func Unified(fromName, toName string, a, b []byte, maxLines int) string {
	if string(a) == string(b) {
		return ""
	}
	edits := diffLines(splitLines(string(a)), splitLines(string(b)))
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", fromName, toName)
	written, dropped := 0, 0
	emit := func(s string) {
		if written < maxLines {
			out.WriteString(s)
			written++
		} else {
			dropped++
		}
	}
	const context = 3
	for i := 0; i < len(edits); {
		if edits[i].kind == opEqual {
			i++
			continue
		}
		// A hunk runs from this change to the last change that is at most
		// 2*context equal lines after the previous one.
		start := max(0, i-context)
		end := i
		for j := i; j < len(edits); j++ {
			if edits[j].kind != opEqual {
				end = j
			} else if j-end > 2*context {
				break
			}
		}
		end = min(len(edits), end+context+1)
		aLine, bLine := 1, 1
		for _, e := range edits[:start] {
			if e.kind != opInsert {
				aLine++
			}
			if e.kind != opDelete {
				bLine++
			}
		}
		aLen, bLen := 0, 0
		for _, e := range edits[start:end] {
			if e.kind != opInsert {
				aLen++
			}
			if e.kind != opDelete {
				bLen++
			}
		}
		// An empty range names the line before it, as diff -u does.
		if aLen == 0 {
			aLine--
		}
		if bLen == 0 {
			bLine--
		}
		emit(fmt.Sprintf("@@ -%d,%d +%d,%d @@\n", aLine, aLen, bLine, bLen))
		for _, e := range edits[start:end] {
			prefix := " "
			switch e.kind {
			case opDelete:
				prefix = "-"
			case opInsert:
				prefix = "+"
			}
			if strings.HasSuffix(e.line, "\n") {
				emit(prefix + e.line)
			} else {
				emit(prefix + e.line + "\n")
				emit("\\ No newline at end of file\n")
			}
		}
		i = end
	}
	if dropped > 0 {
		fmt.Fprintf(&out, "... diff truncated: %d more lines\n", dropped)
	}
	return out.String()
}

// splitLines splits s after each "\n"; a last line without one is kept as is.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// diffLines returns a shortest edit script from a to b (Myers' O(ND)
// algorithm, after trimming the common prefix and suffix).
func diffLines(a, b []string) []edit {
	var prefix, suffix []edit
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		prefix = append(prefix, edit{opEqual, a[0]})
		a, b = a[1:], b[1:]
	}
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		suffix = append(suffix, edit{opEqual, a[len(a)-1]})
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	middle, ok := myers(a, b)
	if !ok {
		middle = middle[:0]
		for _, l := range a {
			middle = append(middle, edit{opDelete, l})
		}
		for _, l := range b {
			middle = append(middle, edit{opInsert, l})
		}
	}
	out := append(prefix, middle...)
	for i := len(suffix) - 1; i >= 0; i-- {
		out = append(out, suffix[i])
	}
	return out
}

// myers finds the edit script; ok is false when it needs more than maxEdits edits.
func myers(a, b []string) (script []edit, ok bool) {
	n, m := len(a), len(b)
	limit := min(n+m, maxEdits)
	off := limit + 1
	v := make([]int, 2*limit+3)
	// trace[d] holds v[-d..d] after step d.
	var trace [][]int
	for d := 0; d <= limit; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: insert b[y-1]
			} else {
				x = v[off+k-1] + 1 // right: delete a[x-1]
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				trace = append(trace, append([]int(nil), v[off-d:off+d+1]...))
				return backtrack(a, b, trace), true
			}
		}
		trace = append(trace, append([]int(nil), v[off-d:off+d+1]...))
	}
	return nil, false
}

func backtrack(a, b []string, trace [][]int) []edit {
	x, y := len(a), len(b)
	var rev []edit
	for d := len(trace) - 1; d > 0; d-- {
		prev := trace[d-1] // prev[k+d-1] is v[k] after step d-1
		k := x - y
		var pk int
		if k == -d || (k != d && prev[k-1+d-1] < prev[k+1+d-1]) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := prev[pk+d-1]
		py := px - pk
		for x > px && y > py {
			rev = append(rev, edit{opEqual, a[x-1]})
			x--
			y--
		}
		if x == px {
			rev = append(rev, edit{opInsert, b[y-1]})
			y--
		} else {
			rev = append(rev, edit{opDelete, a[x-1]})
			x--
		}
	}
	for x > 0 && y > 0 {
		rev = append(rev, edit{opEqual, a[x-1]})
		x--
		y--
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}
