package mcpconv

import (
	"encoding/json"
	"time"
)

// Names of the content conventions, as ConventionName returns them and as
// the MCP caller's convention setting.
const (
	// ConventionToolEnvelope is ToolEnvelope V1: a text block
	// "__ENVELOPE_V1__:" + base64 JSON {payload, meta{tool, ts, version}}
	// beside a human-readable block 0.
	ConventionToolEnvelope = "toolenvelope-v1"
	// ConventionDotbot is the dotbot envelope (schema_id dotbot-mcp-response@1)
	// sent as JSON in a text block.
	ConventionDotbot = "dotbot"
	// ConventionAuto detects either convention.
	ConventionAuto = "auto"
)

// DotbotStatus is the health of a dotbot result.
type DotbotStatus string

// The dotbot statuses.
const (
	DotbotOK      DotbotStatus = "ok"
	DotbotWarning DotbotStatus = "warning"
	DotbotError   DotbotStatus = "error"
)

// DotbotIssue is one entry of a dotbot envelope's errors or warnings.
type DotbotIssue struct {
	Code    string          `json:"code"`
	Message string          `json:"message"`
	Path    string          `json:"path,omitempty"`
	Details json.RawMessage `json:"details,omitempty"`
}

// DotbotAudit is a dotbot envelope's audit object.
type DotbotAudit struct {
	// Timestamp is the ISO 8601 UTC time of the operation, as sent.
	Timestamp  string `json:"timestamp"`
	DurationMS int64  `json:"duration_ms"`
	// Source is the relative path of the tool's script.
	Source        string `json:"source"`
	Host          string `json:"host,omitempty"`
	CorrelationID string `json:"correlation_id,omitempty"`
	WriteTo       string `json:"write_to,omitempty"`
}

// DotbotIntent is a dotbot envelope's suggested next action.
type DotbotIntent struct {
	RecommendedNext string          `json:"recommended_next"`
	Reason          string          `json:"reason,omitempty"`
	Parameters      json.RawMessage `json:"parameters,omitempty"`
}

// DotbotAction is one of a dotbot envelope's actionable suggestions.
type DotbotAction struct {
	ID         string          `json:"id"`
	Type       string          `json:"type"`
	Label      string          `json:"label"`
	Reason     string          `json:"reason,omitempty"`
	Tool       string          `json:"tool,omitempty"`
	Parameters json.RawMessage `json:"parameters,omitempty"`
}

// DotbotInfo is a dotbot envelope without its data.
type DotbotInfo struct {
	SchemaID string `json:"schema_id"`
	Tool     string `json:"tool"`
	Version  string `json:"version"`
	// Status is computed from Errors and Warnings, as the spec defines it.
	Status DotbotStatus `json:"status"`
	// DeclaredStatus is the status the envelope declared; when it differs
	// from Status, Status wins and decoding reports a warning.
	DeclaredStatus DotbotStatus   `json:"-"`
	Summary        string         `json:"summary"`
	Warnings       []DotbotIssue  `json:"warnings"`
	Errors         []DotbotIssue  `json:"errors"`
	Audit          DotbotAudit    `json:"audit"`
	Intent         *DotbotIntent  `json:"intent,omitempty"`
	Actions        []DotbotAction `json:"actions,omitempty"`
}

// ToolEnvelopeInfo is what a ToolEnvelope V1 said besides its payload: its
// meta object and the human-readable text of block 0.
type ToolEnvelopeInfo struct {
	// Tool names the tool that made the envelope.
	Tool string `json:"tool"`
	// TS is the envelope's ISO 8601 timestamp, as sent.
	TS string `json:"ts"`
	// Version is the envelope's schema version (always 1 once decoded).
	Version int `json:"version"`
	// Summary is the text of block 0 (markdown for people); "" when block 0
	// is not a text block.
	Summary string `json:"-"`
}

// Time parses TS as RFC 3339. It fails for timestamps in other ISO 8601 forms.
func (i *ToolEnvelopeInfo) Time() (time.Time, error) { return time.Parse(time.RFC3339Nano, i.TS) }

// ConventionName implements runtime.Convention.
func (*DotbotInfo) ConventionName() string { return ConventionDotbot }

// ConventionName implements runtime.Convention.
func (*ToolEnvelopeInfo) ConventionName() string { return ConventionToolEnvelope }
