package openapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/jsonptr"
	"github.com/opsgen/opsgen/generator/jsonschema"
	"github.com/opsgen/opsgen/generator/naming"
	"github.com/opsgen/opsgen/generator/rootfs"
)

// Options control loading.
type Options struct {
	// AllowRemoteRefs allows $refs to http(s) URLs; they are refused otherwise.
	AllowRemoteRefs bool
	// Filter selects the operations to keep.
	Filter ir.Filter
	// Names overrides Go names: the key is an operationId, or a JSON pointer
	// such as "#/components/schemas/Pet"; the value is the Go name.
	Names map[string]string
	// Types maps a format to the Go type of its values (jsonschema.Options.Types).
	Types map[string]string
	// KeepUnknown gives struct types a map of the members their schemas
	// do not declare (jsonschema.Options.KeepUnknown).
	KeepUnknown bool
	// MaxBytes refuses a document larger than this many bytes: loading takes
	// memory of about 35 times the document's size (460 MB for GitHub's 13 MB
	// description), so a huge input is refused up front rather than
	// exhausting memory. 0 means DefaultMaxBytes; a negative value, no limit.
	MaxBytes int64
	// Root is the directory that every local file the loader reads (the
	// document itself for Load, and the files its $refs reach) must be
	// inside, symbolic links included; "" means the document's directory.
	// A file outside it is refused with a *RootError.
	Root string
	// Read, when not nil, is called once with the name of every file the
	// loader reads: a local path (slash-separated, relative to the working
	// directory as the document's path is, or absolute) or an http(s) URL.
	// Calls do not overlap.
	Read func(file string)
}

// DefaultMaxBytes is the default Options.MaxBytes: 128 MiB, several times the
// largest description in the APIs.guru directory.
const DefaultMaxBytes = 128 << 20

func (o Options) maxBytes() int64 {
	if o.MaxBytes == 0 {
		return DefaultMaxBytes
	}
	return o.MaxBytes
}

// Load reads the document at path (relative $refs are resolved against its
// directory) and converts it. The path is used as given in diagnostics.
func Load(ctx context.Context, path string, opts Options) (*ir.Service, diag.List, error) {
	source := filepath.ToSlash(path)
	if err := stopped(ctx, source); err != nil {
		return nil, nil, err
	}
	f := newFiles(source, opts)
	defer f.close()
	data, err := f.read(source)
	if err != nil {
		return nil, nil, err
	}
	return loadData(ctx, data, source, opts, f)
}

// LoadData converts the document in data. source is the path shown in
// diagnostics and the generated header; relative $refs are resolved against
// its directory.
func LoadData(ctx context.Context, data []byte, source string, opts Options) (*ir.Service, diag.List, error) {
	source = filepath.ToSlash(source)
	f := newFiles(source, opts)
	defer f.close()
	return loadData(ctx, data, source, opts, f)
}

// stopped wraps the context's error once ctx is done, so that a cancelled
// or timed-out load says where it stopped and still matches context.Canceled
// or context.DeadlineExceeded with errors.Is.
func stopped(ctx context.Context, source string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: loading stopped: %w", source, err)
	}
	return nil
}

// loadData is LoadData with the reader of local files.
func loadData(ctx context.Context, data []byte, source string, opts Options, f *files) (*ir.Service, diag.List, error) {
	if err := stopped(ctx, source); err != nil {
		return nil, nil, err
	}
	if limit := opts.maxBytes(); limit > 0 && int64(len(data)) > limit {
		return nil, nil, &rootfs.TooLargeError{Path: source, Size: int64(len(data)), Limit: limit}
	}
	swagger, err := sniff(data, source)
	if err != nil {
		return nil, nil, err
	}
	src := &docSource{name: source, data: data, json: isJSON(data), files: f}
	var doc *openapi3.T
	var diags diag.List
	resolved := func() error { return nil }
	if swagger {
		doc, diags, err = src.swagger(ctx, opts)
	} else {
		doc, diags, resolved, err = src.openapi3(ctx, opts)
	}
	if serr := stopped(ctx, source); serr != nil {
		return nil, nil, serr
	}
	if err != nil {
		return nil, nil, err
	}
	svc, diags, err := src.fromDocument(ctx, doc, opts, swagger, diags, resolved)
	diags.Sort()
	return svc, diags, err
}

