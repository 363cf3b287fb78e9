package mcpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpclient"
	"github.com/opsgen/opsgen/runtime/mcpserver"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// stdioEnv, set to "1", makes the test binary serve driftRegistry over
// stdio instead of running tests (TestTypeScriptClient starts it so).
const stdioEnv = "MCPSERVER_TEST_SERVE_DRIFT"

func TestMain(m *testing.M) {
	if os.Getenv(stdioEnv) == "1" {
		reg, err := driftRegistry()
		if err == nil {
			var srv *mcpserver.Server
			if srv, err = mcpserver.New(reg, &mcpserver.Options{Name: "drift"}); err == nil {
				err = srv.ServeStdio(context.Background())
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// Schemas of the drifting operations.
const (
	petSchema = `{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"},` +
		`"status":{"type":"string","enum":["available","sold"]}},"required":["id","name","status"]}`
	typesSchema = `{"type":"object","properties":{"id":{"type":"integer"},"tags":{"type":"array","items":{"type":"string"}},` +
		`"born":{"type":"string","format":"date-time"},"email":{"type":"string","format":"email"},` +
		`"count":{"type":"integer","minimum":1},"code":{"type":"string","pattern":"^[A-Z]+$","maxLength":3}},"required":["id","tags"]}`
	closedSchema = `{"type":"object","properties":{"id":{"type":"integer"}},"additionalProperties":false}`
	animalSchema = `{"$defs":{"Cat":{"type":"object","title":"Cat","properties":{"kind":{"const":"cat"},"lives":{"type":"integer"}},"required":["kind","lives"]},` +
		`"Dog":{"type":"object","title":"Dog","properties":{"kind":{"const":"dog"},"barks":{"type":"boolean"}},"required":["kind","barks"]}},` +
		`"oneOf":[{"$ref":"#/$defs/Cat"},{"$ref":"#/$defs/Dog"}]}`
	memberUnionSchema = `{"type":"object","properties":{"id":{"oneOf":[{"type":"string"},{"type":"integer"}]},"n":{"type":"integer"}}}`
)

// driftOp is an operation of driftRegistry: its result drifts from its
// output schema as a real API's may.
type driftOp struct {
	id, method, schema string
	result             any
}

var driftOps = []driftOp{
	// A value outside the enum: warn mode keeps it.
	{"drift.getPet", "GET", petSchema, map[string]any{"id": 1, "name": "Rex", "status": "reserved"}},
	// Members of the wrong type (dropped), items of the wrong type (null,
	// then dropped from structuredContent), broken formats, patterns,
	// lengths and minimums (kept), a missing required member.
	{"drift.wrongTypes", "PUT", typesSchema, map[string]any{"id": "seven", "tags": []any{1, "a", map[string]any{}}, "born": "yesterday", "email": "nope", "count": 0, "code": "abcd"}},
	// A member additionalProperties false does not allow (dropped).
	{"drift.extraMembers", "POST", closedSchema, map[string]any{"id": 1, "extra": true}},
	// A oneOf root: a cow is neither a cat nor a dog.
	{"drift.animal", "GET", animalSchema, map[string]any{"kind": "cow", "lives": "nine"}},
	// A good one of the same.
	{"drift.cat", "GET", animalSchema, map[string]any{"kind": "cat", "lives": 9}},
	// A union member that fits no branch (dropped from structuredContent).
	{"drift.memberUnion", "DELETE", memberUnionSchema, map[string]any{"id": map[string]any{"x": 1}, "n": 2}},
	// A root of another type: cannot be structured content.
	{"drift.rootWrong", "GET", petSchema, "not a pet"},
	// No drift at all.
	{"drift.fine", "GET", petSchema, map[string]any{"id": 2, "name": "Tom", "status": "sold"}},
}

// driftRegistry registers driftOps, and drift.fail, whose handler fails.
func driftRegistry() (*runtime.Registry, error) {
	reg := runtime.NewRegistry(&runtime.Pipeline{Logger: nopLogger{}})
	for _, op := range driftOps {
		result := op.result
		spec := runtime.OperationSpec{ID: op.id, Method: op.method, OutputSchema: json.RawMessage(op.schema)}
		if err := reg.Register(spec, func(context.Context, json.RawMessage) (any, error) { return result, nil }); err != nil {
			return nil, err
		}
	}
	fail := func(context.Context, json.RawMessage) (any, error) { return nil, errors.New("disk full") }
	if err := reg.Register(runtime.OperationSpec{ID: "drift.fail", Method: "POST", OutputSchema: json.RawMessage(petSchema)}, fail); err != nil {
		return nil, err
	}
	return reg, nil
}

type nopLogger struct{}

func (nopLogger) WarnContext(context.Context, string, ...any) {}

// tsRun is the output of testdata/tsclient.mjs.
type tsRun struct {
	Tools []struct {
		Name         string         `json:"name"`
		OutputSchema map[string]any `json:"outputSchema"`
		Annotations  map[string]any `json:"annotations"`
	} `json:"tools"`
	Results []struct {
		Name   string `json:"name"`
		Result *struct {
			IsError           bool            `json:"isError"`
			StructuredContent json.RawMessage `json:"structuredContent"`
			Content           []struct {
				Text string `json:"text"`
			} `json:"content"`
			Meta map[string]any `json:"_meta"`
		} `json:"result"`
		Error *struct {
			Code    any    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	} `json:"results"`
}

// tsClient returns the node_modules directory of the TypeScript SDK that
// scripts/mcp-ts-client.sh installs; it skips the test when the SDK or
// node is missing, and fails it under CI.
func tsClient(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../../.work/mcp-ts-client/node_modules")
	if err != nil {
		t.Fatal(err)
	}
	_, statErr := os.Stat(filepath.Join(dir, "@modelcontextprotocol/sdk/package.json"))
	_, nodeErr := exec.LookPath("node")
	if statErr == nil && nodeErr == nil {
		return dir
	}
	msg := "the TypeScript MCP SDK is not installed (run make mcp-ts-client, or bash scripts/mcp-ts-client.sh)"
	if nodeErr != nil {
		msg = "node is not installed: the TypeScript MCP SDK client cannot run"
	}
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// driftCalls is a call of every drift operation's tool.
func driftCalls() []map[string]any {
	var calls []map[string]any
	for _, op := range append(driftOps, driftOp{id: "drift.fail"}) {
		calls = append(calls, map[string]any{"name": strings.ReplaceAll(op.id, ".", "_"), "arguments": map[string]any{}})
	}
	return calls
}

// runTS runs testdata/tsclient.mjs with job (the transport) and calls.
func runTS(t *testing.T, modules string, job map[string]any, calls []map[string]any) tsRun {
	t.Helper()
	job["calls"] = calls
	b, err := json.Marshal(job)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60e9)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "testdata/tsclient.mjs", string(b))
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tsclient.mjs: %v\n%s", err, stderr.String())
	}
	var run tsRun
	if err := json.Unmarshal(out, &run); err != nil {
		t.Fatalf("tsclient.mjs output %q: %v", out, err)
	}
	return run
}

// TestTypeScriptClient serves drifting operations and calls every tool
// with the official TypeScript SDK client (which checks structuredContent
// against the tool's output schema, as the MCP specification requires of
// it), over stdio and streamable HTTP, stateful and stateless: every
// result is accepted, the drift reaches the client in _meta, and the data
// that fits is there.
func TestTypeScriptClient(t *testing.T) {
	modules := tsClient(t)
	reg, err := driftRegistry()
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, reg, &mcpserver.Options{Name: "drift"})
	stateful := httptest.NewServer(srv.Handler())
	t.Cleanup(stateful.Close)
	stateless := httptest.NewServer(newServer(t, reg, &mcpserver.Options{Name: "drift", HTTP: &mcp.StreamableHTTPOptions{Stateless: true, PropagateRequestCancellation: true}}).Handler())
	t.Cleanup(stateless.Close)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	jobs := map[string]map[string]any{
		"stdio":     {"stdio": map[string]any{"command": self, "args": []string{}, "env": map[string]string{stdioEnv: "1"}}},
		"stateful":  {"url": stateful.URL},
		"stateless": {"url": stateless.URL},
	}
	for name, job := range jobs {
		t.Run(name, func(t *testing.T) {
			checkTSRun(t, runTS(t, modules, job, driftCalls()))
		})
	}
}

// TestTypeScriptClientGenerated: the tools of a generated OpenAPI client
// (internal/petsapi), whose upstream drifts (GET /pets/1 answers a status
// outside the enum, kept, and a tag that is not a string, which the typed
// client holds as ""), called by the
// TypeScript SDK client over stateless HTTP: every result is accepted, the
// drift reaches it in _meta, and an HTTP 404 is an isError result naming
// the registry id.
func TestTypeScriptClientGenerated(t *testing.T) {
	modules := tsClient(t)
	backend := newBackend(t, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == "GET" && r.URL.Path == "/pets/1" {
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, `{"id":1,"name":"Rex","status":"reserved","tags":["dog",7]}`)
				return
			}
			next.ServeHTTP(w, r)
		})
	})
	_, hs := petsServer(t, backend.URL, &mcpserver.Options{HTTP: &mcp.StreamableHTTPOptions{Stateless: true, PropagateRequestCancellation: true}})
	pet := func(id int) map[string]any { return map[string]any{"params": map[string]any{"petId": id}} }
	calls := []map[string]any{
		{"name": "pets_listPets", "arguments": map[string]any{}},
		{"name": "pets_getPet", "arguments": pet(1)},
		{"name": "pets_getPet", "arguments": pet(2)},
		{"name": "pets_getPet", "arguments": pet(999)},
		{"name": "pets_createPet", "arguments": map[string]any{"body": map[string]any{"name": "Tom", "status": "available"}}},
		{"name": "pets_updatePet", "arguments": map[string]any{"params": map[string]any{"petId": 2}, "body": map[string]any{"name": "Felix", "status": "pending"}}},
		{"name": "pets_deletePet", "arguments": pet(2)},
		{"name": "pets_getStats", "arguments": map[string]any{}},
	}
	run := runTS(t, modules, map[string]any{"url": hs.URL}, calls)
	if len(run.Results) != len(calls) {
		t.Fatalf("%d results, want %d", len(run.Results), len(calls))
	}
	for i, r := range run.Results {
		if r.Error != nil {
			t.Errorf("%s %v: the TypeScript client refused the result: %v %s", r.Name, calls[i]["arguments"], r.Error.Code, r.Error.Message)
			continue
		}
		if wantErr := i == 3; r.Result.IsError != wantErr {
			t.Errorf("%s %v: isError %v: %+v", r.Name, calls[i]["arguments"], r.Result.IsError, r.Result)
		}
	}
	if r := run.Results[1].Result; r != nil {
		if got := compactJSON(t, r.StructuredContent); got != `{"id":1,"name":"Rex","status":"reserved","tags":["dog",""]}` {
			t.Errorf("getPet(1): structuredContent %s", got)
		}
		ws, _ := json.Marshal(r.Meta[mcpserver.MetaWarnings])
		if !strings.Contains(string(ws), `"pointer":"/status"`) || !strings.Contains(string(ws), `"pointer":"/tags/1"`) {
			t.Errorf("getPet(1): warnings %s", ws)
		}
	}
	if r := run.Results[3].Result; r != nil && !strings.HasPrefix(r.Content[0].Text, "EXECUTION_ERROR pets.getPet: ") {
		t.Errorf("getPet(999): %q", r.Content[0].Text)
	}
}

