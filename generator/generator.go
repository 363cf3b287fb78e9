// Package generator runs opsgen: it loads the config's source document
// (generator/openapi or generator/mcptools), emits the Go files
// (generator/emit), and writes them or checks them against the output
// directory (generator/output).
package generator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/opsgen/opsgen/generator/config"
	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/emit"
	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/mcptools"
	"github.com/opsgen/opsgen/generator/openapi"
	"github.com/opsgen/opsgen/generator/output"
	"github.com/opsgen/opsgen/generator/rootfs"
)

// modulePath is opsgen's module path, looked up in the build info.
const modulePath = "github.com/opsgen/opsgen"

// Options says what to generate.
type Options struct {
	// Config is the configuration; Generate checks it (config.Config.Check).
	Config *config.Config
	// ConfigDir is the directory the config's paths are relative to (the
	// config file's directory; "." for a config built from flags).
	ConfigDir string
	// Version is written into the generated headers and the manifest;
	// default Version().
	Version string
}

// Result is a generation in memory.
type Result struct {
	// Files are the generated files, sorted by name; names are relative to
	// the output directory.
	Files []emit.File
	// Diagnostics are the loader's and the emitter's, sorted.
	Diagnostics diag.List
	// Manifest records the inputs and outputs, for output.Write.
	Manifest *output.Manifest
}

// Version returns opsgen's module version from the build info: the main
// module's when opsgen is the main module (go install, go run), opsgen's
// entry among the dependencies otherwise; the replacement's when the module
// is replaced; "devel" for a build from a work tree or a replacement
// directory.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	m := &bi.Main
	if m.Path != modulePath {
		m = nil
		for _, d := range bi.Deps {
			if d.Path == modulePath {
				m = d
			}
		}
	}
	// A replaced module reports the replacement's version: "" or "(devel)"
	// for a directory, where the replaced version is a placeholder.
	if m != nil && m.Replace != nil {
		m = m.Replace
	}
	if m == nil || m.Version == "" || m.Version == "(devel)" {
		return "devel"
	}
	return m.Version
}

// OutputDir returns the output directory of opts.
func OutputDir(opts Options) string {
	return output.Resolve(opts.ConfigDir, opts.Config.Output)
}

func (o *Options) check() error {
	if o.Config == nil {
		return errors.New("generator: no config")
	}
	if o.ConfigDir == "" {
		o.ConfigDir = "."
	}
	if o.Version == "" {
		o.Version = Version()
	}
	return o.Config.Check()
}

// Generate loads the source, emits the files and hashes inputs and outputs,
// writing nothing. On failure the error says why; the result, when not nil,
// still carries the diagnostics (warnings included).
func Generate(ctx context.Context, opts Options) (*Result, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	cfg := opts.Config
	src := &cfg.Sources[0]
	res := &Result{}
	// The loader reports the files it reads: they are the inputs the
	// manifest hashes, each hashed in its own goroutine as soon as it is
	// reported, while the loading goes on (its naming pass is sequential:
	// on a 13 MB description the hash is free there, on the way it costs
	// 10 to 20 ms).
	var (
		loaded []string
		hashes inputHashes
	)
	svc, diags, err := load(ctx, opts.ConfigDir, src, func(file string) {
		loaded = append(loaded, file)
		hashes.start(file)
	})
	res.Diagnostics = append(res.Diagnostics, diags...)
	if err == nil && svc == nil {
		err = fmt.Errorf("%s: the loader returned no service", src.Path())
	}
	if err != nil {
		res.Diagnostics.Sort()
		return res, err
	}
	// The header names the source as written in the config, never as the
	// (possibly absolute) path it was opened with.
	svc.Source = path.Clean(filepath.ToSlash(src.Path()))
	// The import path of the output package matters only to an API split
	// into packages (emit says when it needs it).
	imp, impErr := cfg.ImportPath, error(nil)
	if imp == "" {
		imp, impErr = importPath(OutputDir(opts))
	}
	files, diags, err := emit.Emit(svc, emit.Options{
		Package:    cfg.Package,
		Version:    opts.Version,
		Namespace:  cfg.Namespace,
		Registry:   cfg.Registry,
		Validation: cfg.Client.Validation,
		Timeout:    timeout(cfg.Client.Timeout),
		Operations: operationOptions(cfg),
		// MCP clients ignore it: only HTTP calls carry the header.
		IdempotencyKeys: cfg.Client.IdempotencyKeys,
		Split:           cfg.Split,
		ImportPath:      imp,
	})
	if errors.Is(err, emit.ErrNoImportPath) {
		where := "-import-path (importPath in a config)"
		if f := src.Pos.File; f != "" {
			where = "importPath in " + f
		}
		err = fmt.Errorf("%w (%v); set %s", err, impErr, where)
	}
	res.Diagnostics = append(res.Diagnostics, diags...)
	res.Diagnostics.Sort()
	if err == nil && ctx.Err() != nil {
		// The loader's last schemas may have been left unfinished.
		err = fmt.Errorf("%s: loading stopped: %w", src.Path(), ctx.Err())
	}
	if err != nil {
		return res, err
	}
	res.Files = files
	hash, err := cfg.Hash()
	if err != nil {
		return res, err
	}
	inputs, remote := Inputs(cfg, opts.ConfigDir, loaded)
	res.Manifest, err = output.NewManifest(output.Inputs{
		Version: opts.Version, Config: hash, BaseDir: opts.ConfigDir, Files: inputs, Remote: remote,
		Hashed: hashes.wait(opts.ConfigDir),
	}, outputFiles(files))
	if err != nil {
		return res, err
	}
	return res, nil
}

