package openapi

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/jsonptr"
)

// swagger loads a Swagger 2.0 document: it is converted to OpenAPI 3.0
// with openapi2conv, then repaired (see the package doc). A document that
// fails is converted again once its
// annotations of the wrong type are disabled (lenient.go).
func (s *docSource) swagger(ctx context.Context, opts Options) (*openapi3.T, diag.List, error) {
	doc, diags, err := s.convertSwagger(ctx, opts, s.data)
	if err != nil && ctx.Err() == nil {
		if patched, ws, ok := dropAnnotations(s.data, s.name, true, false); ok {
			doc, diags, err = s.convertSwagger(ctx, opts, patched)
			diags = append(diags, ws...)
		}
	}
	return doc, diags, err
}

// convertSwagger converts the Swagger 2.0 document data.
func (s *docSource) convertSwagger(ctx context.Context, opts Options, data []byte) (*openapi3.T, diag.List, error) {
	js, err := toJSON(data)
	if err != nil {
		return nil, nil, err
	}
	var doc2 openapi2.T
	if err := json.Unmarshal(js, &doc2); err != nil {
		return nil, nil, fmt.Errorf("%s: not a Swagger 2.0 document: %w", s.name, err)
	}
	if re := inlineExternal(&doc2, s.name, s.files); re != nil {
		at := s.name
		if r, ok := s.findRef(s.name, func(ref, _, _ string) bool { return ref == re.ref }); ok {
			at = r.pos.String()
		}
		return nil, nil, fmt.Errorf("%s: %w", at, re)
	}
	if err := stopped(ctx, s.name); err != nil {
		return nil, nil, err
	}
	doc3, err := openapi2conv.ToV3WithLoader(&doc2, newKinLoader(ctx, opts, s.files, true, nil), &url.URL{Path: s.name})
	if err != nil {
		return nil, nil, s.resolveError(err)
	}
	var diags diag.List
	repairParams(&doc2, doc3, s.name, &diags)
	return doc3, diags, nil
}

// inlineExternal replaces the parameters and responses that are $refs to
// other files by their content. openapi2conv keeps such a $ref as it is,
// and kin-openapi then reads the target as an OpenAPI 3 object, where a
// Swagger parameter's type, format, items and collectionFormat (and a
// response's schema) mean nothing: the parameter became a string. Inlined,
// they are converted as if written in the document; the $refs inside them
// are rewritten to stay valid from the document's directory.
func inlineExternal(doc *openapi2.T, source string, f *files) *refError {
	var err *refError // the first one; nothing is inlined after it
	param := func(p *openapi2.Parameter) {
		if err == nil && p != nil && isExternalRef(p.Ref) {
			err = inlineRef(p, p.Ref, source, f)
		}
	}
	responses := func(rs map[string]*openapi2.Response) {
		for _, k := range slices.Sorted(maps.Keys(rs)) {
			if r := rs[k]; err == nil && r != nil && isExternalRef(r.Ref) {
				err = inlineRef(r, r.Ref, source, f)
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(doc.Parameters)) {
		param(doc.Parameters[k])
	}
	responses(doc.Responses)
	for _, path := range slices.Sorted(maps.Keys(doc.Paths)) {
		item := doc.Paths[path]
		if item == nil {
			continue
		}
		for _, p := range item.Parameters {
			param(p)
		}
		ops := item.Operations()
		for _, m := range slices.Sorted(maps.Keys(ops)) { // Operations has no nil ones
			for _, p := range ops[m].Parameters {
				param(p)
			}
			if ops[m].Responses != nil {
				responses(ops[m].Responses.Map())
			}
		}
	}
	return err
}

// refError says that a $ref to another file could not be inlined.
type refError struct {
	ref string
	err error
}

func (e *refError) Error() string { return fmt.Sprintf("cannot resolve $ref %q: %v", e.ref, e.err) }
func (e *refError) Unwrap() error { return e.err }

// isExternalRef reports whether ref names another local file.
func isExternalRef(ref string) bool {
	file, _, _ := strings.Cut(ref, "#")
	return file != "" && !strings.Contains(file, "://")
}

// maxRefChain bounds a chain of $refs from file to file.
const maxRefChain = 32

// inlineRef replaces *dst (a parameter or a response) by the object that
// ref, written in the document at source, points at in another file,
// following further $refs to files.
func inlineRef[T any](dst *T, ref, source string, f *files) *refError {
	from, orig := source, ref
	for range maxRefChain {
		file, frag, _ := strings.Cut(ref, "#")
		file = refFile(file, from)
		data, err := f.read(file)
		if err != nil {
			return &refError{orig, err}
		}
		data = f.lenient(file, data, true)
		js, err := toJSON(data)
		if err != nil {
			return &refError{orig, fmt.Errorf("%s: %v", file, err)}
		}
		var v any
		if err := json.Unmarshal(js, &v); err != nil {
			return &refError{orig, fmt.Errorf("%s: %v", file, err)}
		}
		target, ok := jsonptr.Lookup(v, unescape(frag))
		if !ok {
			return &refError{orig, fmt.Errorf("%s has nothing at #%s", file, frag)}
		}
		obj, ok := target.(map[string]any)
		if !ok {
			return &refError{orig, fmt.Errorf("%s#%s is not an object", file, frag)}
		}
		if next, ok := obj["$ref"].(string); ok {
			if !strings.HasPrefix(next, "#") && !isExternalRef(next) {
				return &refError{orig, fmt.Errorf("%s#%s refers to %q", file, frag, next)}
			}
			if strings.HasPrefix(next, "#") {
				next = path.Base(file) + next // the same file
			}
			from, ref = file, next
			continue
		}
		rebaseRefs(obj, file, source)
		b, err := json.Marshal(obj)
		if err != nil {
			return &refError{orig, fmt.Errorf("%v", err)}
		}
		var out T
		if err := json.Unmarshal(b, &out); err != nil {
			return &refError{orig, fmt.Errorf("%s#%s: %v", file, frag, err)}
		}
		*dst = out
		return nil
	}
	return &refError{orig, fmt.Errorf("more than %d $refs from file to file", maxRefChain)}
}

// rebaseRefs rewrites the $refs of v, written in file, so that they point
// at the same places when written in the document at source.
func rebaseRefs(v any, file, source string) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if k == "$ref" {
				if ref, ok := e.(string); ok {
					x[k] = rebaseRef(ref, file, source)
				}
				continue
			}
			rebaseRefs(e, file, source)
		}
	case []any:
		for _, e := range x {
			rebaseRefs(e, file, source)
		}
	}
}

