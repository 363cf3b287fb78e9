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
	// package's compile loads the root's types again. Graph v1.0 by tags
	// made 478 packages that built in 740 s of CPU; by paths, 67 in 340 s
	// (the largest compile, the root's, 1.2 GB either way).
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
	s.ops = grp.ops
	s.diags = nil
	s.schemaVars = map[string]string{}
	s.schemaVarNames = map[string]bool{}
	s.schemaVarOf = map[string]*ir.Schema{}
	s.xmlBodies = false
	s.groups = nil
	return &s
}

// typeRef is the Go type of the named type name: declared in this package,
// or the root's when g writes an operation package.
func (g *gen) typeRef(name string) goType {
	if g.rootPath != "" {
		return qual(g.rootPath, name)
	}
	return named(name)
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
	s += ". The types are declared here, shared by all. The packages (subdirectories of this one, with their number of operations):"
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
	d.para("Create its client from the API's: " + grp.pkg + ".New(" + root + ".NewClient(...)). Its methods take the parameter structs declared here and the types of package " + root + " (" + g.rootPath + "), and return a runtime.ResponseEnvelope; call options are " + root + "'s With* call options.")
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
