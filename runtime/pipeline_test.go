package runtime_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

type ctxKey struct{}

func TestWarningsAreReported(t *testing.T) {
	var logs bytes.Buffer
	var seen []runtime.Warning
	var seenCtx []any
	p := &runtime.Pipeline{
		Logger: slog.New(slog.NewJSONHandler(&logs, nil)),
		OnWarning: func(ctx context.Context, w runtime.Warning) {
			seen = append(seen, w)
			seenCtx = append(seenCtx, ctx.Value(ctxKey{}))
		},
	}
	ctx := context.WithValue(context.Background(), ctxKey{}, "req-1")
	var out pet
	ws, err := opsgenimpl.Decode(ctx, p, "pets.get", opsgenimpl.NewSchema(petSchema), []byte(`{"id":1,"name":"rex","tags":[1]}`), &out)
	if err != nil {
		t.Fatal(err)
	}
	want := []runtime.Warning{{OperationID: "pets.get", Pointer: "/tags/0", Message: "expected string, got integer"}}
	if !reflect.DeepEqual(ws, want) || !reflect.DeepEqual(seen, want) {
		t.Errorf("returned %+v, OnWarning got %+v, want %+v", ws, seen, want)
	}
	if len(seenCtx) != 1 || seenCtx[0] != "req-1" {
		t.Errorf("OnWarning context values %v", seenCtx)
	}
	var rec map[string]any
	if err := json.Unmarshal(logs.Bytes(), &rec); err != nil {
		t.Fatalf("log %q: %v", logs.String(), err)
	}
	if rec["level"] != "WARN" || rec["operation"] != "pets.get" || rec["pointer"] != "/tags/0" || rec["message"] != "expected string, got integer" {
		t.Errorf("log record %v", rec)
	}

	// Report is the same path, for warnings of the transports.
	logs.Reset()
	seen = nil
	p.Report(ctx, []runtime.Warning{{OperationID: "ev.stream", Message: "malformed SSE frame skipped"}})
	if len(seen) != 1 || !strings.Contains(logs.String(), "malformed SSE frame skipped") {
		t.Errorf("Report: seen %v, logs %q", seen, logs.String())
	}
	var nilPipeline *runtime.Pipeline
	nilPipeline.Report(ctx, nil) // must not panic
}

func TestDecodeReader(t *testing.T) {
	schema := opsgenimpl.NewSchema(petSchema)
	ctx := context.Background()
	for _, mode := range []runtime.ValidationMode{runtime.ValidateWarn, runtime.ValidateStrict, runtime.ValidateOff} {
		t.Run(mode.String(), func(t *testing.T) {
			p := &runtime.Pipeline{Mode: mode, Logger: discardLogger()}
			var out pet
			// OneByteReader: the decoder must cope with short reads.
			_, err := opsgenimpl.DecodeReader(ctx, p, "pets.get", schema, iotest.OneByteReader(strings.NewReader(`{"id":3,"name":"rex"} `)), &out)
			if err != nil || out.ID != 3 || out.Name != "rex" {
				t.Fatalf("%+v %v", out, err)
			}
			wantStatus := "available"
			if mode == runtime.ValidateOff {
				wantStatus = "" // no normalization
			}
			if out.Status != wantStatus {
				t.Errorf("status %q, want %q", out.Status, wantStatus)
			}

			_, err = opsgenimpl.DecodeReader(ctx, p, "pets.get", schema, strings.NewReader(`{"id":3,`), &out)
			if !errors.Is(err, runtime.ErrDecode) {
				t.Errorf("truncated body: %v", err)
			}
			_, err = opsgenimpl.DecodeReader(ctx, p, "pets.get", schema, strings.NewReader(`{"id":3} {}`), &out)
			if !errors.Is(err, runtime.ErrDecode) {
				t.Errorf("two values: %v", err)
			}
			_, err = opsgenimpl.DecodeReader(ctx, p, "pets.get", schema, strings.NewReader(``), &out)
			if !errors.Is(err, runtime.ErrDecode) {
				t.Errorf("empty body: %v", err)
			}
			broken := io.MultiReader(strings.NewReader(`{"id":`), iotest.ErrReader(errors.New("connection reset")))
			_, err = opsgenimpl.DecodeReader(ctx, p, "pets.get", schema, broken, &out)
			if !errors.Is(err, runtime.ErrTransport) || !strings.Contains(err.Error(), "connection reset") {
				t.Errorf("failing reader: %v", err)
			}
		})
	}
}

