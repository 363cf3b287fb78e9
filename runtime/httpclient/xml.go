package httpclient

import (
	"encoding/json"
	"strings"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
	"github.com/opsgen/opsgen/runtime/xmljson"
)

// XMLBody sets an XML body: v, marshaled to JSON as JSONBody would send it,
// written as the XML document schema (the body's JSON Schema, with its
// OpenAPI xml objects) describes (see runtime/xmljson.Encode). A nil v
// sends no body.
func (r *Request) XMLBody(contentType string, v any, schema *opsgenimpl.Schema) {
	if r.err != nil {
		return
	}
	r.JSONBody("", v)
	if r.err != nil || r.body == nil {
		return
	}
	s, err := xmlSchema(schema)
	if err == nil {
		r.body, err = xmljson.Encode(r.body, s)
	}
	if err != nil {
		r.contentType, r.body = "", nil
		r.fail("request body: %v", err)
		return
	}
	if contentType == "" {
		contentType = "application/xml"
	}
	r.contentType = contentType
}

// xmlSchema is schema in the form runtime/xmljson reads.
func xmlSchema(schema *opsgenimpl.Schema) (xmljson.Schema, error) {
	v, doc, err := schema.Document()
	return xmljson.Schema{Value: v, Doc: doc}, err
}

// isXMLMediaType reports an XML media type: application/xml, text/xml or
// a +xml suffix.
func isXMLMediaType(mt string) bool {
	return mt == "application/xml" || mt == "text/xml" || strings.HasSuffix(mt, "+xml")
}

// decodesXML reports whether a body of media type mt (kind when the
// response has no Content-Type) is read as XML into out: a typed result,
// not a string, []byte or any, which take the body as it is.
func decodesXML(mt string, kind BodyKind, out any) bool {
	if !isXMLMediaType(mt) && (mt != "" || kind != BodyXML) {
		return false
	}
	switch out.(type) {
	case *string, *[]byte, *any:
		return false
	}
	return true
}

// xmlToJSON converts an XML body to the JSON value schema describes; the
// failure is a DECODE_ERROR naming the operation.
func xmlToJSON(opID string, schema *opsgenimpl.Schema, data []byte) ([]byte, error) {
	s, err := xmlSchema(schema)
	if err == nil {
		var js json.RawMessage
		if js, err = xmljson.Decode(data, s); err == nil {
			return js, nil
		}
	}
	return nil, runtime.NewError(runtime.CodeDecode, opID, "decoding the XML response body", err)
}
