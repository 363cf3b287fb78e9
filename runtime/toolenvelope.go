package runtime

import (
	"time"
)

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
