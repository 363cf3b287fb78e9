package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/opsgen/opsgen/generator"
	"github.com/opsgen/opsgen/generator/config"
	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/mcpsnapshot"
	"github.com/opsgen/opsgen/generator/output"
	"github.com/opsgen/opsgen/runtime/mcpdiff"
	"github.com/opsgen/opsgen/templates"
)

// Exit codes.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

const usage = `usage: opsgen <command> [flags]

commands:
  generate   write the Go package described by a config (or by flags)
  check      exit 1 when the generated package is not what generate would write
  init       write a starter opsgen.yaml, its JSON Schema and generate.go
  schema     print the JSON Schema of opsgen.yaml
  version    print opsgen's version
  mcp snapshot  save an MCP server's tool listing
  mcp check     exit 1 when a live MCP server's listing breaks the client generated from a snapshot

Run "opsgen <command> -h" for a command's flags; "go doc github.com/opsgen/opsgen/cmd/opsgen" for the manual.
`

func main() {
	if len(os.Args) > 1 && (os.Args[1] == "generate" || os.Args[1] == "check") {
		tuneGC(gcLimit)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command line, with its streams, returning the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "generate":
		return runGenerate(ctx, "generate", args[1:], stdout, stderr)
	case "check":
		return runGenerate(ctx, "check", args[1:], stdout, stderr)
	case "init":
		return runInit(args[1:], stdout, stderr)
	case "schema":
		if len(args) > 1 {
			fmt.Fprintln(stderr, "usage: opsgen schema")
			return exitUsage
		}
		if _, err := stdout.Write(config.Schema); err != nil {
			fmt.Fprintln(stderr, "opsgen schema:", err)
			return exitFail
		}
		return exitOK
	case "version":
		if len(args) > 1 {
			fmt.Fprintln(stderr, "usage: opsgen version")
			return exitUsage
		}
		fmt.Fprintln(stdout, "opsgen", generator.Version())
		return exitOK
	case "mcp":
		switch {
		case len(args) >= 2 && args[1] == "snapshot":
			return runSnapshot(ctx, args[2:], stdout, stderr)
		case len(args) >= 2 && args[1] == "check":
			return runMCPCheck(ctx, args[2:], stdout, stderr)
		}
		fmt.Fprintln(stderr, "usage: opsgen mcp snapshot [-o FILE] (-url URL | -- COMMAND [ARGS...])\n       opsgen mcp check -snapshot FILE (-url URL | -- COMMAND [ARGS...])")
		return exitUsage
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "opsgen: unknown command %q\n\n%s", args[0], usage)
	return exitUsage
}

// newFlags returns a flag set that reports errors instead of exiting.
func newFlags(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s\n\nflags:\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses args; ok is false when the command must stop with code.
func parse(fs *flag.FlagSet, args []string) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, false
		}
		return exitUsage, false
	}
	return 0, true
}

// usageError prints a usage error and the flags, and returns exitUsage.
func usageError(fs *flag.FlagSet, stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "opsgen %s: %s\n", fs.Name(), fmt.Sprintf(format, args...))
	fs.Usage()
	return exitUsage
}

