// Package config reads opsgen.yaml, the file that tells opsgen what to
// generate: one Go package from one source document (an OpenAPI document or
// an MCP tool listing).
//
// A config is checked twice: against its JSON Schema (Schema, shipped in
// this package), so that every mistake is reported with its line and column,
// and then decoded strictly (unknown keys rejected) into Config.
//
// One config makes one Go package, and a package has one source: a second
// source would declare a second Client in the same package. Use one config
// per package (they can live side by side in different directories).
package config

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/jsonptr"
	"gopkg.in/yaml.v3"
)

// Schema is the JSON Schema (draft 2020-12) of opsgen.yaml.
//
//go:embed opsgen.schema.json
var Schema []byte

// Config is an opsgen.yaml file.
type Config struct {
	// Package is the Go package name of the generated code.
	Package string `yaml:"package" json:"package"`
	// Output is the output directory, relative to the config file.
	Output string `yaml:"output" json:"output"`
	// Registry makes the generated package declare Register(r *runtime.Registry).
	Registry bool `yaml:"registry,omitempty" json:"registry,omitempty"`
	// Namespace is the registry id namespace; Load and Check default it to Package.
	Namespace string `yaml:"namespace,omitempty" json:"namespace,omitempty"`
	// Sources holds the source document; exactly one.
	Sources []Source `yaml:"sources" json:"sources"`
	// Client holds defaults for the generated client.
	Client Client `yaml:"client,omitempty" json:"client,omitempty"`
	// Operations holds settings of single operations, by operation id.
	Operations map[string]*Operation `yaml:"operations,omitempty" json:"operations,omitempty"`
}

// Operation holds the settings of one operation.
type Operation struct {
	// Timeout is the operation's default timeout, a Go duration ("30s");
	// it replaces client.timeout (WithOperationTimeout overrides it).
	Timeout string `yaml:"timeout,omitempty" json:"timeout,omitempty"`
	// Pagination declares how the operation's pages follow each other; it
	// adds a <Op>Pages method.
	Pagination *Pagination `yaml:"pagination,omitempty" json:"pagination,omitempty"`

	// Pos is where the operation is written in the config file.
	Pos diag.Pos `yaml:"-" json:"-"`
}

// Pagination is how an operation's pages follow each other: Link, Cursor
// with Next, or Page (with Items). See httpclient.Paging.
type Pagination struct {
	// Link follows the Link header's rel="next" URL (detected when the
	// spec declares a Link response header; set it for specs that do not).
	Link bool `yaml:"link,omitempty" json:"link,omitempty"`
	// Cursor is the query parameter that takes the next page's cursor.
	Cursor string `yaml:"cursor,omitempty" json:"cursor,omitempty"`
	// Next is the JSON pointer of the next cursor in the response body.
	Next string `yaml:"next,omitempty" json:"next,omitempty"`
	// Page is the query parameter of a page number.
	Page string `yaml:"page,omitempty" json:"page,omitempty"`
	// Items is the JSON pointer of a page's items ("" the body): with Page,
	// an empty page ends iteration.
	Items string `yaml:"items,omitempty" json:"items,omitempty"`
	// Disabled turns off a detected pagination (link: the spec's Link
	// header) for this operation.
	Disabled bool `yaml:"disabled,omitempty" json:"disabled,omitempty"`
}

