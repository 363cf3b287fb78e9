package conform

import (
	"net"
	"strings"
	"unicode/utf8"
)

// validEmail reports whether s is an email address, as net/mail reads one
// and gives it back unchanged: mail.ParseAddress(s) succeeds with Address
// == s. That is an RFC 5322 addr-spec without white space, comments or
// quotes (a quoted local part comes back unquoted): a dot-atom, '@', and a
// dot-atom or a domain-literal holding an IP address, where atoms may hold
// any character of RFC 6532 (UTF-8 beyond ASCII). It is net/mail's
// consumeAddrSpec written out, so that package runtime does not link
// net/mail for one format (TestValidEmail and FuzzValidEmail compare the
// two).
func validEmail(s string) bool {
	at := strings.IndexByte(s, '@')
	if at < 0 || !dotAtom(s[:at]) {
		return false
	}
	domain := s[at+1:]
	if strings.HasPrefix(domain, "[") {
		if !strings.HasSuffix(domain, "]") {
			return false
		}
		dtext := domain[1 : len(domain)-1]
		for _, r := range dtext {
			if r == utf8.RuneError || r == '[' || r == ']' || r == '\\' || !vchar(r) {
				// net/mail refuses invalid UTF-8 here; a U+FFFD
				// that is there is no IP address either.
				return false
			}
		}
		return net.ParseIP(dtext) != nil
	}
	return dotAtom(domain)
}

// dotAtom reports whether s is an RFC 5322 dot-atom as net/mail's
// consumeAtom(true, false) takes it whole: atext and dots, valid UTF-8,
// no leading, trailing or double dot.
func dotAtom(s string) bool {
	if s == "" || s[0] == '.' || s[len(s)-1] == '.' || strings.Contains(s, "..") {
		return false
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if size == 1 && r == utf8.RuneError {
			return false
		}
		switch r {
		case '(', ')', '<', '>', '[', ']', ':', ';', '@', '\\', ',', '"':
			return false
		}
		if r != '.' && !vchar(r) {
			return false
		}
		i += size
	}
	return true
}

// vchar reports whether r is visible ASCII or beyond ASCII (RFC 6532).
func vchar(r rune) bool { return '!' <= r && r <= '~' || r >= utf8.RuneSelf }