// runGenerate runs generate or check (name): both take the same inputs.
func runGenerate(ctx context.Context, name string, args []string, stdout, stderr io.Writer) int {
	fs := newFlags(name, "opsgen "+name+" (-config FILE | -openapi SPEC | -mcp TOOLS) [-package NAME -out DIR] [flags]", stderr)
	var (
		configFile = fs.String("config", "", "config `file` (opsgen.yaml)")
		openapi    = fs.String("openapi", "", "OpenAPI 3.0-3.2 or Swagger 2.0 `document` (without -config)")
		mcp        = fs.String("mcp", "", "MCP tool listing `file` (without -config)")
		pkg        = fs.String("package", "", "Go package `name` (without -config)")
		out        = fs.String("out", "", "output `directory` (without -config)")
		namespace  = fs.String("namespace", "", "registry id `namespace` (without -config; default: the package name)")
		registry   = fs.Bool("registry", false, "emit (*Client).Register (without -config)")
		remoteRefs = fs.Bool("allow-remote-refs", false, "follow $refs to http(s) URLs (without -config)")
		root       = fs.String("root", "", "`directory` that every local file read must be inside: the OpenAPI document and the files its $refs reach, or the MCP listing (without -config; default: the document's directory)")
		split      = fs.String("split", "", "lay the operations out in packages: `mode` auto, none, tags or paths (without -config; default auto: paths above 2,000 operations)")
		importPath = fs.String("import-path", "", "Go import `path` of the output directory, for split packages (without -config; default: from the go.mod above it)")
		quiet      = fs.Bool("q", false, "do not print warnings")
	)
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(fs, stderr, "unexpected argument %q", fs.Arg(0))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })

	var opts generator.Options
	switch {
	case *configFile != "":
		for _, f := range []string{"openapi", "mcp", "package", "out", "namespace", "registry", "allow-remote-refs", "root", "split", "import-path"} {
			if set[f] {
				return usageError(fs, stderr, "-%s cannot be used with -config (set it in the config file)", f)
			}
		}
		cfg, err := config.Load(*configFile)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return exitFail
		}
		opts = generator.Options{Config: cfg, ConfigDir: filepath.Dir(*configFile)}
	case *openapi != "" || *mcp != "":
		if *openapi != "" && *mcp != "" {
			return usageError(fs, stderr, "use -openapi or -mcp, not both")
		}
		if *pkg == "" || *out == "" {
			return usageError(fs, stderr, "-package and -out are required without -config")
		}
		if *mcp != "" && *remoteRefs {
			return usageError(fs, stderr, "-allow-remote-refs applies to -openapi only")
		}
		// Without a config, local files stay inside the document's
		// directory unless -root says otherwise.
		rootDir := filepath.ToSlash(*root)
		if rootDir == "" {
			if d := filepath.ToSlash(filepath.Dir(*openapi + *mcp)); d != "." {
				rootDir = d
			}
		}
		cfg := &config.Config{Package: *pkg, Output: filepath.ToSlash(*out), Registry: *registry, Namespace: *namespace,
			Split: *split, ImportPath: *importPath,
			Sources: []config.Source{{OpenAPI: filepath.ToSlash(*openapi), MCP: filepath.ToSlash(*mcp), AllowRemoteRefs: *remoteRefs, Root: rootDir}}}
		if err := cfg.Check(); err != nil {
			return usageError(fs, stderr, "%v", err)
		}
		opts = generator.Options{Config: cfg, ConfigDir: "."}
	default:
		return usageError(fs, stderr, "-config, -openapi or -mcp is required")
	}

	if name == "generate" {
		reserveHeap(opts)
		res, _, err := generator.Write(ctx, opts)
		if res != nil && !*quiet {
			printWarnings(stderr, res.Diagnostics)
		}
		if err != nil {
			fmt.Fprintln(stderr, err)
			return exitFail
		}
		return exitOK
	}

	rep, diags, err := generator.Check(ctx, opts)
	if !*quiet {
		printWarnings(stderr, diags)
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitFail
	}
	dir := generator.OutputDir(opts)
	if rep.Current() {
		if rep.ManifestOutdated && !*quiet {
			fmt.Fprintf(stderr, "opsgen check: %s is current; its manifest is not (check had to load the spec): run %s\n",
				dir, fixCommand(args))
		}
		return exitOK
	}
	for _, p := range rep.Problems {
		fmt.Fprintf(stdout, "%s: %s\n%s", filepath.Join(dir, p.Name), p.Kind, p.Diff)
	}
	files := "files"
	if len(rep.Problems) == 1 {
		files = "file"
	}
	fmt.Fprintf(stderr, "opsgen check: %s is out of date (%d %s); run: %s\n", dir, len(rep.Problems), files, fixCommand(args))
	return exitFail
}

// printWarnings prints the warnings of diags; errors reach the user
// through the returned error.
func printWarnings(w io.Writer, diags diag.List) {
	for _, d := range diags {
		if d.Severity == diag.Warning {
			fmt.Fprintln(w, d)
		}
	}
}

