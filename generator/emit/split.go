package emit

import (
	"cmp"
	"go/token"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
)

// Split modes (Options.Split): how the operations of an HTTP API are laid
// out in packages.
const (
	// SplitAuto splits like SplitPaths an API of more than SplitThreshold
	// operations, and keeps a smaller one in one package (the default).
	// Paths rather than tags: the packages are fewer and larger, and each
	// package's compile loads the root's types again. With every type in
	// the root, Graph v1.0 by tags made 478 packages that built in 740 s
	// of CPU, by paths 67 in 340 s; by paths with large groups split
	// again (SplitGroupMax) and the types placed (placeTypes), 242 build
	// in 431 s.
	SplitAuto = "auto"
	// SplitNone keeps every operation in the one package.
	SplitNone = "none"
	// SplitTags puts each operation in the package of its first tag, the
	// parts of a dotted tag joined ("users.calendar": userscalendar); an
	// untagged operation goes by its path, as SplitPaths.
	SplitTags = "tags"
	// SplitPaths puts each operation in the package of the first literal
	// segment of its path, version segments skipped ("/v1/users/{id}":
	// users).
	SplitPaths = "paths"
)

// SplitThreshold is the number of operations above which SplitAuto splits.
// GitHub's description (about 1,100 operations) compiles as one package in
// 52 s of CPU at 1.46 GB peak, well within an ordinary CI runner;
// Microsoft Graph v1.0 (11,422 operations) took 159 s and 5.2 GB. Memory
// grows with the operations, so one package of up to 2,000 stays near
// 2 GB while the APIs above it (Graph, graph-beta, Azure's largest) are
// split.
const SplitThreshold = 2000

// SplitGroupMax is the number of operations above which a package of
// SplitPaths is split again, by the second literal segment of the paths
// ("/users/{id}/calendar/events": userscalendar). A program that calls one
// operation compiles its package's Client with every method: with Graph
// v1.0's /users as one package (1,967 operations) a one-operation program
// took 100 s to build from a clean cache, the main package's compile alone
// 8 s for the method set's instantiated types.
const SplitGroupMax = 300

// splitModes are the valid values of Options.Split.
var splitModes = map[string]bool{"": true, SplitAuto: true, SplitNone: true, SplitTags: true, SplitPaths: true}

// opGroup is one operation package of a split API.
type opGroup struct {
	dir    string          // the subdirectory of the root's directory
	pkg    string          // the package name: dir
	labels map[string]bool // the tags or path segments that led here
	ops    []*ir.Operation // sorted by GoName
}

// splitMode is the mode that applies to g's service: SplitNone, SplitTags
// or SplitPaths.
func (g *gen) splitMode() string {
	switch {
	case g.svc.Kind != ir.OpenAPI:
		return SplitNone
	case g.opts.Split == "" || g.opts.Split == SplitAuto:
		if len(g.ops) > SplitThreshold {
			return SplitPaths
		}
		return SplitNone
	}
	return g.opts.Split
}

// split groups the operations into packages by the split mode, leaves in
// g.ops those that stay in the root package and returns the groups sorted
// by directory (none when the API is not split).
func (g *gen) split() []*opGroup {
	mode := g.splitMode()
	if mode == SplitNone {
		return nil
	}
	byDir := map[string]*opGroup{}
	var root []*ir.Operation
	for _, op := range g.ops {
		dir, label := g.groupDir(op, mode)
		if dir == "" {
			g.warn(diag.Other, op.Pos, "operation %s has no tag or literal path segment that makes a package name; it stays in the root package", quoted(op.ID))
			root = append(root, op)
			continue
		}
		grp := byDir[dir]
		if grp == nil {
			grp = &opGroup{dir: dir, pkg: dir, labels: map[string]bool{}}
			byDir[dir] = grp
		}
		grp.labels[label] = true
		grp.ops = append(grp.ops, op)
	}
	if len(byDir) == 0 {
		return nil
	}
	if mode == SplitPaths {
		g.splitLarge(byDir)
	}
	g.ops = root
	groups := slices.Collect(maps.Values(byDir))
	slices.SortFunc(groups, func(a, b *opGroup) int { return cmp.Compare(a.dir, b.dir) })
	return groups
}

