package runtime

// Names of the content conventions, as used by ConventionInfo.Name and by
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

// ConventionInfo is what a content convention's envelope said about an MCP
// result, kept on MCPMeta.Convention. Exactly one of ToolEnvelope and Dotbot
// is set.
type ConventionInfo struct {
	// Name is "toolenvelope-v1" or "dotbot".
	Name string
	// ToolEnvelope is the meta of a ToolEnvelope V1 block and the text of block 0.
	ToolEnvelope *ToolEnvelopeInfo
	// Dotbot is a dotbot envelope without its data.
	Dotbot *DotbotInfo
}
