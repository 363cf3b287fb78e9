package callproto

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/opsgen/opsgen/runtime"
)

// The hot events are encoded by hand: encoding/json would re-validate and
// compact the embedded JSON (input, output) on every message, which costs
// as much as the rest of a small call.

// appendString appends s as a JSON string.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x7f {
			q, _ := json.Marshal(s) // rare: escape properly
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// encodeRequested encodes r; r.Input must be valid JSON (or empty).
func encodeRequested(r *Requested) ([]byte, error) {
	b := make([]byte, 0, 160+len(r.Input))
	b = append(b, `{"type":"call.requested","requestId":`...)
	b = appendString(b, r.RequestID)
	if r.ParentRequestID != "" {
		b = append(b, `,"parentRequestId":`...)
		b = appendString(b, r.ParentRequestID)
	}
	b = append(b, `,"operationId":`...)
	b = appendString(b, r.OperationID)
	if len(r.Input) > 0 {
		b = append(b, `,"input":`...)
		b = append(b, r.Input...)
	}
	if r.Identity != nil {
		id, err := json.Marshal(r.Identity)
		if err != nil {
			return nil, err
		}
		b = append(b, `,"identity":`...)
		b = append(b, id...)
	}
	b = appendInt(b, "deadline", r.Deadline)
	b = append(b, `,"replyTo":`...)
	b = appendString(b, r.ReplyTo)
	if r.Subscribe {
		b = append(b, `,"subscribe":true`...)
	}
	b = appendInt(b, "window", r.Window)
	b = appendInt(b, "heartbeat", r.Heartbeat)
	if r.IdempotencyKey != "" {
		b = append(b, `,"idempotencyKey":`...)
		b = appendString(b, r.IdempotencyKey)
	}
	return append(b, '}'), nil
}

func appendInt(b []byte, key string, v int64) []byte {
	if v == 0 {
		return b
	}
	b = append(b, `,"`...)
	b = append(b, key...)
	b = append(b, `":`...)
	return strconv.AppendInt(b, v, 10)
}

// encodeOutput encodes call.responded (seq 0) or call.yielded (seq > 0)
// around an envelope's JSON.
func encodeOutput(requestID string, seq int64, output []byte) []byte {
	b := make([]byte, 0, 64+len(requestID)+len(output))
	if seq == 0 {
		b = append(b, `{"type":"call.responded","requestId":`...)
		b = appendString(b, requestID)
	} else {
		b = append(b, `{"type":"call.yielded","requestId":`...)
		b = appendString(b, requestID)
		b = append(b, `,"seq":`...)
		b = strconv.AppendInt(b, seq, 10)
	}
	b = append(b, `,"output":`...)
	b = append(b, output...)
	return append(b, '}')
}

// encodeWarned is encodeOutput with the envelope's warnings beside the
// output (call.responded's and call.yielded's "warnings"). They come
// before the output, so that decodeAnswer's fast path, which expects the
// output right after the request id (and seq), leaves such an event to
// encoding/json: warnings are rare (drift), the fast path stays as it is.
func encodeWarned(requestID string, seq int64, warnings []runtime.Warning, output []byte) []byte {
	if len(warnings) == 0 {
		return encodeOutput(requestID, seq, output)
	}
	ws, _ := json.Marshal(warningsToWire(warnings)) // strings only: always marshals
	// encodeOutput's event with the warnings spliced in before the output.
	ev := encodeOutput(requestID, seq, output)
	head := len(encodeOutput(requestID, seq, nil)) - len(`,"output":}`)
	b := make([]byte, 0, len(ev)+len(`,"warnings":`)+len(ws))
	b = append(b, ev[:head]...)
	b = append(b, `,"warnings":`...)
	b = append(b, ws...)
	return append(b, ev[head:]...)
}

// respondedEnvelope is respondedEvent for the Registry's envelope, without
// detecting it by reflection; its warnings go beside it.
func respondedEnvelope(requestID string, env runtime.ResponseEnvelope[any]) ([]byte, error) {
	if runtime.SourceOf(env.Meta) == "" {
		return nil, fmt.Errorf("callproto: respond %s: the envelope has no meta", requestID)
	}
	out, err := env.MarshalJSON()
	if err != nil {
		return nil, runtime.NewError(runtime.CodeDecode, "", "envelope is not JSON", err)
	}
	return encodeWarned(requestID, 0, env.Warnings, out), nil
}

// decodeAnswer decodes a hub -> spoke event. The events this package
// writes (encodeOutput) take a fast path that slices the output out
// without decoding it twice; anything else goes through encoding/json.
func decodeAnswer(data []byte, a *answer) error {
	if fastAnswer(data, a) {
		return nil
	}
	return json.Unmarshal(data, a)
}

func fastAnswer(data []byte, a *answer) bool {
	rest, ok := cutPrefix(data, `{"type":"call.`)
	if !ok {
		return false
	}
	switch {
	case hasPrefix(rest, `responded","requestId":"`):
		a.Type, rest = TypeResponded, rest[len(`responded","requestId":"`):]
	case hasPrefix(rest, `yielded","requestId":"`):
		a.Type, rest = TypeYielded, rest[len(`yielded","requestId":"`):]
	default:
		return false
	}
	end := -1
	for i, c := range rest {
		if c == '"' {
			end = i
			break
		}
		if c == '\\' || c < 0x20 {
			return false
		}
	}
	if end < 0 {
		return false
	}
	a.RequestID, rest = string(rest[:end]), rest[end+1:]
	if a.Type == TypeYielded {
		if rest, ok = cutPrefix(rest, `,"seq":`); !ok {
			return false
		}
		n := 0
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		seq, err := strconv.ParseInt(string(rest[:n]), 10, 64)
		if err != nil {
			return false
		}
		a.Seq, rest = seq, rest[n:]
	}
	if rest, ok = cutPrefix(rest, `,"output":`); !ok || len(rest) < 2 || rest[len(rest)-1] != '}' {
		return false
	}
	// The output is checked where it is decoded (every path decodes it
	// as an envelope, which fails on malformed JSON): not scanned here.
	a.Output = rest[:len(rest)-1]
	return true
}

