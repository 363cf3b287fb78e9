package emit

import (
	"context"
	"testing"

	"github.com/opsgen/opsgen/generator/openapi"
)

// typelessObjectSpec has object schemas without "type" (azure
// search-searchindex's AutocompleteResult, whose server sends an array):
// plain, with additionalProperties, with a property name that cannot be a
// struct tag, nested in an array, and one that states its type.
const typelessObjectSpec = `openapi: 3.0.3
info: {title: typeless, version: "1"}
paths:
  /complete:
    post:
      operationId: complete
      requestBody:
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Query"}
      responses:
        "200":
          description: the result
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Result"}
components:
  schemas:
    Result:
      properties:
        text: {type: string}
        value: {type: array, items: {$ref: "#/components/schemas/Item"}}
    Item:
      properties:
        q: {type: string}
    Query:
      properties:
        search: {type: string}
        nonObject: {type: string}
      additionalProperties: {type: integer}
    Odd:
      properties:
        "size, in cm": {type: number}
    Typed:
      type: object
      properties:
        q: {type: string}
`

// typelessObjectTest runs in the generated package.
const typelessObjectTest = `package typeless

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/opsgen/opsgen/runtime"
)

// roundTrip decodes in into a new T and marshals it back.
func roundTrip[T any](t *testing.T, in string) (T, string) {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(in), &v); err != nil {
		t.Fatalf("%T from %s: %v", v, in, err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%T to JSON: %v", v, err)
	}
	return v, string(out)
}

func TestTypelessValues(t *testing.T) {
	for _, in := range []string{` + "`" + `[{"queryPlusText":"a b","text":"b"}]` + "`" + `, ` + "`" + `"text"` + "`" + `, ` + "`" + `7` + "`" + `, ` + "`" + `true` + "`" + `, ` + "`" + `null` + "`" + `} {
		r, out := roundTrip[Result](t, in)
		if string(r.NonObject) != in || out != in {
			t.Errorf("Result from %s: NonObject %s, back %s", in, r.NonObject, out)
		}
		q, out := roundTrip[Query](t, in)
		if string(q.NonObject) != in || out != in {
			t.Errorf("Query from %s: NonObject %s, back %s", in, q.NonObject, out)
		}
		o, out := roundTrip[Odd](t, in)
		if string(o.NonObject) != in || out != in {
			t.Errorf("Odd from %s: NonObject %s, back %s", in, o.NonObject, out)
		}
	}
	// Objects are the struct, as before.
	r, out := roundTrip[Result](t, ` + "`" + `{"text":"t","value":[{"q":"x"},"y",[1]]}` + "`" + `)
	if r.NonObject != nil || r.Text == nil || *r.Text != "t" || len(r.Value) != 3 || *r.Value[0].Q != "x" ||
		string(r.Value[1].NonObject) != ` + "`" + `"y"` + "`" + ` || string(r.Value[2].NonObject) != "[1]" {
		t.Errorf("Result from an object: %+v", r)
	}
	if out != ` + "`" + `{"text":"t","value":[{"q":"x"},"y",[1]]}` + "`" + ` {
		t.Errorf("Result back: %s", out)
	}
	q, out := roundTrip[Query](t, ` + "`" + `{"search":"s","nonObject":"n","n":3}` + "`" + `)
	if q.NonObject != nil || *q.Search != "s" || *q.NonObject2 != "n" || q.AdditionalProperties["n"] != 3 {
		t.Errorf("Query from an object: %+v", q)
	}
	var back, want map[string]any
	json.Unmarshal([]byte(out), &back)
	json.Unmarshal([]byte(` + "`" + `{"search":"s","nonObject":"n","n":3}` + "`" + `), &want)
	if !reflect.DeepEqual(back, want) {
		t.Errorf("Query back: %s", out)
	}
	o, out := roundTrip[Odd](t, ` + "`" + `{"size, in cm":2.5}` + "`" + `)
	if o.NonObject != nil || *o.SizeInCm != 2.5 || out != ` + "`" + `{"size, in cm":2.5}` + "`" + ` {
		t.Errorf("Odd from an object: %+v, back %s", o, out)
	}
	// A value decoded over one that held a non-object is the object alone.
	r = Result{NonObject: json.RawMessage("[]")}
	if err := json.Unmarshal([]byte(` + "`" + `{"text":"t"}` + "`" + `), &r); err != nil || r.NonObject != nil {
		t.Errorf("decoding an object over NonObject: %+v, %v", r, err)
	}
	// A schema that states "type: object" keeps no other value.
	if _, ok := reflect.TypeOf(Typed{}).FieldByName("NonObject"); ok {
		t.Error("Typed has a NonObject field")
	}
}

func TestTypelessCall(t *testing.T) {
	var answer atomic.Value // what the server sends
	const list = ` + "`" + `[{"queryPlusText":"washington medicaid","text":"medicaid"},{"queryPlusText":"washington medicare","text":"medicare"}]` + "`" + `
	var sent string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		sent = string(b)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, answer.Load().(string))
	}))
	defer srv.Close()
	answer.Store(list)
	c := NewClient(WithBaseURL(srv.URL))
	env, err := c.Complete(context.Background(), &Query{NonObject: json.RawMessage(` + "`" + `["a",1]` + "`" + `)})
	if err != nil {
		t.Fatal(err)
	}
	if sent != ` + "`" + `["a",1]` + "`" + ` {
		t.Errorf("sent %s", sent)
	}
	if len(env.Warnings) > 0 || string(env.Data.NonObject) != list {
		t.Errorf("warnings %v, data %+v", env.Warnings, env.Data)
	}
	for _, a := range []string{"null", ` + "`" + `"text"` + "`" + `, "-1.5"} {
		answer.Store(a)
		env, err := c.Complete(context.Background(), nil)
		if err != nil || len(env.Warnings) > 0 || string(env.Data.NonObject) != a {
			t.Errorf("answer %s: warnings %v, data %+v, err %v", a, env.Warnings, env.Data, err)
		}
	}
	answer.Store(list)

	reg := runtime.NewRegistry(&runtime.Pipeline{})
	if err := c.Register(reg); err != nil {
		t.Fatal(err)
	}
	renv, err := reg.Execute(context.Background(), reg.Operations()[0].ID, json.RawMessage(` + "`" + `{"body":"just text"}` + "`" + `))
	if err != nil {
		t.Fatal(err)
	}
	if sent != ` + "`" + `"just text"` + "`" + ` {
		t.Errorf("registry sent %s", sent)
	}
	if len(renv.Warnings) > 0 {
		t.Errorf("registry warnings %v", renv.Warnings)
	}
	if d, _ := json.Marshal(renv.Data); string(d) != list {
		t.Errorf("registry data %s", d)
	}
}
`

// TestDriftGoTypeCannotHoldTypelessObject is class 1 of issue 11 (a value
// the Go type cannot hold) for object schemas without "type": properties
// only constrain objects, so an array, a string, a number, a boolean or
// null is valid too. Such a struct keeps that value in NonObject, without a
// warning, and writes it back unchanged; objects stay the struct.
func TestDriftGoTypeCannotHoldTypelessObject(t *testing.T) {
	svc, _, err := openapi.LoadData(context.Background(), []byte(typelessObjectSpec), "typeless.yaml", openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	files, diags := emit(t, svc, Options{Package: "typeless", Version: "v0.1.0", Registry: true})
	for _, d := range diags {
		t.Errorf("warning: %s", d)
	}
	root, rel := writePackage(t, files, map[string]string{"typeless_test.go": typelessObjectTest})
	goCmd(t, root, "vet", rel)
	goCmd(t, root, "test", "-count=1", rel)
}
