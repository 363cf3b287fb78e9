package mcptools

import (
	"slices"
	"testing"
)

// TestLoadFilesystemMediaItem: the filesystem server's read_media_file
// returns content items that are either {"type": "image"|"audio", ...}
// (an enum) or {"type": "resource", ...} (a const). The type property is
// their discriminator, and the variants are named by its values, not
// ...Object and ...Object2.
func TestLoadFilesystemMediaItem(t *testing.T) {
	svc, diags := loadFile(t, "filesystem.json", LoadOptions{})
	noWarnings(t, diags)
	u := typ(t, svc, "ReadMediaFileOutputContentItem")
	if u.Discriminator != "type" || len(u.Variants) != 2 {
		t.Fatalf("discriminator %q, %d variants", u.Discriminator, len(u.Variants))
	}
	for i, want := range []struct {
		name, ctor string
		tags       []string
	}{
		{"ImageOrAudio", "ReadMediaFileOutputContentItemFromImageOrAudio", []string{"image", "audio"}},
		{"Resource", "ReadMediaFileOutputContentItemFromResource", []string{"resource"}},
	} {
		v := u.Variants[i]
		if v.Name != want.name || v.Constructor != want.ctor || !slices.Equal(v.Tags, want.tags) {
			t.Errorf("variant %d: %s %s %v, want %+v", i, v.Name, v.Constructor, v.Tags, want)
		}
	}
}

// TestLoadMemorySharedEntity: in the memory server's snapshot the input
// entities are open objects and the output ones closed (additionalProperties:
// false); they are still one Go type, shared by every tool.
func TestLoadMemorySharedEntity(t *testing.T) {
	svc, diags := loadFile(t, "memory.json", LoadOptions{})
	noWarnings(t, diags)
	entity := typ(t, svc, "EntitiesItem")
	for _, name := range []string{"CreateEntitiesInput", "CreateEntitiesOutput", "ReadGraphOutput", "OpenNodesOutput", "SearchNodesOutput"} {
		if f := field(t, typ(t, svc, name), "entities"); f.Type.Elem != entity {
			t.Errorf("%s.entities is not []EntitiesItem", name)
		}
	}
	if svc.Def("CreateEntitiesInputEntitiesItem") == nil {
		t.Error("the input's own (open) schema is not kept for validation")
	}
}