func checkTSRun(t *testing.T, run tsRun) {
	tools := map[string]map[string]any{}
	for _, tl := range run.Tools {
		tools[tl.Name] = map[string]any{"outputSchema": tl.OutputSchema, "annotations": tl.Annotations}
	}
	if len(tools) != len(driftOps)+1 {
		t.Errorf("%d tools listed, want %d", len(tools), len(driftOps)+1)
	}
	// A oneOf of objects at the root is served to 2025-11-25 sessions.
	if s, _ := tools["drift_animal"]["outputSchema"].(map[string]any); s == nil || s["type"] != "object" || s["anyOf"] == nil {
		t.Errorf("drift_animal's output schema = %v, want an object with anyOf", s)
	}
	if a, _ := tools["drift_extraMembers"]["annotations"].(map[string]any); a["destructiveHint"] != false {
		t.Errorf("POST tool annotations = %v, want destructiveHint false", a)
	}
	if a, _ := tools["drift_wrongTypes"]["annotations"].(map[string]any); a["idempotentHint"] != true {
		t.Errorf("PUT tool annotations = %v, want idempotentHint true", a)
	}
	if a, _ := tools["drift_memberUnion"]["annotations"].(map[string]any); a["idempotentHint"] != true || a["destructiveHint"] != true {
		t.Errorf("DELETE tool annotations = %v, want idempotent and destructive", a)
	}

	want := map[string]struct {
		structured string // "" for none
		isError    bool
		warnings   []string // pointers of warnings in _meta
	}{
		"drift_getPet":       {`{"id":1,"name":"Rex","status":"reserved"}`, false, []string{"/status"}},
		"drift_wrongTypes":   {`{"born":"yesterday","code":"abcd","count":0,"email":"nope","tags":["a"]}`, false, []string{"/id", "/tags/0", "/tags/2", "/born", "/email", "/count", "/code"}},
		"drift_extraMembers": {`{"id":1}`, false, []string{"/extra"}},
		// The relaxed branches accept any object: the cow stays.
		"drift_animal":      {`{"kind":"cow","lives":"nine"}`, false, []string{""}},
		"drift_cat":         {`{"kind":"cat","lives":9}`, false, nil},
		"drift_memberUnion": {`{"n":2}`, false, []string{"/id"}},
		"drift_rootWrong":   {"", true, []string{""}},
		"drift_fine":        {`{"id":2,"name":"Tom","status":"sold"}`, false, nil},
		"drift_fail":        {"", true, nil},
	}
	for _, r := range run.Results {
		w, ok := want[r.Name]
		if !ok {
			t.Errorf("result of unknown tool %s", r.Name)
			continue
		}
		if r.Error != nil {
			t.Errorf("%s: the TypeScript client refused the result: %v %s", r.Name, r.Error.Code, r.Error.Message)
			continue
		}
		res := r.Result
		if res.IsError != w.isError {
			t.Errorf("%s: isError = %v, want %v (%+v)", r.Name, res.IsError, w.isError, res)
		}
		if got := compactJSON(t, res.StructuredContent); got != w.structured {
			t.Errorf("%s: structuredContent = %s, want %s", r.Name, got, w.structured)
		}
		var ptrs []string
		ws, _ := res.Meta[mcpserver.MetaWarnings].([]any)
		for _, x := range ws {
			ptrs = append(ptrs, x.(map[string]any)["pointer"].(string))
		}
		for _, p := range w.warnings {
			if !containsStr(ptrs, p) {
				t.Errorf("%s: no warning at %q in _meta: %v (%+v)", r.Name, p, ws, res)
			}
		}
		if w.warnings == nil && len(ws) > 0 {
			t.Errorf("%s: warnings %v, want none", r.Name, ws)
		}
	}
	if len(run.Results) != len(want) {
		t.Errorf("%d results, want %d", len(run.Results), len(want))
	}
	for _, r := range run.Results {
		if r.Name == "drift_fail" && r.Result != nil {
			if text := r.Result.Content[0].Text; text != "EXECUTION_ERROR drift.fail: disk full" {
				t.Errorf("drift_fail: text %q", text)
			}
		}
		if r.Name == "drift_rootWrong" && r.Result != nil {
			if text := r.Result.Content[0].Text; !strings.HasPrefix(text, "VALIDATION_ERROR drift.rootWrong: the result does not fit") {
				t.Errorf("drift_rootWrong: text %q", text)
			}
		}
	}
}

