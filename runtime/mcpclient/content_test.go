package mcpclient_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpclient"
)

func TestContentRoundTrip(t *testing.T) {
	prio := 0.25
	blocks := []runtime.ContentBlock{
		{Type: runtime.ContentText, Text: "hi", Annotations: &runtime.Annotations{Audience: []string{"user", "assistant"}, Priority: &prio, LastModified: "2025-01-01T00:00:00Z"}},
		{Type: runtime.ContentImage, Data: "iVBORw0KGgo=", MIMEType: "image/png"},
		{Type: runtime.ContentAudio, Data: "UklGRg==", MIMEType: "audio/wav"},
		{Type: runtime.ContentResource, Resource: &runtime.ResourceContent{URI: "file:///a", MIMEType: "application/octet-stream", Blob: "AAE="}},
		{Type: runtime.ContentResource, Resource: &runtime.ResourceContent{URI: "file:///b", Text: "b"}},
		{Type: runtime.ContentResourceLink, URI: "file:///c", Name: "c", Description: "d", MIMEType: "text/plain"},
	}
	sdk, err := mcpclient.ToSDK(blocks)
	if err != nil {
		t.Fatal(err)
	}
	if got := mcpclient.FromSDK(sdk); !reflect.DeepEqual(got, blocks) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, blocks)
	}
}

func TestFromSDKUnknown(t *testing.T) {
	//lint:ignore SA1019 a block type outside the runtime's set is what this tests.
	got := mcpclient.FromSDK([]mcp.Content{&mcp.ToolUseContent{ID: "1", Name: "n", Input: map[string]any{"a": 1}}, nil})
	want := []runtime.ContentBlock{
		runtime.TextBlock(`{"type":"tool_use","id":"1","name":"n","input":{"a":1}}`),
		runtime.TextBlock("null"),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("FromSDK = %+v, want %+v", got, want)
	}
}

func TestToSDKErrors(t *testing.T) {
	for _, tc := range []struct {
		block runtime.ContentBlock
		want  string
	}{
		{runtime.ContentBlock{Type: runtime.ContentImage, Data: "%%%"}, "content block 1 (image): data"},
		{runtime.ContentBlock{Type: runtime.ContentResource, Resource: &runtime.ResourceContent{Blob: "%%%"}}, "resource blob"},
		{runtime.ContentBlock{Type: "hologram"}, `unknown content block type "hologram"`},
	} {
		_, err := mcpclient.ToSDK([]runtime.ContentBlock{runtime.TextBlock("ok"), tc.block})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ToSDK(%+v) error %v, want %q", tc.block, err, tc.want)
		}
	}
}
