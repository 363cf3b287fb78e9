// Package naming turns arbitrary strings from source documents (schema keys,
// operationIds, property names, enum values, MCP tool names) into
// Go-idiomatic exported identifiers, and allocates unique names in a
// Namespace.
//
// Ident splits its input into words at every character that cannot appear in
// a Go identifier and at lower-to-upper case changes, capitalises each word,
// and writes the golint initialisms in upper case ("user_id" -> "UserID",
// "api-url" -> "APIURL"; plurals keep their s: "ids" -> "IDs"). Unicode letters that are valid in Go identifiers
// are kept; other characters separate words. A result that would start with
// a digit gets the prefix "X"; an empty result becomes the caller's
// fallback.
//
// A Namespace never fails on a collision: the second claimant of a name gets
// the smallest free numeric suffix ("Pet", "Pet2", "Pet3"). Names are
// therefore stable under reordering of the source only when callers claim
// them in an order that does not depend on the source's order (for example
// sorted by JSON pointer), which is what the loaders do.
package naming

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// initialisms are the words written in upper case (golint's list, plus a few
// common in API documents).
var initialisms = map[string]bool{
	"ACL": true, "API": true, "ASCII": true, "CPU": true, "CSS": true, "DNS": true,
	"EOF": true, "GUID": true, "HTML": true, "HTTP": true, "HTTPS": true, "ID": true,
	"IP": true, "JSON": true, "LHS": true, "QPS": true, "RAM": true, "RHS": true,
	"RPC": true, "SLA": true, "SMTP": true, "SQL": true, "SSH": true, "TCP": true,
	"TLS": true, "TTL": true, "UDP": true, "UI": true, "UID": true, "UUID": true,
	"URI": true, "URL": true, "UTF8": true, "VM": true, "XML": true, "XMPP": true,
	"XSRF": true, "XSS": true, "JWT": true, "SSO": true, "MCP": true,
}

// predeclared lists Go keywords and predeclared identifiers. Exported names
// cannot be keywords, but a fallback or a caller's lower-case use might.
var predeclared = map[string]bool{
	"break": true, "case": true, "chan": true, "const": true, "continue": true,
	"default": true, "defer": true, "else": true, "fallthrough": true, "for": true,
	"func": true, "go": true, "goto": true, "if": true, "import": true,
	"interface": true, "map": true, "package": true, "range": true, "return": true,
	"select": true, "struct": true, "switch": true, "type": true, "var": true,
	"any": true, "bool": true, "byte": true, "comparable": true, "complex64": true,
	"complex128": true, "error": true, "float32": true, "float64": true, "int": true,
	"int8": true, "int16": true, "int32": true, "int64": true, "rune": true,
	"string": true, "uint": true, "uint8": true, "uint16": true, "uint32": true,
	"uint64": true, "uintptr": true, "true": true, "false": true, "iota": true,
	"nil": true, "append": true, "cap": true, "clear": true, "close": true,
	"complex": true, "copy": true, "delete": true, "imag": true, "len": true,
	"make": true, "max": true, "min": true, "new": true, "panic": true,
	"print": true, "println": true, "real": true, "recover": true,
}

// IsPredeclared reports whether s is a Go keyword or predeclared identifier.
func IsPredeclared(s string) bool { return predeclared[s] }

// Words splits s into words: runs of letters and digits, broken at every
// other character and where a lower-case letter or digit is followed by an
// upper-case one ("userID" -> "user", "ID"; "HTTPServer" -> "HTTP", "Server").
func Words(s string) []string {
	if ascii(s) {
		return asciiWords(s)
	}
	return runeWords(s)
}

func runeWords(s string) []string {
	var words []string
	rs := []rune(s)
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			words = append(words, string(rs[start:end]))
		}
		start = -1
	}
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := rs[i-1]
		switch {
		case unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)):
			// fooBar, v2Beta
			flush(i)
			start = i
		case unicode.IsLower(r) && unicode.IsUpper(prev) && i-1 > start && unicode.IsUpper(rs[i-2]):
			// HTTPServer: the last upper-case letter starts the next word.
			flush(i - 1)
			start = i - 1
		}
	}
	flush(len(rs))
	return words
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// asciiWords is Words for ASCII text (the usual case): the same rules on
// bytes, the words sharing s's memory.
func asciiWords(s string) []string {
	var words []string
	eachASCIIWord(s, func(w string) { words = append(words, w) })
	return words
}

// eachASCIIWord calls yield with each word of the ASCII text s, in order
// (Words' rules on bytes).
func eachASCIIWord(s string, yield func(w string)) {
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			yield(s[start:end])
		}
		start = -1
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isUpperASCII(c) && !isLowerASCII(c) && !isDigitASCII(c) {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := s[i-1]
		switch {
		case isUpperASCII(c) && (isLowerASCII(prev) || isDigitASCII(prev)):
			flush(i)
			start = i
		case isLowerASCII(c) && isUpperASCII(prev) && i-1 > start && isUpperASCII(s[i-2]):
			flush(i - 1)
			start = i - 1
		}
	}
	flush(len(s))
}

// Ident returns an exported Go identifier for s, or fallback (itself passed
// through Ident; "X" if that is empty too) when s has no usable characters.
func Ident(s, fallback string) string {
	out := joinWords(s)
	if out == "" {
		if fallback == "" || fallback == s {
			return "X"
		}
		return Ident(fallback, "")
	}
	if r, _ := utf8.DecodeRuneInString(out); unicode.IsDigit(r) {
		out = "X" + out
	} else if !unicode.IsUpper(r) {
		// Letters without case (e.g. CJK) cannot make an exported name alone.
		out = "X" + out
	}
	return out
}

