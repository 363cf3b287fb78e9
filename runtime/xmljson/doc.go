// Package xmljson converts XML bodies to and from the JSON value their
// schema describes, following the schema's OpenAPI xml objects (name,
// namespace, prefix, attribute, wrapped, and OpenAPI 3.2's nodeType).
//
// XML is a wire form for opsgen: an XML response is turned into JSON
// (Decode) before it goes through the runtime's one pipeline, so that
// normalization, validation, drift warnings and the typed value work as
// they do for JSON, and a request body is marshaled to JSON then written
// as XML (Encode). Generated types need no xml struct tags. The package
// uses only the standard library's encoding/xml tokenizer.
package xmljson
