package mcpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/callproto"
	"github.com/opsgen/opsgen/callproto/natsbus"
	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpclient"
	"github.com/opsgen/opsgen/runtime/mcpserver"
	"github.com/opsgen/opsgen/runtime/mcpserver/internal/petsapi"
	"github.com/opsgen/opsgen/runtime/mcpserver/internal/petsmcp"
)

// driftingPets is the pets API answering GET /pets/1 with a status outside
// the PetStatus enum (drift: a warning at /status, the value kept) and GET
// /pets/999 with the 404 the spec declares (a typed error, *ErrorResponse).
func driftingPets(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h["Date"] = nil // the same headers on every call
		h.Set("Content-Type", "application/json")
		h.Set("X-Request-Kind", "test")
		switch r.URL.Path {
		case "/pets/1":
			io.WriteString(w, `{"id":1,"name":"Rex","status":"reserved","tags":["dog"],"owner":{"name":"Ann","email":null}}`)
		case "/pets/999":
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"code":404,"message":"no pet 999"}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestAllPaths walks one OpenAPI operation (pets.getPet), once drifting
// and once failing with its declared 404, through every path a call can
// take: (1) the generated OpenAPI client calling the API; (2) the
// Registry it registered into (Execute, ExecuteAs); (3) a call protocol
// hub serving that Registry over embedded NATS, called by a spoke (Call,
// CallAs, and the generated client WithRemote(spoke)); (4) the Registry
// served as an MCP server over streamable HTTP, called by (5) petsmcp, the
// MCP client generated from a snapshot of that server's listing
// (TestGenerated checks that the snapshot and petsmcp are current). Every
// hop must return the same data, warnings and error; the differences the
// paths legitimately have are asserted exactly, each where it occurs.
func TestAllPaths(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	api := driftingPets(t)

	// (1) The generated OpenAPI client, called directly.
	direct := petsapi.NewClient(petsapi.WithBaseURL(api.URL))
	want, err := direct.GetPet(ctx, petsapi.GetPetParams{PetID: 1})
	if err != nil {
		t.Fatal(err)
	}
	if want.Data.Status != "reserved" || want.Data.Name != "Rex" || len(want.Warnings) != 1 || want.Warnings[0].Pointer != "/status" {
		t.Fatalf("direct GetPet(1): data %+v, warnings %v; want the drift kept and one warning at /status", want.Data, want.Warnings)
	}
	_, directErr := direct.GetPet(ctx, petsapi.GetPetParams{PetID: 999})
	var wantNF *petsapi.ErrorResponse
	if !errors.As(directErr, &wantNF) || wantNF.Body.Message != "no pet 999" || wantNF.Body.Code != 404 {
		t.Fatalf("direct GetPet(999): %T %v, want *ErrorResponse with its body", directErr, directErr)
	}
	wantCE := callErrorOf(t, directErr)
	if wantCE.HTTP == nil || wantCE.HTTP.StatusCode != 404 {
		t.Fatalf("direct GetPet(999): HTTP %+v", wantCE.HTTP)
	}
	// The generated client names the operation by its own name; every
	// path through a Registry names it by the registry id. That is the
	// one field in which the direct call differs, here and below.
	if wantCE.OperationID != "getPet" {
		t.Errorf("direct error names %q, want getPet", wantCE.OperationID)
	}
	const id = "pets.getPet"
	// Gap (reported, issue 25): the warnings of a generated client's
	// envelope keep its transport's name for the operation through the
	// Registry and the call protocol ("getPet"), while the errors of the
	// same paths name the registry id ("pets.getPet", see handlerError).
	// Asserted as it is today: the transport reports (logs, OnWarning) each
	// warning once, when it happens, under its own name, and
	// runtime's TestRegistryOnePipelinePass requires the envelope to hold
	// the warnings as reported; renaming them is a design change, not a
	// one-line fix.
	const warnID = "getPet"
	// The MCP client names the operation by the tool's name (the generated
	// Tool has no registry id) in the warnings of its own pipeline and in
	// those the server sent in _meta (serverWarnings drops their
	// operationId); AsError names the served registry id.
	const mcpWarnID = "pets_getPet"

	// (2) The Registry the same client registered into.
	reg := runtime.NewRegistry(nil)
	if err := petsapi.NewClient(petsapi.WithBaseURL(api.URL)).Register(reg); err != nil {
		t.Fatal(err)
	}
	in := callproto.Input{Params: petsapi.GetPetParams{PetID: 1}}
	viaReg, err := runtime.ExecuteAs[petsapi.Pet](ctx, reg, id, in)
	if err != nil {
		t.Fatal(err)
	}
	samePet(t, "ExecuteAs", want, viaReg, warnID)
	if !reflect.DeepEqual(viaReg.Meta, want.Meta) || runtime.HTTPMetaOf(viaReg.Meta).StatusCode != 200 {
		t.Errorf("ExecuteAs: meta %+v, want the direct call's %+v", viaReg.Meta, want.Meta)
	}
	untyped, err := reg.Execute(ctx, id, in)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := untyped.Data.(petsapi.Pet); !ok || !reflect.DeepEqual(got, want.Data) {
		t.Errorf("Execute: data %T %+v, want %+v", untyped.Data, untyped.Data, want.Data)
	}
	sameWarnings(t, "Execute", want.Warnings, untyped.Warnings, warnID)
	notFound := callproto.Input{Params: petsapi.GetPetParams{PetID: 999}}
	_, regErr := runtime.ExecuteAs[petsapi.Pet](ctx, reg, id, notFound)
	sameNotFound(t, "ExecuteAs", directErr, regErr, id)
	_, regErr = reg.Execute(ctx, id, notFound)
	sameNotFound(t, "Execute", directErr, regErr, id)

	// (3) A hub serving the Registry, a spoke calling it over embedded NATS.
	hubBus, err := natsbus.Connect(natsbus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer hubBus.Close()
	hub, err := callproto.NewCallHandler(reg, hubBus, callproto.HandlerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer hub.Close()
	spokeBus, err := natsbus.Connect(natsbus.Options{URL: hubBus.URL()})
	if err != nil {
		t.Fatal(err)
	}
	defer spokeBus.Close()
	spoke, err := callproto.NewPendingRequestMap(spokeBus, callproto.SpokeOptions{
		TypedErrors: []func(*runtime.CallError) error{petsapi.TypedError},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer spoke.Close()
	// plain has no TypedErrors: the generated client WithRemote(plain)
	// types the error itself.
	plain, err := callproto.NewPendingRequestMap(spokeBus, callproto.SpokeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()

	viaCallAs, err := callproto.CallAs[petsapi.Pet](ctx, spoke, id, in)
	if err != nil {
		t.Fatal(err)
	}
	samePet(t, "CallAs", want, viaCallAs, warnID)
	if !reflect.DeepEqual(viaCallAs.Meta, viaReg.Meta) {
		t.Errorf("CallAs: meta %+v, want the registry's %+v", viaCallAs.Meta, viaReg.Meta)
	}
	remote := petsapi.NewClient(petsapi.WithRemote(spoke))
	viaRemote, err := remote.GetPet(ctx, petsapi.GetPetParams{PetID: 1})
	if err != nil {
		t.Fatal(err)
	}
	samePet(t, "WithRemote", want, viaRemote, warnID)
	if !reflect.DeepEqual(viaRemote.Meta, viaReg.Meta) {
		t.Errorf("WithRemote: meta %+v, want the registry's %+v", viaRemote.Meta, viaReg.Meta)
	}
	viaCall, err := spoke.Call(ctx, id, in)
	if err != nil {
		t.Fatal(err)
	}
	sameWarnings(t, "Call", want.Warnings, viaCall.Warnings, warnID)
	_, err = spoke.Call(ctx, id, notFound)
	sameNotFound(t, "Call", directErr, err, id)
	_, err = callproto.CallAs[petsapi.Pet](ctx, spoke, id, notFound)
	sameNotFound(t, "CallAs", directErr, err, id)
	_, err = remote.GetPet(ctx, petsapi.GetPetParams{PetID: 999})
	sameNotFound(t, "WithRemote", directErr, err, id)
	_, err = petsapi.NewClient(petsapi.WithRemote(plain)).GetPet(ctx, petsapi.GetPetParams{PetID: 999})
	sameNotFound(t, "WithRemote (plain spoke)", directErr, err, id)

	// (4) The Registry served as an MCP server over streamable HTTP, and
	// (5) the MCP client generated from a snapshot of its listing.
	_, hs := petsServer(t, api.URL, &mcpserver.Options{HTTP: &mcp.StreamableHTTPOptions{Stateless: true}})
	session, err := mcpclient.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	// (4) What the server sends: the data as structuredContent, the
	// warnings in _meta (each with the operation id the envelope had).
	raw, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "pets_getPet", Arguments: map[string]any{"params": map[string]any{"petId": 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if sc, _ := json.Marshal(raw.StructuredContent); raw.IsError || string(sc) != string(mustJSON(t, want.Data)) {
		t.Errorf("MCP server: structuredContent %s (isError %v), want %s", sc, raw.IsError, mustJSON(t, want.Data))
	}
	sentWarnings, _ := json.Marshal(raw.Meta[mcpserver.MetaWarnings])
	if wantSent := mustJSON(t, []map[string]string{{"operationId": warnID, "pointer": "/status", "message": want.Warnings[0].Message}}); string(sentWarnings) != string(wantSent) {
		t.Errorf("MCP server: _meta warnings %s, want %s", sentWarnings, wantSent)
	}
	mc := petsmcp.NewClient(session, mcpclient.WithLogger(nopLogger{}))
	viaMCP, err := mc.PetsGetPet(ctx, petsmcp.PetsGetPetInput{Params: petsmcp.PetInputParams{PetID: 1}})
	if err != nil {
		t.Fatal(err)
	}
	// (5) The data after the type mapping: the same JSON, in types of the
	// same shape (PetsGetPetOutput for Pet).
	dw, _ := json.Marshal(want.Data)
	dm, _ := json.Marshal(viaMCP.Data)
	if string(dw) != string(dm) {
		t.Errorf("MCP client: data %s, want %s", dm, dw)
	}
	if sw, sm := shape(reflect.TypeFor[petsapi.Pet]()), shape(reflect.TypeFor[petsmcp.PetsGetPetOutput]()); sw != sm {
		t.Errorf("MCP client: type shape %s, want %s", sm, sw)
	}
	if viaMCP.Data.Status != "reserved" {
		t.Errorf("MCP client: status %q, want the drifted value kept", viaMCP.Data.Status)
	}
	sameWarnings(t, "MCP client", want.Warnings, viaMCP.Warnings, mcpWarnID)
	// The meta is the MCP result's, not the upstream's HTTP meta (the
	// server sends that only with Options.IncludeMeta).
	if m := runtime.MCPMetaOf(viaMCP.Meta); m == nil || m.IsError || m.Tool != "pets_getPet" {
		t.Errorf("MCP client: meta %+v, want an MCP result of pets_getPet", viaMCP.Meta)
	}

	// Over MCP the failure is a result with isError set (MCP's way; err is
	// nil), which mcpclient.AsError makes a CallError again.
	failed, err := mc.PetsGetPet(ctx, petsmcp.PetsGetPetInput{Params: petsmcp.PetInputParams{PetID: 999}})
	if err != nil {
		t.Fatalf("MCP client GetPet(999): %v, want an isError result", err)
	}
	mcpErr := mcpclient.AsError(failed)
	ce := callErrorOf(t, mcpErr)
	regCE := callErrorOf(t, regErr)
	if ce.Code != regCE.Code || ce.Message != regCE.Message || ce.OperationID != id {
		t.Errorf("MCP client: %s %q %q, want %s %q %q", ce.Code, ce.Message, ce.OperationID, regCE.Code, regCE.Message, id)
	}
	if mcpErr.Error() != regErr.Error() {
		t.Errorf("MCP client: %q, want %q", mcpErr.Error(), regErr.Error())
	}
	// The MCP client has no typed error of its own (an MCP listing
	// declares no error statuses), so errors.As(…, *ErrorResponse) cannot
	// work here and HTTP.Typed is nil. The status crosses in
	// _meta["io.opsgen/error"] (AsError restores it: HTTP holds the status
	// only); the body crosses in the text block, after the error's line.
	if !reflect.DeepEqual(ce.HTTP, &runtime.HTTPFailure{StatusCode: 404}) {
		t.Errorf("MCP client: HTTP %+v, want status 404 only", ce.HTTP)
	}
	m := runtime.MCPMetaOf(failed.Meta)
	if len(m.Content) != 1 || m.Content[0].Text != regErr.Error()+"\n"+string(wantCE.HTTP.Body) {
		t.Errorf("MCP client: content %+v, want the error's line and the body %s", m.Content, wantCE.HTTP.Body)
	}
}

// samePet fails unless got has want's data and warnings, the warnings
// naming id.
func samePet(t *testing.T, how string, want, got runtime.ResponseEnvelope[petsapi.Pet], id string) {
	t.Helper()
	if !reflect.DeepEqual(got.Data, want.Data) {
		t.Errorf("%s: data %+v, want %+v", how, got.Data, want.Data)
	}
	sameWarnings(t, how, want.Warnings, got.Warnings, id)
}

// sameWarnings fails unless got are the direct call's warnings (message,
// pointer), naming the operation id.
func sameWarnings(t *testing.T, how string, direct, got []runtime.Warning, id string) {
	t.Helper()
	want := make([]runtime.Warning, len(direct))
	for i, w := range direct {
		if w.OperationID != "getPet" {
			t.Errorf("the direct call's warning names %q, want getPet", w.OperationID)
		}
		w.OperationID = id
		want[i] = w
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: warnings %+v, want %+v", how, got, want)
	}
}

// sameNotFound fails unless err is the direct call's *ErrorResponse with
// the same Code, Message, HTTP failure and typed body, naming the registry
// id where the direct error names getPet.
func sameNotFound(t *testing.T, how string, direct, err error, id string) {
	t.Helper()
	var nf *petsapi.ErrorResponse
	if !errors.As(err, &nf) {
		t.Errorf("%s: %T %v, want *petsapi.ErrorResponse", how, err, err)
		return
	}
	var wantNF *petsapi.ErrorResponse
	errors.As(direct, &wantNF)
	if !reflect.DeepEqual(nf.Body, wantNF.Body) {
		t.Errorf("%s: body %+v, want %+v", how, nf.Body, wantNF.Body)
	}
	w, g := *callErrorOf(t, direct), *callErrorOf(t, err)
	if g.OperationID != id {
		t.Errorf("%s: the error names %q, want %q", how, g.OperationID, id)
	}
	if g.Code != w.Code || g.Message != w.Message || !reflect.DeepEqual(g.Issues, w.Issues) {
		t.Errorf("%s: %s %q %v, want %s %q %v", how, g.Code, g.Message, g.Issues, w.Code, w.Message, w.Issues)
	}
	if g.HTTP == nil {
		t.Errorf("%s: no HTTP failure", how)
		return
	}
	if !reflect.DeepEqual(*g.HTTP, *w.HTTP) {
		t.Errorf("%s: HTTP\n%+v\nwant\n%+v", how, *g.HTTP, *w.HTTP)
	}
}

func callErrorOf(t *testing.T, err error) *runtime.CallError {
	t.Helper()
	var ce *runtime.CallError
	if !errors.As(err, &ce) {
		t.Fatalf("%T %v is no CallError", err, err)
	}
	return ce
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
