package conform

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestFitBase64Alphabets: format byte in unpadded or URL-safe base64 (as
// Google's APIs send it; Prism's "string" is unpadded base64) is read into
// []byte without a warning; what is no base64 at all is still dropped.
func TestFitBase64Alphabets(t *testing.T) {
	type T struct {
		Etag []byte `json:"etag"`
	}
	for in, want := range map[string][]byte{
		`{"etag":"string"}`: {0xb2, 0xda, 0xe2, 0x9e},
		`{"etag":"-_8"}`:    {0xfb, 0xff},
		`{"etag":"-_8="}`:   {0xfb, 0xff},
		`{"etag":"AQI="}`:   {1, 2},
	} {
		out, issues := fitGoType([]byte(in), reflect.TypeFor[T]())
		var v T
		if err := json.Unmarshal(out, &v); err != nil || len(issues) > 0 || !reflect.DeepEqual(v.Etag, want) {
			t.Errorf("%s: %s %v, etag %v, want %v (%v)", in, out, issues, v.Etag, want, err)
		}
	}
	out, issues := fitGoType([]byte(`{"etag":"not base64!"}`), reflect.TypeFor[T]())
	var v T
	if len(issues) != 1 || json.Unmarshal(out, &v) != nil || v.Etag != nil {
		t.Errorf("not base64: %s %v", out, issues)
	}
}