// sniff checks that data is a JSON or YAML mapping with an "openapi" or
// "swagger" field of a supported version, and says whether it is Swagger.
func sniff(data []byte, source string) (swagger bool, err error) {
	var key string // the field found: "openapi" or "swagger"
	var v any
	if isJSON(data) {
		if key, v, err = sniffJSON(bytes.TrimSpace(data)); err != nil {
			return false, jsonError(data, source, err)
		}
	} else if k, s, ok := sniffYAML(data); ok {
		key, v = k, s
	} else {
		var node yaml.Node
		if err := yaml.Unmarshal(data, &node); err != nil {
			return false, yamlError(source, err)
		}
		if len(node.Content) == 0 || node.Content[0].Kind != yaml.MappingNode {
			return false, fmt.Errorf("%s:1:1: not an OpenAPI document: the top level is not a mapping", source)
		}
		root := node.Content[0]
		for i := 0; i+1 < len(root.Content); i += 2 {
			// The last of each; swagger wins over openapi.
			if k := root.Content[i].Value; k == "swagger" || k == "openapi" && key != "swagger" {
				key, v = k, root.Content[i+1].Value
			}
		}
	}
	switch {
	case v == nil:
		return false, fmt.Errorf("%s:1:1: not an OpenAPI document: no \"openapi\" or \"swagger\" field", source)
	case key == "swagger":
		if s := fmt.Sprint(v); s != "2.0" && s != "2" {
			return false, fmt.Errorf("%s:1:1: unsupported Swagger version %q (want 2.0)", source, s)
		}
		return true, nil
	}
	if s := fmt.Sprint(v); !strings.HasPrefix(s, "3.") {
		return false, fmt.Errorf("%s:1:1: unsupported OpenAPI version %q (want 3.x)", source, s)
	}
	return false, nil
}

// isJSON reports whether data is a JSON object rather than YAML.
func isJSON(data []byte) bool {
	t := bytes.TrimSpace(data)
	return len(t) > 0 && t[0] == '{'
}

// sniffYAML finds a top-level "openapi:" or "swagger:" line in a block
// YAML document without parsing it (the document is parsed once, later).
func sniffYAML(data []byte) (key, value string, ok bool) {
	for line := range bytes.Lines(data) {
		for _, k := range []string{"openapi", "swagger"} {
			rest, found := bytes.CutPrefix(line, []byte(k+":"))
			if !found {
				continue
			}
			v := strings.TrimSpace(string(rest))
			if i := strings.Index(v, " #"); i >= 0 {
				v = strings.TrimSpace(v[:i])
			}
			return k, strings.Trim(v, `"'`), v != ""
		}
	}
	return "", "", false
}

// yamlError describes a YAML syntax error with its line.
func yamlError(source string, err error) error {
	if line, msg, ok := diag.YAMLLine(err.Error()); ok {
		return fmt.Errorf("%s:%d:1: invalid YAML: %s", source, line, msg)
	}
	return fmt.Errorf("%s:1:1: invalid YAML: %v", source, err)
}

// sniffJSON returns the first top-level "openapi" or "swagger" field of a
// JSON document and its value, so that a large document is not decoded
// twice.
func sniffJSON(data []byte) (key string, v any, err error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil { // the opening brace
		return "", nil, err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return "", nil, err
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return "", nil, err
		}
		if tok == "openapi" || tok == "swagger" {
			return tok.(string), v, nil
		}
	}
	return "", nil, nil
}

// jsonError describes a JSON decoding error with its position.
func jsonError(data []byte, source string, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := jsonptr.LineCol(data, int(se.Offset))
		return fmt.Errorf("%s:%d:%d: invalid JSON: %s", source, line, col, se.Error())
	}
	return fmt.Errorf("%s:1:1: not an OpenAPI document: %v", source, err)
}

