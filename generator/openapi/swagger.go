package openapi

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"

	"github.com/opsgen/opsgen/generator/diag"
)

// convertSwagger converts a Swagger 2.0 document to OpenAPI 3.0 and repairs
// what openapi2conv drops (see the package doc).
func convertSwagger(kl *openapi3.Loader, data []byte, source string) (*openapi3.T, diag.List, error) {
	js, err := toJSON(data)
	if err != nil {
		return nil, nil, err
	}
	var doc2 openapi2.T
	if err := json.Unmarshal(js, &doc2); err != nil {
		return nil, nil, fmt.Errorf("not a Swagger 2.0 document: %v", err)
	}
	doc3, err := openapi2conv.ToV3WithLoader(&doc2, kl, &url.URL{Path: source})
	if err != nil {
		return nil, nil, err
	}
	var diags diag.List
	repairParams(&doc2, doc3, source, &diags)
	return doc3, diags, nil
}

// toJSON re-encodes YAML (or JSON) as JSON.
func toJSON(data []byte) ([]byte, error) {
	if json.Valid(data) {
		return data, nil
	}
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	return json.Marshal(jsonValue(v))
}

// jsonValue turns YAML's map[any]any into map[string]any.
func jsonValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = jsonValue(e)
		}
		return x
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = jsonValue(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = jsonValue(e)
		}
		return x
	}
	return v
}

// repairParams applies collectionFormat and x-nullable of the 2.0
// parameters to the converted ones.
func repairParams(doc2 *openapi2.T, doc3 *openapi3.T, source string, diags *diag.List) {
	for name, p2 := range doc2.Parameters {
		if doc3.Components == nil || p2 == nil {
			continue
		}
		if p3 := doc3.Components.Parameters[name]; p3 != nil && p3.Value != nil {
			repairParam(p2, p3.Value, diag.Pos{File: source, Pointer: "/parameters/" + escapeToken(name)}, diags)
		}
	}
	for path, item2 := range doc2.Paths {
		item3 := doc3.Paths.Value(path)
		if item2 == nil || item3 == nil {
			continue
		}
		base := "/paths/" + escapeToken(path)
		repairList(item2.Parameters, item3.Parameters, source, base, diags)
		for method, op2 := range item2.Operations() {
			op3 := item3.GetOperation(strings.ToUpper(method))
			if op2 == nil || op3 == nil {
				continue
			}
			repairList(op2.Parameters, op3.Parameters, source, base+"/"+strings.ToLower(method), diags)
		}
	}
}

func repairList(ps2 openapi2.Parameters, ps3 openapi3.Parameters, source, base string, diags *diag.List) {
	for i, p2 := range ps2 {
		if p2 == nil || p2.Ref != "" {
			continue // component parameters are repaired once
		}
		for _, r3 := range ps3 {
			if r3 != nil && r3.Ref == "" && r3.Value != nil && r3.Value.Name == p2.Name && r3.Value.In == p2.In {
				repairParam(p2, r3.Value, diag.Pos{File: source, Pointer: fmt.Sprintf("%s/parameters/%d", base, i)}, diags)
			}
		}
	}
}

// repairParam maps collectionFormat to style/explode and x-nullable to nullable.
func repairParam(p2 *openapi2.Parameter, p3 *openapi3.Parameter, pos diag.Pos, diags *diag.List) {
	if nullable, ok := p2.Extensions["x-nullable"].(bool); ok && nullable && p3.Schema != nil && p3.Schema.Value != nil {
		p3.Schema.Value.Nullable = true
	}
	if p2.Type == nil || !p2.Type.Is("array") {
		return
	}
	formLike := p3.In == openapi3.ParameterInQuery || p3.In == openapi3.ParameterInCookie
	f := p2.CollectionFormat
	if f == "" {
		f = "csv"
	}
	explode := false
	switch f {
	case "csv":
		p3.Style = openapi3.SerializationSimple
		if formLike {
			p3.Style = openapi3.SerializationForm
		}
	case "ssv", "pipes":
		p3.Style = openapi3.SerializationSpaceDelimited
		if f == "pipes" {
			p3.Style = openapi3.SerializationPipeDelimited
		}
		if !formLike {
			diags.Warnf(pos, "collectionFormat %q is not supported in %s parameters; using simple (comma-separated)", f, p3.In)
			p3.Style = openapi3.SerializationSimple
		}
	case "multi":
		p3.Style, explode = openapi3.SerializationForm, true
		if !formLike {
			diags.Warnf(pos, "collectionFormat \"multi\" is only valid in query parameters; using simple (comma-separated)")
			p3.Style, explode = openapi3.SerializationSimple, false
		}
	case "tsv":
		diags.Warnf(pos, "collectionFormat \"tsv\" has no OpenAPI 3 equivalent; using comma-separated values")
		p3.Style = openapi3.SerializationSimple
		if formLike {
			p3.Style = openapi3.SerializationForm
		}
	default:
		diags.Warnf(pos, "unknown collectionFormat %q; using the default", f)
		return
	}
	p3.Explode = &explode
}
