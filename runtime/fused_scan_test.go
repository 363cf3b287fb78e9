package runtime

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// countItemsSlow is countItems as a state machine, one byte at a time:
// the reference.
func countItemsSlow(b []byte, j int) (n int, ok bool) {
	n = 1
	depth := 0
	in, escaped := false, false
	for ; j < len(b); j++ {
		switch c := b[j]; {
		case in:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				in = false
			}
		case c == '"':
			in = true
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			if depth == 0 {
				return n, true
			}
			depth--
		case c == ',' && depth == 0:
			n++
		}
	}
	return 0, false
}

// plainRunSlow is plainRun one byte at a time: the reference.
func plainRunSlow(b []byte, j int) int {
	for j < len(b) && plainASCII[b[j]] {
		j++
	}
	return j
}

// scanInputs returns JSON-like texts made of the bytes the scanners treat
// specially, at every alignment to eight bytes.
func scanInputs(n int) [][]byte {
	r := rand.New(rand.NewPCG(1, 2))
	parts := []string{`"`, `\`, `\\`, `\"`, `[`, `]`, `{`, `}`, `,`, `a`, `12`, ` `, `"x,y]"`, `"é"`, "\x01", "\x7f", "\x80", `{"k":[1,2]}`, `"\u0022"`}
	var out [][]byte
	for range n {
		var sb strings.Builder
		for range r.IntN(40) {
			sb.WriteString(parts[r.IntN(len(parts))])
		}
		out = append(out, []byte(sb.String()))
	}
	out = append(out, []byte(`{"a":"b\"],"},[1,{"c":[]}],"x"],7`), []byte(`"abc\\\\"],1`))
	return out
}

func TestCountItemsAsByteByByte(t *testing.T) {
	for _, b := range scanInputs(5000) {
		for j := range min(len(b), 9) {
			gn, gok := countItems(b, j)
			wn, wok := countItemsSlow(b, j)
			if gn != wn || gok != wok {
				t.Fatalf("countItems(%q, %d) = %d, %v; byte by byte %d, %v", b, j, gn, gok, wn, wok)
			}
		}
	}
	// A real list: 3 items, then what follows the array.
	b := []byte(`{"a":"x\\"},{"]":[1,2]},"q\"\\",7]`)
	if n, ok := countItems(b, 0); n != 4 || !ok {
		t.Fatalf("got %d, %v; want 4 items", n, ok)
	}
}

func TestPlainRunAsByteByByte(t *testing.T) {
	for _, b := range scanInputs(5000) {
		for j := range min(len(b), 9) {
			if got, want := plainRun(b, j), plainRunSlow(b, j); got != want {
				t.Fatalf("plainRun(%q, %d) = %d, byte by byte %d", b, j, got, want)
			}
		}
	}
	all := make([]byte, 256)
	for c := range all {
		all[c] = byte(c)
	}
	for j := range all {
		if got, want := plainRun(all, j), plainRunSlow(all, j); got != want {
			t.Fatalf("plainRun(all bytes, %d) = %d, byte by byte %d", j, got, want)
		}
	}
}