// newKinLoader returns a kin-openapi loader that reads local files through
// f and refuses http(s) references unless opts allow them. A file that
// cannot be read is recorded in f (files.failedRead), so that the error can
// name the $ref; the annotations of the wrong JSON type in the files read
// are disabled with a warning (lenient.go), as the decoder does in the
// document itself. doc is the text of the document resolved at an empty
// location (nil for none).
func newKinLoader(ctx context.Context, opts Options, f *files, swagger bool, doc []byte) *openapi3.Loader {
	kl := openapi3.NewLoader()
	kl.Context = ctx
	kl.IsExternalRefsAllowed = true
	kl.IncludeOrigin = true
	remote := openapi3.ReadFromHTTP(http.DefaultClient)
	kl.ReadFromURIFunc = func(kl *openapi3.Loader, u *url.URL) ([]byte, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var data []byte
		var err error
		name := u.String()
		switch u.Scheme {
		case "http", "https":
			if !opts.AllowRemoteRefs {
				err = fmt.Errorf("remote $ref %q refused (remote references are not allowed unless AllowRemoteRefs is set)", name)
			} else if data, err = remote(kl, u); err == nil {
				f.record(name)
			}
		case "", "file":
			if u.Path == "" {
				// kin-openapi reading the document (resolved at an empty
				// location, see source.openapi3) to look into it untyped.
				if doc == nil {
					return nil, errors.New("the document has no location")
				}
				return doc, nil
			}
			name = path.Clean(u.Path)
			if data, err = f.read(u.Path); err == nil {
				data = f.lenient(name, data, swagger)
			}
		default:
			err = fmt.Errorf("$ref %q: unsupported URL scheme %q", name, u.Scheme)
		}
		if err != nil {
			f.failRead(name, err)
		}
		return data, err
	}
	return kl
}

// loader holds the state of one conversion.
type loader struct {
	*docSource
	ctx     context.Context // checked between operations and schemas
	opts    Options
	doc     *openapi3.T
	swagger bool
	diags   diag.List

	// conv converts the schemas, adapted from kin-openapi's (schemas: by
	// pointer, so that each is adapted once).
	conv    *jsonschema.Converter
	schemas map[*openapi3.Schema]*jsonschema.Schema
	// finish runs after names are allocated (JSON Schemas refer to names).
	finish   []func()
	bodyRefs map[*ir.Body]*openapi3.SchemaRef
	// sharedErrs are the error types of component responses, by component
	// name (see sharedError).
	sharedErrs map[string]*sharedErr
	// leftOut are the operations a parameter leaves out (see params).
	leftOut map[*ir.Operation]bool
	// wrappedLists: an array without an xml object is wrapped (see
	// awsWrappedLists).
	wrappedLists bool
}

// fromDocument converts doc, loaded from s; diags are the diagnostics so
// far. resolved waits for kin-openapi's resolution of doc, which may run
// while the component schemas are declared (see openapi3), and
// returns its error.
func (s *docSource) fromDocument(ctx context.Context, doc *openapi3.T, opts Options, swagger bool, diags diag.List, resolved func() error) (*ir.Service, diag.List, error) {
	source := s.name
	l := &loader{
		docSource: s, ctx: ctx, opts: opts, doc: doc, swagger: swagger, diags: diags,
		schemas:  map[*openapi3.Schema]*jsonschema.Schema{},
		bodyRefs: map[*ir.Body]*openapi3.SchemaRef{},
		// Reads only what kin-openapi's resolution, which may be running,
		// does not write: info and the media types' keys.
		wrappedLists: awsWrappedLists(doc),
	}
	l.conv = l.newConverter()
	svc := &ir.Service{Kind: ir.OpenAPI, Source: source}
	l.checkVersion()
	if doc.Info != nil {
		svc.Title, svc.Description, svc.Version = doc.Info.Title, doc.Info.Description, doc.Info.Version
	}
	for _, s := range doc.Servers {
		if s == nil {
			continue
		}
		srv := ir.Server{URL: s.URL, Description: s.Description}
		for name, v := range s.Variables {
			if v == nil {
				continue
			}
			if srv.Variables == nil {
				srv.Variables = map[string]string{}
			}
			srv.Variables[name] = v.Default
		}
		svc.Servers = append(svc.Servers, srv)
	}
	if doc.Security != nil {
		svc.Security = requirements(doc.Security)
	}
	if doc.Components != nil {
		l.declareComponents(doc.Components.Schemas)
	}
	if err := resolved(); err != nil {
		return nil, nil, err
	}
	l.diags = append(l.diags, s.files.takeWarnings()...) // of the files kin-openapi read
	if doc.Components != nil {
		svc.SecuritySchemes = l.securitySchemes(doc.Components.SecuritySchemes)
	}
	if err := stopped(ctx, source); err != nil {
		return nil, nil, err
	}
	svc.Operations = l.operations()
	svc.Webhooks = l.webhooks(svc.Operations)
	if err := stopped(ctx, source); err != nil {
		return nil, nil, err
	}
	l.conv.AllocateNames()
	svc.Types = l.conv.Types()
	if err := l.buildSchemas(svc); err != nil {
		return nil, nil, err
	}
	return svc, l.diags, nil
}

