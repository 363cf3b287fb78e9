package wsbus

import (
	"encoding/binary"
	"errors"
)

// Frames are binary WebSocket messages: an op byte, a subscription id
// (uvarint; 0 when the op has none), then op-specific fields: strings as a
// uvarint length and bytes, data as the rest of the frame.
//
//	'S' spoke -> hub  subscribe:   sid, subject, queue
//	'U' spoke -> hub  unsubscribe: sid
//	'P' spoke -> hub  publish:     0, subject, data
//	'K' hub -> spoke  subscribed:  sid
//	'M' hub -> spoke  message:     sid, data
const (
	opSub   = 'S'
	opUnsub = 'U'
	opPub   = 'P'
	opOK    = 'K'
	opMsg   = 'M'
)

type frame struct {
	op      byte
	sid     uint64
	subject string
	queue   string
	data    []byte
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func encodeFrame(f frame) []byte {
	b := make([]byte, 0, 16+len(f.subject)+len(f.queue)+len(f.data))
	b = append(b, f.op)
	b = binary.AppendUvarint(b, f.sid)
	switch f.op {
	case opSub:
		b = appendString(b, f.subject)
		b = appendString(b, f.queue)
	case opPub:
		b = appendString(b, f.subject)
		b = append(b, f.data...)
	case opMsg:
		b = append(b, f.data...)
	}
	return b
}

var errFrame = errors.New("wsbus: malformed frame")

func readString(b []byte) (string, []byte, error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return "", nil, errFrame
	}
	return string(b[k : k+int(n)]), b[k+int(n):], nil
}

// decodeFrame decodes b; the frame's data aliases b.
func decodeFrame(b []byte) (frame, error) {
	var f frame
	if len(b) == 0 {
		return f, errFrame
	}
	f.op = b[0]
	sid, k := binary.Uvarint(b[1:])
	if k <= 0 {
		return f, errFrame
	}
	f.sid = sid
	rest := b[1+k:]
	var err error
	switch f.op {
	case opSub:
		if f.subject, rest, err = readString(rest); err == nil {
			f.queue, _, err = readString(rest)
		}
	case opPub:
		if f.subject, rest, err = readString(rest); err == nil {
			f.data = rest
		}
	case opMsg:
		f.data = rest
	case opUnsub, opOK:
	default:
		err = errFrame
	}
	return f, err
}
