package httpclient

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// maxEventLine caps one line of an event stream; a longer line makes the
// parser skip its frame.
const maxEventLine = 1 << 20

// sseEvent is one dispatched server-sent event.
type sseEvent struct {
	typ  string // the event field, "" when absent
	data string // the data lines joined with "\n"
	id   string // the last event ID
}

// sseParser reads server-sent events as the WHATWG HTML "event stream
// interpretation" rules say: lines end with CRLF, LF or CR; a leading BOM is
// dropped; lines starting with ":" are comments; "data" lines accumulate,
// "event" names the event, "id" sets the last event ID (kept across
// events), "retry" sets the reconnection time (kept in retry); a
// blank line dispatches the event, unless it has no data. At the end of the
// stream an event not terminated by a blank line is discarded, as the spec
// requires (the parser reports it through warn).
//
// Beyond the spec, a line longer than maxLine bytes, or data growing past
// maxData bytes, makes the parser skip the rest of the frame (up to the
// next blank line) with a warning and resync there.
type sseParser struct {
	r       *bufio.Reader
	maxLine int
	maxData int
	warn    func(msg string)

	line     []byte
	skipLF   bool // the last line ended with CR: a following LF belongs to it
	started  bool
	skipping bool // inside a frame being skipped

	data   []byte
	typ    string
	lastID string
	// eventID is the last event ID string: lastID as of the last blank
	// line, which a reconnection sends as Last-Event-ID.
	eventID string
	// retry is the last "retry" field's reconnection time; -1 when none.
	retry time.Duration
}

func newSSEParser(r io.Reader, maxLine, maxData int, warn func(string)) *sseParser {
	return &sseParser{r: bufio.NewReaderSize(r, 16<<10), maxLine: maxLine, maxData: maxData, warn: warn, retry: -1}
}

// next returns the next event, io.EOF at the end of the stream, or the
// reader's error.
func (p *sseParser) next() (sseEvent, error) {
	for {
		line, tooLong, err := p.readLine()
		if err != nil {
			if err == io.EOF && !p.skipping {
				if !tooLong {
					p.field(line) // an unterminated last line still tells whether an event was pending
				}
				if len(p.data) > 0 || tooLong {
					p.warn("event stream ended inside an event (no terminating blank line); the event is discarded")
				}
			}
			return sseEvent{}, err
		}
		if tooLong {
			if !p.skipping {
				p.warn(fmt.Sprintf("event stream line longer than %d bytes; the event is skipped", p.maxLine))
			}
			p.skip()
			continue
		}
		if len(line) == 0 {
			if p.skipping {
				p.skipping = false
				continue
			}
			p.eventID = p.lastID
			if len(p.data) == 0 {
				p.typ = ""
				continue
			}
			ev := sseEvent{typ: p.typ, data: string(p.data[:len(p.data)-1]), id: p.lastID}
			p.data, p.typ = p.data[:0], ""
			return ev, nil
		}
		if !p.skipping {
			p.field(line)
		}
	}
}

// field processes one line of a frame; blank lines and comments do nothing.
func (p *sseParser) field(line []byte) {
	if len(line) == 0 || line[0] == ':' {
		return
	}
	name, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		name, value = line[:i], line[i+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	switch string(name) {
	case "event":
		p.typ = string(value)
	case "data":
		if len(p.data)+len(value)+1 > p.maxData {
			p.warn(fmt.Sprintf("event data longer than %d bytes; the event is skipped", p.maxData))
			p.skip()
			return
		}
		p.data = append(p.data, value...)
		p.data = append(p.data, '\n')
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			p.lastID = string(value)
		}
	case "retry":
		// ASCII digits only, as the spec says; anything else is ignored.
		if len(value) > 0 && len(value) < 12 && bytes.IndexFunc(value, func(r rune) bool { return r < '0' || r > '9' }) < 0 {
			ms, _ := strconv.ParseInt(string(value), 10, 64)
			p.retry = time.Duration(ms) * time.Millisecond
		}
	}
}

// skip drops the current frame up to the next blank line.
func (p *sseParser) skip() {
	p.skipping = true
	p.data, p.typ = p.data[:0], ""
}

// readLine returns the next line without its terminator. The slice is
// valid until the next call. A line longer than maxLine is consumed but not
// kept: tooLong is set and line is empty. At the end of the stream it
// returns what is left of an unterminated line with io.EOF.
func (p *sseParser) readLine() (line []byte, tooLong bool, err error) {
	p.line = p.line[:0]
	for {
		if p.r.Buffered() == 0 {
			if _, err := p.r.Peek(1); err != nil {
				return p.line, tooLong, err
			}
		}
		chunk, _ := p.r.Peek(p.r.Buffered())
		if p.skipLF {
			p.skipLF = false
			if chunk[0] == '\n' {
				p.r.Discard(1)
				continue
			}
		}
		i := bytes.IndexAny(chunk, "\r\n")
		n := i
		if i < 0 {
			n = len(chunk)
		}
		if !tooLong {
			if len(p.line)+n > p.maxLine {
				tooLong, p.line = true, p.line[:0]
			} else {
				p.line = append(p.line, chunk[:n]...)
			}
		}
		if i < 0 {
			p.r.Discard(n)
			continue
		}
		p.skipLF = chunk[i] == '\r'
		p.r.Discard(i + 1)
		if !p.started {
			p.started = true
			if rest, ok := strings.CutPrefix(string(p.line), "\uFEFF"); ok {
				p.line = append(p.line[:0], rest...)
			}
		}
		return p.line, tooLong, nil
	}
}
