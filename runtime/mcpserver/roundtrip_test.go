package mcpserver_test

import (
	"context"
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpclient"
	"github.com/opsgen/opsgen/runtime/mcpserver"
	"github.com/opsgen/opsgen/runtime/mcpserver/internal/petsapi"
	"github.com/opsgen/opsgen/runtime/mcpserver/internal/petsmcp"
)

// shape describes a Go type by what its JSON looks like: struct fields by
// JSON name (with omitempty), pointers, slices, maps and the kinds of
// scalars, ignoring type names, so that the OpenAPI client's Pet and the
// MCP client's PetsGetPetOutput compare equal when they carry the same
// data.
func shape(t reflect.Type) string {
	if t == reflect.TypeFor[time.Time]() {
		return "time"
	}
	switch t.Kind() {
	case reflect.Pointer:
		return "*" + shape(t.Elem())
	case reflect.Slice:
		return "[]" + shape(t.Elem())
	case reflect.Map:
		return "map[" + shape(t.Key()) + "]" + shape(t.Elem())
	case reflect.Struct:
		var fields []string
		for i := range t.NumField() {
			f := t.Field(i)
			fields = append(fields, f.Tag.Get("json")+":"+shape(f.Type))
		}
		sort.Strings(fields)
		return "{" + strings.Join(fields, " ") + "}"
	}
	return t.Kind().String()
}

// same fails unless the two envelopes' data have the same JSON and types
// of the same shape, and neither has warnings.
func same[A, B any](t *testing.T, name string, direct runtime.ResponseEnvelope[A], viaMCP runtime.ResponseEnvelope[B]) {
	t.Helper()
	da, _ := json.Marshal(direct.Data)
	db, _ := json.Marshal(viaMCP.Data)
	if string(da) != string(db) {
		t.Errorf("%s: data differs:\ndirect   %s\nover MCP %s", name, da, db)
	}
	sa, sb := shape(reflect.TypeFor[A]()), shape(reflect.TypeFor[B]())
	if sa != sb {
		t.Errorf("%s: type shapes differ:\ndirect   %s\nover MCP %s", name, sa, sb)
	}
	if len(direct.Warnings) > 0 || len(viaMCP.Warnings) > 0 {
		t.Errorf("%s: warnings: direct %v, over MCP %v", name, direct.Warnings, viaMCP.Warnings)
	}
	if m := runtime.MCPMetaOf(viaMCP.Meta); m == nil || m.IsError {
		t.Errorf("%s: meta over MCP = %#v, want a successful MCP result", name, viaMCP.Meta)
	}
}