func hasPrefix(b []byte, p string) bool { return len(b) >= len(p) && string(b[:len(p)]) == p }

func cutPrefix(b []byte, p string) ([]byte, bool) {
	if !hasPrefix(b, p) {
		return b, false
	}
	return b[len(p):], true
}

// decodeRequested decodes call.requested. Plain messages (any key order
// and whitespace, strings without escapes) take a hand-written path that
// costs a fraction of encoding/json's; anything else, malformed input
// included, goes through encoding/json, so the two agree (FuzzDecodeRequested).
func decodeRequested(data []byte, r *Requested) error {
	if fastRequested(data, r) {
		return nil
	}
	*r = Requested{}
	return json.Unmarshal(data, r)
}

func fastRequested(data []byte, r *Requested) bool {
	s := scanner{b: data}
	if !s.byte('{') {
		return false
	}
	if s.byte('}') {
		s.space()
		return s.i == len(s.b)
	}
	for {
		key, ok := s.raw()
		if !ok || !s.byte(':') {
			return false
		}
		switch string(key) { // no allocation: the compiler compares the bytes
		case "type":
			var t []byte
			if t, ok = s.raw(); ok {
				r.Type = TypeRequested // the usual value, without a copy
				if string(t) != TypeRequested {
					r.Type = string(t)
				}
			}
		case "requestId":
			r.RequestID, ok = s.str()
		case "parentRequestId":
			r.ParentRequestID, ok = s.str()
		case "operationId":
			r.OperationID, ok = s.str()
		case "replyTo":
			r.ReplyTo, ok = s.str()
		case "idempotencyKey":
			r.IdempotencyKey, ok = s.str()
		case "deadline":
			r.Deadline, ok = s.int()
		case "window":
			r.Window, ok = s.int()
		case "heartbeat":
			r.Heartbeat, ok = s.int()
		case "subscribe":
			r.Subscribe, ok = s.bool()
		case "input":
			r.Input, ok = s.value() // null too, as encoding/json keeps it
		case "identity":
			var v []byte
			if v, ok = s.value(); ok {
				r.Identity = nil
				if string(v) != "null" {
					r.Identity = new(Identity)
					ok = json.Unmarshal(v, r.Identity) == nil
				}
			}
		default:
			return false // unknown or differently cased keys: encoding/json decides
		}
		if !ok {
			return false
		}
		if s.byte(',') {
			continue
		}
		if !s.byte('}') {
			return false
		}
		s.space()
		return s.i == len(s.b)
	}
}

// scanner reads the simple JSON fastRequested accepts.
type scanner struct {
	b []byte
	i int
}

func (s *scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// byte consumes c, after whitespace, if it is next.
func (s *scanner) byte(c byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// str reads a string without escapes or control characters, in ASCII.
func (s *scanner) str() (string, bool) {
	b, ok := s.raw()
	return string(b), ok
}

// raw is str without the copy: the string's bytes inside s.b.
func (s *scanner) raw() ([]byte, bool) {
	if !s.byte('"') {
		return nil, false
	}
	start := s.i
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			v := s.b[start:s.i]
			s.i++
			return v, true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return nil, false
		}
		s.i++
	}
	return nil, false
}

// int reads a non-negative integer without exponent or fraction.
func (s *scanner) int() (int64, bool) {
	s.space()
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	if s.i == start || s.i-start > 18 || (s.b[start] == '0' && s.i-start > 1) {
		return 0, false
	}
	v, err := strconv.ParseInt(string(s.b[start:s.i]), 10, 64)
	return v, err == nil
}

func (s *scanner) bool() (bool, bool) {
	s.space()
	switch {
	case hasPrefix(s.b[s.i:], "true"):
		s.i += 4
		return true, true
	case hasPrefix(s.b[s.i:], "false"):
		s.i += 5
		return false, true
	}
	return false, false
}

// value returns the extent of one JSON value, checked with json.Valid.
func (s *scanner) value() ([]byte, bool) {
	s.space()
	start := s.i
	depth := 0
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch c {
		case '"':
			s.i++
			for s.i < len(s.b) && s.b[s.i] != '"' {
				if s.b[s.i] == '\\' {
					s.i++
				}
				s.i++
			}
			if s.i >= len(s.b) {
				return nil, false
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return s.done(start)
			}
			depth--
		case ',':
			if depth == 0 {
				return s.done(start)
			}
		}
		s.i++
		if depth == 0 && (c == '}' || c == ']' || c == '"') {
			return s.done(start)
		}
	}
	return s.done(start)
}

func (s *scanner) done(start int) ([]byte, bool) {
	v := bytes.TrimRight(s.b[start:s.i], " \t\r\n")
	if len(v) == 0 || !json.Valid(v) {
		return nil, false
	}
	return v, true
}
