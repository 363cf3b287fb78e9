package runtime

import (
	"context"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/runtime/internal/conform"
)

// TestDecodeFitBase64NoWarning: a body whose only misfit is a base64 form
// the fitter rewrites decodes without any warning.
func TestDecodeFitBase64NoWarning(t *testing.T) {
	var v struct {
		Etag []byte `json:"etag"`
	}
	ws, err := decodeFit("op", []byte(`{"etag":"string"}`), &v)
	if err != nil || len(ws) > 0 || len(v.Etag) != 4 {
		t.Errorf("warnings %v, err %v, etag %v", ws, err, v.Etag)
	}
}

// TestDriftGoTypeCannotHoldIntegerForms is class 1 of issue 11 (a value the
// Go type cannot hold) for integers: netbox's L2VPN identifier has
// "minimum: -9223372036854776000" (the JavaScript form of int64's bound,
// the IEEE double -2^63) and Prism sends that value; JSON Schema's
// integers include 2.0 and 1e3. Each is a number the integer type holds,
// read without a warning; what it does not hold is still dropped, with one.
func TestDriftGoTypeCannotHoldIntegerForms(t *testing.T) {
	type T struct {
		A int64   `json:"a"`
		B *int64  `json:"b"`
		C int32   `json:"c"`
		D uint64  `json:"d"`
		E []int64 `json:"e"`
		F int8    `json:"f"`
		G int64   `json:"g"`
		H int64   `json:"h"`
		I uint8   `json:"i"`
	}
	const body = `{"a":-9223372036854776000,"b":9223372036854776000,"c":2.0,"d":18446744073709552000,"e":[1e3,-4E0,12.50e1],` +
		`"f":128,"g":1.5,"h":9223372036854777856,"i":-1}`
	var v T
	ws, err := decodeFit("op", []byte(body), &v)
	if err != nil {
		t.Fatal(err)
	}
	maxInt64 := int64(math.MaxInt64)
	want := T{A: math.MinInt64, B: &maxInt64, C: 2, D: math.MaxUint64, E: []int64{1000, -4, 125}}
	if !reflect.DeepEqual(v, want) {
		t.Errorf("decoded %+v, want %+v", v, want)
	}
	var got []string
	for _, w := range ws {
		got = append(got, w.Pointer+": "+w.Message)
	}
	wantWarnings := []string{
		"/f: value 128 does not fit Go type int8 (out of its range): dropped",
		"/g: value 1.5 does not fit Go type int64 (not an integer it can hold): dropped",
		"/h: value 9223372036854777856 does not fit Go type int64 (out of its range): dropped",
		"/i: value -1 does not fit Go type uint8 (out of its range): dropped",
	}
	if !reflect.DeepEqual(got, wantWarnings) {
		t.Errorf("warnings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantWarnings, "\n"))
	}

	// Through the whole pipeline, with netbox's schema: valid, so no warning.
	schema := conform.NewSchema(`{"type":"object","properties":{"identifier":{"type":["integer","null"],"minimum":-9223372036854776000,"maximum":9223372036854776000}}}`)
	for _, in := range []string{`{"identifier":-9223372036854776000}`, `{"identifier":9223372036854776000}`} {
		var out struct {
			Identifier *int64 `json:"identifier"`
		}
		ws, err := decodeInto(context.Background(), &Pipeline{}, "op", schema, []byte(in), &out)
		if err != nil || len(ws) > 0 || out.Identifier == nil {
			t.Errorf("%s: warnings %v, err %v, identifier %v", in, ws, err, out.Identifier)
		}
	}
}
