package naming_test

import (
	"math/rand"
	"slices"
	"sort"
	"testing"

	"github.com/opsgen/opsgen/generator/naming"
)

func TestIdent(t *testing.T) {
	tests := []struct{ in, want string }{
		{"pet", "Pet"},
		{"user_id", "UserID"},
		{"list-pets", "ListPets"},
		{"api.v2.url", "APIV2URL"},
		{"get pets by id", "GetPetsByID"},
		{"HTTPServer", "HTTPServer"},
		{"userID", "UserID"},
		{"getHttpUrl", "GetHTTPURL"},
		{"PETS", "Pets"},
		{"uuid", "UUID"},
		{"json_schema", "JSONSchema"},
		{"type", "Type"},      // keywords are fine once capitalised
		{"func", "Func"},      // ditto
		{"123abc", "X123abc"}, // leading digit
		{"2fa", "X2fa"},
		{"café", "Café"}, // unicode letters kept
		{"naïve_über", "NaïveÜber"},
		{"日本", "X日本"},               // letters without case need an upper-case prefix
		{"emoji😀name", "EmojiName"}, // not a letter: a separator
		{"GET /pets/{id}", "GetPetsID"},
		{"a--b__c", "ABC"},
		{"v1", "V1"},
		{"x-go-name", "XGoName"},
		{"ids", "IDs"}, // plural initialisms keep a lower-case s
		{"user_ids", "UserIDs"},
		{"callbackUrls", "CallbackURLs"},
		{"https", "HTTPS"}, // an initialism itself, not the plural of HTTP
		{"IDS", "Ids"},     // all upper case: not a plural
		{"status", "Status"},
	}
	for _, tt := range tests {
		if got := naming.Ident(tt.in, "Fallback"); got != tt.want {
			t.Errorf("Ident(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestIdentFallback(t *testing.T) {
	for _, in := range []string{"", "-", "!!!", " ", "😀"} {
		if got := naming.Ident(in, "field"); got != "Field" {
			t.Errorf("Ident(%q, field) = %q, want Field", in, got)
		}
		if got := naming.Ident(in, ""); got != "X" {
			t.Errorf("Ident(%q, \"\") = %q, want X", in, got)
		}
	}
}

func TestIdentIsExported(t *testing.T) {
	for _, in := range []string{"a", "1", "é", "日本", "x y", "for", "nil", "_", "ÿ2"} {
		got := naming.Ident(in, "F")
		if !naming.IsExported(got) || naming.IsPredeclared(got) {
			t.Errorf("Ident(%q) = %q is not an exported, non-predeclared identifier", in, got)
		}
	}
}

func TestWords(t *testing.T) {
	got := naming.Words("fooBar_bazQUXServer2Go")
	want := []string{"foo", "Bar", "baz", "QUX", "Server2", "Go"}
	if !slices.Equal(got, want) {
		t.Errorf("Words = %q, want %q", got, want)
	}
}

func TestSanitizeAndSuffix(t *testing.T) {
	if got := naming.Sanitize("GetMMParams", "X"); got != "GetMMParams" {
		t.Errorf("Sanitize kept identifier: got %q", got)
	}
	if got := naming.Sanitize("get_mm", "X"); got != "GetMm" {
		t.Errorf("Sanitize(get_mm) = %q", got)
	}
	for in, want := range map[string]string{"404": "404", "light-blue": "LightBlue", "-": ""} {
		if got := naming.Suffix(in); got != want {
			t.Errorf("Suffix(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNamespaceCollisions(t *testing.T) {
	ns := naming.NewNamespace("Client")
	// Names that differ only by case or punctuation collide once made Go names.
	var got []string
	for _, s := range []string{"client", "pet", "Pet", "p-e-t", "pet_", "PET", "pet2"} {
		got = append(got, ns.Alloc(naming.Ident(s, "X")))
	}
	// "p-e-t" is three one-letter words: "PET"; "PET" alone is a word: "Pet".
	want := []string{"Client2", "Pet", "Pet2", "PET", "Pet3", "Pet4", "Pet22"}
	if !slices.Equal(got, want) {
		t.Errorf("allocations = %q, want %q", got, want)
	}
	if !ns.Taken("Pet4") || ns.Taken("Pet5") {
		t.Error("Taken disagrees with allocations")
	}
}

func TestNamespaceThousands(t *testing.T) {
	var ns naming.Namespace
	seen := map[string]bool{}
	for i := 0; i < 5000; i++ {
		n := ns.Alloc("Op")
		if seen[n] {
			t.Fatalf("duplicate name %q", n)
		}
		seen[n] = true
	}
}

// TestNamespaceStable: allocating in sorted key order gives every key the
// same name whatever order the keys arrived in.
func TestNamespaceStable(t *testing.T) {
	keys := []string{"a-b", "a_b", "AB", "ab", "a.b", "A B", "x", "X", "x!"}
	alloc := func(in []string) map[string]string {
		sorted := slices.Clone(in)
		sort.Strings(sorted)
		ns := naming.NewNamespace()
		out := map[string]string{}
		for _, k := range sorted {
			out[k] = ns.Alloc(naming.Ident(k, "X"))
		}
		return out
	}
	want := alloc(keys)
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 20; i++ {
		shuffled := slices.Clone(keys)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		got := alloc(shuffled)
		for k, v := range want {
			if got[k] != v {
				t.Fatalf("order %q: %q got %q, want %q", shuffled, k, got[k], v)
			}
		}
	}
}
