package callproto

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

var requestedSeeds = []string{
	`{"type":"call.requested","requestId":"a-1","operationId":"p.get","input":{"id":7,"s":"x\"}"},"replyTo":"opsgen.reply.a","heartbeat":5000}`,
	`{ "replyTo" : "r", "input" : [1, {"a": "]"}], "type": "call.requested", "requestId": "x", "deadline": 1795558141978, "subscribe": true, "window": 8 }`,
	`{"type":"call.requested","requestId":"x","operationId":"a.b","input":"str","identity":{"subject":"ann","roles":["r"],"claims":{"k":1}},"parentRequestId":"p","replyTo":"r"}`,
	`{"type":"call.requested","requestId":"x","operationId":"a.b","replyTo":"r","idempotencyKey":"6f1c2b4e-8a8e-4c3e-9a55-0f6c1d3a7b21"}`,
	`{"type":"call.requested","requestId":"x","idempotencyKey":"k\u00e9"}`,
	`{"type":"call.requested","requestId":"x","input":null,"identity":null,"replyTo":"r"}`,
	`{"type":"call.requested","requestId":"x","input":12.5e3,"replyTo":"r"}`,
	`{"type":"call.requested","requestId":"x","input":true}`,
	`{"Type":"call.requested","requestId":"x"}`,
	`{"type":"call.requested","requestId":"\u0041"}`,
	`{"type":"call.requested","requestId":"é"}`,
	`{"type":"call.requested","deadline":-1}`,
	`{"type":"call.requested","deadline":01}`,
	`{"type":"call.requested","deadline":1e3}`,
	`{"type":"call.requested","window":99999999999999999999}`,
	`{"type":"call.requested","input":{"a":1}}x`,
	`{"type":"call.requested","input":{"a":1},}`,
	`{"type":"call.requested","input":{"a":}}`,
	`{"type":"call.requested","subscribe":null}`,
	`{"requestId":"a","requestId":"b","input":1,"input":null}`,
	`{}`,
	`[]`,
	`{"input":"unterminated`,
	`{"input":"a\`,
}

// The fast path agrees with encoding/json wherever it answers.
func FuzzDecodeRequested(f *testing.F) {
	for _, s := range requestedSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var fast, slow Requested
		if !fastRequested(data, &fast) {
			return
		}
		if err := json.Unmarshal(data, &slow); err != nil {
			t.Fatalf("fast path accepted %q, encoding/json: %v", data, err)
		}
		if !bytes.Equal(fast.Input, slow.Input) {
			t.Fatalf("%q: input %q, encoding/json %q", data, fast.Input, slow.Input)
		}
		fast.Input, slow.Input = nil, nil
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%q:\nfast %+v\njson %+v", data, fast, slow)
		}
	})
}

func TestDecodeRequested(t *testing.T) {
	taken := 0
	for _, s := range requestedSeeds {
		var got, want Requested
		err := decodeRequested([]byte(s), &got)
		werr := json.Unmarshal([]byte(s), &want)
		if (err == nil) != (werr == nil) {
			t.Errorf("%s: err %v, encoding/json %v", s, err, werr)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", s, got, want)
		}
		var r Requested
		if fastRequested([]byte(s), &r) {
			taken++
		}
	}
	if taken < 5 {
		t.Errorf("the fast path took only %d of the seeds", taken)
	}
}

// encodeRequested writes the idempotency key, and only when there is one.
func TestEncodeRequestedIdempotencyKey(t *testing.T) {
	for _, key := range []string{"", "6f1c2b4e-8a8e-4c3e-9a55-0f6c1d3a7b21", `k"é`} {
		in := Requested{Type: TypeRequested, RequestID: "a-1", OperationID: "p.post", ReplyTo: "r", IdempotencyKey: key}
		b, err := encodeRequested(&in)
		if err != nil {
			t.Fatal(err)
		}
		var out Requested
		if err := decodeRequested(b, &out); err != nil || !reflect.DeepEqual(in, out) {
			t.Errorf("%s decodes to %+v, %v", b, out, err)
		}
		if has := bytes.Contains(b, []byte(`"idempotencyKey"`)); has != (key != "") {
			t.Errorf("%s: idempotencyKey present %v for key %q", b, has, key)
		}
	}
}
