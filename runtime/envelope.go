package runtime

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
)

// Source names the transport that produced an envelope. It is the closed
// discriminant of the wire form's meta object ("meta.source").
type Source string

// The closed set of sources. opsgenimpl.IsResponseEnvelope recognises exactly these.
const (
	SourceLocal Source = "local"
	SourceHTTP  Source = "http"
	SourceMCP   Source = "mcp"
)

// Meta is the transport metadata of an envelope: one of *LocalMeta,
// *HTTPMeta or *MCPMeta. Switch on the concrete type, or on Source().
type Meta interface {
	// Source reports which transport produced the envelope.
	Source() Source
	isMeta()
}

// ResponseEnvelope is the result of every operation opsgen generates: the
// operation's Data, typed from its output schema, and the Meta of the
// transport that produced it.
//
// Its JSON form is the seeds' wire form, {"data": ..., "meta": {"source": ...}}.
// Warnings is not part of the wire form: it lists what the result pipeline
// noticed while normalizing and validating Data (see Pipeline).
type ResponseEnvelope[T any] struct {
	Data     T
	Meta     Meta
	Warnings []Warning
}

// LocalMeta is the metadata of an in-process operation.
type LocalMeta struct {
	// OperationID is the full "namespace.name" id of the operation.
	OperationID string `json:"operationId"`
	// Timestamp is when the result was wrapped, in Unix epoch milliseconds.
	Timestamp int64 `json:"timestamp"`
}

// HTTPMeta is the metadata of an HTTP response.
type HTTPMeta struct {
	StatusCode int `json:"statusCode"`
	// Headers holds the response headers with lower-case names; multiple
	// values of one header are joined with ", " (as the fetch Headers do).
	Headers     map[string]string `json:"headers"`
	ContentType string            `json:"contentType"`
	// EventType and LastEventID carry a server-sent event's "event" and "id"
	// fields for envelopes of text/event-stream operations (the seeds' open
	// SSEResponseMeta question, answered here with two optional fields).
	EventType   string `json:"eventType,omitempty"`
	LastEventID string `json:"lastEventId,omitempty"`
}

// MCPMeta is the metadata of an MCP tools/call result.
type MCPMeta struct {
	// IsError is the result's isError flag: the tool ran and reported an
	// error. It is a result, not a Go error.
	IsError bool `json:"isError"`
	// Content is the result's full content block list.
	Content []ContentBlock `json:"content"`
	// StructuredContent is the result's structuredContent, as sent.
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	// Meta is the result's _meta object.
	Meta map[string]any `json:"_meta,omitempty"`
	// Convention is what a recognised content convention (ToolEnvelope V1,
	// dotbot) said about the result, or nil. It is not part of the wire form.
	Convention Convention `json:"-"`
	// Tool is the name of the called tool, set by the caller (the result
	// does not name it); "" when unknown. It is not part of the wire form.
	Tool string `json:"-"`
}

// Source implements Meta.
func (*LocalMeta) Source() Source { return SourceLocal }

// Source implements Meta.
func (*HTTPMeta) Source() Source { return SourceHTTP }

// Source implements Meta.
func (*MCPMeta) Source() Source { return SourceMCP }

func (*LocalMeta) isMeta() {}
func (*HTTPMeta) isMeta()  {}
func (*MCPMeta) isMeta()   {}

// now is the clock of local; tests replace it.
var now = time.Now

// local wraps the result of an in-process operation, timestamped now
// (opsgenimpl.Local for transports).
func local[T any](data T, operationID string) ResponseEnvelope[T] {
	return ResponseEnvelope[T]{Data: data, Meta: &LocalMeta{OperationID: operationID, Timestamp: now().UnixMilli()}}
}

// SourceOf reports the source of an envelope's meta, or "" when it is nil:
// runtime.SourceOf(env.Meta).
func SourceOf(m Meta) Source {
	if isNil(m) {
		return ""
	}
	return m.Source()
}

// HTTPMetaOf returns an envelope's meta when it came from HTTP, else nil:
// runtime.HTTPMetaOf(env.Meta).StatusCode.
func HTTPMetaOf(m Meta) *HTTPMeta { h, _ := m.(*HTTPMeta); return h }

// MCPMetaOf returns an envelope's meta when it came from MCP, else nil.
func MCPMetaOf(m Meta) *MCPMeta { c, _ := m.(*MCPMeta); return c }

// LocalMetaOf returns an envelope's meta when it came from a local
// operation, else nil.
func LocalMetaOf(m Meta) *LocalMeta { l, _ := m.(*LocalMeta); return l }

// Unwrap returns the envelope's data, for callers that do not need its meta.
func Unwrap[T any](env ResponseEnvelope[T]) T { return env.Data }

// MarshalJSON writes the wire form: {"data": ..., "meta": {"source": ..., ...}}.
// It is not inlined: the compiler writes a wrapper of it for every
// envelope type of a generated package, which would each get its body.
//
//go:noinline
func (e ResponseEnvelope[T]) MarshalJSON() ([]byte, error) {
	return marshalEnvelope(e.Data, e.Meta)
}

// UnmarshalJSON reads the wire form. The meta variant is chosen by
// meta.source; a missing data or meta, or a source outside the closed set,
// is an error.
func (e *ResponseEnvelope[T]) UnmarshalJSON(b []byte) error {
	var data T
	meta, err := unmarshalEnvelope(b, &data)
	if err != nil {
		return err
	}
	e.Data, e.Meta, e.Warnings = data, meta, nil
	return nil
}

