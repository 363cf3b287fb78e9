package mcpclient_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"maps"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/internal/mcptest"
	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpclient"
	"github.com/opsgen/opsgen/runtime/mcpconv"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

var serverBinary string

// quiet keeps expected warnings out of the test log.
var quiet = mcpclient.WithLogger(slog.New(slog.DiscardHandler))

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mcptestserver")
	if err != nil {
		panic(err)
	}
	serverBinary = filepath.Join(dir, "mcptestserver")
	out, err := exec.Command("go", "build", "-o", serverBinary, "github.com/opsgen/opsgen/internal/mcptest/cmd/mcptestserver").CombinedOutput()
	if err != nil {
		os.RemoveAll(dir)
		panic("building mcptestserver: " + err.Error() + "\n" + string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// transports connects a session to the mcptest server in each of three
// ways: in memory, over stdio to a subprocess, and over streamable HTTP.
var transports = []struct {
	name    string
	connect func(t testing.TB) *mcp.ClientSession
}{
	{"inmemory", mcptest.InMemory},
	{"stdio", func(t testing.TB) *mcp.ClientSession {
		return connect(t, &mcp.CommandTransport{Command: exec.Command(serverBinary)})
	}},
	{"http", func(t testing.TB) *mcp.ClientSession {
		return connect(t, &mcp.StreamableClientTransport{Endpoint: mcptest.StreamableHTTP(t)})
	}},
}

func connect(t testing.TB, tr mcp.Transport) *mcp.ClientSession {
	t.Helper()
	cs, err := mcpclient.Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

var (
	weatherSchema  = opsgenimpl.NewSchema(mcptest.WeatherSchema)
	toolWeather    = &mcpclient.Tool{Name: mcptest.ToolWeather, OutputSchema: weatherSchema}
	toolWeatherTxt = &mcpclient.Tool{Name: mcptest.ToolWeatherText, OutputSchema: weatherSchema}
	toolDrift      = &mcpclient.Tool{Name: mcptest.ToolDrift, OutputSchema: weatherSchema}
	toolEcho       = &mcpclient.Tool{Name: mcptest.ToolEcho}
	toolFail       = &mcpclient.Tool{Name: mcptest.ToolFail}
	toolMixed      = &mcpclient.Tool{Name: mcptest.ToolMixed}
	toolEnvelope   = &mcpclient.Tool{Name: mcptest.ToolEnvelope, Convention: mcpconv.ConventionToolEnvelope}
	toolDotbot     = &mcpclient.Tool{Name: mcptest.ToolDotbot, Convention: mcpconv.ConventionDotbot}
	toolUnknown    = &mcpclient.Tool{Name: mcptest.ToolUnknownBlock}
	toolSlow       = &mcpclient.Tool{Name: mcptest.ToolSlow}
)

func mustCall[T any](t *testing.T, c *mcpclient.Client, tool *mcpclient.Tool, args any) runtime.ResponseEnvelope[T] {
	t.Helper()
	env, err := mcpclient.Call[T](context.Background(), c, tool, args)
	if err != nil {
		t.Fatalf("Call %s: %v", tool.Name, err)
	}
	if runtime.SourceOf(env.Meta) != runtime.SourceMCP || runtime.MCPMetaOf(env.Meta) == nil {
		t.Fatalf("Call %s: meta %#v", tool.Name, env.Meta)
	}
	return env
}

func TestCall(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			cs := tr.connect(t)
			var hooked []runtime.Warning
			c := mcpclient.New(cs, quiet, mcpclient.WithWarningHook(func(_ context.Context, w runtime.Warning) { hooked = append(hooked, w) }))

			t.Run("structured", func(t *testing.T) {
				env := mustCall[mcptest.Weather](t, c, toolWeather, map[string]any{"city": "Paris"})
				m := runtime.MCPMetaOf(env.Meta)
				if env.Data != mcptest.TheWeather || m.IsError || len(env.Warnings) != 0 {
					t.Errorf("env = %+v, warnings %v", env.Data, env.Warnings)
				}
				var sc mcptest.Weather
				if err := json.Unmarshal(m.StructuredContent, &sc); err != nil || sc != mcptest.TheWeather {
					t.Errorf("StructuredContent = %s", m.StructuredContent)
				}
				if len(m.Content) != 1 || m.Content[0].Type != runtime.ContentText || !strings.Contains(m.Content[0].Text, "Partly cloudy") {
					t.Errorf("Content = %+v", m.Content)
				}
				assertVector(t, env, "mcp-structured.json")
			})

			t.Run("text only", func(t *testing.T) {
				env := mustCall[mcptest.Weather](t, c, toolWeatherTxt, nil)
				if env.Data != mcptest.TheWeather || runtime.MCPMetaOf(env.Meta).StructuredContent != nil || len(env.Warnings) != 0 {
					t.Errorf("env = %+v, warnings %v", env.Data, env.Warnings)
				}
				// A tool whose text holds no JSON: data stays zero, with a warning.
				hooked = nil
				env2 := mustCall[mcptest.Weather](t, c, &mcpclient.Tool{Name: mcptest.ToolEcho, OutputSchema: weatherSchema}, map[string]any{"text": "sunny"})
				if env2.Data != (mcptest.Weather{}) || len(env2.Warnings) != 1 || !strings.Contains(env2.Warnings[0].Message, "no structuredContent") {
					t.Errorf("env = %+v, warnings %v", env2.Data, env2.Warnings)
				}
				if !reflect.DeepEqual(hooked, env2.Warnings) {
					t.Errorf("hook saw %v, envelope has %v", hooked, env2.Warnings)
				}
			})

			t.Run("content", func(t *testing.T) {
				env := mustCall[[]runtime.ContentBlock](t, c, toolEcho, map[string]any{"text": "hi"})
				if want := []runtime.ContentBlock{runtime.TextBlock("hi")}; !reflect.DeepEqual(env.Data, want) || !reflect.DeepEqual(runtime.MCPMetaOf(env.Meta).Content, want) {
					t.Errorf("Data = %+v", env.Data)
				}
				s := mustCall[string](t, c, toolEcho, map[string]any{"text": "plain"})
				if s.Data != "plain" {
					t.Errorf("string Data = %q", s.Data)
				}
			})

			t.Run("all block types", func(t *testing.T) {
				assertVector(t, mustCall[[]runtime.ContentBlock](t, c, toolMixed, nil), "mcp-content-only.json")
			})

			t.Run("isError", func(t *testing.T) {
				env := mustCall[[]runtime.ContentBlock](t, c, toolFail, nil)
				if !runtime.MCPMetaOf(env.Meta).IsError || len(env.Data) != 1 || env.Data[0].Text != mcptest.FailText {
					t.Errorf("env = %+v", env)
				}
				assertVector(t, env, "mcp-is-error.json")
				err := mcpclient.AsError(env)
				var ce *runtime.CallError
				if !errors.As(err, &ce) || ce.Code != runtime.CodeExecution || ce.Message != mcptest.FailText || ce.OperationID != mcptest.ToolFail {
					t.Errorf("AsError = %v", err)
				}
				typed := mustCall[mcptest.Weather](t, c, &mcpclient.Tool{Name: mcptest.ToolFail, OutputSchema: weatherSchema}, nil)
				if typed.Data != (mcptest.Weather{}) || !runtime.MCPMetaOf(typed.Meta).IsError || len(typed.Warnings) != 0 {
					t.Errorf("typed isError env = %+v", typed)
				}
				if err := mcpclient.AsError(mustCall[[]runtime.ContentBlock](t, c, toolEcho, map[string]any{"text": "x"})); err != nil {
					t.Errorf("AsError of a success = %v", err)
				}
			})

			t.Run("toolenvelope", func(t *testing.T) {
				env := mustCall[mcptest.WorkflowPayload](t, c, toolEnvelope, nil)
				if !reflect.DeepEqual(env.Data, mcptest.TheWorkflow) || len(env.Warnings) != 0 {
					t.Errorf("Data = %+v, warnings %v", env.Data, env.Warnings)
				}
				conv, _ := runtime.MCPMetaOf(env.Meta).Convention.(*mcpconv.ToolEnvelopeInfo)
				want := mcpconv.ToolEnvelopeInfo{Tool: "system-design", TS: "2025-06-17T18:30:00Z", Version: 1, Summary: mcptest.EnvelopeSummary}
				if conv == nil || conv.ConventionName() != mcpconv.ConventionToolEnvelope || *conv != want {
					t.Errorf("Convention = %+v", conv)
				}
				// Blocks as data keep the blocks; the convention is on the meta.
				blocks := mustCall[[]runtime.ContentBlock](t, c, toolEnvelope, nil)
				if len(blocks.Data) != 2 || blocks.Data[0].Text != mcptest.EnvelopeSummary || runtime.MCPMetaOf(blocks.Meta).Convention == nil {
					t.Errorf("blocks env = %+v", blocks)
				}
				// Raw JSON, detected by the client-wide "auto" convention.
				auto := mcpclient.New(cs, quiet, mcpclient.WithConvention(mcpconv.ConventionAuto))
				raw := mustCall[json.RawMessage](t, auto, &mcpclient.Tool{Name: mcptest.ToolEnvelope}, nil)
				wantRaw, _ := json.Marshal(mcptest.TheWorkflow)
				if !jsonEqual(t, raw.Data, wantRaw) || runtime.MCPMetaOf(raw.Meta).Convention == nil {
					t.Errorf("raw = %s", raw.Data)
				}
				// Version 2 is rejected: no convention, a warning, the text stays.
				v2 := mustCall[mcptest.WorkflowPayload](t, c, toolEnvelope, map[string]any{"version": 2})
				if runtime.MCPMetaOf(v2.Meta).Convention != nil || len(v2.Warnings) != 2 || !strings.Contains(v2.Warnings[0].Message, "unsupported envelope version 2") {
					t.Errorf("v2 env = %+v, warnings %v", v2.Data, v2.Warnings)
				}
				if runtime.MCPMetaOf(v2.Meta).Content[0].Text != mcptest.EnvelopeSummary {
					t.Errorf("v2 block 0 = %+v", runtime.MCPMetaOf(v2.Meta).Content[0])
				}
			})

			t.Run("dotbot", func(t *testing.T) {
				env := mustCall[mcptest.DotbotData](t, c, toolDotbot, nil)
				if env.Data.Solution.Name != "Axiome" || len(env.Warnings) != 0 {
					t.Errorf("Data = %+v, warnings %v", env.Data, env.Warnings)
				}
				conv, _ := runtime.MCPMetaOf(env.Meta).Convention.(*mcpconv.DotbotInfo)
				if conv == nil || conv.Status != mcpconv.DotbotOK || conv.Tool != mcptest.ToolDotbot ||
					conv.Intent == nil || conv.Intent.RecommendedNext != "solution.structure" || conv.Audit.DurationMS != 95 {
					t.Errorf("Convention = %+v", conv)
				}
				mis := mustCall[mcptest.DotbotData](t, c, toolDotbot, map[string]any{"mismatch": true})
				d, _ := runtime.MCPMetaOf(mis.Meta).Convention.(*mcpconv.DotbotInfo)
				if d == nil || d.Status != mcpconv.DotbotError || d.DeclaredStatus != mcpconv.DotbotOK || len(d.Errors) != 1 {
					t.Errorf("mismatch info = %+v", d)
				}
				if len(mis.Warnings) != 1 || !strings.Contains(mis.Warnings[0].Message, "contradicts") ||
					mis.Warnings[0].Pointer != "/status" || mis.Warnings[0].OperationID != mcptest.ToolDotbot {
					t.Errorf("mismatch warnings = %v", mis.Warnings)
				}
				// Detected by "auto" as well.
				auto := mustCall[mcptest.DotbotData](t, c, &mcpclient.Tool{Name: mcptest.ToolDotbot, Convention: mcpconv.ConventionAuto}, nil)
				if auto.Data.Solution.Name != "Axiome" || runtime.MCPMetaOf(auto.Meta).Convention == nil || runtime.MCPMetaOf(auto.Meta).Convention.ConventionName() != mcpconv.ConventionDotbot {
					t.Errorf("auto = %+v", auto)
				}
				// An expected convention that is absent is a warning, not an error.
				none := mustCall[[]runtime.ContentBlock](t, c, &mcpclient.Tool{Name: mcptest.ToolEcho, Convention: mcpconv.ConventionDotbot}, map[string]any{"text": "x"})
				if runtime.MCPMetaOf(none.Meta).Convention != nil || len(none.Warnings) != 1 || len(none.Data) != 1 {
					t.Errorf("no dotbot: %+v", none)
				}
			})

			t.Run("unknown block type", func(t *testing.T) {
				env := mustCall[[]runtime.ContentBlock](t, c, toolUnknown, nil)
				if want := []runtime.ContentBlock{runtime.TextBlock(mcptest.UnknownBlock)}; !reflect.DeepEqual(env.Data, want) {
					t.Errorf("Data = %+v, want %+v", env.Data, want)
				}
				assertVector(t, env, "mcp-unknown-block-mapped.json")
			})

			t.Run("drift", func(t *testing.T) {
				env := mustCall[mcptest.Weather](t, c, toolDrift, nil)
				if env.Data.Conditions != "Sunny" || env.Data.Humidity != 40 || env.Data.Temperature != 0 {
					t.Errorf("Data = %+v", env.Data)
				}
				if !hasWarning(env.Warnings, "/temperature") {
					t.Errorf("warnings = %v, want one at /temperature", env.Warnings)
				}
				if !jsonEqual(t, runtime.MCPMetaOf(env.Meta).StructuredContent, []byte(mcptest.DriftJSON)) {
					t.Errorf("StructuredContent = %s, want it as sent", runtime.MCPMetaOf(env.Meta).StructuredContent)
				}
				m := mustCall[map[string]any](t, c, toolDrift, nil)
				if _, ok := m.Data["wind"]; ok || m.Data["conditions"] != "Sunny" {
					t.Errorf("normalized map = %v, want wind dropped", m.Data)
				}
				strict := mcpclient.New(cs, quiet, mcpclient.WithValidation(runtime.ValidateStrict))
				_, err := mcpclient.Call[mcptest.Weather](context.Background(), strict, toolDrift, nil)
				if !errors.Is(err, runtime.ErrValidation) {
					t.Errorf("strict: err = %v, want VALIDATION_ERROR", err)
				}
			})

			t.Run("unknown tool", func(t *testing.T) {
				_, err := mcpclient.Call[[]runtime.ContentBlock](context.Background(), c, &mcpclient.Tool{Name: "no-such-tool"}, nil)
				var ce *runtime.CallError
				if !errors.Is(err, runtime.ErrOperationNotFound) || !errors.As(err, &ce) || ce.OperationID != "no-such-tool" {
					t.Errorf("err = %v, want OPERATION_NOT_FOUND", err)
				}
			})

			t.Run("cancel", func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				time.AfterFunc(20*time.Millisecond, cancel)
				_, err := mcpclient.Call[[]runtime.ContentBlock](ctx, c, toolSlow, nil)
				if !errors.Is(err, runtime.ErrCanceled) || !errors.Is(err, context.Canceled) {
					t.Errorf("err = %v, want CANCELED", err)
				}
				ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
				defer cancel()
				_, err = mcpclient.Call[[]runtime.ContentBlock](ctx, c, toolSlow, nil)
				if !errors.Is(err, runtime.ErrTimeout) {
					t.Errorf("err = %v, want TIMEOUT", err)
				}
				// The session still works after a canceled call.
				env := mustCall[[]runtime.ContentBlock](t, c, toolSlow, map[string]any{"seconds": 0.001})
				if len(env.Data) != 1 || env.Data[0].Text != "done" {
					t.Errorf("slow = %+v", env.Data)
				}
			})

			t.Run("pagination", func(t *testing.T) {
				first, err := cs.ListTools(context.Background(), nil)
				if err != nil || len(first.Tools) != mcptest.PageSize || first.NextCursor == "" {
					t.Fatalf("first page: %d tools, cursor %q, %v", len(first.Tools), first.NextCursor, err)
				}
				names := map[string]bool{}
				for tool, err := range cs.Tools(context.Background(), nil) {
					if err != nil {
						t.Fatal(err)
					}
					names[tool.Name] = true
				}
				for _, n := range []string{mcptest.ToolWeather, mcptest.ToolWeatherText, mcptest.ToolDrift, mcptest.ToolEcho, mcptest.ToolFail,
					mcptest.ToolMixed, mcptest.ToolEnvelope, mcptest.ToolDotbot, mcptest.ToolUnknownBlock, mcptest.ToolSlow, mcptest.ToolProgress, "filler.tool_11"} {
					if !names[n] {
						t.Errorf("tool %q not listed", n)
					}
				}
				if len(names) != 12+mcptest.FillerTools {
					t.Errorf("%d tools listed", len(names))
				}
			})

			t.Run("closed", func(t *testing.T) {
				cs := tr.connect(t)
				cs.Close()
				_, err := mcpclient.Call[[]runtime.ContentBlock](context.Background(), mcpclient.New(cs), toolEcho, nil)
				if !errors.Is(err, runtime.ErrTransport) {
					t.Errorf("err = %v, want TRANSPORT_ERROR", err)
				}
			})
		})
	}
}

