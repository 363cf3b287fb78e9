package openapi_test

import (
	"context"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/openapi"
)

// TestStreamItems: the item type of each stream media type, as OpenAPI 3.2
// describes it (itemSchema) and as earlier documents wrote it (schema).
func TestStreamItems(t *testing.T) {
	spec := `openapi: 3.2.0
info: {title: t, version: "1"}
paths:
  /sse-json:
    get:
      operationId: sseJSON
      responses:
        "200":
          description: events
          content:
            text/event-stream:
              itemSchema:
                $ref: "#/components/schemas/Event"
  /sse-text:
    get:
      operationId: sseText
      responses:
        "200":
          description: events
          content:
            text/event-stream:
              itemSchema:
                type: object
                properties:
                  event: {type: string}
                  data: {type: string}
  /sse-object:
    get:
      operationId: sseObject
      responses:
        "200":
          description: events whose data property is the payload's schema
          content:
            text/event-stream:
              itemSchema:
                type: object
                properties:
                  data: {$ref: "#/components/schemas/Payload"}
  /sse-any:
    get:
      operationId: sseAny
      responses:
        "200":
          description: JSON data of any shape
          content:
            text/event-stream:
              itemSchema:
                type: object
                properties:
                  data: {type: string, contentMediaType: application/json}
  /sse-nodata:
    get:
      operationId: sseNoData
      responses:
        "200":
          description: an itemSchema written as the data's schema
          content:
            text/event-stream:
              itemSchema:
                $ref: "#/components/schemas/Payload"
  /sse-raw:
    get:
      operationId: sseRaw
      responses:
        "200":
          description: events
          content:
            text/event-stream: {}
  /jsonl:
    get:
      operationId: jsonl
      responses:
        "200":
          description: lines
          content:
            application/jsonl:
              itemSchema: {$ref: "#/components/schemas/Payload"}
  /ndjson:
    get:
      operationId: ndjson
      responses:
        "200":
          description: lines, as documents before 3.2 wrote them
          content:
            application/x-ndjson:
              schema: {$ref: "#/components/schemas/Payload"}
  /seq:
    get:
      operationId: seq
      responses:
        "200":
          description: a sequence described as an array of its items
          content:
            application/json-seq:
              schema:
                type: array
                items: {type: object, properties: {n: {type: integer}}}
  /upload:
    post:
      operationId: upload
      requestBody:
        content:
          application/jsonl:
            itemSchema: {$ref: "#/components/schemas/Payload"}
      responses:
        "204": {description: done}
  /import:
    post:
      operationId: importForm
      requestBody:
        content:
          application/jsonl:
            itemSchema: {$ref: "#/components/schemas/Payload"}
          application/x-www-form-urlencoded:
            schema: {type: object, properties: {url: {type: string}}}
      responses:
        "204": {description: done}
components:
  schemas:
    Event:
      type: object
      required: [data]
      properties:
        id: {type: string}
        data:
          type: string
          contentMediaType: application/json
          contentSchema: {$ref: "#/components/schemas/Payload"}
    Payload:
      type: object
      properties:
        message: {type: string}
`
	svc, diags, err := openapi.LoadData(context.Background(), []byte(spec), "streams.yaml", openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		id, kind, typ string
		bodyKind      ir.BodyKind
		schema        string // a part of the output schema; "" for none
	}{
		{"sseJSON", "stream", "Payload", ir.BodyEventStream, "Payload"},
		{"sseText", "stream", "string", ir.BodyEventStream, ""},
		{"sseObject", "stream", "Payload", ir.BodyEventStream, "Payload"},
		{"sseAny", "stream", "any", ir.BodyEventStream, ""},
		{"sseNoData", "stream", "Payload", ir.BodyEventStream, "Payload"},
		{"sseRaw", "stream", "any", ir.BodyEventStream, ""},
		{"jsonl", "stream", "Payload", ir.BodyJSONSeq, "Payload"},
		{"ndjson", "stream", "Payload", ir.BodyJSONSeq, "Payload"},
		{"seq", "stream", "SeqResponse", ir.BodyJSONSeq, "SeqResponse"},
	} {
		o := op(t, svc, c.id)
		if !o.Stream || o.Result.Kind != c.bodyKind || ts(o.Result.Type) != c.typ {
			t.Errorf("%s: stream=%v kind=%v type=%s; want %s of %s", c.id, o.Stream, o.Result.Kind, ts(o.Result.Type), c.typ, c.kind)
		}
		if (c.schema == "") != (o.OutputSchema == nil) || !strings.Contains(o.OutputSchema.String(), c.schema) {
			t.Errorf("%s: output schema %s, want one with %s", c.id, o.OutputSchema, c.schema)
		}
	}
	if b := op(t, svc, "upload").Body; b == nil || b.Kind != ir.BodyBinary || b.MediaType != "application/jsonl" {
		t.Errorf("upload body: %+v", b)
	}
	if b := op(t, svc, "importForm").Body; b == nil || b.Kind != ir.BodyForm {
		t.Errorf("a body that is a JSON sequence or a form is sent as the form: %+v", b)
	}
	if len(diags) != 1 || !hasDiag(diags, "streams.yaml", 59, "/paths/~1sse-nodata/get/responses/200/content/text~1event-stream/itemSchema", "has no data property") {
		t.Errorf("diags: %v", diags)
	}
}

