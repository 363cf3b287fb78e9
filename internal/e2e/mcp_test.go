package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/generator/mcpsnapshot"
	"github.com/opsgen/opsgen/internal/e2e/mcpgen"
	"github.com/opsgen/opsgen/internal/mcptest"
	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpclient"
	"github.com/opsgen/opsgen/runtime/mcpconv"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// mcptestListing is the committed snapshot of internal/mcptest, mcpgen's source.
const mcptestListing = "../../testdata/specs/mcp/mcptest-server.json"

// mcpTransport is one way to reach the mcptest server.
type mcpTransport struct {
	name string
	// snapshot lists the server's tools as `opsgen mcp snapshot` does.
	snapshot func(t *testing.T) []byte
	// connect opens a session made with mcpclient.Connect, closed when the
	// test ends.
	connect func(t *testing.T) *mcp.ClientSession
}

// mcpTransports returns the in-memory, stdio (a subprocess running
// cmd/mcptestserver, built here) and streamable HTTP transports.
func mcpTransports(t *testing.T) []mcpTransport {
	bin := buildMCPTestServer(t)
	snapOpts := func(o mcpsnapshot.SnapshotOptions) func(t *testing.T) []byte {
		return func(t *testing.T) []byte {
			o.Timeout = time.Minute
			if o.URL == "" && o.Command == nil {
				o.URL = mcptest.StreamableHTTP(t)
			}
			listing, err := mcpsnapshot.Snapshot(context.Background(), o)
			if err != nil {
				t.Fatalf("snapshot: %v", err)
			}
			return listing
		}
	}
	return []mcpTransport{
		{
			name: "inmemory",
			snapshot: func(t *testing.T) []byte {
				ctx := context.Background()
				st, ct := mcp.NewInMemoryTransports()
				ss, err := mcptest.NewServer().Connect(ctx, mcptest.ServerTransport(st), nil)
				if err != nil {
					t.Fatal(err)
				}
				defer ss.Close()
				listing, err := mcpsnapshot.SnapshotTransport(ctx, ct)
				if err != nil {
					t.Fatalf("snapshot: %v", err)
				}
				return listing
			},
			connect: func(t *testing.T) *mcp.ClientSession { return mcptest.InMemory(t) },
		},
		{
			name:     "stdio",
			snapshot: snapOpts(mcpsnapshot.SnapshotOptions{Command: []string{bin}}),
			connect: func(t *testing.T) *mcp.ClientSession {
				return connectMCP(t, &mcp.CommandTransport{Command: exec.Command(bin)})
			},
		},
		{
			name:     "http",
			snapshot: snapOpts(mcpsnapshot.SnapshotOptions{}),
			connect: func(t *testing.T) *mcp.ClientSession {
				return connectMCP(t, &mcp.StreamableClientTransport{Endpoint: mcptest.StreamableHTTP(t)})
			},
		},
	}
}

// buildMCPTestServer builds cmd/mcptestserver into the test's temporary
// directory.
func buildMCPTestServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mcptestserver")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/opsgen/opsgen/internal/mcptest/cmd/mcptestserver").CombinedOutput(); err != nil {
		t.Fatalf("building mcptestserver: %v\n%s", err, out)
	}
	return bin
}