// refFile is the file that target, the file part of a $ref written in the
// file from, names: percent-decoded, relative to from's directory.
func refFile(target, from string) string {
	if target = unescape(target); path.IsAbs(target) {
		return target
	}
	return path.Join(path.Dir(from), target)
}

// rebaseRef rewrites one $ref (see rebaseRefs).
func rebaseRef(ref, file, source string) string {
	target, frag, hasFrag := strings.Cut(ref, "#")
	if strings.Contains(target, "://") {
		return ref
	}
	if target == "" {
		target = file
	} else {
		target = refFile(target, file)
	}
	if !path.IsAbs(target) {
		target = relTo(source, target)
	}
	if hasFrag {
		return target + "#" + frag
	}
	return target
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
	}
	return v // changed in place
}

// repairParams applies collectionFormat and x-nullable of the 2.0
// parameters to the converted ones.
func repairParams(doc2 *openapi2.T, doc3 *openapi3.T, source string, diags *diag.List) {
	for name, p2 := range doc2.Parameters {
		if doc3.Components == nil || p2 == nil {
			continue
		}
		if p3 := doc3.Components.Parameters[name]; p3 != nil && p3.Value != nil {
			repairParam(p2, p3.Value, diag.Pos{File: source, Pointer: "/parameters/" + jsonptr.Escape(name)}, diags)
		}
	}
	for path, item2 := range doc2.Paths {
		item3 := doc3.Paths.Value(path)
		if item2 == nil || item3 == nil {
			continue
		}
		base := "/paths/" + jsonptr.Escape(path)
		repairList(item2.Parameters, item3.Parameters, source, base, diags)
		for method, op2 := range item2.Operations() { // Operations has no nil ones
			if op3 := item3.GetOperation(strings.ToUpper(method)); op3 != nil {
				repairList(op2.Parameters, op3.Parameters, source, base+"/"+strings.ToLower(method), diags)
			}
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
	case "csv", "tsv":
		if f == "tsv" {
			diags.Warn(diag.Other, pos, "collectionFormat \"tsv\" has no OpenAPI 3 equivalent; using comma-separated values")
		}
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
			diags.Warn(diag.Other, pos, "collectionFormat %q is not supported in %s parameters; using simple (comma-separated)", f, p3.In)
			p3.Style = openapi3.SerializationSimple
		}
	case "multi":
		p3.Style, explode = openapi3.SerializationForm, true
		if !formLike {
			diags.Warn(diag.Other, pos, "collectionFormat \"multi\" is only valid in query parameters; using simple (comma-separated)")
			p3.Style, explode = openapi3.SerializationSimple, false
		}
	default:
		diags.Warn(diag.Other, pos, "unknown collectionFormat %q; using the default", f)
		return
	}
	p3.Explode = &explode
}
