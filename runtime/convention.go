package runtime

// Convention is what a recognised MCP content convention said about a tool
// result, kept on MCPMeta.Convention: a *mcpconv.ToolEnvelopeInfo (the meta
// of a ToolEnvelope V1 block and the text of block 0) or a
// *mcpconv.DotbotInfo (a dotbot envelope without its data).
type Convention interface {
	// ConventionName is the convention's name: "toolenvelope-v1" or "dotbot".
	ConventionName() string
}
