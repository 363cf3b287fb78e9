package mcptools

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/opsgen/opsgen/generator/diag"
)

// positions maps the JSON pointers of a document to the byte offsets where
// their values start, so that diagnostics can give a line and column.
type positions struct {
	file    string
	data    []byte
	offsets map[string]int
	// newlines are the offsets of the line ends, found when first needed.
	newlines []int
}

// indexPositions reads data, which must be valid JSON, and records where
// every value starts.
func indexPositions(file string, data []byte) *positions {
	p := &positions{file: file, data: data, offsets: map[string]int{}}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // a number beyond float64 (1e400) would stop the indexing
	p.value(dec, "")
	return p
}

// start returns the offset of the next value: dec's offset after the
// previous token, past whitespace and the separators ':' and ','.
func (p *positions) start(dec *json.Decoder) int {
	off := int(dec.InputOffset())
	for off < len(p.data) && strings.IndexByte(" \t\r\n:,", p.data[off]) >= 0 {
		off++
	}
	return off
}

// value records the value at ptr and everything inside it. It returns false
// when the decoder fails (not expected: data was valid JSON).
func (p *positions) value(dec *json.Decoder, ptr string) bool {
	p.offsets[ptr] = p.start(dec)
	tok, err := dec.Token()
	if err != nil {
		return false
	}
	switch tok {
	case json.Delim('{'):
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				return false
			}
			if !p.value(dec, ptr+"/"+escapePointer(key.(string))) {
				return false
			}
		}
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if !p.value(dec, ptr+"/"+strconv.Itoa(i)) {
				return false
			}
		}
	default:
		return true
	}
	_, err = dec.Token() // the closing delimiter
	return err == nil
}

// pos returns the position of the value at ptr (or of its nearest indexed
// ancestor when ptr itself is unknown).
func (p *positions) pos(ptr string) diag.Pos {
	pos := diag.Pos{File: p.file, Pointer: ptr}
	for q := ptr; ; {
		if off, ok := p.offsets[q]; ok {
			if p.newlines == nil {
				p.newlines = []int{}
				for i, c := range p.data {
					if c == '\n' {
						p.newlines = append(p.newlines, i)
					}
				}
			}
			// The line is one more than the newlines before off.
			n, _ := slices.BinarySearch(p.newlines, off)
			pos.Line, pos.Col = n+1, off+1
			if n > 0 {
				pos.Col = off - p.newlines[n-1]
			}
			return pos
		}
		i := strings.LastIndexByte(q, '/')
		if i < 0 {
			return pos
		}
		q = q[:i]
	}
}

// lineCol converts a byte offset into a 1-based line and column (in bytes).
func lineCol(data []byte, off int) (line, col int) {
	off = min(off, len(data))
	line = 1 + bytes.Count(data[:off], []byte("\n"))
	col = off - bytes.LastIndexByte(data[:off], '\n')
	return line, col
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// escapePointer escapes one JSON pointer token (RFC 6901).
func escapePointer(s string) string { return pointerEscaper.Replace(s) }

// syntaxPos returns the position of a JSON decoding error, when it has one.
func syntaxPos(file string, data []byte, err error) (diag.Pos, bool) {
	var se *json.SyntaxError
	var tde *trailingDataError
	switch {
	case errors.As(err, &tde):
		off := int(tde.offset)
		for off < len(data) && strings.IndexByte(" \t\r\n", data[off]) >= 0 {
			off++
		}
		line, col := lineCol(data, off)
		return diag.Pos{File: file, Line: line, Col: col}, true
	case errors.As(err, &se):
		line, col := lineCol(data, int(se.Offset))
		return diag.Pos{File: file, Line: line, Col: col}, true
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		line, col := lineCol(data, len(data))
		return diag.Pos{File: file, Line: line, Col: col}, true
	}
	return diag.Pos{}, false
}
