package emit

import (
	"strings"
	"testing"
	"unicode"
)

// TestValidTagName checks validTagName's ASCII table against the check it
// stands for (encoding/json's), on every character of the first planes.
func TestValidTagName(t *testing.T) {
	want := func(c rune) bool {
		return strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c) || unicode.IsLetter(c) || unicode.IsDigit(c)
	}
	for c := rune(0); c < 0x3000; c++ {
		if got := validTagName(string(c)); got != want(c) {
			t.Errorf("validTagName(%q) = %v, want %v", c, got, want(c))
		}
	}
	for _, s := range []string{"", "a,b", "id", "x-y.z", `a"b`, "ключ", "a`b"} {
		ok := s != ""
		for _, c := range s {
			ok = ok && want(c)
		}
		if got := validTagName(s); got != ok {
			t.Errorf("validTagName(%q) = %v, want %v", s, got, ok)
		}
	}
}