// Source is one source document: OpenAPI or MCP is set, not both.
type Source struct {
	// OpenAPI is the path of an OpenAPI 3.0-3.2 or Swagger 2.0 document,
	// relative to the config file.
	OpenAPI string `yaml:"openapi,omitempty" json:"openapi,omitempty"`
	// AllowRemoteRefs lets the OpenAPI loader follow $refs to http(s) URLs.
	AllowRemoteRefs bool `yaml:"allowRemoteRefs,omitempty" json:"allowRemoteRefs,omitempty"`
	// Root is the directory, relative to the config file, that every local
	// file the source reads must be inside (symbolic links included): the
	// OpenAPI document and the files its $refs reach, or the MCP listing
	// and its outputSchemas files; default: the config file's directory.
	// Set it to widen that, for a document that shares files with others
	// in a parent directory.
	Root string `yaml:"root,omitempty" json:"root,omitempty"`
	// Include and Exclude select operations (see ir.Filter).
	Include *Selector `yaml:"include,omitempty" json:"include,omitempty"`
	Exclude *Selector `yaml:"exclude,omitempty" json:"exclude,omitempty"`
	// Names pins Go names by operation id, tool name or JSON pointer (a
	// component schema's, or a component response's for its error type).
	Names map[string]string `yaml:"names,omitempty" json:"names,omitempty"`
	// Types maps a schema format to the Go type of its values,
	// "import/path.Name" (uuid: github.com/google/uuid.UUID), over the
	// built-in table (jsonschema.FormatTypes); x-go-type pins one schema.
	Types map[string]string `yaml:"types,omitempty" json:"types,omitempty"`
	// KeepUnknownMembers keeps the members an object's schema does not
	// declare (forward compatibility): every struct type without an
	// additionalProperties schema gets AdditionalProperties
	// (map[string]json.RawMessage) holding them as received, which
	// MarshalJSON writes back. Such types are decoded by encoding/json,
	// more slowly than the others; off by default.
	KeepUnknownMembers bool `yaml:"keepUnknownMembers,omitempty" json:"keepUnknownMembers,omitempty"`

	// MCP is the path of an MCP tools/list result, relative to the config file.
	MCP string `yaml:"mcp,omitempty" json:"mcp,omitempty"`
	// Convention is the default content convention of every tool.
	Convention string `yaml:"convention,omitempty" json:"convention,omitempty"`
	// Conventions sets the convention of single tools by name.
	Conventions map[string]string `yaml:"conventions,omitempty" json:"conventions,omitempty"`
	// OutputSchemas supplies output schemas for tools that declare none.
	OutputSchemas map[string]OutputSchema `yaml:"outputSchemas,omitempty" json:"outputSchemas,omitempty"`

	// Pos is where the source is written in the config file (zero when the
	// config was built in code).
	Pos diag.Pos `yaml:"-" json:"-"`
}

// Selector lists operations by tag, operation id (or tool name) and path.
type Selector struct {
	Tags       []string `yaml:"tags,omitempty" json:"tags,omitempty"`
	Operations []string `yaml:"operations,omitempty" json:"operations,omitempty"`
	Paths      []string `yaml:"paths,omitempty" json:"paths,omitempty"`
}

// OutputSchema is a tool's output schema: either inline or the path of a
// JSON or YAML file relative to the config file.
type OutputSchema struct {
	File   string          `json:"file,omitempty"`
	Inline json.RawMessage `json:"inline,omitempty"`
}

// UnmarshalYAML reads a string as a file path and anything else as an
// inline schema.
func (s *OutputSchema) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		s.File = n.Value
		return nil
	}
	v, err := nodeValue(n, 0)
	if err != nil {
		return err
	}
	s.Inline, err = json.Marshal(v)
	return err
}

// Client holds defaults for the generated client.
type Client struct {
	// Validation is the default validation mode: "warn" (default), "strict" or "off".
	Validation string `yaml:"validation,omitempty" json:"validation,omitempty"`
	// Timeout is the default timeout of every call, a Go duration ("30s").
	Timeout string `yaml:"timeout,omitempty" json:"timeout,omitempty"`
	// IdempotencyKeys makes NewClient give every call of a non-idempotent
	// method a generated Idempotency-Key (httpclient.WithIdempotencyKeys).
	IdempotencyKeys bool `yaml:"idempotencyKeys,omitempty" json:"idempotencyKeys,omitempty"`
}

// ParseTimeout parses a timeout of the config: a positive Go duration.
func ParseTimeout(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("timeout %q is not a positive duration such as 30s or 1m30s", s)
	}
	return d, nil
}

