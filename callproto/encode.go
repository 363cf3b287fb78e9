package callproto

import (
	"encoding/json"
	"strconv"
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