// assertVector checks that env marshals to the JSON of an envelope vector.
func assertVector[T any](t *testing.T, env runtime.ResponseEnvelope[T], name string) {
	t.Helper()
	// go-sdk servers add their identity to _meta over some transports.
	m := *runtime.MCPMetaOf(env.Meta)
	m.Meta = maps.Clone(m.Meta)
	delete(m.Meta, "io.modelcontextprotocol/serverInfo")
	if len(m.Meta) == 0 {
		m.Meta = nil
	}
	got, err := json.Marshal(opsgenimpl.MCP(env.Data, m))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../../testdata/vectors/envelopes/" + name)
	if err != nil {
		t.Fatal(err)
	}
	if !jsonEqual(t, got, want) {
		t.Errorf("envelope differs from %s:\n got %s\nwant %s", name, got, want)
	}
}

func hasWarning(ws []runtime.Warning, pointer string) bool {
	for _, w := range ws {
		if w.Pointer == pointer {
			return true
		}
	}
	return false
}

func jsonEqual(t testing.TB, got, want []byte) bool {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("got is not JSON: %v: %s", err, got)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("want is not JSON: %v: %s", err, want)
	}
	return reflect.DeepEqual(g, w)
}

// TestServerClosesConnection: the server side goes away; the next call is
// a TRANSPORT_ERROR.
func TestServerClosesConnection(t *testing.T) {
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := mcptest.NewServer().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, ct)
	c := mcpclient.New(cs)
	mustCall[[]runtime.ContentBlock](t, c, toolEcho, map[string]any{"text": "x"})
	ss.Close()
	_, err = mcpclient.Call[[]runtime.ContentBlock](ctx, c, toolEcho, nil)
	if !errors.Is(err, runtime.ErrTransport) {
		t.Errorf("err = %v, want TRANSPORT_ERROR", err)
	}
}

