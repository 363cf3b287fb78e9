package conform

import (
	"net/mail"
	"testing"
)

// netMailEmail is what the "email" format was checked with before.
func netMailEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s
}

var emailSeeds = []string{
	"a@b.example", "first.last@example.com", "x+tag@sub.example.co", "!#$%&'*+-/=?^_`{|}~@example.com",
	"ünïcödé@exämple.com", "a@[127.0.0.1]", "a@[::1]", "a@[IPv6:::1]", "a@[300.1.1.1]", "a@[1.2.3.4", "a@[1.2.3.4]x",
	"", "@", "a@", "@b", "a@@b", "a@b@c", ".a@b", "a.@b", "a..b@c", "a@b.", "a@.b", "a@b..c", "a b@c", " a@b", "a@b ",
	"\"a\"@b", "\"a b\"@c", "Ann <a@b>", "<a@b>", "a@b (Ann)", "(x)a@b", "g: a@b;", "a\xff@b", "a@b\xff", "a@[1.2.3.4\xff]",
	"a\ufffd@b", "a@[\ufffd]", "a\u00a0@b", "a\x7f@b", "a\t@b", "a@b,c", "a@b;", "a@[]", "a@[a]b]", "not an email",
}

func TestValidEmail(t *testing.T) {
	for _, s := range emailSeeds {
		if got, want := validEmail(s), netMailEmail(s); got != want {
			t.Errorf("validEmail(%q) = %v, net/mail %v", s, got, want)
		}
	}
}

func FuzzValidEmail(f *testing.F) {
	for _, s := range emailSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := validEmail(s), netMailEmail(s); got != want {
			t.Fatalf("validEmail(%q) = %v, net/mail %v", s, got, want)
		}
	})
}
