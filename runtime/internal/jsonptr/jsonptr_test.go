package jsonptr

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestEscapeRoundTrip(t *testing.T) {
	for token, want := range map[string]string{"a": "a", "a/b": "a~1b", "~": "~0", "~1": "~01", "/~/": "~1~0~1", "": ""} {
		if got := Escape(token); got != want {
			t.Errorf("Escape(%q) = %q, want %q", token, got, want)
		}
		if got := Unescape(want); got != token {
			t.Errorf("Unescape(%q) = %q, want %q", want, got, token)
		}
	}
	if got := Join([]string{"paths", "/pets/{id}", "a~b"}); got != "/paths/~1pets~1{id}/a~0b" {
		t.Errorf("Join = %q", got)
	}
}

func TestLookup(t *testing.T) {
	var doc any
	if err := json.Unmarshal([]byte(`{"a/b":{"~x":[10,{"c":null}]},"":"empty","n":1}`), &doc); err != nil {
		t.Fatal(err)
	}
	for ptr, want := range map[string]any{
		"":              doc,
		"/a~1b/~0x/0":   10.0,
		"/a~1b/~0x/1/c": nil,
		"/":             "empty",
	} {
		got, err := Lookup(doc, ptr)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Lookup(%q) = %v, %v; want %v", ptr, got, err, want)
		}
	}
	for ptr, msg := range map[string]string{
		"a":               "not a JSON pointer",
		"/missing":        `no "missing"`,
		"/a~1b/~0x/2":     `no index "2"`,
		"/a~1b/~0x/-1":    `no index "-1"`,
		"/n/deeper":       `"deeper" is inside a number`,
		"/a~1b/~0x/1/c/d": `"d" is inside a null`,
	} {
		if _, err := Lookup(doc, ptr); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("Lookup(%q) error = %v, want one containing %q", ptr, err, msg)
		}
	}
}