// TestRoundTrip serves the registry of the generated OpenAPI client
// (internal/petsapi) as an MCP server, and calls every operation through
// the MCP client generated from that server's snapshot (internal/petsmcp;
// TestGenerated checks that both are fresh) and directly through the
// OpenAPI client, against the same httptest backend: the data, the types'
// shapes and the absence of warnings must agree.
func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	backend := newBackend(t, nil)
	_, hs := petsServer(t, backend.URL, &mcpserver.Options{HTTP: &mcp.StreamableHTTPOptions{Stateless: true}})
	session, err := mcpclient.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	if v := session.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Errorf("negotiated protocol %q, want 2026-07-28", v)
	}
	direct := petsapi.NewClient(petsapi.WithBaseURL(backend.URL))
	mc := petsmcp.NewClient(session)

	limit, sold := int32(5), petsapi.PetStatusSold
	l1, err := direct.ListPets(ctx, petsapi.ListPetsParams{Limit: &limit})
	if err != nil {
		t.Fatal(err)
	}
	l2, err := mc.PetsListPets(ctx, petsmcp.PetsListPetsInput{Params: &petsmcp.PetsListPetsInputParams{Limit: &limit}})
	if err != nil {
		t.Fatal(err)
	}
	same(t, "listPets", l1, l2)
	if len(l2.Data) != 2 || l2.Data[0].Owner == nil || l2.Data[0].Owner.Email.Or("") != "ann@example.com" {
		t.Errorf("listPets over MCP = %+v", l2.Data)
	}
	soldMCP := petsmcp.PetStatus(sold)
	l3, err := mc.PetsListPets(ctx, petsmcp.PetsListPetsInput{Params: &petsmcp.PetsListPetsInputParams{Status: &soldMCP}})
	if err != nil {
		t.Fatal(err)
	}
	if len(l3.Data) != 1 || l3.Data[0].Name != "Felix" {
		t.Errorf("listPets(status=sold) over MCP = %+v", l3.Data)
	}

	c2, err := mc.PetsCreatePet(ctx, petsmcp.PetsCreatePetInput{Body: petsmcp.PetNewPet{Name: "Nibbles", Tags: []string{"hamster"}}})
	if err != nil {
		t.Fatal(err)
	}
	if c2.Data.ID != 3 || c2.Data.Status != "available" {
		t.Errorf("createPet over MCP = %+v", c2.Data)
	}
	g1, err := direct.GetPet(ctx, petsapi.GetPetParams{PetID: 3})
	if err != nil {
		t.Fatal(err)
	}
	g2, err := mc.PetsGetPet(ctx, petsmcp.PetsGetPetInput{Params: petsmcp.PetInputParams{PetID: 3}})
	if err != nil {
		t.Fatal(err)
	}
	same(t, "getPet", g1, g2)
	same(t, "createPet", g1, c2)

	u2, err := mc.PetsUpdatePet(ctx, petsmcp.PetsUpdatePetInput{
		Params: petsmcp.PetInputParams{PetID: 3},
		Body:   petsmcp.PetNewPet{Name: "Nibbles II", Owner: &petsmcp.Owner{Name: "Cy"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	u1, err := direct.GetPet(ctx, petsapi.GetPetParams{PetID: 3})
	if err != nil {
		t.Fatal(err)
	}
	same(t, "updatePet", u1, u2)

	//lint:ignore SA1019 every operation is called, the deprecated one too
	s1, err := direct.GetStats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	//lint:ignore SA1019 the deprecation came through the snapshot, as it should
	s2, err := mc.PetsGetStats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	same(t, "getStats", s1, s2)

	// deletePet declares no output (204): over MCP its data is the content,
	// a text block holding {}.
	d2, err := mc.PetsDeletePet(ctx, petsmcp.PetsDeletePetInput{Params: petsmcp.PetInputParams{PetID: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if len(d2.Data) != 1 || d2.Data[0].Type != runtime.ContentText || d2.Data[0].Text != "{}" || len(d2.Warnings) > 0 {
		t.Errorf("deletePet over MCP = %+v (warnings %v)", d2.Data, d2.Warnings)
	}

	// The pet is gone: the 404 is a CallError directly, an isError result
	// naming the code and carrying the error body over MCP.
	_, err = direct.GetPet(ctx, petsapi.GetPetParams{PetID: 3})
	if runtime.StatusCode(err) != 404 {
		t.Fatalf("direct GetPet(3) after delete: %v", err)
	}
	e2, err := mc.PetsGetPet(ctx, petsmcp.PetsGetPetInput{Params: petsmcp.PetInputParams{PetID: 3}})
	if err != nil {
		t.Fatalf("GetPet over MCP: %v, want an isError result", err)
	}
	m := runtime.MCPMetaOf(e2.Meta)
	if m == nil || !m.IsError || len(m.Content) != 1 {
		t.Fatalf("GetPet(3) over MCP after delete: meta %+v", e2.Meta)
	}
	text := m.Content[0].Text
	// The error names the registry id, as the caller does (issue 25).
	if text != "EXECUTION_ERROR pets.getPet: HTTP 404 Not Found\n"+`{"code":404,"message":"no pet 3"}` {
		t.Errorf("error text = %q", text)
	}
	detail, _ := m.Meta[mcpserver.MetaError].(map[string]any)
	if detail["code"] != "EXECUTION_ERROR" || detail["status"] != float64(404) || detail["operationId"] != "pets.getPet" {
		t.Errorf("_meta[%s] = %v", mcpserver.MetaError, m.Meta[mcpserver.MetaError])
	}
	if err := mcpclient.AsError(e2); err == nil || !strings.Contains(err.Error(), "HTTP 404 Not Found") {
		t.Errorf("AsError = %v", err)
	}
}