// Kind reports whether the source is OpenAPI or MCP.
func (s *Source) Kind() ir.SourceKind {
	if s.MCP != "" {
		return ir.MCP
	}
	return ir.OpenAPI
}

// Path returns the source document's path as written in the config.
func (s *Source) Path() string { return cmp.Or(s.MCP, s.OpenAPI) }

// Filter returns the source's include and exclude lists as an ir.Filter.
func (s *Source) Filter() ir.Filter {
	var f ir.Filter
	if in := s.Include; in != nil {
		f.IncludeTags, f.IncludeOperations, f.IncludePaths = in.Tags, in.Operations, in.Paths
	}
	if ex := s.Exclude; ex != nil {
		f.ExcludeTags, f.ExcludeOperations, f.ExcludePaths = ex.Tags, ex.Operations, ex.Paths
	}
	return f
}

// Hash returns a hex SHA-256 of the config's content (not of its
// formatting: comments and key order do not change it). It fails only when
// an inline output schema built in code is not valid JSON.
func (c *Config) Hash() (string, error) {
	b, err := json.Marshal(c)
	if err != nil {
		return "", fmt.Errorf("config: %w", err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// Load reads and checks the config file at path.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(filepath.ToSlash(path), data)
}

// Parse checks and decodes a config; file names it in errors. The error
// lists every problem as "file:line:col (#/pointer): error: message".
func Parse(file string, data []byte) (*Config, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlError(file, err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, fmt.Errorf("%s: empty config", file)
	}
	if errs := validateSchema(file, &doc); len(errs) > 0 {
		return nil, errs.Err()
	}
	var c Config
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		return nil, yamlError(file, err)
	}
	if _, seq := lookup(doc.Content[0], "sources"); seq != nil && seq.Kind == yaml.SequenceNode {
		for i, n := range seq.Content {
			if i < len(c.Sources) {
				c.Sources[i].Pos = diag.Pos{File: file, Line: n.Line, Col: n.Column, Pointer: fmt.Sprintf("/sources/%d", i)}
			}
		}
	}
	if _, ops := lookup(doc.Content[0], "operations"); ops != nil && ops.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(ops.Content); i += 2 {
			k := ops.Content[i]
			if op := c.Operations[k.Value]; op != nil {
				op.Pos = diag.Pos{File: file, Line: k.Line, Col: k.Column, Pointer: jsonptr.Append("/operations", k.Value)}
			}
		}
	}
	if err := c.Check(); err != nil {
		return nil, err
	}
	return &c, nil
}

// yamlError rewrites a yaml.v3 error as diagnostics naming file and line.
func yamlError(file string, err error) error {
	msgs := []string{err.Error()}
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	}
	var errs diag.List
	for _, m := range msgs {
		line, text, _ := diag.YAMLLine(m)
		errs.Errorf(diag.Pos{File: file, Line: line}, "%s", text)
	}
	return errs.Err()
}

