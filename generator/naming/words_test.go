package naming

import (
	"slices"
	"strings"
	"testing"
)

// FuzzASCIIWords checks that the ASCII fast path splits words exactly as
// the general one.
func FuzzASCIIWords(f *testing.F) {
	for _, s := range []string{"", "userID", "HTTPServer", "v2Beta", "get_pets-byID", "ABC", "aB1cD", "__x__", "OAuth2Token", "A1B2", "x.y/z{w}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !ascii(s) {
			return
		}
		if got, want := asciiWords(s), runeWords(s); !slices.Equal(got, want) {
			t.Errorf("asciiWords(%q) = %q, runeWords: %q", s, got, want)
		}
	})
}

// FuzzASCIIWordCase checks that the ASCII fast path capitalizes words exactly
// as the general one.
func FuzzASCIIWordCase(f *testing.F) {
	for _, s := range []string{"id", "ids", "ID", "IDs", "url", "PETS", "iPhone", "x", "X", "v2", "http", "HTTPS", "oauth", "A1", "apIs", "APIs"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, w := range Words(s) {
			if !ascii(w) || len(w) > 64 {
				continue
			}
			if got, want := asciiWord(w), runeWord(w); got != want {
				t.Errorf("asciiWord(%q) = %q, runeWord: %q", w, got, want)
			}
		}
	})
}

// FuzzJoinWords checks that the one-pass joinWords (Ident's and Suffix's
// body) writes what capitalising each of Words(s) and joining them does.
func FuzzJoinWords(f *testing.F) {
	for _, s := range []string{"", "userID", "HTTPServer", "v2Beta", "get_pets-byID", "ABC", "PETS", "ids", "IDs", "apIs", "iPhone", "x", "404", "light-blue", "a" + strings.Repeat("b", 70) + "_ID", "héllo_wörld", "日本_api"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want strings.Builder
		for _, w := range Words(s) {
			want.WriteString(word(w))
		}
		if got := joinWords(s); got != want.String() {
			t.Errorf("joinWords(%q) = %q, want %q", s, got, want.String())
		}
	})
}

func BenchmarkSuffix(b *testing.B) {
	names := []string{"id", "node_id", "html_url", "pull_request_review_comment", "AuthorAssociation", "x-github-media-type", "per_page", "application/vnd.github+json", "UsersGetAuthenticated200"}
	for b.Loop() {
		for _, n := range names {
			Suffix(n)
		}
	}
}
