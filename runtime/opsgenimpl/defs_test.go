package opsgenimpl_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// Static schemas as generated code declares them: a recursive Node, an
// Owner it shares with Team, and Unused, which nothing refers to.
type defRefNode struct{}

func (defRefNode) Def() *opsgenimpl.Def { return &defSchemaNode }

var defSchemaNode = opsgenimpl.Def{Name: "Node", JSON: `{"type":"object","properties":{"name":{"type":"string"},"owner":{"$ref":"#/$defs/Owner"},"children":{"type":"array","items":{"$ref":"#/$defs/Node"}}}}`,
	Deps: []opsgenimpl.DefRef{defRefNode{}, defRefOwner{}}}

type defRefOwner struct{}

func (defRefOwner) Def() *opsgenimpl.Def { return &defSchemaOwner }

var defSchemaOwner = opsgenimpl.Def{Name: "Owner", JSON: `{"type":"object","required":["id"],"properties":{"id":{"type":"integer"},"role":{"type":"string","default":"member"}}}`}

type defRefTeam struct{}

func (defRefTeam) Def() *opsgenimpl.Def { return &defSchemaTeam }

var defSchemaTeam = opsgenimpl.Def{Name: "Team", JSON: `{"type":"object","properties":{"lead":{"$ref":"#/$defs/Owner"}}}`, Deps: []opsgenimpl.DefRef{defRefOwner{}}}

type defRefUnused struct{}

func (defRefUnused) Def() *opsgenimpl.Def { return &defSchemaUnused }

var defSchemaUnused = opsgenimpl.Def{Name: "Unused", JSON: `{"type":"string"}`}

var testSchemaSet opsgenimpl.SchemaSet

var (
	refSchemaNode   = opsgenimpl.Schema{JSON: `{"$ref":"#/$defs/Node"}`, Defs: []opsgenimpl.DefRef{defRefNode{}}, Set: &testSchemaSet}
	respSchemaTeams = opsgenimpl.Schema{JSON: `{"type":"array","items":{"$ref":"#/$defs/Team"}}`, Defs: []opsgenimpl.DefRef{defRefTeam{}}, Set: &testSchemaSet}
)

func decodeWith(t testing.TB, schema *opsgenimpl.Schema, body string) (string, []runtime.Warning) {
	t.Helper()
	var out any
	ws, err := opsgenimpl.Decode(context.Background(), &runtime.Pipeline{Logger: slog.New(slog.DiscardHandler)}, "t.op", schema, []byte(body), &out)
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	b, _ := json.Marshal(out)
	return string(b), ws
}

// TestDefSchemasConcurrentFirstUse: schemas of one set, sharing defs (Owner),
// compiled on first use by many goroutines at once (run with -race), each
// normalizing and validating as the schema says, recursion included.
func TestDefSchemasConcurrentFirstUse(t *testing.T) {
	const n = 16
	var wg sync.WaitGroup
	errs := make(chan string, 2*n)
	for i := 0; i < n; i++ {
		wg.Go(func() {
			got, ws := decodeWith(t, &refSchemaNode, `{"name":"/","owner":{"id":1},"children":[{"name":7,"children":[{"name":"x","owner":{"id":"no"}}]}]}`)
			if want := `{"children":[{"children":[{"name":"x","owner":{"role":"member"}}]}],"name":"/","owner":{"id":1,"role":"member"}}`; got != want {
				errs <- fmt.Sprintf("Node: got %s, want %s", got, want)
			}
			if len(ws) != 2 {
				errs <- fmt.Sprintf("Node: warnings %v, want 2 (children/0/name, children/0/children/0/owner/id)", ws)
			}
		})
		wg.Go(func() {
			got, ws := decodeWith(t, &respSchemaTeams, `[{"lead":{"id":2}},{"lead":{"role":"x"}}]`)
			if want := `[{"lead":{"id":2,"role":"member"}},{"lead":{"role":"x"}}]`; got != want {
				errs <- fmt.Sprintf("Teams: got %s, want %s", got, want)
			}
			if len(ws) != 1 || !strings.Contains(ws[0].String(), "/1/lead") {
				errs <- fmt.Sprintf("Teams: warnings %v, want the missing id of /1/lead", ws)
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestDefSchemaDocument: the document a static schema's refs resolve
// against holds the defs it reaches, and no other.
func TestDefSchemaDocument(t *testing.T) {
	_, doc, err := refSchemaNode.Document()
	if err != nil {
		t.Fatal(err)
	}
	defs := doc.(map[string]any)["$defs"].(map[string]any)
	if len(defs) != 2 || defs["Node"] == nil || defs["Owner"] == nil {
		t.Errorf("$defs of Node's schema: %v, want Node and Owner", defs)
	}
}

// TestDefSchemaErrors: a def whose JSON is broken fails the schemas that
// reach it, naming the def; the others compile.
func TestDefSchemaErrors(t *testing.T) {
	broken := opsgenimpl.Def{Name: "Broken", JSON: `{"type":`}
	var set opsgenimpl.SchemaSet
	bad := opsgenimpl.Schema{JSON: `{"$ref":"#/$defs/Broken"}`, Defs: []opsgenimpl.DefRef{defPtr{&broken}}, Set: &set}
	if err := bad.Compile(); err == nil || !strings.Contains(err.Error(), `"Broken"`) {
		t.Errorf("Compile = %v, want an error naming Broken", err)
	}
	good := opsgenimpl.Schema{JSON: `{"$ref":"#/$defs/Owner"}`, Defs: []opsgenimpl.DefRef{defRefOwner{}}, Set: &set}
	if err := good.Compile(); err != nil {
		t.Errorf("Compile of a schema not reaching Broken: %v", err)
	}
	missing := opsgenimpl.Schema{JSON: `{"$ref":"#/$defs/Nowhere"}`, Defs: []opsgenimpl.DefRef{defRefOwner{}}}
	if err := missing.Compile(); err == nil {
		t.Error("a ref to a def the schema does not list compiled")
	}
}

// defPtr is a DefRef to a def made at run time.
type defPtr struct{ d *opsgenimpl.Def }

func (r defPtr) Def() *opsgenimpl.Def { return r.d }

// TestNewDefSet: the set of every def, as a generated package's Schemas
// returns it, resolves refs to any of them.
func TestNewDefSet(t *testing.T) {
	set := opsgenimpl.NewDefSet(defRefNode{}, defRefTeam{}, defRefUnused{})
	got, ws := decodeWith(t, set.Ref(`{"type":"array","items":{"$ref":"#/$defs/Unused"}}`), `["a",1]`)
	if got != `["a",null]` || len(ws) != 1 {
		t.Errorf("got %s %v, want [\"a\",null] and a warning for /1", got, ws)
	}
	_, doc, err := set.Ref(`{}`).Document()
	if err != nil {
		t.Fatal(err)
	}
	if defs := doc.(map[string]any)["$defs"].(map[string]any); len(defs) != 4 {
		t.Errorf("$defs of the set: %d defs, want 4 (Node, Owner, Team, Unused)", len(defs))
	}
}