// marshalEnvelope and unmarshalEnvelope do the work of the methods above,
// compiled once rather than for every T.
func marshalEnvelope(v any, m Meta) ([]byte, error) {
	if m == nil {
		return nil, fmt.Errorf("opsgen: envelope has no meta")
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	meta, err := marshalMeta(m)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Grow(len(data) + len(meta) + 20)
	b.WriteString(`{"data":`)
	b.Write(data)
	b.WriteString(`,"meta":`)
	b.Write(meta)
	b.WriteByte('}')
	return b.Bytes(), nil
}

// unmarshalEnvelope decodes the wire form's data into out (a pointer) and
// returns its meta. The keys "data", "meta" and "source" are matched exactly,
// as opsgenimpl.IsResponseEnvelope (and JavaScript) match them, not case-insensitively
// as encoding/json matches struct fields.
func unmarshalEnvelope(b []byte, out any) (Meta, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, err
	}
	data, ok := raw["data"]
	if !ok {
		return nil, fmt.Errorf("opsgen: envelope has no data")
	}
	meta, err := unmarshalMeta(raw["meta"])
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, out); err != nil {
		return nil, fmt.Errorf("opsgen: envelope data: %w", err)
	}
	return meta, nil
}

func marshalMeta(m Meta) ([]byte, error) {
	switch m := m.(type) {
	case *LocalMeta:
		return json.Marshal(struct {
			Source Source `json:"source"`
			*LocalMeta
		}{SourceLocal, m})
	case *HTTPMeta:
		h := *m
		if h.Headers == nil {
			h.Headers = map[string]string{}
		}
		return json.Marshal(struct {
			Source Source `json:"source"`
			*HTTPMeta
		}{SourceHTTP, &h})
	case *MCPMeta:
		c := *m
		if c.Content == nil {
			c.Content = []ContentBlock{}
		}
		return json.Marshal(struct {
			Source Source `json:"source"`
			*MCPMeta
		}{SourceMCP, &c})
	}
	return nil, fmt.Errorf("opsgen: unknown meta type %T", m)
}

func unmarshalMeta(b json.RawMessage) (Meta, error) {
	if len(b) == 0 || bytes.Equal(b, []byte("null")) {
		return nil, fmt.Errorf("opsgen: envelope has no meta")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return nil, fmt.Errorf("opsgen: envelope meta: %w", err)
	}
	var source string
	if raw, ok := fields["source"]; !ok || json.Unmarshal(raw, &source) != nil {
		return nil, fmt.Errorf("opsgen: envelope meta has no source string")
	}
	var m Meta
	switch Source(source) {
	case SourceLocal:
		m = &LocalMeta{}
	case SourceHTTP:
		m = &HTTPMeta{}
	case SourceMCP:
		m = &MCPMeta{}
	default:
		return nil, fmt.Errorf("opsgen: envelope meta source %q is not one of local, http, mcp", source)
	}
	if err := json.Unmarshal(b, m); err != nil {
		return nil, fmt.Errorf("opsgen: envelope meta (%s): %w", source, err)
	}
	return m, nil
}

// isResponseEnvelope is opsgenimpl.IsResponseEnvelope.
func isResponseEnvelope(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case map[string]any:
		return isEnvelopeMap(v)
	case json.RawMessage:
		return isEnvelopeJSON(v)
	case []byte:
		return isEnvelopeJSON(v)
	case string:
		return isEnvelopeJSON([]byte(v))
	}
	_, ok := asEnvelope(v)
	return ok
}

// The envelope's method set is kept to the wire form (MarshalJSON,
// UnmarshalJSON): every method of a generic type is compiled once per
// result type of a generated package, and a large API has thousands.
// Detection of typed envelopes therefore goes through reflection, once per
// detected value, instead of an interface every instantiation implements.

// envelopeTypeName is the name of every ResponseEnvelope instantiation up
// to its type argument.
const envelopeTypeName = "ResponseEnvelope["

// asEnvelope returns v as an untyped envelope when it is a ResponseEnvelope
// of any type, or a non-nil pointer to one, with a non-nil meta.
func asEnvelope(v any) (ResponseEnvelope[any], bool) {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if !rv.IsValid() || rv.Kind() != reflect.Struct || rv.Type().PkgPath() != envelopePkg ||
		!strings.HasPrefix(rv.Type().Name(), envelopeTypeName) {
		return ResponseEnvelope[any]{}, false
	}
	meta, _ := rv.Field(1).Interface().(Meta)
	if isNil(meta) {
		return ResponseEnvelope[any]{}, false
	}
	warnings, _ := rv.Field(2).Interface().([]Warning)
	return ResponseEnvelope[any]{Data: rv.Field(0).Interface(), Meta: meta, Warnings: warnings}, true
}

var envelopePkg = reflect.TypeFor[ResponseEnvelope[any]]().PkgPath()

// isNil reports whether v is nil or a nil pointer in an interface.
func isNil(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

func isEnvelopeMap(m map[string]any) bool {
	if _, ok := m["data"]; !ok {
		return false
	}
	meta, ok := m["meta"].(map[string]any)
	if !ok {
		return false
	}
	src, ok := meta["source"].(string)
	return ok && knownSource(src)
}

func isEnvelopeJSON(b []byte) bool {
	var raw map[string]json.RawMessage
	if json.Unmarshal(b, &raw) != nil || raw == nil {
		return false
	}
	if _, ok := raw["data"]; !ok {
		return false
	}
	// A map, not a struct: encoding/json matches struct fields without
	// regard to case, and detection wants "source" exactly.
	var meta map[string]json.RawMessage
	mb, ok := raw["meta"]
	if !ok || len(mb) == 0 || mb[0] != '{' || json.Unmarshal(mb, &meta) != nil {
		return false
	}
	var src string
	return json.Unmarshal(meta["source"], &src) == nil && knownSource(src)
}

func knownSource(s string) bool {
	switch Source(s) {
	case SourceLocal, SourceHTTP, SourceMCP:
		return true
	}
	return false
}
