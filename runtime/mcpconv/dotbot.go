package mcpconv

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/opsgen/opsgen/runtime"
)

// DotbotSchemaID is the schema_id of the dotbot envelopes this runtime reads.
const DotbotSchemaID = "dotbot-mcp-response@1"

// ErrNoDotbot reports content without a dotbot envelope.
var ErrNoDotbot = errors.New("opsgen: no " + DotbotSchemaID + " envelope")

// Dotbot is a decoded dotbot envelope.
type Dotbot struct {
	DotbotInfo
	// Data is the tool-specific output, as sent.
	Data json.RawMessage
}

// ComputeDotbotStatus returns the status the spec computes from a result's
// errors and warnings: error if there are errors, else warning if there are
// warnings, else ok.
func ComputeDotbotStatus(errs, warnings []DotbotIssue) DotbotStatus {
	switch {
	case len(errs) > 0:
		return DotbotError
	case len(warnings) > 0:
		return DotbotWarning
	}
	return DotbotOK
}

// DecodeDotbot decodes a dotbot envelope from JSON and checks it: schema_id
// is exactly DotbotSchemaID; tool, version, status, summary, data, warnings,
// errors and audit (timestamp, duration_ms, source) are present with their
// types; status is one of ok, warning, error. The error names every problem.
//
// Status is computed from errors and warnings. A declared status that
// disagrees is not an error: it comes back as a warning (pointer /status)
// and the computed status wins.
func DecodeDotbot(b []byte) (*Dotbot, []runtime.Warning, error) {
	var wire map[string]json.RawMessage
	if err := json.Unmarshal(b, &wire); err != nil {
		return nil, nil, fmt.Errorf("opsgen: dotbot envelope: %w", err)
	}
	if wire == nil {
		return nil, nil, errors.New("opsgen: dotbot envelope is not an object")
	}
	d := &Dotbot{}
	var problems []string
	field := func(name string, out any) {
		raw, ok := wire[name]
		if !ok || bytes.Equal(raw, []byte("null")) {
			problems = append(problems, name+" is missing")
			return
		}
		if err := json.Unmarshal(raw, out); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", name, jsonTypeError(err)))
		}
	}
	field("schema_id", &d.SchemaID)
	field("tool", &d.Tool)
	field("version", &d.Version)
	field("status", &d.DeclaredStatus)
	field("summary", &d.Summary)
	field("warnings", &d.Warnings)
	field("errors", &d.Errors)
	if raw, ok := wire["data"]; ok {
		d.Data = raw
	} else {
		problems = append(problems, "data is missing")
	}
	var audit map[string]json.RawMessage
	field("audit", &audit)
	if audit != nil {
		auditField := func(name string, out any) {
			raw, ok := audit[name]
			if !ok || bytes.Equal(raw, []byte("null")) {
				problems = append(problems, "audit."+name+" is missing")
				return
			}
			if err := json.Unmarshal(raw, out); err != nil {
				problems = append(problems, fmt.Sprintf("audit.%s: %v", name, jsonTypeError(err)))
			}
		}
		auditField("timestamp", &d.Audit.Timestamp)
		auditField("duration_ms", &d.Audit.DurationMS)
		auditField("source", &d.Audit.Source)
		// Optional audit fields; a wrong type is ignored rather than failing the envelope.
		_ = json.Unmarshal(audit["host"], &d.Audit.Host)
		_ = json.Unmarshal(audit["correlation_id"], &d.Audit.CorrelationID)
		_ = json.Unmarshal(audit["write_to"], &d.Audit.WriteTo)
	}
	if raw, ok := wire["intent"]; ok && !bytes.Equal(raw, []byte("null")) {
		if err := json.Unmarshal(raw, &d.Intent); err != nil {
			problems = append(problems, fmt.Sprintf("intent: %v", jsonTypeError(err)))
		}
	}
	if raw, ok := wire["actions"]; ok && !bytes.Equal(raw, []byte("null")) {
		if err := json.Unmarshal(raw, &d.Actions); err != nil {
			problems = append(problems, fmt.Sprintf("actions: %v", jsonTypeError(err)))
		}
	}
	if _, ok := wire["schema_id"]; ok && d.SchemaID != DotbotSchemaID {
		problems = append(problems, fmt.Sprintf("schema_id %q is not %q", d.SchemaID, DotbotSchemaID))
	}
	switch d.DeclaredStatus {
	case DotbotOK, DotbotWarning, DotbotError, "":
	default:
		problems = append(problems, fmt.Sprintf("status %q is not one of ok, warning, error", d.DeclaredStatus))
	}
	if len(problems) > 0 {
		return nil, nil, fmt.Errorf("opsgen: invalid dotbot envelope: %s", strings.Join(problems, "; "))
	}
	d.Status = ComputeDotbotStatus(d.Errors, d.Warnings)
	var warnings []runtime.Warning
	if d.DeclaredStatus != d.Status {
		warnings = append(warnings, runtime.Warning{
			OperationID: d.Tool,
			Pointer:     "/status",
			Message: fmt.Sprintf("dotbot status %q contradicts %d error(s) and %d warning(s); using computed status %q",
				d.DeclaredStatus, len(d.Errors), len(d.Warnings), d.Status),
		})
	}
	return d, warnings, nil
}

// jsonTypeError shortens encoding/json's type errors to what matters here.
func jsonTypeError(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("wrong type (%s, want %s)", te.Value, te.Type)
	}
	return err.Error()
}

// LooksLikeDotbot reports whether text is a JSON object that names a
// schema_id: a cheap test before DecodeDotbot.
func LooksLikeDotbot(text string) bool {
	t := strings.TrimSpace(text)
	return strings.HasPrefix(t, "{") && strings.Contains(t, `"schema_id"`)
}

// FindDotbot decodes the first text block that looks like a dotbot envelope
// (see LooksLikeDotbot). It returns ErrNoDotbot when there is none.
func FindDotbot(blocks []runtime.ContentBlock) (*Dotbot, []runtime.Warning, error) {
	for i, b := range blocks {
		if b.Type != runtime.ContentText || !LooksLikeDotbot(b.Text) {
			continue
		}
		d, w, err := DecodeDotbot([]byte(b.Text))
		if err != nil {
			return nil, nil, fmt.Errorf("content block %d: %w", i, err)
		}
		return d, w, nil
	}
	return nil, nil, ErrNoDotbot
}

// EncodeDotbot returns the JSON of a dotbot envelope around data. Status is
// computed from info's errors and warnings, SchemaID is set, nil Warnings and
// Errors become empty arrays, and an empty Audit.Timestamp becomes now (UTC).
func EncodeDotbot(info DotbotInfo, data any) ([]byte, error) {
	d, err := json.Marshal(data)
	if err != nil {
		return nil, fmt.Errorf("opsgen: dotbot data: %w", err)
	}
	info.SchemaID = DotbotSchemaID
	info.Status = ComputeDotbotStatus(info.Errors, info.Warnings)
	if info.Warnings == nil {
		info.Warnings = []DotbotIssue{}
	}
	if info.Errors == nil {
		info.Errors = []DotbotIssue{}
	}
	if info.Audit.Timestamp == "" {
		info.Audit.Timestamp = time.Now().UTC().Format(time.RFC3339)
	}
	return json.Marshal(struct {
		DotbotInfo
		Data json.RawMessage `json:"data"`
	}{info, d})
}
