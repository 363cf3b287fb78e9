package mcp

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/compare/mcp/everything"
	"github.com/opsgen/opsgen/compare/mcp/filesystem"
	"github.com/opsgen/opsgen/compare/mcp/memory"
	"github.com/opsgen/opsgen/runtime"
)

func TestOpsgenMemory(t *testing.T) {
	ctx := context.Background()
	from, to := memory.NewClient(memoryServer(t)), memory.NewClient(memoryServer(t))
	if _, err := from.CreateEntities(ctx, memory.CreateEntitiesInput{Entities: []memory.EntitiesItem{
		{Name: "opsgen", EntityType: "project", Observations: []string{"generates Go clients"}},
	}}); err != nil {
		t.Fatal(err)
	}
	// One tool's result is another's input: the entity type is shared.
	g, err := from.ReadGraph(ctx)
	if err != nil {
		t.Fatal(err)
	}
	created, err := to.CreateEntities(ctx, memory.CreateEntitiesInput{Entities: g.Data.Entities})
	if err != nil || len(created.Data.Entities) != 1 || created.Data.Entities[0].Observations[0] != "generates Go clients" {
		t.Fatalf("copied: %+v %v", created.Data, err)
	}
}

func TestOpsgenFilesystem(t *testing.T) {
	ctx := context.Background()
	cs, dir := fsServer(t)
	c := filesystem.NewClient(cs)
	path := filepath.Join(dir, "note.txt")
	if _, err := c.WriteFile(ctx, filesystem.WriteFileInput{Path: path, Content: "hello"}); err != nil {
		t.Fatal(err)
	}
	got, err := c.ReadTextFile(ctx, filesystem.ReadTextFileInput{Path: path})
	if err != nil || got.Data.Content != "hello" {
		t.Fatalf("read: %+v %v", got.Data, err)
	}
	// A path outside the allowed directory: the tool's isError result.
	env, err := c.ReadTextFile(ctx, filesystem.ReadTextFileInput{Path: "/etc/hostname"})
	if m := runtime.MCPMetaOf(env.Meta); err != nil || m == nil || !m.IsError {
		t.Fatalf("outside: %v %v", env.Meta, err)
	}
}

func TestOpsgenEverything(t *testing.T) {
	ctx := context.Background()
	c := everything.NewClient(connect(t, "server-everything", nil))
	sum, err := c.GetSum(ctx, everything.GetSumInput{A: 2, B: 3})
	if err != nil || len(sum.Data) != 1 || !strings.Contains(sum.Data[0].Text, "5") {
		t.Fatalf("sum: %+v %v", sum.Data, err)
	}
	weather, err := c.GetStructuredContent(ctx, everything.GetStructuredContentInput{Location: everything.GetStructuredContentInputLocationChicago})
	if err != nil || weather.Data.Conditions == "" || weather.Data.Temperature == 0 {
		t.Fatalf("weather: %+v %v", weather.Data, err)
	}
}
