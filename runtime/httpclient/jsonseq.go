package httpclient

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// recordSeparator starts each JSON text of an application/json-seq stream
// (RFC 7464).
const recordSeparator = 0x1E

// sequenceSeparator returns the byte that separates the items of a JSON
// sequence media type, and whether mt is one: a line feed for JSON Lines
// (application/jsonl, application/x-ndjson, application/x-jsonlines), the
// record separator for JSON text sequences (application/json-seq).
func sequenceSeparator(mt string) (byte, bool) {
	switch mt {
	case "application/jsonl", "application/x-ndjson", "application/x-jsonlines":
		return '\n', true
	case "application/json-seq":
		return recordSeparator, true
	}
	return 0, false
}

// itemReader splits a JSON sequence into its items: the bytes between two
// separators, without the JSON whitespace around them (so CRLF line ends,
// and the line feed that ends each json-seq record, go); blank items are
// skipped. Memory is bounded by the largest item: an item longer than max
// bytes is skipped with a warning, up to the next separator, without being
// kept. An item left unterminated at the end of the stream is still an
// item (JSON Lines producers often omit the last line feed); a truncated
// one fails to decode and is skipped as any malformed item.
type itemReader struct {
	r    *bufio.Reader
	sep  byte
	max  int
	warn func(string)
	buf  []byte
	err  error // the error that ends the stream, once the last item is out
}

func newItemReader(r io.Reader, sep byte, maxItem int, warn func(string)) *itemReader {
	return &itemReader{r: bufio.NewReaderSize(r, 16<<10), sep: sep, max: maxItem, warn: warn}
}

// next returns the next item, valid until the following call; io.EOF at
// the end of the stream, or the reader's error.
func (ir *itemReader) next() ([]byte, error) {
	for ir.err == nil {
		ir.buf = ir.buf[:0]
		tooLong := false
		for {
			chunk, err := ir.r.ReadSlice(ir.sep)
			if !tooLong {
				if len(ir.buf)+len(chunk) > ir.max+1 { // +1: the separator
					tooLong, ir.buf = true, ir.buf[:0]
				} else {
					ir.buf = append(ir.buf, chunk...)
				}
			}
			if err == bufio.ErrBufferFull {
				continue
			}
			ir.err = err
			break
		}
		if tooLong {
			ir.warn(fmt.Sprintf("stream item longer than %d bytes; it is skipped", ir.max))
			continue
		}
		if ir.err != nil && ir.err != io.EOF {
			return nil, ir.err // an item cut by a failed read is not one
		}
		if item := bytes.TrimSpace(bytes.TrimSuffix(ir.buf, []byte{ir.sep})); len(item) > 0 {
			return item, nil
		}
	}
	return nil, ir.err
}

// streamItems yields the items of a JSON sequence, each decoded into T
// through the pipeline against schema. It returns how many it read and why
// it ended (see eachItem).
func streamItems[T any](ctx context.Context, p *runtime.Pipeline, opID string, schema *opsgenimpl.Schema, items *itemReader, meta runtime.HTTPMeta, warn func(string), yield func(runtime.ResponseEnvelope[T], error) bool) (int, error) {
	n := 0
	return eachItem(ctx, items.next, func(item []byte) bool {
		n++
		var out T
		warnings, err := opsgenimpl.Decode(ctx, p, opID, schema, item, &out)
		return yieldItem(out, warnings, err, meta, yield, func(err error) {
			warn(fmt.Sprintf("stream item %d skipped: it does not decode: %v", n, err))
		})
	})
}
