package mcpclient

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"strings"
)

// ParamHeader is one x-mcp-header annotation of a tool's input schema
// (MCP 2026-07-28, SEP-2243): on streamable HTTP, the argument at Path is
// also sent as the HTTP header "Mcp-Param-<Header>".
type ParamHeader struct {
	// Path names the argument: its property name, then the names of the
	// properties of nested objects down to it.
	Path []string
	// Header is the annotation's value, the header's name without the
	// "Mcp-Param-" prefix.
	Header string
}

// paramHeadersKey is the context key under which Call passes a tool's
// ParamHeaders down to the HTTP round tripper of WrapTransport.
type paramHeadersKey struct{}

// withParamHeaders returns ctx carrying the annotations of tool, when it
// has any. go-sdk sends Mcp-Param-* headers only for the tools of a
// listing it fetched itself, which a generated client never does: the
// annotations come from the listing it was generated from instead.
func withParamHeaders(ctx context.Context, tool *Tool) context.Context {
	if len(tool.ParamHeaders) == 0 {
		return ctx
	}
	return context.WithValue(ctx, paramHeadersKey{}, tool.ParamHeaders)
}

// firstHeaderVersion is the first protocol version with the standard
// Mcp-Method, Mcp-Name and Mcp-Param-* request headers.
const firstHeaderVersion = "2026-07-28"

// paramHeaders returns the Mcp-Param-* headers of a streamable HTTP POST
// whose body is a tools/call request made by Call, from the annotations in
// the request's context, or nil. There are none for earlier protocol
// versions, for other methods, and for arguments that are absent, null, or
// not a string, a boolean or an integer (the only types the annotation may
// be on).
func paramHeaders(req *http.Request, body []byte) http.Header {
	bindings, _ := req.Context().Value(paramHeadersKey{}).([]ParamHeader)
	if len(bindings) == 0 {
		return nil
	}
	if v := req.Header.Get("Mcp-Protocol-Version"); v == "" || v < firstHeaderVersion {
		return nil
	}
	var msg struct {
		Method string `json:"method"`
		Params struct {
			Arguments map[string]json.RawMessage `json:"arguments"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &msg) != nil || msg.Method != "tools/call" {
		return nil
	}
	var h http.Header
	for _, b := range bindings {
		raw, ok := lookupArgument(msg.Params.Arguments, b.Path)
		if !ok {
			continue
		}
		if v, ok := headerValue(raw); ok {
			if h == nil {
				h = make(http.Header, len(bindings))
			}
			h.Set("Mcp-Param-"+b.Header, v)
		}
	}
	return h
}

// lookupArgument returns the JSON value at path in args.
func lookupArgument(args map[string]json.RawMessage, path []string) (json.RawMessage, bool) {
	for i, name := range path {
		v, ok := args[name]
		if !ok {
			return nil, false
		}
		if i == len(path)-1 {
			return v, true
		}
		args = nil
		if json.Unmarshal(v, &args) != nil {
			return nil, false
		}
	}
	return nil, false
}

// headerValue encodes an argument as a header value: a string as it is,
// or as =?base64?<its UTF-8 bytes>?= when it is not plain visible ASCII,
// has leading or trailing white space or looks like that form itself; a
// boolean as true or false; an integer (within ±(2^53-1)) in decimal. ok is
// false for other values.
func headerValue(raw json.RawMessage) (string, bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return "", false
	}
	switch v := v.(type) {
	case bool:
		return strconv.FormatBool(v), true
	case float64:
		const maxSafe = 1<<53 - 1
		if v != math.Trunc(v) || math.Abs(v) > maxSafe {
			return "", false
		}
		return strconv.FormatInt(int64(v), 10), true
	case string:
		if needsBase64(v) {
			return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(v)) + "?=", true
		}
		return v, true
	}
	return "", false
}

func needsBase64(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == ' ' || s[0] == '\t' || s[len(s)-1] == ' ' || s[len(s)-1] == '\t' {
		return true
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return true
		}
	}
	return strings.HasPrefix(s, "=?base64?") && strings.HasSuffix(s, "?=")
}