// Check checks what the schema cannot (exactly one source, the keys that
// belong to the other kind of source, Go keywords) and fills defaults.
// Load calls it; call it on a Config built in code.
func (c *Config) Check() error {
	var errs diag.List
	root := diag.Pos{}
	if len(c.Sources) > 0 {
		root.File = c.Sources[0].Pos.File
	}
	switch {
	case c.Package == "":
		errs.Errorf(root, "package is required")
	case !token.IsIdentifier(c.Package) || c.Package == "_":
		errs.Errorf(root, "package %q is not a valid Go package name", c.Package)
	}
	if c.Output == "" {
		errs.Errorf(root, "output is required")
	}
	switch len(c.Sources) {
	case 0:
		errs.Errorf(root, "sources: one source is required")
	case 1:
	default:
		errs.Errorf(c.Sources[1].Pos, "sources: one config makes one Go package from one source; write one config per source")
	}
	for i := range c.Sources {
		s := &c.Sources[i]
		switch {
		case s.OpenAPI == "" && s.MCP == "":
			errs.Errorf(s.Pos, "source needs openapi or mcp")
		case s.OpenAPI != "" && s.MCP != "":
			errs.Errorf(s.Pos, "source has both openapi and mcp; use one source per config")
		case s.OpenAPI != "" && (s.Convention != "" || len(s.Conventions) > 0 || len(s.OutputSchemas) > 0):
			errs.Errorf(s.Pos, "convention, conventions and outputSchemas apply to mcp sources only")
		case s.MCP != "" && s.AllowRemoteRefs:
			errs.Errorf(s.Pos, "allowRemoteRefs applies to openapi sources only")
		case s.MCP != "" && (s.Include.hasHTTP() || s.Exclude.hasHTTP()):
			errs.Errorf(s.Pos, "include and exclude of an mcp source select by operations (tool names) only")
		}
	}
	switch c.Client.Validation {
	case "", "warn", "strict", "off":
	default:
		errs.Errorf(root, "client.validation must be warn, strict or off, not %q", c.Client.Validation)
	}
	if _, err := ParseTimeout(c.Client.Timeout); c.Client.Timeout != "" && err != nil {
		errs.Errorf(root, "client.%v", err)
	}
	for _, id := range slices.Sorted(maps.Keys(c.Operations)) {
		op := c.Operations[id]
		if op == nil {
			continue
		}
		at := op.Pos
		if at.File == "" {
			at = diag.Pos{File: root.File, Pointer: "/operations/" + id}
		}
		if _, err := ParseTimeout(op.Timeout); op.Timeout != "" && err != nil {
			errs.Errorf(at, "operation %q: %v", id, err)
		}
		if p := op.Pagination; p != nil {
			if msg := p.check(); msg != "" {
				errs.Errorf(at, "operation %q: pagination: %s", id, msg)
			}
		}
	}
	if err := errs.Err(); err != nil {
		return err
	}
	if c.Namespace == "" {
		c.Namespace = c.Package
	}
	return nil
}

// check returns what is wrong with a pagination, or "".
func (p *Pagination) check() string {
	ways := 0
	for _, set := range []bool{p.Link, p.Cursor != "" || p.Next != "", p.Page != ""} {
		if set {
			ways++
		}
	}
	switch {
	case p.Disabled && ways > 0:
		return "disabled excludes link, cursor and page"
	case p.Disabled:
		return ""
	case ways != 1:
		return "set one of link, cursor (with next) or page"
	case p.Cursor != "" && p.Next == "", p.Next != "" && p.Cursor == "":
		return "cursor and next go together: the query parameter and the JSON pointer of the next cursor in the response"
	case p.Next != "" && !strings.HasPrefix(p.Next, "/"):
		return fmt.Sprintf("next %q is not a JSON pointer (\"/meta/next_cursor\")", p.Next)
	case p.Items != "" && !strings.HasPrefix(p.Items, "/"):
		return fmt.Sprintf("items %q is not a JSON pointer (\"/data\")", p.Items)
	case p.Items != "" && p.Page == "":
		return "items goes with page"
	}
	return ""
}

func (s *Selector) hasHTTP() bool {
	return s != nil && (len(s.Tags) > 0 || len(s.Paths) > 0)
}

// ParseSchemaFile parses a JSON Schema (an object or a boolean) from the
// JSON or YAML text of the file name and returns it as JSON: an
// outputSchemas entry given as a file.
func ParseSchemaFile(name string, data []byte) (json.RawMessage, error) {
	name = filepath.ToSlash(name)
	var v any
	var err error
	if json.Valid(data) {
		// Not through YAML: JSON indented with tabs is not valid YAML.
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		err = dec.Decode(&v)
	} else {
		var doc yaml.Node
		if err = yaml.Unmarshal(data, &doc); err == nil {
			v, err = nodeValue(&doc, 0)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	switch v.(type) {
	case map[string]any, bool:
	default:
		return nil, fmt.Errorf("%s: a JSON Schema must be an object or a boolean", name)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return b, nil
}
