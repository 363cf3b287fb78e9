package runtime

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Content block types of the seeds' MCPContentBlock union.
const (
	ContentText         = "text"
	ContentImage        = "image"
	ContentAudio        = "audio"
	ContentResource     = "resource"
	ContentResourceLink = "resource_link"
)

// ContentBlock is one MCP content block: the runtime's own type, decoupled
// from the MCP SDK's. Type says which fields are meaningful:
//
//	text           Text
//	image, audio   Data (base64), MIMEType
//	resource       Resource
//	resource_link  URI, Name, Description, MIMEType
//
// Annotations may accompany any type. A block of a type outside this set
// (from a newer MCP version) is never an error: it becomes a text block
// holding the block's JSON.
type ContentBlock struct {
	Type        string
	Text        string
	Data        string
	MIMEType    string
	Resource    *ResourceContent
	URI         string
	Name        string
	Description string
	Annotations *Annotations
}

// ResourceContent is the resource embedded in a "resource" content block.
// Text holds text contents, Blob base64 binary contents.
type ResourceContent struct {
	URI      string `json:"uri"`
	MIMEType string `json:"mimeType,omitempty"`
	Text     string `json:"text,omitempty"`
	Blob     string `json:"blob,omitempty"`
}

// Annotations are the optional hints on a content block.
type Annotations struct {
	Audience     []string `json:"audience,omitempty"`
	Priority     *float64 `json:"priority,omitempty"`
	LastModified string   `json:"lastModified,omitempty"`
}

// TextBlock returns a text content block.
func TextBlock(text string) ContentBlock { return ContentBlock{Type: ContentText, Text: text} }

// MarshalJSON writes the block with exactly the fields of its type.
func (b ContentBlock) MarshalJSON() ([]byte, error) {
	switch b.Type {
	case ContentText:
		return json.Marshal(struct {
			Type        string       `json:"type"`
			Text        string       `json:"text"`
			Annotations *Annotations `json:"annotations,omitempty"`
		}{b.Type, b.Text, b.Annotations})
	case ContentImage, ContentAudio:
		return json.Marshal(struct {
			Type        string       `json:"type"`
			Data        string       `json:"data"`
			MIMEType    string       `json:"mimeType"`
			Annotations *Annotations `json:"annotations,omitempty"`
		}{b.Type, b.Data, b.MIMEType, b.Annotations})
	case ContentResource:
		res := b.Resource
		if res == nil {
			res = &ResourceContent{}
		}
		return json.Marshal(struct {
			Type        string           `json:"type"`
			Resource    *ResourceContent `json:"resource"`
			Annotations *Annotations     `json:"annotations,omitempty"`
		}{b.Type, res, b.Annotations})
	case ContentResourceLink:
		return json.Marshal(struct {
			Type        string       `json:"type"`
			URI         string       `json:"uri"`
			Name        string       `json:"name"`
			Description string       `json:"description,omitempty"`
			MIMEType    string       `json:"mimeType,omitempty"`
			Annotations *Annotations `json:"annotations,omitempty"`
		}{b.Type, b.URI, b.Name, b.Description, b.MIMEType, b.Annotations})
	}
	return nil, fmt.Errorf("opsgen: content block type %q is not one of text, image, audio, resource, resource_link", b.Type)
}

// UnmarshalJSON reads a block. A block whose type is unknown (or whose
// fields do not fit its type) becomes a text block holding its JSON, as the
// seeds' mapMCPContentBlocks does.
func (b *ContentBlock) UnmarshalJSON(data []byte) error {
	var w struct {
		Type        string           `json:"type"`
		Text        *string          `json:"text"`
		Data        string           `json:"data"`
		MIMEType    string           `json:"mimeType"`
		Resource    *ResourceContent `json:"resource"`
		URI         string           `json:"uri"`
		Name        string           `json:"name"`
		Description string           `json:"description"`
		Annotations *Annotations     `json:"annotations"`
	}
	if err := json.Unmarshal(data, &w); err != nil || !knownContentType(w.Type) {
		if !json.Valid(data) {
			return fmt.Errorf("opsgen: content block is not JSON")
		}
		*b = TextBlock(compactJSON(data))
		return nil
	}
	*b = ContentBlock{
		Type: w.Type, Data: w.Data, MIMEType: w.MIMEType, Resource: w.Resource,
		URI: w.URI, Name: w.Name, Description: w.Description, Annotations: w.Annotations,
	}
	if w.Text != nil {
		b.Text = *w.Text
	}
	return nil
}

func knownContentType(t string) bool {
	switch t {
	case ContentText, ContentImage, ContentAudio, ContentResource, ContentResourceLink:
		return true
	}
	return false
}

// compactJSON returns b compacted, as valid UTF-8 (invalid bytes become
// U+FFFD, as encoding/json writes them), so that the text block made of it
// marshals and unmarshals to the same string.
func compactJSON(b []byte) string {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return strings.ToValidUTF8(string(b), "\uFFFD")
	}
	return strings.ToValidUTF8(buf.String(), "\uFFFD")
}

// FirstText returns the text of the first text block, and whether there was one.
func FirstText(blocks []ContentBlock) (string, bool) {
	for _, b := range blocks {
		if b.Type == ContentText {
			return b.Text, true
		}
	}
	return "", false
}
