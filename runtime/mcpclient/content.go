package mcpclient

import (
	"encoding/base64"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/runtime"
)

// FromSDK maps go-sdk content to the runtime's content blocks. A block of a
// type outside text, image, audio, resource and resource_link (tool_use,
// tool_result, or a type from a newer SDK) becomes a text block holding the
// block's JSON, as the seeds' mapMCPContentBlocks does. Fields the runtime
// does not model (_meta, title, size, icons) are dropped.
func FromSDK(content []mcp.Content) []runtime.ContentBlock {
	blocks := make([]runtime.ContentBlock, 0, len(content))
	for _, c := range content {
		blocks = append(blocks, fromSDK(c))
	}
	return blocks
}

func fromSDK(c mcp.Content) runtime.ContentBlock {
	switch c := c.(type) {
	case *mcp.TextContent:
		return runtime.ContentBlock{Type: runtime.ContentText, Text: c.Text, Annotations: fromSDKAnnotations(c.Annotations)}
	case *mcp.ImageContent:
		return runtime.ContentBlock{Type: runtime.ContentImage, Data: base64.StdEncoding.EncodeToString(c.Data), MIMEType: c.MIMEType, Annotations: fromSDKAnnotations(c.Annotations)}
	case *mcp.AudioContent:
		return runtime.ContentBlock{Type: runtime.ContentAudio, Data: base64.StdEncoding.EncodeToString(c.Data), MIMEType: c.MIMEType, Annotations: fromSDKAnnotations(c.Annotations)}
	case *mcp.EmbeddedResource:
		b := runtime.ContentBlock{Type: runtime.ContentResource, Annotations: fromSDKAnnotations(c.Annotations)}
		if r := c.Resource; r != nil {
			b.Resource = &runtime.ResourceContent{URI: r.URI, MIMEType: r.MIMEType, Text: r.Text}
			if r.Blob != nil {
				b.Resource.Blob = base64.StdEncoding.EncodeToString(r.Blob)
			}
		}
		return b
	case *mcp.ResourceLink:
		return runtime.ContentBlock{Type: runtime.ContentResourceLink, URI: c.URI, Name: c.Name, Description: c.Description, MIMEType: c.MIMEType, Annotations: fromSDKAnnotations(c.Annotations)}
	case nil:
		return runtime.TextBlock("null")
	}
	js, err := c.MarshalJSON()
	if err != nil {
		return runtime.TextBlock(fmt.Sprintf("%T: %v", c, err))
	}
	return runtime.TextBlock(string(js))
}

func fromSDKAnnotations(a *mcp.Annotations) *runtime.Annotations {
	if a == nil {
		return nil
	}
	out := &runtime.Annotations{LastModified: a.LastModified}
	for _, r := range a.Audience {
		out.Audience = append(out.Audience, string(r))
	}
	if a.Priority != 0 {
		p := a.Priority
		out.Priority = &p
	}
	return out
}

// ToSDK maps runtime content blocks to go-sdk content, for Go servers that
// answer with blocks built by the runtime (for example by
// mcpconv.EncodeToolEnvelope). It fails on a block whose base64 data does
// not decode or whose type is unknown, naming the block.
func ToSDK(blocks []runtime.ContentBlock) ([]mcp.Content, error) {
	out := make([]mcp.Content, 0, len(blocks))
	for i, b := range blocks {
		c, err := toSDK(b)
		if err != nil {
			return nil, fmt.Errorf("opsgen: content block %d (%s): %w", i, b.Type, err)
		}
		out = append(out, c)
	}
	return out, nil
}

func toSDK(b runtime.ContentBlock) (mcp.Content, error) {
	ann := toSDKAnnotations(b.Annotations)
	switch b.Type {
	case runtime.ContentText:
		return &mcp.TextContent{Text: b.Text, Annotations: ann}, nil
	case runtime.ContentImage, runtime.ContentAudio:
		data, err := base64.StdEncoding.DecodeString(b.Data)
		if err != nil {
			return nil, fmt.Errorf("data: %w", err)
		}
		if b.Type == runtime.ContentImage {
			return &mcp.ImageContent{Data: data, MIMEType: b.MIMEType, Annotations: ann}, nil
		}
		return &mcp.AudioContent{Data: data, MIMEType: b.MIMEType, Annotations: ann}, nil
	case runtime.ContentResource:
		c := &mcp.EmbeddedResource{Annotations: ann, Resource: &mcp.ResourceContents{}}
		if r := b.Resource; r != nil {
			c.Resource = &mcp.ResourceContents{URI: r.URI, MIMEType: r.MIMEType, Text: r.Text}
			if r.Blob != "" {
				blob, err := base64.StdEncoding.DecodeString(r.Blob)
				if err != nil {
					return nil, fmt.Errorf("resource blob: %w", err)
				}
				c.Resource.Blob = blob
			}
		}
		return c, nil
	case runtime.ContentResourceLink:
		return &mcp.ResourceLink{URI: b.URI, Name: b.Name, Description: b.Description, MIMEType: b.MIMEType, Annotations: ann}, nil
	}
	return nil, fmt.Errorf("unknown content block type %q", b.Type)
}

func toSDKAnnotations(a *runtime.Annotations) *mcp.Annotations {
	if a == nil {
		return nil
	}
	out := &mcp.Annotations{LastModified: a.LastModified}
	for _, r := range a.Audience {
		out.Audience = append(out.Audience, mcp.Role(r))
	}
	if a.Priority != nil {
		out.Priority = *a.Priority
	}
	return out
}
