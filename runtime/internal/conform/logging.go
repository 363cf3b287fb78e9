package conform

import (
	"log"
	"strconv"
	"strings"
	"unicode/utf8"
)

// LogWarning logs msg with the key-value pairs kv through package log's
// default logger, as slog's default handler writes a record at Warn level
// ("WARN msg key=value ...", values quoted when they need it), without
// linking log/slog.
func LogWarning(msg string, kv ...string) {
	var b strings.Builder
	b.WriteString("WARN ")
	b.WriteString(msg)
	for i := 0; i+1 < len(kv); i += 2 {
		b.WriteByte(' ')
		b.WriteString(textValue(kv[i]))
		b.WriteByte('=')
		b.WriteString(textValue(kv[i+1]))
	}
	log.Print(b.String())
}

// textValue is s as slog's text output writes it: quoted (strconv.Quote)
// when it is empty or holds a space, '=', '"', a control character, a
// character that is not printable or invalid UTF-8 (slog's needsQuoting).
func textValue(s string) string {
	if s == "" {
		return `""`
	}
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c == ' ' || c == '=' || c == '"' || c < 0x20 {
				return strconv.Quote(s)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		// strconv.IsPrint is unicode.IsPrint, which no space but ' '
		// passes (unicode.IsSpace is covered).
		if r == utf8.RuneError || !strconv.IsPrint(r) {
			return strconv.Quote(s)
		}
		i += size
	}
	return s
}