// TestOpenAPI32Methods: the QUERY method and additionalOperations become
// operations with their methods.
func TestOpenAPI32Methods(t *testing.T) {
	spec := `openapi: 3.2.0
info: {title: t, version: "1"}
paths:
  /search:
    query:
      operationId: search
      requestBody:
        content:
          application/json:
            schema: {type: object, properties: {q: {type: string}}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: array, items: {type: string}}
    additionalOperations:
      PURGE:
        operationId: purge
        responses:
          "204": {description: done}
      xLock:
        operationId: lock
        responses:
          "204": {description: locked}
`
	svc, diags, err := openapi.LoadData(context.Background(), []byte(spec), "m.yaml", openapi.Options{})
	if err != nil || len(diags) != 0 {
		t.Fatalf("err=%v diags=%v", err, diags)
	}
	if s := op(t, svc, "search"); s.Method != "QUERY" || s.Path != "/search" || s.Body == nil || ts(s.Result.Type) != "array[string]" {
		t.Errorf("search: %s %s body %v result %s", s.Method, s.Path, s.Body, ts(s.Result.Type))
	}
	if p := op(t, svc, "purge"); p.Method != "PURGE" || p.Pos.Pointer != "/paths/~1search/additionalOperations/PURGE" || p.Pos.Line != 18 {
		t.Errorf("purge: %s at %s", p.Method, p.Pos)
	}
	if p := op(t, svc, "lock"); p.Method != "xLock" || p.Pos.Pointer != "/paths/~1search/additionalOperations/xLock" {
		t.Errorf("lock: %s at %s", p.Method, p.Pos)
	}
}

// TestOpenAPI32Unread: what the loader does not read of OpenAPI 3.2, and a
// later version, is reported where it is.
func TestOpenAPI32Unread(t *testing.T) {
	spec := `openapi: 3.3.0
info: {title: t, version: "1"}
paths:
  /a:
    get:
      operationId: a
      parameters:
        - name: qs
          in: querystring
          content:
            application/x-www-form-urlencoded:
              schema: {type: object}
      responses:
        "200":
          description: ok
          content:
            application/jsonl:
              $ref: "#/components/mediaTypes/Lines"
  /b:
    get:
      operationId: b
      responses:
        "200":
          description: ok
          content:
            multipart/mixed:
              itemSchema: {type: string}
              prefixEncoding:
                - contentType: text/plain
`
	_, diags, err := openapi.LoadData(context.Background(), []byte(spec), "u.yaml", openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct {
		line     int
		ptr, msg string
	}{
		{1, "/openapi", "OpenAPI 3.3.0 is newer than the versions opsgen reads"},
		{8, "/paths/~1a/get/parameters/0", `parameter "qs" is in "querystring"`},
		{17, "/paths/~1a/get/responses/200/content/application~1jsonl", `is a $ref to "#/components/mediaTypes/Lines"`},
		{26, "/paths/~1b/get/responses/200/content/multipart~1mixed", `itemSchema of "multipart/mixed" is left out`},
		{26, "/paths/~1b/get/responses/200/content/multipart~1mixed", `prefixEncoding of "multipart/mixed"`},
	} {
		if !hasDiag(diags, "u.yaml", want.line, want.ptr, want.msg) {
			t.Errorf("no warning at line %d %s: %s; got %v", want.line, want.ptr, want.msg, diags)
		}
	}
	if len(diags) != 5 {
		t.Errorf("%d warnings: %v", len(diags), diags)
	}
}
