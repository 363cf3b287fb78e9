package conform

import (
	"encoding/json"
	"sort"
)

// edit replaces w.b[start:end] with text. Normalization is a list of edits
// made while walking; the document is rewritten only when there is one:
//
//   - a member of the wrong type is deleted (with its comma), an array item
//     or the root of the wrong type becomes null: the rest is kept;
//   - absent members with a declared default are inserted after the '{';
//   - undeclared members are deleted, for untyped targets only (encoding/json
//     drops them for structs anyway);
//   - an integer written 1e3 or 2.0 is rewritten 1000 or 2, which Go's
//     integer types accept.
type edit struct {
	start, end int
	text       string
}

func (w *walker) edit(start, end int, text string) {
	w.edits = append(w.edits, edit{start, end, text})
}

// normalized applies the walker's edits to its document. It returns the
// document itself when there is nothing to change, and ok false in the
// (defensive) case where the edits of two overlapping schemas (a property
// declared both by a schema and by its chosen anyOf branch) do not compose
// into valid JSON.
func (w *walker) normalized() (out []byte, ok bool) {
	if len(w.edits) == 0 {
		return w.b, true
	}
	edits := w.edits
	// Edits come in walk order except those of objects (inserted at '{'
	// after their members were walked) and of chosen branches; insertions
	// go before the deletion that starts where they are.
	if len(edits) > 1 {
		// Through the walker's own sorter: a slice converted to
		// sort.Interface would be allocated.
		w.sorter = edits
		sort.Stable(&w.sorter)
		w.sorter = nil
	}
	out = make([]byte, 0, len(w.b)+64)
	cursor := 0
	var prev *edit
	for k := range edits {
		e := &edits[k]
		if e.start < cursor || (prev != nil && *prev == *e) {
			continue // inside a deleted range, or the same edit twice
		}
		out = append(out, w.b[cursor:e.start]...)
		out = append(out, e.text...)
		cursor, prev = e.end, e
	}
	out = append(out, w.b[cursor:]...)
	return out, json.Valid(out)
}

// editOrder sorts edits by start, then length (see normalized). It is a
// sort.Interface rather than a slices.SortStableFunc so that the program
// shares sort's code with net/http instead of linking a copy for edit.
type editOrder []edit

func (s *editOrder) Len() int      { return len(*s) }
func (s *editOrder) Swap(i, j int) { (*s)[i], (*s)[j] = (*s)[j], (*s)[i] }
func (s *editOrder) Less(i, j int) bool {
	a, b := &(*s)[i], &(*s)[j]
	if a.start != b.start {
		return a.start < b.start
	}
	return a.end-a.start < b.end-b.start
}