// TestDecodeReaderPipe: in off mode too the body is read to its end (a
// value that does not fit the Go type can only be repaired from the
// bytes), from a reader that delivers it in pieces.
func TestDecodeReaderPipe(t *testing.T) {
	pr, pw := io.Pipe()
	go func() {
		pw.Write([]byte(`{"id":9,"name":"rex"}`))
		pw.CloseWithError(io.EOF)
	}()
	var out pet
	if _, err := opsgenimpl.DecodeReader(context.Background(), &runtime.Pipeline{Mode: runtime.ValidateOff}, "pets.get", opsgenimpl.NewSchema(petSchema), pr, &out); err != nil || out.ID != 9 {
		t.Fatalf("%+v %v", out, err)
	}
}

func TestProcessWrapsRawValues(t *testing.T) {
	schema := opsgenimpl.NewSchema(petSchema)
	ctx := context.Background()

	// A struct keeps its type; normalization fills the default.
	env, err := opsgenimpl.Process(ctx, quiet, "pets.get", schema, pet{ID: 1, Name: "rex"})
	if err != nil {
		t.Fatal(err)
	}
	got, ok := env.Data.(pet)
	if !ok || got.Status != "available" || got.Name != "rex" {
		t.Errorf("data %#v", env.Data)
	}
	if m := runtime.LocalMetaOf(env.Meta); m == nil || m.OperationID != "pets.get" || m.Timestamp == 0 {
		t.Errorf("meta %+v", env.Meta)
	}

	// A map loses undeclared members and wrong-typed ones, with a warning.
	env, err = opsgenimpl.Process(ctx, quiet, "pets.get", schema, map[string]any{"id": 1, "name": 2, "extra": true})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(env.Data, map[string]any{"id": 1.0, "status": "available"}) {
		t.Errorf("data %#v", env.Data)
	}
	if len(env.Warnings) != 1 || env.Warnings[0].Pointer != "/name" {
		t.Errorf("warnings %+v", env.Warnings)
	}

	// Conforming raw JSON is left as it is.
	raw := json.RawMessage(`{"id":1,"name":"rex","status":"sold"}`)
	env, err = opsgenimpl.Process(ctx, quiet, "pets.get", schema, raw)
	if err != nil || string(env.Data.(json.RawMessage)) != string(raw) || env.Warnings != nil {
		t.Errorf("raw: %s %v %v", env.Data, env.Warnings, err)
	}

	// No schema: wrapped only.
	env, err = opsgenimpl.Process(ctx, quiet, "math.answer", nil, 42)
	if err != nil || env.Data != 42 || runtime.SourceOf(env.Meta) != runtime.SourceLocal {
		t.Errorf("no schema: %+v %v", env, err)
	}
	// A void result.
	env, err = opsgenimpl.Process(ctx, quiet, "pets.delete", nil, nil)
	if err != nil || env.Data != nil || runtime.LocalMetaOf(env.Meta).OperationID != "pets.delete" {
		t.Errorf("void: %+v %v", env, err)
	}
}

