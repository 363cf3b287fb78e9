package conform

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// TestUnquotedRuneCount: the count is that of the string encoding/json
// decodes, escapes, surrogates and invalid UTF-8 included.
func TestUnquotedRuneCount(t *testing.T) {
	for _, body := range []string{
		``, `a`, `h\u00e9llo`, `\n\t\"\\\/`, `\ud83d\ude00`, `\ud83d`, `\ud83dx`, `\ude00\ud83d`, `\ud83d\u0041`,
		"caf\xc3\xa9", "\xff\xfe", "\xe6\x97\xa5\xe6\x9c\xac", `x\ud83d\ude00y\u12ab`, "a\xc3", `\u0000`,
	} {
		var s string
		if err := json.Unmarshal([]byte(`"`+body+`"`), &s); err != nil {
			t.Fatalf("%q: %v", body, err)
		}
		if got, want := unquotedRuneCount([]byte(body)), utf8.RuneCountInString(s); got != want {
			t.Errorf("%q: %d characters, encoding/json's string has %d", body, got, want)
		}
	}
}