// groupDir returns the directory of op's package and what it was made of
// (the tag, or the path segment); "" when nothing makes a package name.
func (g *gen) groupDir(op *ir.Operation, mode string) (dir, label string) {
	// A dotted tag is flattened, not nested: nested packages would share
	// names (Graph's users.actions, groups.actions and drives.Actions
	// would all be package actions), which a program importing two of
	// them must rename.
	if mode == SplitTags && len(op.Tags) > 0 {
		if name := g.packageName(op.Tags[0]); name != "" {
			return name, "tag " + quoted(op.Tags[0])
		}
	}
	for seg := range strings.SplitSeq(op.Path, "/") {
		if strings.ContainsAny(seg, "{}") || versionSegment.MatchString(seg) {
			continue
		}
		if name := g.packageName(seg); name != "" {
			return name, "path /" + seg
		}
	}
	return "", ""
}

// splitLarge splits again, by their second literal path segment, the
// groups of more than SplitGroupMax operations. An operation whose path has
// no second literal segment, or one that is not a plain name (Graph's
// "microsoft.graph.delta()", an action of the first), stays in its group; a
// second-level group joins a first-level one of the same name.
func (g *gen) splitLarge(byDir map[string]*opGroup) {
	for _, dir := range slices.Sorted(maps.Keys(byDir)) {
		grp := byDir[dir]
		if len(grp.ops) <= SplitGroupMax {
			continue
		}
		var keep []*ir.Operation
		for _, op := range grp.ops {
			segs := literalSegments(op.Path)
			if len(segs) < 2 || !plainSegment.MatchString(segs[1]) {
				keep = append(keep, op)
				continue
			}
			sub := g.packageName(segs[0] + segs[1])
			if sub == "" || sub == dir {
				keep = append(keep, op)
				continue
			}
			to := byDir[sub]
			if to == nil {
				to = &opGroup{dir: sub, pkg: sub, labels: map[string]bool{}}
				byDir[sub] = to
			}
			to.labels["paths /"+segs[0]+"/…/"+segs[1]] = true
			to.ops = append(to.ops, op)
		}
		grp.ops = keep
		if len(keep) == 0 {
			delete(byDir, dir)
		}
	}
}

// literalSegments returns the segments of a path that are neither a
// parameter nor a version.
func literalSegments(p string) []string {
	var segs []string
	for seg := range strings.SplitSeq(p, "/") {
		if seg != "" && !strings.ContainsAny(seg, "{}") && !versionSegment.MatchString(seg) {
			segs = append(segs, seg)
		}
	}
	return segs
}

