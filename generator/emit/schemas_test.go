package emit

import (
	"encoding/json"
	"strconv"
	"testing"
)

var backquoteSeeds = []string{
	"", "a", "`", "a`b", "\t", "\n", "\r", "\x00", "\x7f", "\x1f", " ~",
	"é", "\ufeff", "a\ufeffb", "\ufffd", "\xff", "a\xc3", "\xc3(", "\xed\xa0\x80",
	"日本語", "\U0001F600", "\u2028", `{"a":"b\"c"}`,
}

func TestCanBackquote(t *testing.T) {
	for _, s := range backquoteSeeds {
		if got, want := canBackquote(s), strconv.CanBackquote(s); got != want {
			t.Errorf("canBackquote(%q) = %v, strconv says %v", s, got, want)
		}
	}
}

func FuzzCanBackquote(f *testing.F) {
	for _, s := range backquoteSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := canBackquote(s), strconv.CanBackquote(s); got != want {
			t.Errorf("canBackquote(%q) = %v, strconv says %v", s, got, want)
		}
	})
}

func TestPlainKey(t *testing.T) {
	for _, k := range []string{"", "A", "Repo_2", "a-b", "a b", "é", "<", "&", `"`, `\`, "\x00", "\u2028"} {
		b, _ := json.Marshal(k)
		if got, want := plainKey(k), string(b) == `"`+k+`"`; got && !want {
			t.Errorf("plainKey(%q) but json.Marshal writes %s", k, b)
		}
	}
}
