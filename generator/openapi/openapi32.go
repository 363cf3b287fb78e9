package openapi

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
)

// What OpenAPI 3.2 adds, as far as the loader reads it: the QUERY method
// and additionalOperations (kin-openapi's PathItem.Operations has them),
// itemSchema for streams (streamItem). What it does not read is reported
// where it is (unread32).

// streamItem returns the schema of one item of a stream media type m, and
// where it is (sw: the media type's schema): its itemSchema (OpenAPI 3.2),
// else the items of an array schema (3.2 reads a sequence's schema as an
// array of its items), else the schema itself (what documents before 3.2
// wrote).
//
// An event stream's itemSchema describes the whole event, of which only
// data is decoded (event and id are on the envelope's meta): the item is
// its data property's contentSchema (the JSON inside the data string, as
// contentMediaType application/json says), or its schema when it is not a
// string; text says the data is plain text (a string without
// contentSchema). An itemSchema without a data property is taken, with a
// warning, as the schema of the data, as before 3.2.
func (l *loader) streamItem(kind ir.BodyKind, m *openapi3.MediaType, sw where) (ref *openapi3.SchemaRef, w where, text bool) {
	mw := where{file: sw.file, ptr: strings.TrimSuffix(sw.ptr, "/schema"), name: sw.name}
	if m.ItemSchema == nil {
		if kind == ir.BodyJSONSeq && m.Schema != nil && m.Schema.Value != nil && m.Schema.Value.Type.Is("array") && m.Schema.Value.Items != nil {
			return m.Schema.Value.Items, sw.at("items", sw.name), false
		}
		return m.Schema, sw, false
	}
	ref, w = m.ItemSchema, mw.at("itemSchema", sw.name)
	if kind != ir.BodyEventStream || ref.Value == nil {
		return ref, w, false
	}
	data := ref.Value.Properties["data"]
	if data == nil || data.Value == nil {
		l.diags.Warn(diag.Other, l.pos(w, nil), "the itemSchema of a text/event-stream has no data property (OpenAPI 3.2 describes the whole event: data, event, id, retry); taking it as the schema of each event's data")
		return ref, w, false
	}
	if ref.Ref != "" && strings.HasPrefix(ref.Ref, "#") {
		w = where{file: l.name, ptr: ref.Ref[1:], name: w.name}
	}
	w = w.at("properties", "").at("data", w.name)
	switch d := data.Value; {
	case d.ContentSchema != nil:
		return d.ContentSchema, w.at("contentSchema", w.name), false
	case d.ContentMediaType != "" && isJSONMedia(d.ContentMediaType):
		return nil, w, false // JSON of any shape
	case d.Type.Is("string") || d.Type == nil && len(d.OneOf)+len(d.AnyOf)+len(d.AllOf)+len(d.Properties) == 0 && d.Items == nil:
		return nil, w, true
	}
	return data, w, false
}

// isJSONMedia reports whether mt is JSON: application/json or a +json type.
func isJSONMedia(mt string) bool {
	return mediaRank(mt) <= 1
}

// checkVersion warns when the document's OpenAPI version is newer than
// 3.2, the last one the loader knows: it is read as 3.2.
func (l *loader) checkVersion() {
	v := l.doc.OpenAPI
	minor, ok := strings.CutPrefix(v, "3.")
	if l.swagger || !ok {
		return
	}
	minor, _, _ = strings.Cut(minor, ".")
	if n, err := strconv.Atoi(minor); err == nil && n > 2 {
		l.diags.Warn(diag.Other, l.pos(where{file: l.name, ptr: "/openapi"}, nil),
			"OpenAPI %s is newer than the versions opsgen reads (3.0, 3.1, 3.2); it is read as 3.2, and what later versions add is ignored", v)
	}
}

// unread32 warns about the parts of a media type m (at w) that OpenAPI 3.2
// adds and the loader does not read: a $ref to components/mediaTypes, an
// itemSchema where the media type is not a stream opsgen reads (such as
// multipart/mixed), itemEncoding and prefixEncoding.
func (l *loader) unread32(mt string, kind ir.BodyKind, m *openapi3.MediaType, w where) {
	if m == nil {
		return
	}
	pos := l.pos(w, m.Origin)
	if ref, ok := m.Extensions["$ref"].(string); ok {
		l.diags.Warn(diag.LeftOut, pos, "media type %q is a $ref to %q (OpenAPI 3.2 components/mediaTypes), which opsgen does not resolve; write the media type in place", mt, ref)
	}
	if m.ItemSchema != nil && kind != ir.BodyEventStream && kind != ir.BodyJSONSeq {
		l.diags.Warn(diag.LeftOut, pos, "itemSchema of %q is left out: opsgen reads item streams of text/event-stream, application/jsonl, application/x-ndjson and application/json-seq only", mt)
	}
	for _, k := range []string{"itemEncoding", "prefixEncoding"} {
		if _, ok := m.Extensions[k]; ok {
			l.diags.Warn(diag.LeftOut, pos, "%s of %q (OpenAPI 3.2) is not supported; it is left out", k, mt)
		}
	}
}

// querystringParam is the message for a parameter in "querystring".
func querystringParam(name string) string {
	return fmt.Sprintf("parameter %q is in \"querystring\" (OpenAPI 3.2: the whole query string as one value), which opsgen does not support; it is left out", name)
}
