package jsonptr

import (
	"bytes"
	"slices"
	"unicode/utf8"
)

// Lines converts byte offsets of a text to lines and columns (see the
// package doc for the units). The line ends are found on first use; a
// column is counted from the start of its line, or from the previous
// query when that was earlier on the same line, so that queries in
// increasing order cost one pass over the text even when it is all on one
// line (a minified document).
type Lines struct {
	data []byte
	nl   []int // offsets of the '\n's, nil until first used
	// The last query: its offset, line and column.
	lastOff, lastLine, lastCol int
}

// NewLines returns the converter for data.
func NewLines(data []byte) *Lines { return &Lines{data: data} }

// LineCol returns the line and column of the byte offset off, clamped to
// the text.
func (l *Lines) LineCol(off int) (line, col int) {
	off = min(max(off, 0), len(l.data))
	if l.nl == nil {
		l.nl = make([]int, 0, 64)
		for i := 0; ; {
			j := bytes.IndexByte(l.data[i:], '\n')
			if j < 0 {
				break
			}
			l.nl = append(l.nl, i+j)
			i += j + 1
		}
	}
	n, _ := slices.BinarySearch(l.nl, off) // the line ends before off
	start := 0
	if n > 0 {
		start = l.nl[n-1] + 1
	}
	from, col := start, 1
	if l.lastLine == n+1 && l.lastOff >= start && l.lastOff <= off {
		from, col = l.lastOff, l.lastCol
	}
	col += utf8.RuneCount(l.data[from:off])
	l.lastOff, l.lastLine, l.lastCol = off, n+1, col
	return n + 1, col
}

// LineCol returns the line and column of one byte offset of data.
func LineCol(data []byte, off int) (line, col int) { return NewLines(data).LineCol(off) }

// LineCols returns the line and column of each byte offset of data, in one
// pass over it and without an index of its lines.
func LineCols(data []byte, offs []int) map[int][2]int {
	sorted := slices.Compact(slices.Sorted(slices.Values(offs)))
	out := make(map[int][2]int, len(sorted))
	line, col, cur := 1, 1, 0
	for _, orig := range sorted {
		off := min(max(orig, cur), len(data))
		seg := data[cur:off]
		if i := bytes.LastIndexByte(seg, '\n'); i >= 0 {
			line += bytes.Count(seg, []byte("\n"))
			col = 1 + utf8.RuneCount(seg[i+1:])
		} else {
			col += utf8.RuneCount(seg)
		}
		cur = off
		out[orig] = [2]int{line, col}
	}
	return out
}
