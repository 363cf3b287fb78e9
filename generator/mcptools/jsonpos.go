package mcptools

import (
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/jsonptr"
)

// positions places the JSON pointers of one file (generator/jsonptr says
// where: an object member at its key, columns in characters).
type positions struct {
	file string
	ix   *jsonptr.Index
}

// indexPositions indexes data, which must be valid JSON.
func indexPositions(file string, data []byte) *positions {
	return &positions{file: file, ix: jsonptr.NewIndex(data)}
}

// pos returns the position of ptr (or of its deepest ancestor in the file).
func (p *positions) pos(ptr string) diag.Pos {
	line, col := p.ix.LineCol(ptr)
	return diag.Pos{File: p.file, Line: line, Col: col, Pointer: ptr}
}

// syntaxPos returns the position of a JSON decoding error, when it has one.
func syntaxPos(file string, data []byte, err error) (diag.Pos, bool) {
	var se *json.SyntaxError
	var tde *trailingDataError
	off := 0
	switch {
	case errors.As(err, &tde):
		off = int(tde.offset)
		for off < len(data) && strings.IndexByte(" \t\r\n", data[off]) >= 0 {
			off++
		}
	case errors.As(err, &se):
		off = int(se.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		off = len(data)
	default:
		return diag.Pos{}, false
	}
	line, col := jsonptr.LineCol(data, off)
	return diag.Pos{File: file, Line: line, Col: col}, true
}
