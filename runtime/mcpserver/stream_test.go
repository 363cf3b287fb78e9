package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/runtime"
)

// TestStream serves a subscription operation of the Registry over a real
// session: its events come as progress notifications and, in the result,
// as an array; a failing stream is an isError result; cancelling the call
// stops the handler.
func TestStream(t *testing.T) {
	ctx := context.Background()
	reg := runtime.NewRegistry(nil)
	started := make(chan struct{}, 1)
	stopped := make(chan struct{}, 1)
	ticks := func(ctx context.Context, input []byte) iter.Seq2[any, error] {
		var args struct{ Mode string }
		json.Unmarshal(input, &args)
		return func(yield func(any, error) bool) {
			for i := 1; ; i++ {
				switch {
				case args.Mode == "three" && i > 3:
					return
				case args.Mode == "fail" && i == 2:
					yield(nil, runtime.Errorf(runtime.CodeExecution, "s.ticks", "stream broke"))
					return
				case args.Mode == "endless" && i == 2:
					started <- struct{}{}
					<-ctx.Done() // until the client cancels
					stopped <- struct{}{}
					yield(nil, ctx.Err())
					return
				}
				if !yield(map[string]int{"n": i}, nil) {
					return
				}
			}
		}
	}
	event := `{"$defs":{"Tick":{"type":"object","properties":{"n":{"type":"integer"}}}},"$ref":"#/$defs/Tick"}`
	if err := reg.RegisterSubscription(runtime.OperationSpec{ID: "s.ticks", OutputSchema: json.RawMessage(event)}, ticks); err != nil {
		t.Fatal(err)
	}
	s, err := New(reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	tl := s.byID["s.ticks"]
	if got, _ := json.Marshal(tl.tool.OutputSchema); string(got) != `{"$defs":{"Tick":{"properties":{"n":{"type":"integer"}},"type":"object"}},"items":{"$ref":"#/$defs/Tick"},"type":"array"}` {
		t.Errorf("output schema = %s, want an array of the event schema", got)
	}

	progress := make(chan string, 16)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.mcp.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			progress <- req.Params.Message
		},
	}).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	params := &mcp.CallToolParams{Name: tl.tool.Name, Arguments: map[string]string{"mode": "three"}}
	params.SetProgressToken("tok")
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	const all = `[{"n":1},{"n":2},{"n":3}]`
	if got, _ := json.Marshal(res.StructuredContent); res.IsError || string(got) != all || res.Content[0].(*mcp.TextContent).Text != all {
		t.Errorf("result: isError %v, structured %s, content %v", res.IsError, got, res.Content)
	}
	// The client handles notifications apart from results: wait for them.
	for _, want := range []string{`{"n":1}`, `{"n":2}`, `{"n":3}`} {
		select {
		case got := <-progress:
			if got != want {
				t.Errorf("progress message %s, want %s", got, want)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("no progress message %s", want)
		}
	}

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: tl.tool.Name, Arguments: map[string]string{"mode": "fail"}})
	if err != nil || !res.IsError || res.Content[0].(*mcp.TextContent).Text != "EXECUTION_ERROR s.ticks: stream broke" {
		t.Errorf("failing stream: %v, %+v", err, res)
	}

	cctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(cctx, &mcp.CallToolParams{Name: tl.tool.Name, Arguments: map[string]string{"mode": "endless"}})
		done <- err
	}()
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("stream did not start")
	}
	cancel()
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("cancelling the call did not stop the stream")
	}
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled call: %v", err)
	}
}
