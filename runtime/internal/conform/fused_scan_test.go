package conform

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
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

// TestFastNumberAsStrconv: where fastNumber decodes a literal, it stores
// what number (strconv) stores, and it ends where the walker's scan ends.
func TestFastNumberAsStrconv(t *testing.T) {
	lits := []string{"0", "-0", "7", "-7", "12.5", "-12.5", "0.1", "0.000001", "1e3", "1E+3", "1e-3", "2.5e-7",
		"127", "128", "-128", "-129", "32767", "2147483648", "9007199254740993", "123456789012345678",
		"1234567890123456789", "99999999999999999999", "1.7976931348623157e308", "4.9e-324", "1e22", "1e23",
		"0.30000000000000004", "3.141592653589793", "1.00000000000000000000001", "0.0", "00", "01", "1.", ".5",
		"-", "1e", "1e+", "1.5e0007", "1e00001", "5,", "5]", "5}", "5 ", "-0.0e0"}
	r := rand.New(rand.NewPCG(3, 4))
	for range 3000 {
		lits = append(lits, strconv.FormatFloat(r.NormFloat64()*math.Pow(10, float64(r.IntN(30)-15)), 'g', -1, 64),
			strconv.FormatInt(r.Int64()>>r.IntN(64), 10), strconv.FormatFloat(float64(r.IntN(100000))/100, 'f', -1, 64))
	}
	targets := []reflect.Type{reflect.TypeFor[int8](), reflect.TypeFor[int16](), reflect.TypeFor[int32](), reflect.TypeFor[int64](),
		reflect.TypeFor[int](), reflect.TypeFor[float64](), reflect.TypeFor[float32](), reflect.TypeFor[uint16](),
		reflect.TypeFor[*int64](), reflect.TypeFor[*float64]()}
	for _, lit := range lits {
		b := []byte(lit)
		w := &walker{b: b}
		scanEnd := w.number(0)
		for _, typ := range targets {
			p := planFor(typ)
			for _, intOnly := range []bool{false, true} {
				fast := reflect.New(typ)
				end, ok := fastNumber(b, 0, p, fast.UnsafePointer(), intOnly)
				if !ok {
					if !fast.Elem().IsZero() {
						t.Errorf("%q into %v: not decoded, but stored %v", lit, typ, fast.Elem())
					}
					continue
				}
				if w.err != nil || end != scanEnd {
					t.Errorf("%q into %v: decoded to %d; the walker's scan ends at %d (%v)", lit, typ, end, scanEnd, w.err)
					continue
				}
				if intOnly && !plainInteger(b[:end]) {
					t.Errorf("%q into %v: decoded as a plain integer", lit, typ)
				}
				slow := reflect.New(typ)
				if !number(b[:end], p, slow.UnsafePointer()) || !reflect.DeepEqual(fast.Elem().Interface(), slow.Elem().Interface()) {
					t.Errorf("%q into %v: fast %v, strconv %v", lit, typ, fast.Elem(), slow.Elem())
				}
			}
		}
	}
}

// TestPredictedKey: a key matches the predicted entry exactly when its
// raw bytes are the entry's name, whatever their length and wherever the
// body ends.
func TestPredictedKey(t *testing.T) {
	type s struct {
		A int `json:"id"`
		B int `json:"abcdefgh"`
		C int `json:"description_long"`
		//lint:ignore SA5008 a name with a quote, which encoding/json does not take as a tag name, on purpose
		D int `json:"a\"b"`
	}
	bd := planFor(reflect.TypeFor[s]()).bind(nil)
	for _, c := range []struct {
		key  string
		at   int32
		want bool
	}{
		{`"id":`, 0, true}, {`"id"`, 0, true}, {`"idx":`, 0, false}, {`"i":`, 0, false}, {`"Id":`, 0, false},
		{`"abcdefgh":1`, 1, true}, {`"abcdefgi":1`, 1, false}, {`"abcdefghi":1`, 1, false}, {`"abcdefg":1`, 1, false},
		{`"description_long":1`, 2, true}, {`"description_lonG":1`, 2, false}, {`"descriptXon_long":1`, 2, false}, {`"description_long`, 2, false},
		{`"description_longer":1`, 2, false}, {`"a\"b":1`, 3, false}, {`"id":`, 1, false}, {`"id":`, -1, false}, {`"id":`, 9, false},
	} {
		for _, pad := range []string{"", "        ,"} {
			b := []byte(c.key + pad)
			e, end := bd.predicted(b, 0, c.at)
			if got := e != nil; got != c.want {
				t.Errorf("%q at %d: matched %v, want %v", b, c.at, got, c.want)
			} else if got && (end > len(b) || b[end-1] != '"' || string(b[1:end-1]) != e.name) {
				t.Errorf("%q at %d: key ends at %d", b, c.at, end)
			}
		}
	}
}
