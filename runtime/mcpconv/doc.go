// Package mcpconv reads and writes the MCP content conventions that carry
// a structured result in text content: ToolEnvelope V1 (a base64 block
// "__ENVELOPE_V1__:" beside a human-readable one) and the dotbot envelope
// (schema_id dotbot-mcp-response@1). Package runtime/mcpclient decodes
// them into an MCP result's data, keeping what they said besides it on
// runtime.MCPMeta's Convention (a *ToolEnvelopeInfo or a *DotbotInfo: switch
// on its type); servers encode them.
package mcpconv
