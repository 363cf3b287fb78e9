// Package diag holds the generator's diagnostics: warnings and errors that
// name the place in the source document they are about.
package diag

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Severity says whether a diagnostic stops generation.
type Severity int

const (
	// Warning: something was degraded (an unsupported construct became raw
	// JSON, a name was changed to avoid a collision); generation goes on.
	Warning Severity = iota
	// Error: the input cannot be used; nothing is written.
	Error
)

func (s Severity) String() string {
	if s == Error {
		return "error"
	}
	return "warning"
}

// Pos is a place in a source document.
type Pos struct {
	// File is the source path as the user gave it (relative when they did).
	File string
	// Line and Col are 1-based; 0 when unknown.
	Line, Col int
	// Pointer is the JSON pointer of the node ("/paths/~1pets/get").
	Pointer string
}

// String formats the position as file:line:col (pointer), leaving out what is unknown.
func (p Pos) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
		if p.Col > 0 {
			fmt.Fprintf(&b, ":%d", p.Col)
		}
	}
	if p.Pointer != "" {
		if b.Len() > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "(#%s)", p.Pointer)
	}
	return b.String()
}

// Kind classifies a warning by what the generated code lost compared to
// the source, so that tools (the corpus report) need not read messages.
// The zero value, Unclassified, is a warning whose raiser did not say
// (none in the generator; golden's TestGolden checks).
type Kind int

const (
	// Unclassified: the call site did not say (readers may fall back to
	// the message).
	Unclassified Kind = iota
	// RawJSON: a schema became raw JSON or "any value".
	RawJSON
	// UntypedRef: a $ref that cannot be followed was left out, and what it
	// stood for is untyped.
	UntypedRef
	// Renamed: an identifier differs from the one the source asked for.
	Renamed
	// LeftOut: something of the source (a parameter, a body, a response,
	// an annotation...) was dropped.
	LeftOut
	// Other: any other degradation (a serialization style replaced by
	// another, a default type assumed...).
	Other
)

var kindNames = [...]string{"unclassified", "raw JSON", "untyped $ref", "renamed", "left out", "other"}

func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return fmt.Sprintf("Kind(%d)", int(k))
	}
	return kindNames[k]
}

// Diagnostic is one message about one place.
type Diagnostic struct {
	Severity Severity
	// Kind classifies a warning; Unclassified when its raiser did not say.
	Kind    Kind
	Pos     Pos
	Message string
}

func (d Diagnostic) String() string {
	if s := d.Pos.String(); s != "" {
		return fmt.Sprintf("%s: %s: %s", s, d.Severity, d.Message)
	}
	return fmt.Sprintf("%s: %s", d.Severity, d.Message)
}

// List collects diagnostics.
type List []Diagnostic

// Warn adds a warning of the given kind (every warning says what the
// generated code lost: see Kind).
func (l *List) Warn(kind Kind, pos Pos, format string, args ...any) {
	*l = append(*l, Diagnostic{Severity: Warning, Kind: kind, Pos: pos, Message: fmt.Sprintf(format, args...)})
}

// Errorf adds an error.
func (l *List) Errorf(pos Pos, format string, args ...any) {
	*l = append(*l, Diagnostic{Severity: Error, Pos: pos, Message: fmt.Sprintf(format, args...)})
}

// HasErrors reports whether any diagnostic is an error.
func (l List) HasErrors() bool {
	for _, d := range l {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Sort orders the list by file, line, column, pointer and message, so that
// output does not depend on the order in which the generator visited nodes.
func (l List) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i], l[j]
		if a.Pos.File != b.Pos.File {
			return a.Pos.File < b.Pos.File
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Col != b.Pos.Col {
			return a.Pos.Col < b.Pos.Col
		}
		if a.Pos.Pointer != b.Pos.Pointer {
			return a.Pos.Pointer < b.Pos.Pointer
		}
		return a.Message < b.Message
	})
}

// Err returns the errors of the list as one error, or nil when there are none.
func (l List) Err() error {
	var msgs []string
	for _, d := range l {
		if d.Severity == Error {
			msgs = append(msgs, d.String())
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	return fmt.Errorf("%s", strings.Join(msgs, "\n"))
}

// yamlLineRE matches the "yaml: line N: message" of gopkg.in/yaml.v3's syntax errors.
var yamlLineRE = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

// yamlParserErrors are the messages of yaml.v3's parser (as opposed to its
// scanner): yaml.v3 reports their line 0-based (scanner errors 1-based).
var yamlParserErrors = []string{
	"did not find expected ',' or ']'", "did not find expected ',' or '}'",
	"did not find expected '-' indicator", "did not find expected <document start>",
	"did not find expected key", "did not find expected node content",
	"found duplicate %TAG directive", "found duplicate %YAML directive",
	"found incompatible YAML document", "found undefined tag handle",
}

// YAMLLine splits a gopkg.in/yaml.v3 syntax error message into its 1-based
// line and the message proper; ok is false when the message names no line.
func YAMLLine(msg string) (line int, text string, ok bool) {
	m := yamlLineRE.FindStringSubmatch(strings.TrimSpace(msg))
	if m == nil {
		return 0, strings.TrimPrefix(msg, "yaml: "), false
	}
	line, _ = strconv.Atoi(m[1]) // the pattern matched digits
	if slices.Contains(yamlParserErrors, m[2]) {
		line++
	}
	return line, m[2], true
}