func TestProcessPassesEnvelopesThrough(t *testing.T) {
	schema := opsgenimpl.NewSchema(petSchema)
	ctx := context.Background()
	httpEnv := opsgenimpl.HTTP(pet{ID: 7, Name: "rex", Status: "sold"}, runtime.HTTPMeta{StatusCode: 200, ContentType: "application/json"})

	for name, result := range map[string]any{
		"typed envelope":   httpEnv,
		"pointer":          &httpEnv,
		"map":              decodeAny(t, mustMarshal(t, httpEnv)),
		"json.RawMessage":  json.RawMessage(mustMarshal(t, httpEnv)),
		"[]byte":           mustMarshal(t, httpEnv),
		"string":           string(mustMarshal(t, httpEnv)),
		"untyped envelope": runtime.ResponseEnvelope[any]{Data: httpEnv.Data, Meta: httpEnv.Meta},
		"map envelope":     decodeAny(t, []byte(`{"data":{"id":7,"name":"rex","status":"sold","x":1},"meta":{"source":"http","statusCode":200,"headers":{},"contentType":"application/json"}}`)),
	} {
		env, err := opsgenimpl.Process(ctx, quiet, "pets.get", schema, result)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if m := runtime.HTTPMetaOf(env.Meta); m == nil || m.StatusCode != 200 {
			t.Errorf("%s: meta %+v, want the HTTP meta kept", name, env.Meta)
		}
		b, _ := json.Marshal(env.Data)
		if string(b) != `{"id":7,"name":"rex","status":"sold"}` {
			t.Errorf("%s: data %s", name, b)
		}
		if len(env.Warnings) != 0 {
			t.Errorf("%s: warnings %v", name, env.Warnings)
		}
	}

	// A transport's typed envelope went through the pipeline in its
	// transport: it is not checked again, so its data stays as it is...
	typed := opsgenimpl.HTTP(map[string]any{"id": 7, "name": "rex", "x": 1}, runtime.HTTPMeta{StatusCode: 200})
	env, err := opsgenimpl.Process(ctx, quiet, "pets.get", schema, typed)
	if b, _ := json.Marshal(env.Data); err != nil || string(b) != `{"id":7,"name":"rex","x":1}` || len(env.Warnings) != 0 {
		t.Errorf("typed HTTP envelope: %s %v %v", b, env.Warnings, err)
	}
	// ...while its wire form, whose data is what the server sent, is.
	env, err = opsgenimpl.Process(ctx, quiet, "pets.get", schema, mustMarshal(t, typed))
	if b, _ := json.Marshal(env.Data); err != nil || string(b) != `{"id":7,"name":"rex","status":"available"}` {
		t.Errorf("wire form of an HTTP envelope: %s %v %v", b, env.Warnings, err)
	}
}

func TestProcessMCPIsErrorSkipsValidation(t *testing.T) {
	blocks := []runtime.ContentBlock{runtime.TextBlock("boom")}
	env, err := opsgenimpl.Process(context.Background(), quiet, "fs.read", opsgenimpl.NewSchema(petSchema),
		opsgenimpl.MCP[any](blocks, runtime.MCPMeta{IsError: true, Content: blocks}))
	if err != nil || len(env.Warnings) != 0 || !reflect.DeepEqual(env.Data, blocks) {
		t.Errorf("%+v %v", env, err)
	}
	// Without isError the same data is checked (in the wire form: a typed
	// MCP envelope is an mcpclient result, which its client checked).
	env, err = opsgenimpl.Process(context.Background(), quiet, "fs.read", opsgenimpl.NewSchema(petSchema),
		mustMarshal(t, opsgenimpl.MCP[any](blocks, runtime.MCPMeta{Content: blocks})))
	if err != nil || len(env.Warnings) != 1 {
		t.Errorf("%+v %v", env, err)
	}
	env, err = opsgenimpl.Process(context.Background(), quiet, "fs.read", opsgenimpl.NewSchema(petSchema),
		mustMarshal(t, opsgenimpl.MCP[any](blocks, runtime.MCPMeta{IsError: true, Content: blocks})))
	if err != nil || len(env.Warnings) != 0 {
		t.Errorf("wire form with isError: %+v %v", env, err)
	}
}

func TestProcessDoesNotRepeatWarnings(t *testing.T) {
	var reported int
	p := &runtime.Pipeline{Logger: discardLogger(), OnWarning: func(context.Context, runtime.Warning) { reported++ }}
	schema := opsgenimpl.NewSchema(petSchema)
	env, err := opsgenimpl.Process(context.Background(), p, "pets.get", schema, map[string]any{"id": 1, "name": "a", "status": "lost"})
	if err != nil || len(env.Warnings) != 1 || reported != 1 {
		t.Fatalf("%+v %v reported %d", env, err, reported)
	}
	// The envelope goes through the pipeline again (a registered remote
	// operation does this): the same warning is neither added nor reported.
	again, err := opsgenimpl.Process(context.Background(), p, "pets.get", schema, env)
	if err != nil || len(again.Warnings) != 1 || reported != 1 {
		t.Errorf("%+v %v reported %d", again, err, reported)
	}
}

func TestProcessStrictAndOff(t *testing.T) {
	schema := opsgenimpl.NewSchema(petSchema)
	bad := map[string]any{"id": "x", "name": "a"}
	_, err := opsgenimpl.Process(context.Background(), &runtime.Pipeline{Mode: runtime.ValidateStrict}, "pets.get", schema, bad)
	var ce *runtime.CallError
	if !errors.As(err, &ce) || ce.Code != runtime.CodeValidation || len(ce.Issues) != 1 || ce.Issues[0].Pointer != "/id" {
		t.Errorf("strict: %v", err)
	}
	env, err := opsgenimpl.Process(context.Background(), &runtime.Pipeline{Mode: runtime.ValidateOff}, "pets.get", schema, bad)
	if err != nil || !reflect.DeepEqual(env.Data, bad) {
		t.Errorf("off: %+v %v", env, err)
	}
}