func compactJSON(t *testing.T, b json.RawMessage) string {
	if len(b) == 0 {
		return ""
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestTypeScriptClientAbort: the TypeScript SDK client aborts a call
// (AbortSignal) while the upstream request blocks; the upstream request is
// cancelled within a second of the abort (the goal is 100 ms; the bound
// allows for a loaded machine). Over stateful HTTP the abort arrives as
// notifications/cancelled; over stateless HTTP the notification reaches
// another ephemeral session, and the call ends when the client closes its
// request, which the TypeScript SDK does when it closes the transport
// (here right after the call).
func TestTypeScriptClientAbort(t *testing.T) {
	modules := tsClient(t)
	for _, c := range []struct {
		name      string
		stateless bool
		lingerMs  int
	}{{"stateful", false, 2000}, {"stateless", true, 0}} {
		t.Run(c.name, func(t *testing.T) {
			block := newBlockGets()
			backend := newBackend(t, block.wrap)
			_, hs := petsServer(t, backend.URL, &mcpserver.Options{HTTP: &mcp.StreamableHTTPOptions{Stateless: c.stateless, PropagateRequestCancellation: true}})
			job, err := json.Marshal(map[string]any{"url": hs.URL, "lingerMs": c.lingerMs, "calls": []any{map[string]any{
				"name": "pets_getPet", "arguments": map[string]any{"params": map[string]any{"petId": 1}}, "abortAfterMs": 300,
			}}})
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("node", "testdata/tsclient.mjs", string(job))
			cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out := make(chan []byte, 1)
			go func() {
				b, err := cmd.Output()
				if err != nil {
					t.Errorf("tsclient.mjs: %v\n%s", err, stderr.String())
				}
				out <- b
			}()
			wait(t, block.arrived, "the upstream request")
			select {
			case <-block.canceled:
			case <-time.After(20 * time.Second):
				t.Fatalf("the aborted call's upstream request was not cancelled (tsclient.mjs stderr: %s)", stderr.String())
			}
			canceled := time.Now().UnixMilli()
			var run tsRun
			if err := json.Unmarshal(<-out, &run); err != nil {
				t.Fatal(err)
			}
			if len(run.Results) != 1 || run.Results[0].Error == nil {
				t.Errorf("the aborted call: %+v, want an error", run.Results)
			}
			var aborted int64
			for _, line := range strings.Split(stderr.String(), "\n") {
				if _, at, ok := strings.Cut(line, "aborted pets_getPet at "); ok {
					fmt.Sscan(at, &aborted)
				}
			}
			if aborted == 0 {
				t.Fatalf("tsclient.mjs did not say when it aborted: %s", stderr.String())
			}
			t.Logf("abort to upstream cancellation: %d ms", canceled-aborted)
			if canceled-aborted > 1000 {
				t.Errorf("the abort took %d ms to reach the upstream request", canceled-aborted)
			}
		})
	}
}

// TestWarningsReachMCPClient: the drift the server saw reaches opsgen's own
// MCP client on env.Warnings (from _meta), once even though the client's
// pipeline, checking the exact schema, finds it again; errors and isError
// results name the registry id of the tool ("drift.fail"), not its name.
func TestWarningsReachMCPClient(t *testing.T) {
	reg, err := driftRegistry()
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, reg, &mcpserver.Options{Name: "drift"})
	for _, version := range []string{"", "2025-11-25"} {
		c := mcpclient.New(connect(t, srv, version), mcpclient.WithLogger(nopLogger{}))
		ctx := context.Background()

		exact := opsgenimpl.NewSchema(petSchema)
		env, err := mcpclient.Call[map[string]any](ctx, c, &mcpclient.Tool{Name: "drift_getPet", ID: "drift.getPet", OutputSchema: exact}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(env.Warnings) != 1 || env.Warnings[0].Pointer != "/status" || env.Warnings[0].OperationID != "drift.getPet" {
			t.Errorf("%q: getPet warnings = %v, want the server's one at /status", version, env.Warnings)
		}
		if env.Data["status"] != "reserved" {
			t.Errorf("%q: getPet data = %v", version, env.Data)
		}

		env, err = mcpclient.Call[map[string]any](ctx, c, &mcpclient.Tool{Name: "drift_wrongTypes", ID: "drift.wrongTypes"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var dropped bool
		for _, w := range env.Warnings {
			dropped = dropped || w.Pointer == "/tags/0" && strings.HasPrefix(w.Message, "dropped from structuredContent")
		}
		if !dropped {
			t.Errorf("%q: wrongTypes warnings = %v, want /tags/0 dropped from structuredContent", version, env.Warnings)
		}

		fail, err := mcpclient.Call[map[string]any](ctx, c, &mcpclient.Tool{Name: "drift_fail", ID: "drift.fail"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var ce *runtime.CallError
		if err := mcpclient.AsError(fail); !errors.As(err, &ce) || ce.OperationID != "drift.fail" || ce.Code != runtime.CodeExecution || ce.Message != "disk full" {
			t.Errorf("%q: AsError = %#v", version, err)
		}

		_, err = mcpclient.Call[map[string]any](ctx, c, &mcpclient.Tool{Name: "drift_nope", ID: "drift.nope"}, nil)
		if !errors.As(err, &ce) || ce.OperationID != "drift.nope" || ce.Code != runtime.CodeOperationNotFound {
			t.Errorf("%q: unknown tool: %v", version, err)
		}
	}
}
