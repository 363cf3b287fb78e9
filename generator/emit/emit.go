// Package emit turns the generator's IR (package ir) into the Go source
// files of a generated client package.
//
// Every file is written through one writer, after protogen's
// GeneratedFile: a generatedFile (file.go) owns the file's imports and
// holds its declarations in order; each declaration is written by a
// textWriter (text.go) directly in the form gofmt prints, and render
// assembles the file: header, package doc, imports, declarations. There is
// no other way to write code and no formatting pass: go/format over a
// large package (GitHub's 71,000 lines) cost about as much as the rest of
// emitting. Within a declaration:
//
//   - code is written with P, protogen's method: a string is Go code as it
//     is, only constant code and names checked to be Go identifiers;
//   - an identifier of another package is a goType (qual, protogen's
//     GoIdent with type operators: *, [], map[string], a type argument);
//     writing it through the file records the import and picks the
//     package's name or alias (typeText);
//   - struct fields, composite literals' keys and the registry's tables are
//     aligned as gofmt aligns them (structDecl, keyValues, tableFields).
//
// Positions for diagnostics are passed to the code that writes a node
// (goType's at), not kept as state.
//
// Emit writes, for an OpenAPI service, client.go (package doc, version
// guard, Client, NewClient, options, server URL), types.go (named types),
// operations.go (parameter structs and one method per operation),
// schemas.go (the embedded JSON Schemas) and, with Options.Registry,
// registry.go (Client.Register). An MCP service gets client.go, types.go,
// tools.go, schemas.go and registry.go the same way.
//
// Output is gofmt'd and byte-for-byte deterministic: it depends on the IR's
// content only, not on the order of its top-level slices or on map order.
// Spec text (descriptions, enum values, names on the wire) is treated as
// hostile: it reaches the output only as line comments, all written by
// commentLine (the writer's doc and comment methods), or as quoted Go
// literals (litText, jsonString, tagText), never pasted into code; names
// are checked to be Go
// identifiers first. TestSpecTextNeverCode puts adversarial text on every
// path that writes spec text.
//
// Representation of JSON Schema constructs in the generated code:
//
//   - object: a struct; required, non-nullable properties are values,
//     optional or required nullable ones are pointers (slices, maps and
//     json.RawMessage stay nil-able values), optional ones have omitempty;
//     optional nullable ones are runtime.Nullable[T] (absent, null or a
//     value) with omitzero, Nullable[*T] for a struct T in an API split
//     into packages (nullableByPointer);
//     a property that would contain its own struct by value is a pointer.
//     Its first field, opsgenimpl.NotComparable, makes it not comparable (as
//     parameter structs are): == would compare those pointers by address.
//     The loaders name every object; an unnamed one is json.RawMessage,
//     with a warning.
//   - additionalProperties next to properties: an AdditionalProperties map
//     field (json:"-"), merged into and split out of the object by the
//     type's MarshalJSON and UnmarshalJSON (one shared helper per package).
//   - enum: a named string, int64 or float64 type with one constant per
//     value and a Known method (for strings, opsgenimpl.EnumKnown over the
//     values in one literal); unknown values still decode.
//   - oneOf/anyOf: a struct holding the raw JSON, with Raw, Variant,
//     As<Variant>, Match (a function per variant: exhaustive, checked by
//     the compiler), Match<Type> (the same as a generic function returning
//     a value of the caller's type; its name from ir.Type.ValueMatch) and <Type>From<Variant> (its name allocated by the
//     names stage, ir.Variant.Constructor); Variant picks the variant by the
//     discriminator, or by JSON kind and required properties (opsgenimpl.Union).
//   - prefixItems: a struct with Item0..ItemN (and Rest for the remaining
//     items) that reads and writes a JSON array.
//   - date-time: time.Time; date: runtime.Date (YYYY-MM-DD); byte: []byte
//     (base64); binary: []byte in responses, io.Reader in request bodies and
//     multipart file parts; any other schema: json.RawMessage.
package emit

import (
	"cmp"
	"errors"
	"fmt"
	"go/token"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/naming"
)