// buildSchemas is the loader's last stage: it builds the JSON Schemas of
// the types (their Defs, then Service.Defs) and finishes the operations,
// and returns when both are done. The types' schemas are built by several
// goroutines (TypeSchemas only reads the converter's state) while another
// one finishes the operations (their JSON Schemas: they read the
// converter's state too, and may warn, and adapt schemas the operations
// did not) then gives the diagnostics their positions.
func (l *loader) buildSchemas(svc *ir.Service) error {
	var finished, typeSchemas sync.WaitGroup
	finished.Go(func() {
		for i, fin := range l.finish {
			if i%64 == 0 && l.ctx.Err() != nil {
				return
			}
			fin()
		}
		l.fillPositions()
	})
	// The types are taken in turn (their schemas differ much in size: a
	// fixed share per worker left one core idle at the end).
	var next atomic.Int64
	for range runtime.GOMAXPROCS(0) {
		typeSchemas.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(svc.Types) || l.ctx.Err() != nil {
					return
				}
				t := svc.Types[i]
				t.Def.Schema, t.Def.Input = l.conv.TypeSchemas(t)
			}
		})
	}
	finished.Wait()
	typeSchemas.Wait()
	if err := stopped(l.ctx, svc.Source); err != nil {
		return err
	}
	svc.Defs = make([]*ir.Def, len(svc.Types))
	for i, t := range svc.Types {
		svc.Defs[i] = t.Def // sorted by name, as the types are
	}
	return nil
}

// declareComponents declares the component schemas, sorted by name. Each
// is adapted to the converter's model (adapt) in a goroutine that runs
// ahead of the declarations, in the same order: the conversion is
// sequential (names are taken in the order it asks for them), the
// adaptation is not, and on two cores it comes off the critical path (on
// GitHub's description about 30 ms of the 100 ms the declarations take).
// While it runs, only that goroutine adapts (it alone writes the loader's
// schemas, each new schema before it is handed over, and the converter
// does not write them); a $ref it cannot resolve warns into its own list,
// added to the loader's just before the component's declaration, as when
// adapting and declaring in turn; a panic in adapt is raised again by the
// declaring goroutine when it reaches that component.
func (l *loader) declareComponents(schemas openapi3.Schemas) {
	type adapted struct {
		schema *jsonschema.Schema // nil: nothing to declare
		diags  diag.List
		panic  any // adapt's panic, raised again where it would have been
	}
	names := slices.Sorted(maps.Keys(schemas))
	next := make(chan adapted, len(names)) // never blocks the adapter
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if r := recover(); r != nil {
				next <- adapted{panic: r}
			}
		}()
		a := *l // the same loader, with diagnostics of its own
		a.diags = nil
		for _, name := range names {
			select {
			case <-stop:
				return
			default:
			}
			var s *jsonschema.Schema
			if ref := schemas[name]; ref != nil && ref.Value != nil {
				s = a.adapt(ref, nil)
			}
			next <- adapted{schema: s, diags: a.diags}
			a.diags = nil
		}
	}()
	defer func() {
		close(stop)
		<-done // the schemas are the loader's again
	}()
	for i, name := range names {
		if i%64 == 0 && l.ctx.Err() != nil {
			return
		}
		c := <-next
		if c.panic != nil {
			panic(c.panic)
		}
		l.diags = append(l.diags, c.diags...)
		if c.schema == nil {
			continue
		}
		w := where{file: l.name, ptr: "/components/schemas/" + jsonptr.Escape(name)}
		l.conv.Declare(c.schema, w.js(), name)
	}
}

