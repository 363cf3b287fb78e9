package odd

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/opsgen/opsgen/runtime"
)

func TestUntagged(t *testing.T) {
	var n Numbers
	if err := json.Unmarshal([]byte(`{"size, in cm":2.5,"weight, kg":3,"name":"x"}`), &n); err != nil {
		t.Fatal(err)
	}
	if n.SizeInCm != 2.5 || n.WeightKg == nil || *n.WeightKg != 3 || n.Name == nil || *n.Name != "x" {
		t.Errorf("decoded %+v", n)
	}
	b, err := json.Marshal(Numbers{SizeInCm: 1})
	if err != nil || string(b) != `{"size, in cm":1}` {
		t.Errorf("marshal = %s, %v", b, err)
	}
	var e Extra
	in := `{"a,b":"ab","id":7,"other":"o"}`
	if err := json.Unmarshal([]byte(in), &e); err != nil {
		t.Fatal(err)
	}
	if e.AB == nil || *e.AB != "ab" || e.ID == nil || *e.ID != 7 || !reflect.DeepEqual(e.AdditionalProperties, map[string]string{"other": "o"}) {
		t.Errorf("Extra decoded %+v", e)
	}
	out, _ := json.Marshal(e)
	var back, orig map[string]any
	json.Unmarshal(out, &back)
	json.Unmarshal([]byte(in), &orig)
	if !reflect.DeepEqual(back, orig) {
		t.Errorf("Extra round trip: %s", out)
	}

	var sent string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		sent = string(b)
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	}))
	defer srv.Close()
	reg := runtime.NewRegistry(&runtime.Pipeline{})
	if err := NewClient(WithBaseURL(srv.URL)).Register(reg); err != nil {
		t.Fatal(err)
	}
	env, err := reg.Execute(context.Background(), reg.Operations()[0].ID, json.RawMessage(`{"body":{"size, in cm":4.5}}`))
	if err != nil {
		t.Fatal(err)
	}
	if sent != `{"size, in cm":4.5}` {
		t.Errorf("sent %s", sent)
	}
	if len(env.Warnings) > 0 {
		t.Errorf("warnings %v", env.Warnings)
	}
	if d, _ := json.Marshal(env.Data); string(d) != sent {
		t.Errorf("data %s", d)
	}
}