func TestProcessAs(t *testing.T) {
	ctx := context.Background()
	schema := opsgenimpl.NewSchema(petSchema)
	env, err := opsgenimpl.ProcessAs[pet](ctx, quiet, "pets.get", schema, map[string]any{"id": 3, "name": "rex", "junk": 1})
	if err != nil || env.Data.ID != 3 || env.Data.Status != "available" || runtime.LocalMetaOf(env.Meta) == nil {
		t.Errorf("%+v %v", env, err)
	}
	env, err = opsgenimpl.ProcessAs[pet](ctx, quiet, "pets.get", nil, pet{ID: 4})
	if err != nil || env.Data.ID != 4 {
		t.Errorf("%+v %v", env, err)
	}
	// Data that does not fit T is dropped with a warning: it is JSON.
	env, err = opsgenimpl.ProcessAs[pet](ctx, quiet, "pets.get", nil, []int{1})
	if err != nil || env.Data.ID != 0 || len(env.Warnings) != 1 || env.Warnings[0].Message != "value [1] does not fit Go type runtime_test.pet: dropped" || env.Warnings[0].OperationID != "pets.get" {
		t.Errorf("data that does not fit: %+v %v", env, err)
	}
	_, err = opsgenimpl.ProcessAs[pet](ctx, &runtime.Pipeline{Mode: runtime.ValidateStrict}, "pets.get", nil, []int{1})
	if !errors.Is(err, runtime.ErrValidation) {
		t.Errorf("data that does not fit, strict: %v", err)
	}
	// A malformed envelope string is not an envelope: it is data.
	s, err := opsgenimpl.ProcessAs[string](ctx, quiet, "x.y", nil, `{"data":1,"meta":{"source":"ftp"}}`)
	if err != nil || s.Data != `{"data":1,"meta":{"source":"ftp"}}` || runtime.SourceOf(s.Meta) != runtime.SourceLocal {
		t.Errorf("%+v %v", s, err)
	}
	// An envelope whose meta does not fit its source is an error.
	_, err = opsgenimpl.Process(ctx, quiet, "x.y", nil, `{"data":1,"meta":{"source":"http","statusCode":"x"}}`)
	if !errors.Is(err, runtime.ErrDecode) {
		t.Errorf("bad envelope: %v", err)
	}
}

func mustMarshal(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestConcurrentFirstUse: schemas of one set compile on first use from
// many goroutines at once (run with -race).
func TestConcurrentFirstUse(t *testing.T) {
	set := opsgenimpl.NewSchemaSet(`{"$defs": {
		"Pet": {"type": "object", "properties": {"name": {"type": "string"}, "owner": {"$ref": "#/$defs/Person"}}},
		"Person": {"type": "object", "properties": {"name": {"type": "string"}, "pets": {"type": "array", "items": {"$ref": "#/$defs/Pet"}}}}
	}}`)
	schemas := []*opsgenimpl.Schema{set.Ref(`{"$ref":"#/$defs/Pet"}`), set.Ref(`{"$ref":"#/$defs/Person"}`), set.Ref(`{"type":"array","items":{"$ref":"#/$defs/Pet"}}`)}
	bodies := []string{`{"name":"rex","owner":{"name":"ann","x":1}}`, `{"name":"ann","pets":[{"name":1}]}`, `[{"name":"a"},{"owner":{}}]`}
	want := []string{`{"name":"rex","owner":{"name":"ann"}}`, `{"name":"ann","pets":[{}]}`, `[{"name":"a"},{"owner":{}}]`}
	done := make(chan string, 30)
	for i := range 30 {
		go func() {
			var out any
			_, err := opsgenimpl.Decode(context.Background(), quiet, "test.op", schemas[i%3], []byte(bodies[i%3]), &out)
			b, _ := json.Marshal(out)
			if err != nil || string(b) != want[i%3] {
				done <- fmt.Sprintf("schema %d: %s %v", i%3, b, err)
				return
			}
			done <- ""
		}()
	}
	for range 30 {
		if msg := <-done; msg != "" {
			t.Error(msg)
		}
	}
}
