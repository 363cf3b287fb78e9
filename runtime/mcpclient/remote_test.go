package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"testing"
	"time"

	"github.com/opsgen/opsgen/runtime"
)

// fakeRemote answers CallJSON with a fixed envelope or error and records
// the call.
type fakeRemote struct {
	out      json.RawMessage
	err      error
	id       string
	input    string
	deadline bool
}

func (f *fakeRemote) CallJSON(ctx context.Context, id string, input any) (json.RawMessage, error) {
	b, _ := json.Marshal(input)
	f.id, f.input = id, string(b)
	_, f.deadline = ctx.Deadline()
	return f.out, f.err
}

func (f *fakeRemote) SubscribeJSON(context.Context, string, any) iter.Seq2[json.RawMessage, error] {
	return func(yield func(json.RawMessage, error) bool) { yield(nil, f.err) }
}

// With WithRemote, Call sends a tool with a registry id to the remote (no
// session needed) and decodes the hub's envelope, MCP meta included; a
// tool without one still needs the session.
func TestCallRemote(t *testing.T) {
	type weather struct {
		Temp float64 `json:"temp"`
	}
	fr := &fakeRemote{out: json.RawMessage(`{"data":{"temp":21.5},"meta":{"source":"mcp","isError":false,"content":[{"type":"text","text":"{\"temp\":21.5}"}],"structuredContent":{"temp":21.5}}}`)}
	c := New(nil, WithRemote(fr), WithTimeout(time.Minute))
	tool := &Tool{Name: "get_weather", ID: "wx.get_weather"}
	ctx := context.Background()
	env, err := Call[weather](ctx, c, tool, map[string]any{"city": "Paris"})
	if err != nil {
		t.Fatal(err)
	}
	m := runtime.MCPMetaOf(env.Meta)
	if env.Data.Temp != 21.5 || m == nil || m.Tool != "get_weather" || string(m.StructuredContent) != `{"temp":21.5}` || len(m.Content) != 1 {
		t.Fatalf("env %+v meta %#v", env, env.Meta)
	}
	if fr.id != "wx.get_weather" || fr.input != `{"city":"Paris"}` || !fr.deadline {
		t.Fatalf("remote got %s %s (deadline %v)", fr.id, fr.input, fr.deadline)
	}

	// A tool error is a result; AsError names the tool. A typed nil map
	// goes to the remote as {}, not null.
	fr.out = json.RawMessage(`{"data":null,"meta":{"source":"mcp","isError":true,"content":[{"type":"text","text":"no such city"}]}}`)
	env, err = Call[weather](ctx, c, tool, map[string]any(nil))
	if err != nil {
		t.Fatal(err)
	}
	if fr.input != `{}` {
		t.Errorf("remote got arguments %s for a nil map, want {}", fr.input)
	}
	if ae := AsError(env); ae == nil || ae.Error() != "EXECUTION_ERROR get_weather: no such city" {
		t.Fatalf("AsError: %v", ae)
	}

	// Data the type cannot hold: a warning, or in strict mode an error.
	fr.out = json.RawMessage(`{"data":{"temp":"hot"},"meta":{"source":"mcp","isError":false,"content":[]}}`)
	env, err = Call[weather](ctx, c, tool, nil, WithCallTimeout(0))
	if err != nil || len(env.Warnings) == 0 || fr.deadline {
		t.Fatalf("drift: %v, warnings %v, deadline %v", err, env.Warnings, fr.deadline)
	}
	_, err = Call[weather](ctx, c, tool, nil, WithCallValidation(runtime.ValidateStrict))
	var ce *runtime.CallError
	if !errors.As(err, &ce) || ce.Code != runtime.CodeValidation {
		t.Fatalf("strict drift: %v", err)
	}

	// Not an envelope; the remote's own errors pass as they are.
	fr.out = json.RawMessage(`{"temp":1}`)
	if _, err = Call[weather](ctx, c, tool, nil); !errors.As(err, &ce) || ce.Code != runtime.CodeDecode {
		t.Fatalf("not an envelope: %v", err)
	}
	fr.err = &runtime.CallError{Code: runtime.CodeAccessDenied, OperationID: "wx.get_weather", Message: "no"}
	if _, err = Call[weather](ctx, c, tool, nil); err != fr.err {
		t.Fatalf("remote error: %v", err)
	}

	// Without a registry id the tool is called on the session.
	fr.id = ""
	_, err = Call[weather](ctx, c, &Tool{Name: "local"}, nil)
	if !errors.As(err, &ce) || ce.Code != runtime.CodeTransport || fr.id != "" {
		t.Fatalf("tool without id: %v (remote got %q)", err, fr.id)
	}
}
