package openapi

import (
	"context"
	"encoding/json"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/jsonptr"
)

// Real specs have local $refs that point at something, but at the wrong kind
// of object (a response where a schema belongs, a parameter used as a
// schema), or at a place kin-openapi cannot follow (into the properties or
// allOf of a schema).
// Rather than failing the whole document, such a $ref is disabled and every
// use of it degrades (an empty schema, raw JSON) with a warning.

// badRefRE matches loadError's message for such a $ref.
// A $ref to nowhere stays an error (see pointerExists).
var badRefRE = regexp.MustCompile(`^(.*?): cannot resolve \$ref "(#[^"]*)": (bad data in |failed to resolve )`)

var (
	posLineColRE = regexp.MustCompile(`:(\d+):(\d+)`)
	posPointerRE = regexp.MustCompile(`\(#([^)]*)\)$`)
)

// maxBadRefs bounds the $refs disabled in one document (each costs a reload).
const maxBadRefs = 20

// disableRef rewrites every use of the $ref that lerr (from loadError) names:
// the key "$ref" becomes "x-ur", an extension of the same length, so the
// object loses its reference and positions do not move. ok is false when
// lerr is not about such a $ref or no use of it is found.
func disableRef(data []byte, source string, lerr error) (patched []byte, warning diag.Diagnostic, ok bool) {
	m := badRefRE.FindStringSubmatch(lerr.Error())
	if m == nil || m[3] == "failed to resolve " && !pointerExists(data, m[2]) {
		return nil, warning, false
	}
	ref := regexp.QuoteMeta(m[2])
	// JSON or YAML, quoted or not; an unquoted YAML value must end there.
	re := regexp.MustCompile(`("\$ref"|'\$ref'|\$ref)\s*:\s*(?:"` + ref + `"|'` + ref + `'|` + ref + `(?:$|[\s,}]))`)
	locs := re.FindAllSubmatchIndex(data, -1)
	if len(locs) == 0 {
		return nil, warning, false
	}
	patched = append([]byte(nil), data...)
	for _, l := range locs {
		key := patched[l[2]:l[3]]
		i := 0
		if key[0] == '"' || key[0] == '\'' {
			i = 1
		}
		copy(key[i:], "x-ur")
	}
	pos := diag.Pos{File: source}
	if lc := posLineColRE.FindStringSubmatch(m[1]); lc != nil {
		pos.Line, _ = strconv.Atoi(lc[1])
		pos.Col, _ = strconv.Atoi(lc[2])
	}
	if p := posPointerRE.FindStringSubmatch(m[1]); p != nil {
		pos.Pointer = p[1]
	}
	warning = diag.Diagnostic{Severity: diag.Warning, Kind: diag.UntypedRef, Pos: pos,
		Message: "$ref " + strconv.Quote(m[2]) + " points at the wrong kind of object or where it cannot be followed; " +
			"it is left out, and what it stood for is untyped (raw JSON), in " + strconv.Itoa(len(locs)) + " place(s)"}
	return patched, warning, true
}

// retryWithoutRef loads the patched document, adding the warning; after
// maxBadRefs disabled $refs (counted by f, the load's state) it gives up
// with lerr.
func retryWithoutRef(ctx context.Context, patched []byte, source string, opts Options, f *files, w diag.Diagnostic, lerr error) (*ir.Service, diag.List, error) {
	if !f.disabledRef() {
		return nil, nil, lerr
	}
	if err := stopped(ctx, source); err != nil {
		return nil, nil, err
	}
	svc, diags, err := loadData(ctx, patched, source, opts, f)
	if err != nil {
		return nil, nil, err
	}
	diags = append(diags, w)
	diags.Sort()
	return svc, diags, nil
}

// pointerExists reports whether the document has a node at ref, a local
// JSON pointer ("#/a/b~1c", possibly percent-encoded).
func pointerExists(data []byte, ref string) bool {
	var doc any
	if json.Unmarshal(data, &doc) != nil && yaml.Unmarshal(data, &doc) != nil {
		return false
	}
	p := strings.TrimPrefix(ref, "#")
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	_, ok := jsonptr.Lookup(doc, p)
	return ok
}
