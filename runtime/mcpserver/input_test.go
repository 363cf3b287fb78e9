//lint:file-ignore SA1019 sampling and roots are deprecated by MCP 2026-07-28 but still in use (deprecation window): servers ask for them, and this file answers or asks

package mcpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpclient"
	"github.com/opsgen/opsgen/runtime/mcpserver"
)

// askServer serves "ask.greet", which asks the user for a name (Elicit)
// and the client's model for a compliment (Sample).
func askServer(t *testing.T, opts *mcpserver.Options) *mcpserver.Server {
	t.Helper()
	reg := runtime.NewRegistry(nil)
	register(t, reg, runtime.OperationSpec{ID: "ask.greet", OutputSchema: json.RawMessage(`{"type":"object","properties":{"greeting":{"type":"string"}}}`)},
		func(ctx context.Context, _ json.RawMessage) (any, error) {
			er, err := mcpserver.Elicit(ctx, &mcp.ElicitParams{Message: "Who are you?",
				RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","minLength":1}},"required":["name"]}`)})
			if err != nil {
				return nil, err
			}
			if er.Action != "accept" {
				return map[string]any{"greeting": "Hello, stranger (" + er.Action + ")"}, nil
			}
			sr, err := mcpserver.Sample(ctx, &mcp.CreateMessageParams{MaxTokens: 20,
				Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "compliment"}}}})
			if err != nil {
				return nil, err
			}
			return map[string]any{"greeting": "Hello, " + er.Content["name"].(string) + ": " + sr.Content.(*mcp.TextContent).Text}, nil
		})
	if opts == nil {
		opts = &mcpserver.Options{}
	}
	return newServer(t, reg, opts)
}

var toolGreet = &mcpclient.Tool{Name: "ask_greet"}

// greeter is the client's Input: it answers the form with a name and
// samples a fixed compliment.
func greeter(forms *[]*mcpclient.Form) *mcpclient.Input {
	return &mcpclient.Input{
		Elicit: func(_ context.Context, req *mcpclient.ElicitRequest) (*mcpclient.ElicitResponse, error) {
			*forms = append(*forms, req.Form)
			return mcpclient.Accept(map[string]any{"name": "Ada"}), nil
		},
		Sample: func(context.Context, *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Model: "m", Role: "assistant", Content: &mcp.TextContent{Text: "splendid engine"}}, nil
		},
	}
}

func TestElicitAndSample(t *testing.T) {
	tasks := &mcpserver.TaskOptions{After: time.Minute, PollInterval: 5 * time.Millisecond}
	cases := []struct {
		name, version string
		opts          *mcpserver.Options
		wantTask      bool
	}{
		// 2026-07-28: the call becomes a task when it asks, and the client
		// answers the task's inputRequests with tasks/update.
		{"2026-07-28 task", "", &mcpserver.Options{Tasks: tasks}, true},
		// 2025-11-25: the server sends elicitation/create and
		// sampling/createMessage to the client during the call.
		{"2025-11-25 requests", "2025-11-25", &mcpserver.Options{Tasks: tasks}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := askServer(t, tc.opts)
			ctx := context.Background()
			ct, st := mcp.NewInMemoryTransports()
			ss, err := srv.MCP().Connect(ctx, st, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ss.Close()
			var forms []*mcpclient.Form
			cs, err := mcpclient.Connect(ctx, ct, &mcpclient.ConnectOptions{Input: greeter(&forms), Session: &mcp.ClientSessionOptions{ProtocolVersion: tc.version}})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			c := mcpclient.New(cs, mcpclient.WithLogger(nopLogger{}))
			log := &statusLog{}
			env, err := mcpclient.Call[map[string]string](ctx, c, toolGreet, map[string]any{}, log.option())
			if err != nil || env.Data["greeting"] != "Hello, Ada: splendid engine" {
				t.Fatalf("%v, %v", env.Data, err)
			}
			if len(forms) != 1 || len(forms[0].Fields) != 1 || forms[0].Fields[0].Name != "name" || !forms[0].Fields[0].Required {
				t.Errorf("forms %+v", forms)
			}
			statuses := strings.Join(log.statuses(), ",")
			if tc.wantTask != strings.Contains(statuses, "input_required") || tc.wantTask != strings.HasSuffix(statuses, "completed") {
				t.Errorf("statuses %q", statuses)
			}
		})
	}
}

func TestElicitStatelessHTTP(t *testing.T) {
	// Over stateless HTTP the request that made the task is gone when the
	// call asks; the answer comes with tasks/update on another request.
	srv := askServer(t, &mcpserver.Options{Tasks: &mcpserver.TaskOptions{PollInterval: 5 * time.Millisecond},
		HTTP: &mcp.StreamableHTTPOptions{Stateless: true, PropagateRequestCancellation: true}})
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	var forms []*mcpclient.Form
	cs, err := mcpclient.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: hs.URL, DisableStandaloneSSE: true},
		&mcpclient.ConnectOptions{Input: greeter(&forms)})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	env, err := mcpclient.Call[map[string]string](context.Background(), mcpclient.New(cs, mcpclient.WithLogger(nopLogger{})), toolGreet, map[string]any{})
	if err != nil || env.Data["greeting"] != "Hello, Ada: splendid engine" || len(forms) != 1 {
		t.Fatalf("%v, %v, %d forms", env.Data, err, len(forms))
	}
}

func TestElicitNoWay(t *testing.T) {
	// A 2026-07-28 client that does not declare tasks cannot be asked: the
	// handler gets ErrNoInput, and the call is an isError result.
	srv := askServer(t, &mcpserver.Options{Tasks: &mcpserver.TaskOptions{}})
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	var forms []*mcpclient.Form
	cs, err := mcpclient.Connect(ctx, ct, &mcpclient.ConnectOptions{Input: greeter(&forms), NoTasks: true})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	env, err := mcpclient.Call[map[string]string](ctx, mcpclient.New(cs, mcpclient.WithLogger(nopLogger{})), toolGreet, map[string]any{})
	aerr := mcpclient.AsError(env)
	if err != nil || aerr == nil || !strings.Contains(aerr.Error(), "cannot be asked for input") || len(forms) != 0 {
		t.Errorf("%v, %v, forms %d", err, aerr, len(forms))
	}
	if _, err := mcpserver.Elicit(ctx, &mcp.ElicitParams{Message: "x"}); !errors.Is(err, mcpserver.ErrNoInput) {
		t.Errorf("outside a call: %v", err)
	}
}