// Write generates and writes the files and the manifest into the output
// directory. The result carries the diagnostics as for Generate.
func Write(ctx context.Context, opts Options) (*Result, *output.Written, error) {
	res, err := Generate(ctx, opts)
	if err != nil {
		return res, nil, err
	}
	w, err := output.Write(OutputDir(opts), outputFiles(res.Files), res.Manifest)
	return res, w, err
}

// Check reports whether the output directory holds what Write would write.
// When the manifest vouches for the inputs and outputs on disk it answers
// without loading the source (Report.FastPath); otherwise it generates in
// memory and compares, returning the generation's diagnostics.
func Check(ctx context.Context, opts Options) (*output.Report, diag.List, error) {
	if err := opts.check(); err != nil {
		return nil, nil, err
	}
	hash, err := opts.Config.Hash()
	if err != nil {
		return nil, nil, err
	}
	dir := OutputDir(opts)
	if output.Fresh(dir, opts.Version, hash, opts.ConfigDir) {
		return &output.Report{FastPath: true}, nil, nil
	}
	res, err := Generate(ctx, opts)
	var diags diag.List
	if res != nil {
		diags = res.Diagnostics
	}
	if err != nil {
		return nil, diags, err
	}
	rep, err := output.Compare(dir, outputFiles(res.Files), res.Manifest)
	return rep, diags, err
}

// inputHashes hashes the files a loader reads, concurrently with the load.
type inputHashes struct {
	wg     sync.WaitGroup
	mu     sync.Mutex
	hashes map[string]string // by the path the loader reported
}

// start hashes file (a path relative to the working directory or
// absolute; URLs are skipped) in its own goroutine.
func (h *inputHashes) start(file string) {
	if strings.Contains(file, "://") {
		return
	}
	h.wg.Go(func() {
		sum, err := output.HashFile(file)
		if err != nil {
			return // NewManifest reads the file again and reports the error
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		if h.hashes == nil {
			h.hashes = map[string]string{}
		}
		h.hashes[file] = sum
	})
}

// wait returns the hashes by the names Inputs gives the files (relative to
// dir), for output.Inputs.Hashed.
func (h *inputHashes) wait(dir string) map[string]string {
	h.wg.Wait()
	out := make(map[string]string, len(h.hashes))
	for file, sum := range h.hashes {
		out[relTo(dir, file)] = sum
	}
	return out
}

func outputFiles(files []emit.File) []output.File {
	out := make([]output.File, len(files))
	for i, f := range files {
		out[i] = output.File{Name: f.Name, Content: f.Content}
	}
	return out
}

// load runs the source's loader on the file found relative to dir; read
// is called with every file an OpenAPI load reads (openapi.Options.Read).
func load(ctx context.Context, dir string, src *config.Source, read func(string)) (*ir.Service, diag.List, error) {
	file := output.Resolve(dir, src.Path())
	root := dir
	if src.Root != "" {
		root = output.Resolve(dir, src.Root)
	}
	if src.Kind() == ir.OpenAPI {
		return openapi.Load(ctx, file, openapi.Options{
			AllowRemoteRefs: src.AllowRemoteRefs,
			Filter:          src.Filter(),
			Names:           src.Names,
			Root:            root,
			Read:            read,
			Types:           src.Types,
			KeepUnknown:     src.KeepUnknownMembers,
		})
	}
	// The listing and its outputSchemas files are read inside the root too.
	files := rootfs.New(root, openapi.DefaultMaxBytes)
	defer files.Close()
	schemas := map[string]json.RawMessage{}
	for tool, s := range src.OutputSchemas {
		if s.File == "" {
			schemas[tool] = s.Inline
			continue
		}
		name := output.Resolve(dir, s.File)
		data, err := files.ReadFile(name)
		if err == nil {
			schemas[tool], err = config.ParseSchemaFile(name, data)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("outputSchemas %q: %w", tool, err)
		}
	}
	data, err := files.ReadFile(file)
	if err != nil {
		return nil, nil, fmt.Errorf("mcptools: %w", err)
	}
	return mcptools.LoadData(ctx, data, filepath.ToSlash(file), mcptools.LoadOptions{
		OutputSchemas:     schemas,
		Conventions:       src.Conventions,
		DefaultConvention: src.Convention,
		Filter:            src.Filter(),
		Names:             src.Names,
		Types:             src.Types,
		KeepUnknown:       src.KeepUnknownMembers,
	})
}

// timeout parses a timeout that Config.Check accepted; "" is none.
func timeout(s string) time.Duration {
	if s == "" {
		return 0
	}
	d, _ := config.ParseTimeout(s)
	return d
}

// operationOptions maps the config's operations to the emitter's.
func operationOptions(cfg *config.Config) map[string]emit.OperationOptions {
	if len(cfg.Operations) == 0 {
		return nil
	}
	out := make(map[string]emit.OperationOptions, len(cfg.Operations))
	for id, op := range cfg.Operations {
		if op == nil {
			continue
		}
		o := emit.OperationOptions{Timeout: timeout(op.Timeout), Pos: op.Pos}
		if p := op.Pagination; p != nil {
			o.Paging = &emit.Paging{Link: p.Link, Cursor: p.Cursor, Next: p.Next, Page: p.Page, Items: p.Items, Disabled: p.Disabled}
		}
		out[id] = o
	}
	return out
}