// plainSegment matches a path segment that names a part of the API, not an
// action or a function ("calendar", "joined-teams").
var plainSegment = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`)

// versionSegment matches the path segments that name a version or the API
// itself rather than a part of it ("v1", "v2beta", "1.0", "api").
var versionSegment = regexp.MustCompile(`^(?i:v[0-9]+([._][0-9]+)*([a-z]+[0-9]*)?|[0-9]+([._][0-9]+)*|api|rest)$`)

// reservedDirs are directory names the go command treats specially.
var reservedDirs = map[string]bool{"internal": true, "testdata": true, "vendor": true, "main": true}

// packageName makes a package name of a tag or path segment: lower-case
// ASCII letters and digits, no leading digit; a Go keyword, a directory
// name the go command treats specially or the root's name gets "ops"
// appended. "" when nothing is left.
func (g *gen) packageName(s string) string {
	name := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			return r
		case r >= 'A' && r <= 'Z':
			return r + ('a' - 'A')
		}
		return -1
	}, s)
	name = strings.TrimLeft(name, "0123456789")
	if name == "" {
		return ""
	}
	if token.IsKeyword(name) || reservedDirs[name] || name == g.opts.Package {
		name += "ops"
	}
	return name
}

// sub returns the generator of group grp's package: its operations, its
// package name, named types qualified by the root's import path, and its
// own schema vars.
func (g *gen) sub(grp *opGroup) *gen {
	s := *g
	s.opts.Package = grp.pkg
	s.rootPath, s.rootPkg = g.opts.ImportPath, g.opts.Package
	s.dir = grp.dir
	s.ops = grp.ops
	s.diags = nil
	s.schemaVars = map[string]string{}
	s.schemaVarNames = map[string]bool{}
	s.schemaVarOf = map[string]*ir.Schema{}
	s.xmlBodies = false
	s.groups = nil
	return &s
}

// typeRef is the Go type of the named type name: declared in the package g
// writes, or in another one of the API (placeTypes).
func (g *gen) typeRef(name string) goType {
	home := g.home[name]
	switch {
	case home == g.dir:
		return named(name)
	case home == "":
		return qual(g.opts.ImportPath, name)
	}
	return qual(g.opts.ImportPath+"/"+home, name)
}

// placeTypes decides where each named type of a split API is declared: in
// the operation package whose operations alone use it, in the root, or,
// when no operation uses it, in package unreferenced. A program calling one
// operation then compiles the types of one operation package and the
// root's shared ones, not all of them: of Graph v1.0's 6,073 types, 3,549
// are declared in its operation packages, 986 in unreferenced and 1,538 in
// the root.
//
// The root keeps what its own declarations use (the operations left in it,
// webhooks, the shared error types), what two or more packages' operations
// use, and everything those reach, so that it never imports an operation
// package; a type whose names would collide with an operation package's
// own (New) stays there too. An operation package's types refer only to
// its own and the root's; package unreferenced may refer to any.
func (g *gen) placeTypes(groups []*opGroup) map[string]string {
	// uses[name] is the set of groups (by index) whose operations reach
	// the type; rootUse the names the root reaches.
	uses := usage[string]{}
	rootUse := map[string]bool{}
	// reach marks the named types t refers to, and those their
	// declarations refer to; mark reports whether a name is new.
	var reach, body func(t *ir.Type, mark func(string) bool)
	reach = func(t *ir.Type, mark func(string) bool) {
		switch {
		case t == nil:
		case t.Named():
			if d := g.named[t.Name]; d != nil && mark(t.Name) {
				body(d, mark)
			}
		default:
			body(t, mark)
		}
	}
	body = func(t *ir.Type, mark func(string) bool) {
		for _, f := range t.Fields {
			if f != nil {
				reach(f.Type, mark)
			}
		}
		for _, v := range t.Variants {
			if v != nil {
				reach(v.Type, mark)
			}
		}
		for _, it := range t.Items {
			reach(it, mark)
		}
		reach(t.Elem, mark)
		reach(t.AdditionalProperties, mark)
	}
	markRoot := setMarker(rootUse)
	opTypes := func(op *ir.Operation, mark, markShared func(*ir.Type)) {
		for _, p := range op.Params {
			if p != nil {
				mark(p.Type)
			}
		}
		if op.Body != nil {
			mark(op.Body.Type)
		}
		for _, r := range op.Responses {
			if r == nil {
				continue
			}
			if r.Shared != nil {
				markShared(r.Type) // the body of a root error type
			} else {
				mark(r.Type)
			}
		}
	}
	toRoot := func(t *ir.Type) { reach(t, markRoot) }
	for i, grp := range groups {
		markGroup := uses.marker(i)
		for _, op := range grp.ops {
			opTypes(op, func(t *ir.Type) { reach(t, markGroup) }, toRoot)
		}
	}
	for _, op := range g.ops {
		opTypes(op, toRoot, toRoot)
	}
	for _, op := range g.svc.Webhooks {
		if op != nil {
			opTypes(op, toRoot, toRoot)
		}
	}
	for _, t := range g.types {
		if n := len(uses[t.Name]); n > 1 || n == 1 && g.collidesInGroup(t) {
			toRoot(t)
		}
	}
	home := map[string]string{}
	for _, t := range g.types {
		switch {
		case rootUse[t.Name]:
		case len(uses[t.Name]) == 0:
			home[t.Name] = g.unreferencedDir()
		default:
			for i := range uses[t.Name] {
				home[t.Name] = groups[i].dir
			}
		}
	}
	return home
}

// placeDefs decides, as placeTypes does for the types, which defs package
// of a split API declares each def (the schema of a named type): the one
// of the operation package whose schemas alone reach it
// (internal/schemas/<dir>defs), unreferenceddefs when none does,
// or internal/schemas (""), which keeps what the root's schemas reach, what
// two or more packages' schemas reach, and all those reach. subs are the
// generators of the operation packages, their schema vars decided.
func (g *gen) placeDefs(subs []*gen) map[*ir.Def]string {
	defs, _ := g.sortedDefs()
	uses := usage[*ir.Def]{}
	shared := map[*ir.Def]bool{}
	deps := map[*ir.Def][]*ir.Def{}
	var reach func(d *ir.Def, mark func(*ir.Def) bool)
	reach = func(d *ir.Def, mark func(*ir.Def) bool) {
		if !mark(d) || d.Schema == nil {
			return
		}
		ds, ok := deps[d]
		if !ok {
			ds = g.directDefs(d.Schema)
			deps[d] = ds
		}
		for _, dep := range ds {
			reach(dep, mark)
		}
	}
	fromVars := func(s *gen, mark func(*ir.Def) bool) {
		for _, name := range slices.Sorted(maps.Keys(s.schemaVarOf)) {
			for _, d := range g.directDefs(s.schemaVarOf[name]) {
				reach(d, mark)
			}
		}
	}
	markShared := setMarker(shared)
	fromVars(g, markShared)
	for i, s := range subs {
		fromVars(s, uses.marker(i))
	}
	for _, d := range defs {
		if len(uses[d]) > 1 {
			reach(d, markShared)
		}
	}
	home := map[*ir.Def]string{}
	for _, d := range defs {
		switch {
		case shared[d]:
		case len(uses[d]) == 0:
			home[d] = g.unreferencedDir() + "defs"
		default:
			for i := range uses[d] {
				home[d] = subs[i].dir + "defs"
			}
		}
	}
	return home
}

// usage maps what packages use (types, defs) to the set of the packages
// (by index) that do.
type usage[K comparable] map[K]map[int]bool

// marker returns the function that records that package i uses k and
// reports whether it had not before.
func (u usage[K]) marker(i int) func(k K) bool {
	return func(k K) bool {
		if u[k] == nil {
			u[k] = map[int]bool{}
		}
		if u[k][i] {
			return false
		}
		u[k][i] = true
		return true
	}
}

// setMarker returns the function that adds k to set and reports whether
// it was not there before.
func setMarker[K comparable](set map[K]bool) func(k K) bool {
	return func(k K) bool {
		if set[k] {
			return false
		}
		set[k] = true
		return true
	}
}

// unreferencedDir is the directory of package unreferenced.
func (g *gen) unreferencedDir() string { return freeDir(g.groups, "unreferenced") }

// schemasetDir is the directory of package schemaset (allSchemasFile).
func (g *gen) schemasetDir() string { return freeDir(g.groups, "schemaset") }

// freeDir returns name, or name+"pkg" when an operation package has it.
func freeDir(groups []*opGroup, name string) string {
	if slices.ContainsFunc(groups, func(grp *opGroup) bool { return grp.dir == name }) {
		return name + "pkg"
	}
	return name
}

// unreferencedDoc sets the package doc of package unreferenced's file f.
func (g *gen) unreferencedDoc(f *generatedFile) {
	d := newDoc("Package " + g.opts.Package + " declares the types of " + g.source() + " that no operation refers to, directly or through another type; generated by opsgen.")
	d.para("They are declared apart so that a program compiles them only when it uses them. A schema no operation names is typically a variant that a response's discriminator may announce (Graph's \"@odata.type\"), for the caller to decode from a raw body. The types the operations use are in package " + g.rootPkg + " (" + g.rootPath + ") and its operation packages.")
	f.pkgDoc = commentLines(d.lines(), true)
}

// groupNames are the exported names every operation package declares.
var groupNames = map[string]bool{"Client": true, "New": true, "CallOption": true, "Register": true, "TypedError": true}

// collidesInGroup reports whether a name that declaring t declares is one
// an operation package declares itself.
func (g *gen) collidesInGroup(t *ir.Type) bool {
	if groupNames[t.Name] {
		return true
	}
	for _, v := range t.Values {
		if v != nil && groupNames[v.Name] {
			return true
		}
	}
	if t.Kind == ir.Union {
		if groupNames[cmp.Or(t.VariantKind, t.Name+"Kind")] || groupNames[cmp.Or(t.ValueMatch, "Match"+t.Name)] {
			return true
		}
		for _, v := range t.Variants {
			if v != nil && (groupNames[cmp.Or(v.Constructor, t.Name+"From"+v.Name)] || groupNames[cmp.Or(v.Const, v.Name+t.Name)]) {
				return true
			}
		}
	}
	return false
}

// splitDoc is the root package doc's paragraph on the operation packages.
func (g *gen) splitDoc() string {
	if len(g.groups) == 0 {
		return ""
	}
	s := "The operations are in packages along the API's structure, each with its own Client, made from this package's with New: " + g.opts.Package + ".NewClient(...) calls nothing itself"
	if len(g.ops) > 0 {
		s = "Most operations are in packages along the API's structure, each with its own Client, made from this package's with New; the others are methods of Client"
	}
	s += ". A type that only one package's operations use is declared in that package"
	if setOf(g.home)[g.unreferencedDir()] {
		s += ", one that no operation uses in package " + g.unreferencedDir()
	}
	s += "; the others are declared here, shared by all. The packages (subdirectories of this one, with their number of operations):"
	var pkgs []string
	for _, grp := range g.groups {
		pkgs = append(pkgs, grp.dir+" ("+strconv.Itoa(len(grp.ops))+")")
	}
	return s + " " + strings.Join(pkgs, ", ") + "."
}

// runtimeMethod declares (*Client).Runtime, through which the operation
// packages' clients call.
func (g *gen) runtimeMethod(f *generatedFile) {
	if len(g.groups) == 0 {
		return
	}
	f.write(newDoc("Runtime returns the runtime client c calls through, with c's options. The operation packages' New functions take it from c; callers have no need of it."), func(w *textWriter) {
		w.P("func (c *Client) Runtime() *", qual(pkgHTTP, "Client"), " {")
		w.P("\treturn c.c")
		w.P("}")
	})
}

// subClientFile declares the package doc, Client, New and CallOption of an
// operation package.
func (g *gen) subClientFile(grp *opGroup) *generatedFile {
	f := g.newFile()
	root := g.rootPkg
	title := cmp.Or(sanitize(g.svc.Title), "the API of "+g.source())
	labels := slices.Sorted(maps.Keys(grp.labels))
	d := newDoc("Package " + grp.pkg + " holds " + strconv.Itoa(len(grp.ops)) + " operations of " + title + " (" + strings.Join(labels, ", ") + "), generated by opsgen from " + g.source() + ".")
	d.para("Create its client from the API's: " + grp.pkg + ".New(" + root + ".NewClient(...)). Its methods take the parameter structs declared here, the types only its operations use, declared here too, and the shared types of package " + root + " (" + g.rootPath + "), and return a runtime.ResponseEnvelope; call options are " + root + "'s With* call options.")
	f.pkgDoc = commentLines(d.lines(), true)
	f.write(newDoc("Client calls the operations of this package. Create one with New; it is safe for concurrent use."), func(w *textWriter) {
		w.P("type Client struct {")
		w.P("\tc *", qual(pkgHTTP, "Client"))
		w.P("}")
	})
	f.write(newDoc("New returns the client of this package's operations, calling through c: its server URL, credentials and options."), func(w *textWriter) {
		w.P("func New(c *", qual(g.rootPath, "Client"), ") *Client {")
		w.P("\treturn &Client{c: c.Runtime()}")
		w.P("}")
	})
	f.write(newDoc("CallOption configures one call: "+root+"'s WithRequestHeader, WithRequestEditor, WithCallValidation, WithCallBaseURL, WithCallTimeout, WithCallRetry, WithCallReconnect, WithRawBody."), func(w *textWriter) {
		w.P("type CallOption = ", qual(pkgHTTP, "CallOption"))
	})
	return f
}

// subSchemasFile declares the schema vars of an operation package, each
// referring to the defs of the API's defs package (defsFile); nil when there
// are none.
func (g *gen) subSchemasFile() *generatedFile {
	if len(g.schemaVars) == 0 {
		return nil
	}
	f := g.newFile()
	_, ids := g.sortedDefs()
	g.schemaVarsDecl(f, ids, nil)
	return f
}

// typeText writes the root's identifier name as f refers to it.
func (g *gen) typeText(f *generatedFile, name string) string {
	return f.typeText(g.typeRef(name))
}