// word capitalises one word, writing initialisms in upper case.
func word(w string) string {
	if len(w) <= 64 && ascii(w) {
		return asciiWord(w)
	}
	return runeWord(w)
}

// asciiWord is word for ASCII words (the usual case), without allocating
// when the word is already in its Go form.
func asciiWord(w string) string {
	var buf [64]byte
	up := buf[:len(w)]
	for i := range len(w) {
		c := w[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		up[i] = c
	}
	if initialisms[string(up)] {
		return string(up)
	}
	if n := len(w); n > 2 && w[n-1] == 's' && initialisms[string(up[:n-1])] {
		return string(up[:n-1]) + "s"
	}
	if string(up[1:]) == w[1:] {
		// An all-upper word that is not an initialism is lowered.
		out := buf[:len(w)]
		for i := 1; i < len(out); i++ {
			if c := out[i]; 'A' <= c && c <= 'Z' {
				out[i] = c + 'a' - 'A'
			}
		}
		return string(out)
	}
	if up[0] == w[0] {
		return w
	}
	return string(up[:1]) + w[1:]
}

func runeWord(w string) string {
	if u := strings.ToUpper(w); initialisms[u] {
		return u
	}
	// The plural of an initialism keeps its lower-case s ("ids" -> "IDs").
	if n := len(w); n > 2 && w[n-1] == 's' {
		if u := strings.ToUpper(w[:n-1]); initialisms[u] {
			return u + "s"
		}
	}
	r, n := utf8.DecodeRuneInString(w)
	rest := w[n:]
	// Keep the word's inner case when it is mixed (e.g. "iPhone" stays "IPhone");
	// an all-upper word that is not an initialism is lowered ("PETS" -> "Pets").
	if strings.ToUpper(rest) == rest {
		rest = strings.ToLower(rest)
	}
	return string(unicode.ToUpper(r)) + rest
}

// Namespace allocates unique Go names. The zero value is ready to use.
type Namespace struct {
	used map[string]bool
}

// NewNamespace returns a namespace in which the given names are already taken.
func NewNamespace(reserved ...string) *Namespace {
	ns := &Namespace{}
	for _, r := range reserved {
		ns.Reserve(r)
	}
	return ns
}

// Reserve marks name as taken without checking it.
func (ns *Namespace) Reserve(name string) {
	if ns.used == nil {
		ns.used = make(map[string]bool)
	}
	ns.used[name] = true
}

// Taken reports whether name is already allocated or reserved.
func (ns *Namespace) Taken(name string) bool { return ns.used[name] }

// Alloc claims want (which must already be an identifier, e.g. from Ident)
// and returns it, or want with the smallest numeric suffix from 2 up that is
// still free.
func (ns *Namespace) Alloc(want string) string {
	if ns.used == nil {
		ns.used = make(map[string]bool)
	}
	name := want
	for i := 2; ns.used[name]; i++ {
		name = want + strconv.Itoa(i)
	}
	ns.used[name] = true
	return name
}

// IsExported reports whether s is an exported Go identifier.
func IsExported(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case i == 0 && !unicode.IsUpper(r):
			return false
		case !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_':
			return false
		}
	}
	return true
}

// Sanitize returns s unchanged when it already is an exported Go identifier
// (a name the user chose, or one composed from identifiers such as
// "ListPetsParams"), and Ident(s, fallback) otherwise.
func Sanitize(s, fallback string) string {
	if IsExported(s) {
		return s
	}
	return Ident(s, fallback)
}

// Suffix returns the identifier words of s for appending to an identifier
// (so a leading digit needs no prefix): "404" -> "404", "light-blue" ->
// "LightBlue". It returns "" when s has no letters or digits.
func Suffix(s string) string { return joinWords(s) }

// joinWords is the words of s, each capitalised by word, joined: the body
// of Ident and Suffix. ASCII text (the usual case) is done in one pass
// into a stack buffer, without the words' slice or a builder: the loaders
// call it for every name in the document, in their sequential naming pass.
func joinWords(s string) string {
	if !ascii(s) {
		var b strings.Builder
		for _, w := range runeWords(s) {
			b.WriteString(word(w))
		}
		return b.String()
	}
	var buf [128]byte
	out := buf[:0]
	eachASCIIWord(s, func(w string) { out = appendASCIIWord(out, w) })
	if string(out) == s {
		return s // already in its Go form: no copy
	}
	return string(out)
}

func isUpperASCII(c byte) bool { return 'A' <= c && c <= 'Z' }
func isLowerASCII(c byte) bool { return 'a' <= c && c <= 'z' }
func isDigitASCII(c byte) bool { return '0' <= c && c <= '9' }

// appendASCIIWord appends asciiWord(w) to dst (w ASCII; a word longer than
// 64 bytes takes word's general path).
func appendASCIIWord(dst []byte, w string) []byte {
	if len(w) > 64 {
		return append(dst, word(w)...)
	}
	var buf [64]byte
	up := buf[:len(w)]
	lowerRest := false // w[1:] has a lower-case letter
	for i := range len(w) {
		c := w[i]
		if isLowerASCII(c) {
			c -= 'a' - 'A'
			lowerRest = lowerRest || i > 0
		}
		up[i] = c
	}
	if initialisms[string(up)] {
		return append(dst, up...)
	}
	if n := len(w); n > 2 && w[n-1] == 's' && initialisms[string(up[:n-1])] {
		return append(append(dst, up[:n-1]...), 's')
	}
	dst = append(dst, up[0])
	if lowerRest {
		return append(dst, w[1:]...)
	}
	// An all-upper word that is not an initialism is lowered.
	for i := 1; i < len(w); i++ {
		c := w[i]
		if isUpperASCII(c) {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}
