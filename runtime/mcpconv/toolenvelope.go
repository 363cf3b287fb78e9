package mcpconv

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/opsgen/opsgen/runtime"
)

// ToolEnvelopePrefix starts the machine-readable block of ToolEnvelope V1.
const ToolEnvelopePrefix = "__ENVELOPE_V1__:"

// ToolEnvelopeVersion is the only ToolEnvelope version this runtime reads.
const ToolEnvelopeVersion = 1

// ErrNoToolEnvelope reports content without a ToolEnvelope V1 block: not an
// envelope, so the consumer falls back to the text.
var ErrNoToolEnvelope = errors.New("opsgen: no " + ToolEnvelopePrefix + " block")

// ToolEnvelope is a decoded ToolEnvelope V1 result.
type ToolEnvelope struct {
	// Payload is the envelope's payload, as sent.
	Payload json.RawMessage
	ToolEnvelopeInfo
}

// DecodeToolEnvelope finds the ToolEnvelope V1 block among blocks (block 1
// by the spec; any text block starting with ToolEnvelopePrefix is accepted)
// and decodes it.
//
// Summary is set from block 0 even when decoding fails, so that a caller can
// fall back to the text. The error is ErrNoToolEnvelope when there is no
// envelope block, and otherwise says what is wrong: malformed base64 or
// JSON, a missing payload or meta, a missing version or a version other than 1.
//
// Base64 is read as Node's Buffer.from(s, "base64") reads it: trailing
// characters after the valid base64 (and its padding) are ignored, and the
// URL-safe alphabet is accepted.
func DecodeToolEnvelope(blocks []runtime.ContentBlock) (ToolEnvelope, error) {
	var env ToolEnvelope
	if len(blocks) > 0 && blocks[0].Type == runtime.ContentText && !strings.HasPrefix(blocks[0].Text, ToolEnvelopePrefix) {
		env.Summary = blocks[0].Text
	}
	for i, b := range blocks {
		if b.Type != runtime.ContentText || !strings.HasPrefix(b.Text, ToolEnvelopePrefix) {
			continue
		}
		if err := env.decodeBlock(b.Text[len(ToolEnvelopePrefix):]); err != nil {
			return env, fmt.Errorf("opsgen: %s block %d: %w", ConventionToolEnvelope, i, err)
		}
		return env, nil
	}
	return env, ErrNoToolEnvelope
}

// HasToolEnvelope reports whether blocks contain a ToolEnvelope V1 block.
func HasToolEnvelope(blocks []runtime.ContentBlock) bool {
	for _, b := range blocks {
		if b.Type == runtime.ContentText && strings.HasPrefix(b.Text, ToolEnvelopePrefix) {
			return true
		}
	}
	return false
}

func (env *ToolEnvelope) decodeBlock(encoded string) error {
	raw, err := decodeLenientBase64(encoded)
	if err != nil {
		return err
	}
	var wire struct {
		Payload json.RawMessage `json:"payload"`
		Meta    *struct {
			Tool    string   `json:"tool"`
			TS      string   `json:"ts"`
			Version *float64 `json:"version"`
		} `json:"meta"`
	}
	if err := json.Unmarshal(raw, &wire); err != nil {
		return fmt.Errorf("envelope JSON: %w", err)
	}
	switch {
	case wire.Payload == nil:
		return errors.New("envelope has no payload")
	case wire.Meta == nil:
		return errors.New("envelope has no meta")
	case wire.Meta.Version == nil:
		return errors.New("envelope meta has no version")
	case *wire.Meta.Version != ToolEnvelopeVersion:
		return fmt.Errorf("unsupported envelope version %v (this runtime reads version %d)", *wire.Meta.Version, ToolEnvelopeVersion)
	}
	env.Payload = wire.Payload
	env.Tool, env.TS, env.Version = wire.Meta.Tool, wire.Meta.TS, ToolEnvelopeVersion
	return nil
}

// decodeLenientBase64 decodes the longest valid base64 prefix of s, up to
// and including its padding, ignoring what follows.
func decodeLenientBase64(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	n, urlSafe := 0, false
	for n < len(s) {
		c := s[n]
		if c == '-' || c == '_' {
			urlSafe = true
		} else if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/') {
			break
		}
		n++
	}
	if n == 0 {
		return nil, errors.New("envelope block holds no base64")
	}
	data := s[:n]
	// A data length of 4k+1 cannot be base64: the last character is garbage.
	if len(data)%4 == 1 {
		data = data[:len(data)-1]
	}
	enc := base64.RawStdEncoding
	if urlSafe {
		enc = base64.RawURLEncoding
	}
	out, err := enc.DecodeString(data)
	if err != nil {
		return nil, fmt.Errorf("envelope base64: %w", err)
	}
	return out, nil
}

// EncodeToolEnvelope returns the two blocks of a ToolEnvelope V1 result:
// block 0 holds summary (markdown for people), block 1 the prefix and the
// base64 JSON {payload, meta{tool, ts, version: 1}}. Go MCP servers use it
// to answer in the convention.
func EncodeToolEnvelope(tool string, ts time.Time, payload any, summary string) ([]runtime.ContentBlock, error) {
	p, err := json.Marshal(payload)
	if err != nil {
		return nil, fmt.Errorf("opsgen: %s payload: %w", ConventionToolEnvelope, err)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(struct {
		Payload json.RawMessage  `json:"payload"`
		Meta    ToolEnvelopeInfo `json:"meta"`
	}{p, ToolEnvelopeInfo{Tool: tool, TS: ts.UTC().Format(time.RFC3339Nano), Version: ToolEnvelopeVersion}}); err != nil {
		return nil, fmt.Errorf("opsgen: %s: %w", ConventionToolEnvelope, err)
	}
	js := bytes.TrimRight(b.Bytes(), "\n")
	return []runtime.ContentBlock{
		runtime.TextBlock(summary),
		runtime.TextBlock(ToolEnvelopePrefix + base64.StdEncoding.EncodeToString(js)),
	}, nil
}