// TestUnknownBlockNeedsWrapper shows why Connect wraps the transport: the
// same server answer fails in a bare go-sdk client.
func TestUnknownBlockNeedsWrapper(t *testing.T) {
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := mcptest.NewServer().Connect(ctx, mcptest.ServerTransport(st), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bare"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: mcptest.ToolUnknownBlock})
	if err == nil || !strings.Contains(err.Error(), "hologram") {
		t.Fatalf("bare client: err = %v, want go-sdk to reject the hologram block", err)
	}
	_, err = mcpclient.Call[[]runtime.ContentBlock](ctx, mcpclient.New(cs), toolUnknown, nil)
	if !errors.Is(err, runtime.ErrDecode) || !strings.Contains(err.Error(), "mcpclient.Connect") {
		t.Errorf("Call on a bare session: err = %v", err)
	}
}

func TestCallBadInput(t *testing.T) {
	cs := mcptest.InMemory(t)
	c := mcpclient.New(cs, quiet)
	if _, err := mcpclient.Call[string](context.Background(), c, nil, nil); err == nil {
		t.Error("nil tool accepted")
	}
	if _, err := mcpclient.Call[string](context.Background(), mcpclient.New(nil), toolEcho, nil); !errors.Is(err, runtime.ErrTransport) {
		t.Errorf("nil session: %v", err)
	}
	if c.Session() != cs {
		t.Error("Session() is not the session given to New")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := mcpclient.Call[string](ctx, c, toolEcho, nil); !errors.Is(err, runtime.ErrCanceled) {
		t.Errorf("canceled ctx: %v", err)
	}
	env := mustCall[[]runtime.ContentBlock](t, c, &mcpclient.Tool{Name: mcptest.ToolEcho, Convention: "yaml"}, nil)
	if len(env.Warnings) != 1 || !strings.Contains(env.Warnings[0].Message, `unknown content convention "yaml"`) {
		t.Errorf("warnings = %v", env.Warnings)
	}
}

// TestServerBinaryHTTP runs mcptestserver -http and calls it over
// streamable HTTP.
func TestServerBinaryHTTP(t *testing.T) {
	cmd := exec.Command(serverBinary, "-http", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	line, err := bufio.NewReader(stderr).ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "mcptestserver: serving ")
	if err != nil || !ok {
		t.Fatalf("server said %q, %v", line, err)
	}
	c := mcpclient.New(connect(t, &mcp.StreamableClientTransport{Endpoint: url}), quiet)
	env := mustCall[mcptest.Weather](t, c, toolWeather, nil)
	if env.Data != mcptest.TheWeather {
		t.Errorf("Data = %+v", env.Data)
	}
	blocks := mustCall[[]runtime.ContentBlock](t, c, toolUnknown, nil)
	if len(blocks.Data) != 1 || blocks.Data[0].Text != mcptest.UnknownBlock {
		t.Errorf("unknown block over HTTP = %+v", blocks.Data)
	}
}

// TestServerProcessDies: the stdio server process is killed; the next call
// is a TRANSPORT_ERROR, not a hang.
func TestServerProcessDies(t *testing.T) {
	cmd := exec.Command(serverBinary)
	c := mcpclient.New(connect(t, &mcp.CommandTransport{Command: cmd}), quiet)
	mustCall[[]runtime.ContentBlock](t, c, toolEcho, map[string]any{"text": "x"})
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_, err := mcpclient.Call[[]runtime.ContentBlock](context.Background(), c, toolEcho, map[string]any{"text": "x"})
	if !errors.Is(err, runtime.ErrTransport) {
		t.Errorf("err = %v, want TRANSPORT_ERROR", err)
	}
}

// TestConventionVectors replays every ToolEnvelope V1 and dotbot vector
// through a real server and Call.
func TestConventionVectors(t *testing.T) {
	c := mcpclient.New(mcptest.InMemory(t), quiet)
	replay := func(t *testing.T, convention string, content json.RawMessage) runtime.ResponseEnvelope[json.RawMessage] {
		return mustCall[json.RawMessage](t, c, &mcpclient.Tool{Name: mcptest.ToolReplay, Convention: convention},
			map[string]any{"content": content})
	}
	files, _ := filepath.Glob("../../testdata/vectors/toolenvelope-v1/*.json")
	if len(files) == 0 {
		t.Fatal("no toolenvelope-v1 vectors")
	}
	for _, f := range files {
		t.Run("toolenvelope/"+filepath.Base(f), func(t *testing.T) {
			var v struct {
				CallToolResult struct {
					Content json.RawMessage `json:"content"`
				} `json:"callToolResult"`
				Expect struct {
					OK      bool            `json:"ok"`
					Payload json.RawMessage `json:"payload"`
				} `json:"expect"`
			}
			readJSON(t, f, &v)
			env := replay(t, mcpconv.ConventionToolEnvelope, v.CallToolResult.Content)
			conv := runtime.MCPMetaOf(env.Meta).Convention
			if !v.Expect.OK {
				if conv != nil || len(env.Warnings) == 0 || runtime.MCPMetaOf(env.Meta).Content[0].Text == "" {
					t.Errorf("want fallback with a warning: convention %+v, warnings %v", conv, env.Warnings)
				}
				return
			}
			if te, _ := conv.(*mcpconv.ToolEnvelopeInfo); te == nil || te.Version != 1 || len(env.Warnings) != 0 {
				t.Fatalf("convention %+v, warnings %v", conv, env.Warnings)
			}
			if v.Expect.Payload != nil && !jsonEqual(t, env.Data, v.Expect.Payload) {
				t.Errorf("Data = %s, want %s", env.Data, v.Expect.Payload)
			}
		})
	}
	files, _ = filepath.Glob("../../testdata/vectors/dotbot/*.json")
	if len(files) == 0 {
		t.Fatal("no dotbot vectors")
	}
	for _, f := range files {
		t.Run("dotbot/"+filepath.Base(f), func(t *testing.T) {
			var v struct {
				Envelope json.RawMessage `json:"envelope"`
				Expect   struct {
					Valid  bool   `json:"valid"`
					Status string `json:"status"`
				} `json:"expect"`
			}
			readJSON(t, f, &v)
			content, _ := json.Marshal([]runtime.ContentBlock{runtime.TextBlock(string(v.Envelope))})
			env := replay(t, mcpconv.ConventionAuto, content)
			conv := runtime.MCPMetaOf(env.Meta).Convention
			if !v.Expect.Valid {
				if conv != nil || len(env.Warnings) == 0 {
					t.Errorf("want a warning and no convention: %+v, %v", conv, env.Warnings)
				}
				return
			}
			var want struct {
				Data json.RawMessage `json:"data"`
			}
			readJSONBytes(t, v.Envelope, &want)
			if d, _ := conv.(*mcpconv.DotbotInfo); d == nil || string(d.Status) != v.Expect.Status || !jsonEqual(t, env.Data, want.Data) {
				t.Errorf("convention %+v, Data %s", conv, env.Data)
			}
		})
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readJSONBytes(t, b, v)
}

func readJSONBytes(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

// TestHTTPServerGone: the streamable HTTP server shuts down; the next call
// is a TRANSPORT_ERROR.
func TestHTTPServerGone(t *testing.T) {
	srv := httptest.NewServer(mcptest.Handler())
	c := mcpclient.New(connect(t, &mcp.StreamableClientTransport{Endpoint: srv.URL, MaxRetries: -1}), quiet)
	mustCall[[]runtime.ContentBlock](t, c, toolEcho, map[string]any{"text": "x"})
	srv.CloseClientConnections()
	srv.Close()
	_, err := mcpclient.Call[[]runtime.ContentBlock](context.Background(), c, toolEcho, map[string]any{"text": "x"})
	if !errors.Is(err, runtime.ErrTransport) {
		t.Errorf("err = %v, want TRANSPORT_ERROR", err)
	}
}