// Import paths of the packages generated code uses.
const (
	pkgRuntime = "github.com/opsgen/opsgen/runtime"
	// pkgImpl is what only generated code calls.
	pkgImpl = "github.com/opsgen/opsgen/runtime/opsgenimpl"
	pkgHTTP = "github.com/opsgen/opsgen/runtime/httpclient"
	// pkgFullSchema validates the keywords the runtime's walker does not check.
	pkgFullSchema = "github.com/opsgen/opsgen/runtime/fullschema"
	// pkgPattern checks "pattern" keywords with Go's regexp.
	pkgPattern   = "github.com/opsgen/opsgen/runtime/pattern"
	pkgMCPClient = "github.com/opsgen/opsgen/runtime/mcpclient"
	pkgMCP       = "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ErrNoImportPath is Emit's error for an API split into packages without
// Options.ImportPath.
var ErrNoImportPath = errors.New("the API is split into packages, which import the output package, and its import path is unknown")

// contractVersion is the generated-code contract version checked against
// opsgenimpl.MinVersion and opsgenimpl.MaxVersion by the version guard.
const contractVersion = 3

// Options configures Emit.
type Options struct {
	// Package is the Go package name of the generated files.
	Package string
	// Version is the opsgen version written into the header of each file.
	Version string
	// Namespace prefixes the registry ids ("<Namespace>.<operation id>");
	// default: Package.
	Namespace string
	// Registry adds registry.go with (*Client).Register.
	Registry bool
	// Validation is the default validation mode of the generated NewClient:
	// "" or "warn" (the runtime's default, runtime.ValidateWarn), "strict"
	// or "off". NewClient applies it before the caller's options, so
	// WithValidation still overrides it.
	Validation string
	// Timeout is the default timeout of every call (client.timeout in the
	// config); NewClient applies it before the caller's options.
	Timeout time.Duration
	// IdempotencyKeys makes the generated NewClient of an HTTP client
	// apply httpclient.WithIdempotencyKeys before the caller's options
	// (client.idempotencyKeys in the config).
	IdempotencyKeys bool
	// Operations holds settings of single operations by operation id (the
	// config's operations).
	Operations map[string]OperationOptions
	// Split says how an HTTP API's operations are laid out in packages:
	// SplitAuto ("" too), SplitNone, SplitTags or SplitPaths. A split API
	// has its operation packages in subdirectories (File.Name "users/operations.go").
	Split string
	// ImportPath is the import path of the generated package, which the
	// operation packages of a split API import; required when it splits.
	ImportPath string
}

// OperationOptions are the settings of one operation.
type OperationOptions struct {
	// Timeout is the operation's default timeout (WithOperationTimeout).
	Timeout time.Duration
	// Paging declares the operation's pagination; nil detects it (a GET
	// whose result declares a Link header).
	Paging *Paging
	// Pos is where the settings are written, for diagnostics.
	Pos diag.Pos
}

// Paging is a declared pagination: see httpclient.Paging.
type Paging struct {
	Link                      bool
	Cursor, Next, Page, Items string
	// Disabled turns a detected pagination off.
	Disabled bool
}

// File is one generated file.
type File struct {
	// Name is the file's name, slash-separated, relative to the package's
	// directory: "client.go", or "users/operations.go" in an operation
	// package of a split API.
	Name    string
	Content []byte
}

// Emit generates the Go files of svc, sorted by name. Diagnostics report what
// was degraded (warnings) and what made generation impossible (errors);
// when the list has errors, no files are returned and the error says why.
func Emit(svc *ir.Service, opts Options) ([]File, diag.List, error) {
	if svc == nil {
		return nil, nil, fmt.Errorf("emit: no service")
	}
	if !token.IsIdentifier(opts.Package) || opts.Package == "_" {
		return nil, nil, fmt.Errorf("emit: package name %q is not a Go identifier", opts.Package)
	}
	if opts.Namespace == "" {
		opts.Namespace = opts.Package
	}
	if !validNamespace(opts.Namespace) {
		return nil, nil, fmt.Errorf("emit: namespace %q is not letters, digits, '_' and '-'", opts.Namespace)
	}
	if _, ok := validationModes[opts.Validation]; !ok {
		return nil, nil, fmt.Errorf("emit: validation mode %q is not warn, strict or off", opts.Validation)
	}
	if !splitModes[opts.Split] {
		return nil, nil, fmt.Errorf("emit: split %q is not auto, none, tags or paths", opts.Split)
	}
	g := newGen(svc, opts)
	// types.go is built concurrently with the rest (it only reads the IR,
	// and writes its own copy of the state), from the start: the checks
	// below run meanwhile. Its result is dropped when they fail; a panic
	// on an IR they reject (a nil type) is theirs to report, and any
	// other is raised again here. Once they pass, the same goroutine
	// renders it, meanwhile the other files are built. A split API's
	// types are placed in packages once it is split, after the checks.
	split := g.splitMode() != SplitNone
	tg := *g
	tg.diags = nil
	var (
		types      *File // types.go rendered, nil without one
		typesPanic any
	)
	checked := make(chan bool, 1) // whether the checks passed
	typesDone := make(chan struct{})
	go func() {
		defer close(typesDone)
		if split {
			<-checked
			return
		}
		var f *generatedFile
		func() {
			defer func() {
				if r := recover(); r != nil {
					typesPanic = r
				}
			}()
			f = tg.typesFile()
		}()
		if f != nil && <-checked {
			types = &File{Name: "types.go", Content: f.render()}
		}
	}()
	g.check()
	g.checkOperations()
	if g.diags.HasErrors() {
		checked <- false
		<-typesDone
		g.diags.Sort()
		return nil, g.diags, g.diags.Err()
	}
	if split && opts.ImportPath == "" {
		checked <- false
		<-typesDone
		return nil, g.diags, fmt.Errorf("%s: %w", g.source(), ErrNoImportPath)
	}
	checked <- true
	// The registry ids are decided over all operations, before they are
	// split.
	g.remoteIDs()
	g.groups = g.split()
	if len(g.groups) > 0 {
		g.home = g.placeTypes(g.groups)
		g.pkgNames = map[string]string{opts.ImportPath: opts.Package}
		for _, grp := range g.groups {
			g.pkgNames[opts.ImportPath+"/"+grp.dir] = grp.pkg
		}
	}
	// The other files are built in order; each is rendered (its parts
	// copied into one buffer) in its own goroutine as soon as it is built.
	var (
		files []*File
		wg    sync.WaitGroup
	)
	add := func(name string, f *generatedFile) {
		if f == nil {
			return
		}
		file := &File{Name: name}
		files = append(files, file)
		wg.Go(func() { file.Content = f.render() })
	}
	if svc.Kind == ir.MCP {
		add("tools.go", g.toolsFile())
		add("client.go", g.mcpClientFile())
	} else {
		if len(g.ops) > 0 || len(g.groups) == 0 {
			add("operations.go", g.operationsFile())
		}
		add("client.go", g.httpClientFile())
		add("webhooks.go", g.webhooksFile())
		add("errors.go", g.errorsFile())
	}
	if opts.Registry {
		add("registry.go", g.registryFile())
	}
	// schemas.go after the files that decide which schema vars exist
	// (types.go declares none); in a split API, once every package's are
	// decided and the defs placed (placeDefs). The defs' order and
	// identifiers are decided before the operation packages' generators
	// copy g.
	g.sortedDefs()
	if !split {
		add("schemas.go", g.schemasFile())
	}
	// A split API's types files are built concurrently, each by its own
	// copy of the state, once the files above have decided the schema
	// vars (the types declare none).
	typeDiags := make([]diag.List, len(g.groups)+2)
	addTypes := func(i int, name string, g *gen, unreferenced bool) {
		tg := *g
		tg.diags = nil
		file := &File{Name: name}
		files = append(files, file)
		wg.Go(func() {
			if f := tg.typesFile(); f != nil {
				if unreferenced {
					tg.unreferencedDoc(f)
				}
				file.Content = f.render()
			}
			typeDiags[i] = tg.diags
		})
	}
	if split {
		addTypes(0, "types.go", g, false)
		dir := g.unreferencedDir()
		addTypes(len(typeDiags)-1, dir+"/types.go", g.sub(&opGroup{dir: dir, pkg: dir}), true)
	}
	subs := make([]*gen, len(g.groups))
	for i, grp := range g.groups {
		s := g.sub(grp)
		subs[i] = s
		addTypes(i+1, grp.dir+"/types.go", s, false)
		add(grp.dir+"/client.go", s.subClientFile(grp))
		add(grp.dir+"/operations.go", s.operationsFile())
		if opts.Registry {
			add(grp.dir+"/registry.go", s.registryFile())
		}
	}
	if split {
		g.defHome = g.placeDefs(subs)
		// A new map: the types files, being built, read the old one.
		g.pkgNames = maps.Clone(g.pkgNames)
		for home := range setOf(g.defHome) {
			g.pkgNames[opts.ImportPath+"/"+defsDir+"/"+home] = home
		}
		add("schemas.go", g.schemasFile())
		add(defsDir+"/schemas.go", g.defsFile(""))
		for _, home := range slices.Sorted(maps.Keys(setOf(g.defHome))) {
			add(defsDir+"/"+home+"/schemas.go", g.defsFile(home))
		}
		add(g.schemasetDir()+"/schemaset.go", g.allSchemasFile())
		for i, s := range subs {
			s.defHome, s.pkgNames = g.defHome, g.pkgNames
			add(g.groups[i].dir+"/schemas.go", s.subSchemasFile())
			g.diags = append(g.diags, s.diags...)
		}
	}
	<-typesDone
	if typesPanic != nil {
		panic(typesPanic)
	}
	if types != nil {
		files = append(files, types)
	}
	for _, d := range tg.diags {
		g.warn(d.Kind, d.Pos, "%s", d.Message)
	}
	wg.Wait()
	for _, l := range typeDiags {
		for _, d := range l {
			g.warn(d.Kind, d.Pos, "%s", d.Message)
		}
	}
	out := make([]File, 0, len(files))
	for _, f := range files {
		if f.Content != nil {
			out = append(out, *f)
		}
	}
	slices.SortFunc(out, func(a, b File) int { return cmp.Compare(a.Name, b.Name) })
	g.diags.Sort()
	return out, g.diags, nil
}

// gen holds the state of one Emit call.
type gen struct {
	svc   *ir.Service
	opts  Options
	diags diag.List

	types []*ir.Type          // named types to declare, sorted by name
	ops   []*ir.Operation     // sorted by GoName
	named map[string]*ir.Type // declared names
	// multipart holds the struct types sent as multipart bodies: their binary
	// fields are io.Reader.
	multipart map[*ir.Type]bool
	// schemaVars maps a compact schema to its package-level var name;
	// schemaVarNames holds those names.
	schemaVars map[string]string
	// xmlBodies is set once a schema var is made for an XML request body.
	xmlBodies      bool
	schemaVarNames map[string]bool
	// schemaVarOf holds the schema of each of those vars, for its defs.
	schemaVarOf map[string]*ir.Schema
	// defsSorted and defIDs are sortedDefs' result.
	defsSorted []*ir.Def
	defIDs     map[*ir.Def]string
	// schemaTexts holds the JSON of the schemas serialized (schemaText);
	// defSet the defs of the service (bundle), once needed.
	schemaTexts map[*ir.Schema]string
	defSet      map[*ir.Def]bool
	// remote is remoteIDs' result.
	remote map[*ir.Operation]string
	// hooks is webhookOps' result.
	hooks *[]webhookOp
	// groups are the operation packages of a split API (split).
	groups []*opGroup
	// rootPath and rootPkg are the import path and name of the root
	// package, set when g writes an operation package (sub).
	rootPath, rootPkg string
	// dir is the directory of the operation package g writes ("" for the
	// root); home maps a split API's types to the directory of the package
	// that declares them (placeTypes), the root's absent.
	dir  string
	home map[string]string
	// defHome maps a split API's defs to the directory under
	// internal/schemas of the package that declares them (placeDefs),
	// internal/schemas' own absent.
	defHome map[*ir.Def]string
	// pkgNames maps the import paths of a split API's packages to their
	// names, which its files write without an alias.
	pkgNames map[string]string
}

func newGen(svc *ir.Service, opts Options) *gen {
	g := &gen{
		svc: svc, opts: opts,
		named:          map[string]*ir.Type{},
		multipart:      map[*ir.Type]bool{},
		schemaVars:     map[string]string{},
		schemaVarNames: map[string]bool{},
		schemaVarOf:    map[string]*ir.Schema{},
		schemaTexts:    map[*ir.Schema]string{},
	}
	g.types = sortedBy(svc.Types, func(t *ir.Type) string { return t.Name })
	g.ops = sortedBy(svc.Operations, func(op *ir.Operation) string { return op.GoName })
	for _, t := range g.types {
		if t != nil {
			g.named[t.Name] = t
		}
	}
	for _, op := range g.ops {
		if op != nil && op.Body != nil && op.Body.Kind == ir.BodyMultipart && op.Body.Type != nil && op.Body.Type.Kind == ir.Struct {
			g.multipart[op.Body.Type] = true
		}
		// MCP tools may bring input and output types the loader did not
		// list in Types: declare those too, under their names.
		if op == nil || op.Tool == nil {
			continue
		}
		if in := op.Tool.InputType; in != nil && op.ParamsName != "" && g.named[op.ParamsName] == nil && (in.Name == "" || in.Name == op.ParamsName) {
			c := *in
			c.Name, c.Doc.Origin = op.ParamsName, cmp.Or(c.Doc.Origin, op.Doc.Origin)
			op.Tool.InputType = &c
			g.addExtra(&c)
		}
		if out := op.Tool.OutputType; out.Named() && g.named[out.Name] == nil {
			g.addExtra(out)
		}
	}
	return g
}

func (g *gen) addExtra(t *ir.Type) {
	g.named[t.Name] = t
	g.types = sortedBy(append(g.types, t), func(t *ir.Type) string { return t.Name })
}

// sortedBy returns a copy of s sorted stably by key (nil first: check
// reports them).
func sortedBy[T any](s []*T, key func(*T) string) []*T {
	s = slices.Clone(s)
	slices.SortStableFunc(s, func(a, b *T) int {
		if a == nil || b == nil {
			return cmp.Compare(nilRank(a), nilRank(b))
		}
		return cmp.Compare(key(a), key(b))
	})
	return s
}

func nilRank[T any](p *T) int {
	if p == nil {
		return 0
	}
	return 1
}

// check validates the names the IR gives, so that no hostile or broken
// name reaches the output as code.
func (g *gen) check() {
	seen := map[string]diag.Pos{}
	declare := func(name string, pos diag.Pos, what string) {
		if !naming.IsExported(name) {
			g.diags.Errorf(pos, "%s name %q is not an exported Go identifier", what, name)
			return
		}
		if prev, dup := seen[name]; dup {
			g.diags.Errorf(pos, "%s name %q is already declared (at %s)", what, name, prev)
			return
		}
		seen[name] = pos
	}
	for _, r := range ir.Reserved {
		seen[r] = diag.Pos{File: "(reserved by opsgen)"}
	}
	for _, t := range g.types {
		if t == nil {
			g.diags.Errorf(diag.Pos{File: g.svc.Source}, "nil type in service")
			continue
		}
		declare(t.Name, t.Pos, "type")
	}
	for _, t := range g.types {
		if t != nil {
			g.checkType(t, true, map[*ir.Type]bool{}, declare)
		}
	}
	for _, s := range g.svc.SecuritySchemes {
		if s == nil || !naming.IsExported(s.GoName) {
			g.diags.Errorf(diag.Pos{File: g.svc.Source}, "security scheme has no exported Go name")
			continue
		}
		for _, n := range securityOptionNames(s) {
			declare(n, diag.Pos{File: g.svc.Source, Pointer: "/components/securitySchemes/" + s.Name}, "security option")
		}
	}
	methods := map[string]diag.Pos{}
	shared := map[*ir.ErrorType]bool{} // declared error types of component responses
	for _, m := range ir.ReservedMethods {
		methods[m] = diag.Pos{File: "(reserved by opsgen)"}
	}
	for _, op := range g.ops {
		if op == nil {
			g.diags.Errorf(diag.Pos{File: g.svc.Source}, "nil operation in service")
			continue
		}
		if !naming.IsExported(op.GoName) {
			g.diags.Errorf(op.Pos, "operation name %q is not an exported Go identifier", op.GoName)
		}
		if prev, dup := methods[op.GoName]; dup {
			g.diags.Errorf(op.Pos, "operation %q: method name %q is already used (at %s)", op.ID, op.GoName, prev)
		}
		methods[op.GoName] = op.Pos
		if op.Kind == ir.MCPTool {
			if op.Tool == nil {
				g.diags.Errorf(op.Pos, "MCP operation %q has no tool", op.ID)
			} else {
				g.checkType(op.Tool.InputType, false, map[*ir.Type]bool{}, declare)
				g.checkType(op.Tool.OutputType, false, map[*ir.Type]bool{}, declare)
			}
			continue
		}
		if op.ParamsName != "" {
			if g.named[op.ParamsName] != nil {
				g.diags.Errorf(op.Pos, "parameters struct %q of operation %q collides with a type", op.ParamsName, op.ID)
			} else {
				declare(op.ParamsName, op.Pos, "parameters struct")
			}
		} else if len(op.Params) > 0 {
			g.diags.Errorf(op.Pos, "operation %q has parameters but no parameters struct name", op.ID)
		}
		fields := map[string]bool{}
		for _, p := range op.Params {
			if p == nil || !naming.IsExported(p.GoName) || fields[p.GoName] {
				g.diags.Errorf(op.Pos, "operation %q has a parameter without an exported, unique Go name", op.ID)
			} else {
				fields[p.GoName] = true
				g.checkType(p.Type, false, map[*ir.Type]bool{}, declare)
			}
		}
		if op.Body != nil {
			g.checkType(op.Body.Type, false, map[*ir.Type]bool{}, declare)
		}
		for _, r := range op.Responses {
			if r != nil {
				g.checkType(r.Type, false, map[*ir.Type]bool{}, declare)
				switch {
				case r.Shared != nil:
					if r.ErrorName != r.Shared.Name {
						g.diags.Errorf(op.Pos, "error type %q of operation %q is not its component response's, %q", r.ErrorName, op.ID, r.Shared.Name)
					} else if !shared[r.Shared] {
						shared[r.Shared] = true
						declare(r.ErrorName, r.Shared.Pos, "error type")
					}
				case r.ErrorName != "":
					declare(r.ErrorName, op.Pos, "error type")
				}
			}
		}
	}
	g.checkWebhooks(declare)
}

// checkOperations checks Options.Operations against the service: every id
// names an HTTP operation; a declared cursor or page is one of its query
// parameters; its pages method does not collide with a method.
func (g *gen) checkOperations() {
	byID := map[string]*ir.Operation{}
	methods := map[string]bool{}
	for _, op := range g.ops {
		if op != nil {
			byID[op.ID] = op
			methods[op.GoName] = true
		}
	}
	for _, id := range slices.Sorted(maps.Keys(g.opts.Operations)) {
		o := g.opts.Operations[id]
		at := o.Pos
		if at.File == "" {
			at = diag.Pos{Pointer: "/operations/" + id}
		}
		op := byID[id]
		if op == nil || op.Kind != ir.HTTPCall {
			g.diags.Errorf(at, "operations: %s is not an HTTP operation of %s", quoted(id), g.source())
			continue
		}
		if p := o.Paging; p != nil && !p.Disabled {
			for _, name := range []string{p.Cursor, p.Page} {
				if name != "" && !slices.ContainsFunc(op.Params, func(q *ir.Param) bool { return q != nil && q.In == ir.InQuery && q.Name == name }) {
					g.diags.Errorf(at, "operations: %s: pagination parameter %s is not a query parameter of the operation", quoted(id), quoted(name))
				}
			}
			if op.Stream {
				g.diags.Errorf(at, "operations: %s: an event stream has no pages", quoted(id))
			}
			if op.Result != nil {
				for _, ptr := range []struct{ key, value string }{{"next", p.Next}, {"items", p.Items}} {
					if miss := missingMember(op.Result.Type, ptr.value); miss != "" {
						g.warn(diag.Other, at, "operations: %s: pagination %s %s names a response member the schema does not declare (%s): unless the server sends it anyway, iteration stops after the first page", quoted(id), ptr.key, quoted(ptr.value), miss)
					}
				}
			}
		}
	}
	for _, op := range g.ops {
		if op != nil && g.paging(op) != "" && methods[op.GoName+"Pages"] {
			g.diags.Errorf(op.Pos, "operation %q: its pages method %s collides with another operation's method; pin another name (config names) or disable its pagination", op.ID, op.GoName+"Pages")
		}
	}
}

// checkType checks the Go names inside t (fields, enum constants, union
// variants) and that every named type it refers to is declared. The names
// of a named type are checked where it is declared (root).
func (g *gen) checkType(t *ir.Type, root bool, seen map[*ir.Type]bool, declare func(string, diag.Pos, string)) {
	if t == nil || seen[t] {
		return
	}
	seen[t] = true
	if t.Named() && !root {
		if g.named[t.Name] == nil {
			g.diags.Errorf(t.Pos, "type %q is used but not declared in the service", t.Name)
		}
		return
	}
	fields := map[string]bool{}
	if t.AdditionalProperties != nil {
		fields["AdditionalProperties"] = true
	}
	for _, f := range t.Fields {
		if f == nil || !naming.IsExported(f.Name) || fields[f.Name] {
			g.diags.Errorf(t.Pos, "type %s has a field without an exported, unique Go name", t.Name)
			continue
		}
		fields[f.Name] = true
		g.checkType(f.Type, false, seen, declare)
	}
	if t.Kind == ir.Enum && t.Named() {
		for _, v := range t.Values {
			if v != nil && v.Value != nil {
				declare(v.Name, t.Pos, "enum constant")
			}
		}
	}
	if t.Kind == ir.Union && t.Named() {
		declare(cmp.Or(t.VariantKind, t.Name+"Kind"), t.Pos, "union variant type")
		declare(cmp.Or(t.ValueMatch, "Match"+t.Name), t.Pos, "union match function")
		variants := map[string]bool{}
		for _, v := range t.Variants {
			if v == nil || !naming.IsExported(v.Name) || variants[v.Name] {
				g.diags.Errorf(t.Pos, "union %s has a variant without an exported, unique Go name", t.Name)
				continue
			}
			variants[v.Name] = true
			declare(cmp.Or(v.Constructor, t.Name+"From"+v.Name), t.Pos, "union constructor")
			declare(cmp.Or(v.Const, v.Name+t.Name), t.Pos, "union variant constant")
			g.checkType(v.Type, false, seen, declare)
		}
	}
	g.checkType(t.AdditionalProperties, false, seen, declare)
	g.checkType(t.Elem, false, seen, declare)
	for _, it := range t.Items {
		g.checkType(it, false, seen, declare)
	}
}

func validNamespace(ns string) bool {
	return ns != "" && strings.IndexFunc(ns, func(r rune) bool {
		return r >= 128 || !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-')
	}) < 0
}

// newFile returns a file of the generated package with the generated-code header.
func (g *gen) newFile() *generatedFile {
	f := newGeneratedFile(g.opts.Package)
	f.names = g.pkgNames
	v := sanitize(g.opts.Version)
	if v != "" {
		v = " " + v
	}
	f.header = append(f.header, commentLine("Code generated by opsgen"+v+". DO NOT EDIT."))
	if src := g.source(); src != "" {
		f.header = append(f.header, commentLine("Source: "+src))
	}
	return f
}

// source is the service's source path as written in headers: never absolute.
func (g *gen) source() string {
	s := sanitize(strings.ReplaceAll(g.svc.Source, `\`, "/"))
	if path.IsAbs(s) || (len(s) > 2 && s[1] == ':') {
		s = path.Base(s)
	}
	return s
}

// setOf returns the set of m's values.
func setOf[K comparable, V comparable](m map[K]V) map[V]bool {
	set := make(map[V]bool, len(m))
	for _, v := range m {
		set[v] = true
	}
	return set
}