// fixCommand is the generate command with check's arguments, quoted for a shell.
func fixCommand(args []string) string {
	words := []string{"opsgen", "generate"}
	for _, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`*?;&|<>()[]{}~#!") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		words = append(words, a)
	}
	return strings.Join(words, " ")
}

func runInit(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("init", "opsgen init [-dir DIR] [-package NAME] [-openapi SPEC | -mcp TOOLS]", stderr)
	var (
		dir     = fs.String("dir", ".", "`directory` to write opsgen.yaml, opsgen.schema.json and generate.go into")
		pkg     = fs.String("package", "", "Go package `name` (default: from the directory's name)")
		openapi = fs.String("openapi", "", "OpenAPI `document` to name in the config (default: openapi.yaml)")
		mcp     = fs.String("mcp", "", "MCP tool listing `file` to name in the config")
	)
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(fs, stderr, "unexpected argument %q", fs.Arg(0))
	}
	if *openapi != "" && *mcp != "" {
		return usageError(fs, stderr, "use -openapi or -mcp, not both")
	}
	data := templates.InitData{Package: *pkg, OpenAPI: filepath.ToSlash(*openapi), MCP: filepath.ToSlash(*mcp)}
	if data.OpenAPI == "" && data.MCP == "" {
		data.OpenAPI = "openapi.yaml"
	}
	if data.Package == "" {
		abs, err := filepath.Abs(*dir)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return exitFail
		}
		data.Package = packageName(filepath.Base(abs))
		if data.Package == "" {
			return usageError(fs, stderr, "cannot make a package name from directory %q; use -package", filepath.Base(abs))
		}
	} else if !validPackage(data.Package) {
		return usageError(fs, stderr, "-package %q is not a valid Go package name", data.Package)
	}
	names := []string{"opsgen.yaml", "generate.go", schemaFile}
	var contents [][]byte
	for _, n := range names {
		if _, err := os.Lstat(filepath.Join(*dir, n)); err == nil {
			fmt.Fprintf(stderr, "opsgen init: %s already exists; not overwriting it\n", filepath.Join(*dir, n))
			return exitFail
		}
		if n == schemaFile {
			contents = append(contents, config.Schema)
			continue
		}
		b, err := templates.Execute(n+".tmpl", data)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return exitFail
		}
		contents = append(contents, b)
	}
	for i, n := range names {
		if err := createNew(filepath.Join(*dir, n), contents[i]); err != nil {
			fmt.Fprintln(stderr, "opsgen init:", err)
			return exitFail
		}
	}
	fmt.Fprintf(stdout, "wrote %s, %s and %s (package %s)\nnext: go get -tool github.com/opsgen/opsgen/cmd/opsgen, then go generate\n",
		filepath.Join(*dir, names[0]), filepath.Join(*dir, names[1]), filepath.Join(*dir, names[2]), data.Package)
	return exitOK
}

// schemaFile is the name of the config's JSON Schema written by init, as
// the starter config's yaml-language-server modeline names it.
const schemaFile = "opsgen.schema.json"

// createNew writes a file that must not exist yet.
func createNew(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}

// packageName makes a Go package name from a directory name: lower case
// letters, digits and underscores, not starting with a digit; "" when
// nothing is left.
func packageName(dir string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(dir) {
		if r == '_' || ('a' <= r && r <= 'z') || ('0' <= r && r <= '9' && b.Len() > 0) {
			b.WriteRune(r)
		}
	}
	if !validPackage(b.String()) {
		return ""
	}
	return b.String()
}

func validPackage(name string) bool {
	return name != "_" && token.IsIdentifier(name)
}

// serverFlags are the flags that say which MCP server to list, shared by
// mcp snapshot and mcp check.
type serverFlags struct {
	url     *string
	timeout *time.Duration
	caps    *string
	env     []string
}

// addServerFlags defines the server flags on fs.
func addServerFlags(fs *flag.FlagSet) *serverFlags {
	f := &serverFlags{
		url:     fs.String("url", "", "`URL` of a server speaking streamable HTTP (or HTTP+SSE)"),
		timeout: fs.Duration("timeout", 30*time.Second, "give up after this `duration` (0: never)"),
		caps:    fs.String("capabilities", "", "client capabilities to advertise: a comma-separated `list` of roots, sampling, elicitation, or none (default: roots, go-sdk's default)"),
	}
	fs.Func("env", "add `KEY=VALUE` to the environment of COMMAND (repeatable)", func(s string) error {
		if !strings.Contains(s, "=") {
			return fmt.Errorf("want KEY=VALUE, got %q", s)
		}
		f.env = append(f.env, s)
		return nil
	})
	return f
}

// parse parses args and checks the server flags and the command
// (fs.Args()); ok is false when the command must stop with code (-h, or a
// usage error, printed).
func (f *serverFlags) parse(fs *flag.FlagSet, args []string, stderr io.Writer) (opts mcpsnapshot.SnapshotOptions, code int, ok bool) {
	if code, ok := parse(fs, args); !ok {
		return opts, code, false
	}
	command := fs.Args()
	switch {
	case (*f.url == "") == (len(command) == 0):
		return opts, usageError(fs, stderr, "give -url URL or -- COMMAND [ARGS...], one of them"), false
	case *f.url != "" && len(f.env) > 0:
		return opts, usageError(fs, stderr, "-env applies to a COMMAND only"), false
	}
	opts = mcpsnapshot.SnapshotOptions{Command: command, URL: *f.url, Env: f.env}
	if *f.caps != "" {
		var err error
		if opts.Capabilities, err = mcpsnapshot.ParseCapabilities(*f.caps); err != nil {
			return opts, usageError(fs, stderr, "-capabilities: %v", err), false
		}
	}
	return opts, 0, true
}

// snapshot lists the server's tools as a listing file, printing errors as
// the named command's.
func (f *serverFlags) snapshot(ctx context.Context, name string, opts mcpsnapshot.SnapshotOptions, stderr io.Writer) ([]byte, bool) {
	// The timeout is applied here rather than by Snapshot so that its
	// expiry can be told apart from other failures, whatever error the
	// transport wraps it in.
	if *f.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *f.timeout)
		defer cancel()
	}
	data, err := mcpsnapshot.Snapshot(ctx, opts)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			fmt.Fprintf(stderr, "opsgen %s: no answer within %v (-timeout): %v\n", name, *f.timeout, err)
		} else {
			fmt.Fprintf(stderr, "opsgen %s: %v\n", name, err)
		}
		return nil, false
	}
	return data, true
}

func runSnapshot(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("mcp snapshot", "opsgen mcp snapshot [-o FILE] [-timeout D] [-capabilities LIST] (-url URL | [-env K=V]... -- COMMAND [ARGS...])", stderr)
	out := fs.String("o", "", "output `file` (default: standard output)")
	server := addServerFlags(fs)
	opts, code, ok := server.parse(fs, args, stderr)
	if !ok {
		return code
	}
	data, ok := server.snapshot(ctx, "mcp snapshot", opts, stderr)
	if !ok {
		return exitFail
	}
	if *out == "" {
		if _, err := stdout.Write(data); err != nil {
			fmt.Fprintln(stderr, "opsgen mcp snapshot:", err)
			return exitFail
		}
		return exitOK
	}
	if err := output.WriteFile(*out, data); err != nil {
		fmt.Fprintln(stderr, "opsgen mcp snapshot:", err)
		return exitFail
	}
	return exitOK
}

// runMCPCheck compares a live server's listing with a committed one.
func runMCPCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("mcp check", "opsgen mcp check -snapshot FILE [-timeout D] [-capabilities LIST] (-url URL | [-env K=V]... -- COMMAND [ARGS...])", stderr)
	file := fs.String("snapshot", "", "the committed listing `file` (written by opsgen mcp snapshot) the generated client was made from")
	server := addServerFlags(fs)
	opts, code, ok := server.parse(fs, args, stderr)
	if !ok {
		return code
	}
	if *file == "" {
		return usageError(fs, stderr, "-snapshot FILE is required")
	}
	committed, err := os.ReadFile(*file)
	if err != nil {
		fmt.Fprintln(stderr, "opsgen mcp check:", err)
		return exitFail
	}
	live, ok := server.snapshot(ctx, "mcp check", opts, stderr)
	if !ok {
		return exitFail
	}
	diff, err := mcpdiff.CompareListings(committed, live)
	if err != nil {
		fmt.Fprintf(stderr, "opsgen mcp check: %s: %v\n", *file, err)
		return exitFail
	}
	for _, c := range diff {
		fmt.Fprintln(stdout, c)
	}
	breaking, compatible := diff.Count()
	switch {
	case breaking > 0:
		fmt.Fprintf(stderr, "opsgen mcp check: the live listing breaks the client generated from %s (%d breaking, %d compatible changes); regenerate it from a new snapshot and update its callers\n", *file, breaking, compatible)
		return exitFail
	case compatible > 0:
		fmt.Fprintf(stderr, "opsgen mcp check: the live listing is compatible with %s (%d compatible changes; take a new snapshot to use them)\n", *file, compatible)
	}
	return exitOK
}