// securitySchemes converts the document's security schemes, sorted by name.
func (l *loader) securitySchemes(m openapi3.SecuritySchemes) []*ir.SecurityScheme {
	ns := naming.NewNamespace()
	var out []*ir.SecurityScheme
	for _, name := range slices.Sorted(maps.Keys(m)) {
		r := m[name]
		if r == nil || r.Value == nil {
			continue
		}
		s := r.Value
		out = append(out, &ir.SecurityScheme{
			Name:      name,
			GoName:    ns.Alloc(naming.Ident(name, "Auth")),
			Type:      s.Type,
			Scheme:    strings.ToLower(s.Scheme),
			In:        s.In,
			ParamName: s.Name,
			Doc:       ir.Doc{Description: s.Description},
		})
	}
	return out
}

// goNameExt returns the x-go-name extension, or "".
func goNameExt(ext map[string]any) string {
	s, _ := ext["x-go-name"].(string)
	return s
}

// fillPositions adds line and column to diagnostics that lack them, by
// finding their JSON pointer in the source file (read once, only when a
// diagnostic needs it).
func (l *loader) fillPositions() {
	byFile := map[string][]*diag.Diagnostic{}
	for i := range l.diags {
		if d := &l.diags[i]; d.Pos.Line == 0 && d.Pos.File != "" {
			byFile[d.Pos.File] = append(byFile[d.Pos.File], d)
		}
	}
	for file, ds := range byFile {
		ptrs := make([]string, len(ds))
		for i, d := range ds {
			if ptrs[i] = d.Pos.Pointer; l.swagger && file == l.name {
				ptrs[i] = swaggerPointer(ptrs[i])
			}
		}
		pos := positions(l.readFile(file), ptrs)
		for i, d := range ds {
			if p, ok := pos[ptrs[i]]; ok {
				d.Pos.Line, d.Pos.Col = p[0], p[1]
			}
		}
	}
}

// positions returns the line and column of each JSON pointer of ptrs in
// data, a JSON text (scanned for just those pointers) or else a YAML one;
// none when it does not parse.
func positions(data []byte, ptrs []string) map[string][2]int {
	if isJSON(data) {
		if offs, ok := jsonptr.Offsets(data, ptrs); ok {
			lc := jsonptr.LineCols(data, slices.Collect(maps.Values(offs)))
			pos := make(map[string][2]int, len(offs))
			for p, off := range offs {
				pos[p] = lc[off]
			}
			return pos
		}
	}
	pos := make(map[string][2]int, len(ptrs))
	var n yaml.Node
	if yaml.Unmarshal(data, &n) == nil && len(n.Content) > 0 {
		for _, p := range ptrs {
			line, col := lookupPointer(n.Content[0], p)
			pos[p] = [2]int{line, col}
		}
	}
	return pos
}

// readFile returns the text of the document or of another local file, or
// nil.
func (s *docSource) readFile(file string) []byte {
	if file == s.name {
		return s.data
	}
	if strings.Contains(file, "://") {
		return nil
	}
	b, _ := s.files.read(file) // nil when it cannot be read
	return b
}

// swaggerPointer maps a pointer into the converted 3.0 document back to the
// Swagger 2.0 source, as far as the two have the same shape.
func swaggerPointer(p string) string {
	for from, to := range map[string]string{
		"/components/schemas/":    "/definitions/",
		"/components/parameters/": "/parameters/",
		"/components/responses/":  "/responses/",
	} {
		if rest, ok := strings.CutPrefix(p, from); ok {
			return to + rest
		}
	}
	return p
}

// lookupPointer returns the position of the deepest node on the JSON
// pointer's path in a YAML tree (the key when the node is a mapping value),
// as jsonptr places pointers in JSON text.
func lookupPointer(n *yaml.Node, ptr string) (int, int) {
	line, col := n.Line, n.Column
	for _, tok := range jsonptr.Tokens(ptr) {
		for n.Kind == yaml.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		var next *yaml.Node
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == tok {
					line, col = n.Content[i].Line, n.Content[i].Column
					next = n.Content[i+1]
					break
				}
			}
		case yaml.SequenceNode:
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(n.Content) {
				next = n.Content[i]
				line, col = next.Line, next.Column
			}
		}
		if next == nil {
			return line, col
		}
		n = next
	}
	return line, col
}