func connectMCP(t *testing.T, tr mcp.Transport) *mcp.ClientSession {
	t.Helper()
	cs, err := mcpclient.Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// mcpWeather is mcptest.TheWeather as mcpgen types it.
var mcpWeather = mcpgen.GetWeatherOutput{Temperature: mcptest.TheWeather.Temperature, Conditions: mcptest.TheWeather.Conditions, Humidity: int64(mcptest.TheWeather.Humidity)}

// mcpQuiet keeps the warnings of expected drift out of the test log; tests
// read them from the envelopes.
var mcpQuiet = mcpgen.WithLogger(slog.New(slog.DiscardHandler))

// TestMCPEndToEnd runs, over each transport: snapshot the server, generate
// a client from the snapshot (it must be mcpgen, which is compiled into this
// test), and call every kind of tool through mcpgen, asserting data, meta,
// warnings and errors.
func TestMCPEndToEnd(t *testing.T) {
	for _, tr := range mcpTransports(t) {
		t.Run(tr.name, func(t *testing.T) {
			t.Run("snapshot+generate", func(t *testing.T) {
				listing := tr.snapshot(t)
				assertMCPListing(t, listing)
				assertGeneratesMCPGen(t, listing)
			})
			testMCPCalls(t, tr.connect(t))
		})
	}
}

// protocolLine matches a listing's protocolVersion, which depends on the
// transport (go-sdk v1.8.0 agrees on an older protocol over HTTP).
var protocolLine = regexp.MustCompile(`(?m)^  "protocolVersion": "[0-9-]+",\n`)

// sameListing reports whether two listings are the same but for their
// protocol versions, which both must have.
func sameListing(a, b []byte) bool {
	strip := func(x []byte) []byte {
		return transportLine.ReplaceAll(protocolLine.ReplaceAll(x, nil), []byte("\n}\n"))
	}
	return protocolLine.Match(a) && protocolLine.Match(b) && transportLine.Match(a) && transportLine.Match(b) &&
		bytes.Equal(strip(a), strip(b))
}

// transportLine matches a listing's transport (stdio, streamable-http...),
// its last member.
var transportLine = regexp.MustCompile(`(?m),\n  "transport": "[a-z-]+"\n}\n$`)

// assertMCPListing checks a fresh snapshot: the committed one (but for the protocol version),
// and every tool present although tools/list takes several pages.
func assertMCPListing(t *testing.T, listing []byte) {
	t.Helper()
	want, err := os.ReadFile(mcptestListing)
	if err != nil {
		t.Fatal(err)
	}
	if !sameListing(listing, want) {
		t.Errorf("snapshot differs from %s:\n%s", mcptestListing, listing)
	}
	var l struct{ Tools []struct{ Name string } }
	if err := json.Unmarshal(listing, &l); err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tool := range l.Tools {
		names[tool.Name] = true
	}
	const named = 12 // the Tool* constants of mcptest
	if len(names) != named+mcptest.FillerTools || len(names) <= 2*mcptest.PageSize {
		t.Errorf("snapshot has %d tools, want %d (pages of %d)", len(names), named+mcptest.FillerTools, mcptest.PageSize)
	}
	for _, name := range []string{mcptest.ToolWeather, mcptest.ToolSlow, "filler.tool_00", "filler.tool_11"} {
		if !names[name] {
			t.Errorf("snapshot lacks %q", name)
		}
	}
}

// assertGeneratesMCPGen generates a package from listing with mcpgen's
// config and checks that it is mcpgen. The listing and the config are laid
// out as in the module, so that the source path in the output is the same.
func assertGeneratesMCPGen(t *testing.T, listing []byte) {
	t.Helper()
	root := t.TempDir()
	cfg, err := os.ReadFile(mcpgenConfig)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"internal/e2e/" + mcpgenConfig:           cfg,
		"testdata/specs/mcp/mcptest-server.json": listing,
	} {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := generateMCP(t, filepath.Join(root, "internal/e2e", mcpgenConfig))
	if len(res.Files) == 0 {
		t.Fatal("no files generated")
	}
	for _, f := range res.Files {
		want, err := os.ReadFile(filepath.Join("mcpgen", f.Name))
		if err != nil {
			t.Error(err)
			continue
		}
		if !bytes.Equal(f.Content, want) {
			t.Errorf("%s generated from the snapshot differs from mcpgen/%s", f.Name, f.Name)
		}
	}
}

// testMCPCalls calls the tools of the mcptest server through mcpgen.
func testMCPCalls(t *testing.T, session *mcp.ClientSession) {
	ctx := context.Background()
	c := mcpgen.NewClient(session, mcpQuiet)
	weather := mcpWeather

	t.Run("output schema", func(t *testing.T) {
		city := "Paris"
		env, err := c.GetWeather(ctx, mcpgen.GetWeatherInput{City: &city})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(env.Data, weather) || len(env.Warnings) != 0 {
			t.Errorf("Data = %+v, warnings %v", env.Data, env.Warnings)
		}
		m := runtime.MCPMetaOf(env.Meta)
		if m == nil || m.Tool != mcptest.ToolWeather || m.Convention != nil {
			t.Fatalf("meta = %+v", m)
		}
		assertMCPVector(t, env, "mcp-structured.json")
		if !opsgenimpl.IsResponseEnvelope(env) {
			t.Error("IsResponseEnvelope(env) = false")
		}
	})

	t.Run("output schema, text only", func(t *testing.T) {
		env, err := c.GetWeatherText(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got := mcpgen.GetWeatherOutput(env.Data); !reflect.DeepEqual(got, weather) || len(env.Warnings) != 0 {
			t.Errorf("Data = %+v, warnings %v", env.Data, env.Warnings)
		}
		if m := runtime.MCPMetaOf(env.Meta); m.StructuredContent != nil || len(m.Content) != 2 || m.Content[0].Text != "Here is the weather:" {
			t.Errorf("meta = %+v", m)
		}
	})

	t.Run("no output schema", func(t *testing.T) {
		env, err := c.Echo(ctx, mcpgen.EchoInput{Text: "hi there"})
		if err != nil {
			t.Fatal(err)
		}
		want := []runtime.ContentBlock{runtime.TextBlock("hi there")}
		if !reflect.DeepEqual(env.Data, want) || !reflect.DeepEqual(runtime.MCPMetaOf(env.Meta).Content, want) || len(env.Warnings) != 0 {
			t.Errorf("env = %+v", env)
		}
		mixed, err := c.MixedContent(ctx)
		if err != nil {
			t.Fatal(err)
		}
		assertMCPVector(t, mixed, "mcp-content-only.json")
		if got := runtime.MCPMetaOf(mixed.Meta).Meta["progressToken"]; got != "abc" {
			t.Errorf("_meta progressToken = %v", got)
		}
	})

	t.Run("isError", func(t *testing.T) {
		env, err := c.AlwaysFail(ctx)
		if err != nil {
			t.Fatalf("a tool error is a result, got the error %v", err)
		}
		if !runtime.MCPMetaOf(env.Meta).IsError || len(env.Warnings) != 0 {
			t.Errorf("env = %+v", env)
		}
		assertMCPVector(t, env, "mcp-is-error.json")
		var ce *runtime.CallError
		if err := mcpclient.AsError(env); !errors.As(err, &ce) || ce.Code != runtime.CodeExecution ||
			ce.OperationID != mcptest.ToolFail || ce.Message != mcptest.FailText {
			t.Errorf("AsError = %#v", err)
		}
		ok, err := c.Echo(ctx, mcpgen.EchoInput{Text: "x"})
		if err != nil || mcpclient.AsError(ok) != nil {
			t.Errorf("AsError of a success = %v (call error %v)", mcpclient.AsError(ok), err)
		}
	})

	t.Run("toolenvelope-v1", func(t *testing.T) {
		env, err := c.WorkflowSystemDesign(ctx, mcpgen.WorkflowSystemDesignInput{})
		if err != nil {
			t.Fatal(err)
		}
		want := mcpgen.WorkflowSystemDesignOutput{
			DisplayName:   mcptest.TheWorkflow.DisplayName,
			InstructionID: mcptest.TheWorkflow.InstructionID,
			Steps:         []mcpgen.WorkflowSystemDesignOutputStepsItem{{Kind: "design", Label: "Architecture", Summary: "Define the auth flow and components"}},
		}
		if !reflect.DeepEqual(env.Data, want) || len(env.Warnings) != 0 {
			t.Errorf("Data = %+v, warnings %v", env.Data, env.Warnings)
		}
		conv, _ := runtime.MCPMetaOf(env.Meta).Convention.(*mcpconv.ToolEnvelopeInfo)
		wantInfo := mcpconv.ToolEnvelopeInfo{Tool: "system-design", TS: "2025-06-17T18:30:00Z", Version: 1, Summary: mcptest.EnvelopeSummary}
		if conv == nil || conv.ConventionName() != mcpconv.ConventionToolEnvelope || *conv != wantInfo {
			t.Fatalf("Convention = %+v", conv)
		}
		if ts, err := conv.Time(); err != nil || !ts.Equal(mcptest.EnvelopeTime) {
			t.Errorf("Time() = %v, %v", ts, err)
		}

		// Version 2 is rejected: no convention, no data, a warning; not an error.
		v2 := int64(2)
		env, err = c.WorkflowSystemDesign(ctx, mcpgen.WorkflowSystemDesignInput{Version: &v2})
		if err != nil {
			t.Fatal(err)
		}
		if runtime.MCPMetaOf(env.Meta).Convention != nil || !reflect.DeepEqual(env.Data, mcpgen.WorkflowSystemDesignOutput{}) || !mcpHasWarning(env.Warnings, "version") {
			t.Errorf("version 2: Data %+v, convention %+v, warnings %v", env.Data, runtime.MCPMetaOf(env.Meta).Convention, env.Warnings)
		}
	})

	t.Run("dotbot (auto)", func(t *testing.T) {
		env, err := c.DotbotSolutionInfo(ctx, mcpgen.DotbotSolutionInfoInput{})
		if err != nil {
			t.Fatal(err)
		}
		if env.Data.Solution.Name != "Axiome" || len(env.Warnings) != 0 {
			t.Errorf("Data = %+v, warnings %v", env.Data, env.Warnings)
		}
		d, _ := runtime.MCPMetaOf(env.Meta).Convention.(*mcpconv.DotbotInfo)
		if d == nil || d.ConventionName() != mcpconv.ConventionDotbot {
			t.Fatalf("Convention = %+v", runtime.MCPMetaOf(env.Meta).Convention)
		}
		if d.Tool != mcptest.ToolDotbot || d.Status != mcpconv.DotbotOK || d.Summary != "Axiome solution." ||
			d.Audit.DurationMS != 95 || d.Intent == nil || d.Intent.RecommendedNext != "solution.structure" {
			t.Errorf("dotbot info = %+v", d)
		}

		// A declared status that contradicts the errors: the computed one
		// wins, with a warning.
		mismatch := true
		env, err = c.DotbotSolutionInfo(ctx, mcpgen.DotbotSolutionInfoInput{Mismatch: &mismatch})
		if err != nil {
			t.Fatal(err)
		}
		d, _ = runtime.MCPMetaOf(env.Meta).Convention.(*mcpconv.DotbotInfo)
		if d == nil || d.Status != mcpconv.DotbotError || d.DeclaredStatus != mcpconv.DotbotOK || !mcpHasWarning(env.Warnings, "status") || env.Data.Solution.Name != "Axiome" {
			t.Errorf("mismatch: info %+v, warnings %v, data %+v", d, env.Warnings, env.Data)
		}
	})

	t.Run("unknown block type", func(t *testing.T) {
		env, err := c.FutureBlock(ctx)
		if err != nil {
			t.Fatal(err)
		}
		assertMCPVector(t, env, "mcp-unknown-block-mapped.json")
	})

	t.Run("drift", func(t *testing.T) {
		env, err := c.WeatherDrift(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// The wrong-typed temperature is left zero with a warning; the rest is kept.
		if !reflect.DeepEqual(env.Data, mcpgen.WeatherDriftOutput{Conditions: "Sunny", Humidity: 40}) || !mcpHasPointer(env.Warnings, "/temperature") {
			t.Errorf("Data = %+v, warnings %v", env.Data, env.Warnings)
		}
		// The meta keeps what was sent, the extra field included.
		if !mcpJSONEqual(t, runtime.MCPMetaOf(env.Meta).StructuredContent, []byte(mcptest.DriftJSON)) {
			t.Errorf("structuredContent = %s", runtime.MCPMetaOf(env.Meta).StructuredContent)
		}
		// Data is what normalization made of it: wind dropped.
		data, err := json.Marshal(env.Data)
		if err != nil || bytes.Contains(data, []byte("wind")) {
			t.Errorf("data %s, %v", data, err)
		}

		strict := mcpgen.NewClient(session, mcpQuiet, mcpgen.WithValidation(runtime.ValidateStrict))
		// Errors and warnings name the registry id, "mcpgen.weather.drift", not the tool.
		_, err = strict.WeatherDrift(ctx)
		var ce *runtime.CallError
		if !errors.Is(err, runtime.ErrValidation) || !errors.As(err, &ce) || ce.OperationID != "mcpgen."+mcptest.ToolDrift || !mcpHasPointer(ce.Issues, "/temperature") {
			t.Errorf("strict: %#v", err)
		}
		if env, err := strict.GetWeather(ctx, mcpgen.GetWeatherInput{}); err != nil || !reflect.DeepEqual(env.Data, weather) {
			t.Errorf("strict, no drift: %+v, %v", env.Data, err)
		}

		// Off is decode only, but a value the Go type cannot hold is
		// dropped with a warning, not a DECODE_ERROR (issue 11).
		off := mcpgen.NewClient(session, mcpQuiet, mcpgen.WithValidation(runtime.ValidateOff))
		if env, err := off.WeatherDrift(ctx); err != nil || !reflect.DeepEqual(env.Data, mcpgen.WeatherDriftOutput{Conditions: "Sunny", Humidity: 40}) || !mcpHasPointer(env.Warnings, "/temperature") {
			t.Errorf("off: %+v %v, %v", env.Data, env.Warnings, err)
		}
		if env, err := off.GetWeather(ctx, mcpgen.GetWeatherInput{}); err != nil || !reflect.DeepEqual(env.Data, weather) {
			t.Errorf("off, no drift: %+v, %v", env.Data, err)
		}
	})

	t.Run("warning hook", func(t *testing.T) {
		var hooked []runtime.Warning
		hc := mcpgen.NewClient(session, mcpQuiet, mcpgen.WithWarningHook(func(_ context.Context, w runtime.Warning) { hooked = append(hooked, w) }))
		env, err := hc.WeatherDrift(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(hooked) == 0 || !reflect.DeepEqual(hooked, env.Warnings) || hooked[0].OperationID != "mcpgen."+mcptest.ToolDrift {
			t.Errorf("hooked %v, envelope %v", hooked, env.Warnings)
		}
	})

	t.Run("cancel", func(t *testing.T) {
		tctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		defer cancel()
		// Without seconds, the tool runs until it is canceled.
		_, err := c.Slow(tctx, mcpgen.SlowInput{})
		var ce *runtime.CallError
		if !errors.Is(err, runtime.ErrTimeout) || !errors.As(err, &ce) || ce.OperationID != "mcpgen."+mcptest.ToolSlow {
			t.Errorf("deadline: %#v", err)
		}
		cctx, cancel := context.WithCancel(ctx)
		time.AfterFunc(50*time.Millisecond, cancel)
		if _, err := c.Slow(cctx, mcpgen.SlowInput{}); !errors.Is(err, runtime.ErrCanceled) {
			t.Errorf("cancel: %#v", err)
		}
		// The session still works.
		if env, err := c.Echo(ctx, mcpgen.EchoInput{Text: "after"}); err != nil || env.Data[0].Text != "after" {
			t.Errorf("after cancel: %+v, %v", env, err)
		}
	})

	t.Run("pagination", func(t *testing.T) {
		env, err := c.FillerTool11(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if text, _ := runtime.FirstText(env.Data); text != "filler.tool_11" {
			t.Errorf("Data = %+v", env.Data)
		}
	})

	t.Run("unknown tool", func(t *testing.T) {
		// What a stale client meets: a tool the server no longer has.
		_, err := mcpclient.Call[[]runtime.ContentBlock](ctx, mcpclient.New(session), &mcpclient.Tool{Name: "removed_tool"}, nil)
		var ce *runtime.CallError
		if !errors.Is(err, runtime.ErrOperationNotFound) || !errors.As(err, &ce) || ce.OperationID != "removed_tool" {
			t.Errorf("err = %#v", err)
		}
	})

	t.Run("registry", func(t *testing.T) {
		r := runtime.NewRegistry(nil)
		if err := c.Register(r); err != nil {
			t.Fatal(err)
		}
		env, err := runtime.ExecuteAs[mcpgen.GetWeatherOutput](ctx, r, "mcpgen.get_weather", map[string]any{"city": "Paris"})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(env.Data, weather) || runtime.MCPMetaOf(env.Meta) == nil || runtime.MCPMetaOf(env.Meta).Tool != mcptest.ToolWeather {
			t.Errorf("Execute = %+v", env)
		}
		if _, err := r.Execute(ctx, "mcpgen.echo", map[string]any{"text": 5}); !errors.Is(err, runtime.ErrValidation) {
			t.Errorf("bad input: %v", err)
		}
		if _, err := r.Execute(ctx, "mcpgen.removed_tool", nil); !errors.Is(err, runtime.ErrOperationNotFound) {
			t.Errorf("unknown id: %v", err)
		}
	})
}

// assertMCPVector checks that env's wire form is the test vector
// testdata/vectors/envelopes/name (as JSON values; the server identity
// some go-sdk transports add to _meta is ignored).
func assertMCPVector[T any](t *testing.T, env runtime.ResponseEnvelope[T], name string) {
	t.Helper()
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
	want, err := os.ReadFile(filepath.Join("../../testdata/vectors/envelopes", name))
	if err != nil {
		t.Fatal(err)
	}
	if !mcpJSONEqual(t, got, want) {
		t.Errorf("envelope differs from %s:\n got %s\nwant %s", name, got, want)
	}
}

func mcpJSONEqual(t *testing.T, got, want []byte) bool {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("not JSON: %v: %s", err, got)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("not JSON: %v: %s", err, want)
	}
	return reflect.DeepEqual(g, w)
}

func mcpHasWarning(ws []runtime.Warning, fragment string) bool {
	for _, w := range ws {
		if strings.Contains(w.Message, fragment) {
			return true
		}
	}
	return false
}

func mcpHasPointer(ws []runtime.Warning, pointer string) bool {
	for _, w := range ws {
		if w.Pointer == pointer {
			return true
		}
	}
	return false
}
