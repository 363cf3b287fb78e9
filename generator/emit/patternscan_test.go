package emit

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// patternSeeds are documents on which scanPattern must answer as
// decodePattern does.
var patternSeeds = []string{
	`{}`,
	`[]`,
	`"pattern"`,
	`{"pattern":"^a$"}`,
	`{"pattern": "^a$"}`,
	"{ \"pattern\"\t:\n\r \"x\" }",
	`{"pattern":1}`,
	`{"pattern":null}`,
	`{"pattern":true}`,
	`{"pattern":["a"]}`,
	`{"pattern":{"pattern":"x"}}`,
	`{"pattern":{"type":"string"}}`,
	`{"properties":{"pattern":{"type":"string","pattern":"[0-9]+"}}}`,
	`{"properties":{"pattern":{"type":"string"}}}`,
	`{"description":"a \"pattern\": \"x\" in text"}`,
	`{"description":"\"pattern\":\"x\""}`,
	`{"enum":["pattern",":","pattern"]}`,
	`["pattern",":","x"]`,
	`{"a":"\\","pattern":"x"}`,
	`{"a":"\\\"","pattern":1}`,
	`{"a\\":"pattern","b":"\\\\"}`,
	`{"patt\u0065rn":"x"}`,
	`{"pattern\u0000":"x"}`,
	`{"\u0070attern":1,"b":"pattern"}`,
	`{"pattern":"x","pattern":1}`,
	`{"pattern":1,"pattern":"x"}`,
	`{"pattern":"x","a":{"pattern":1},"pattern":2}`,
	`{"pattern":1,"a":{"pattern":"x"}}`,
	`[[[{"a":[{"b":{"pattern":"\\d"}}]}]]]`,
	`[[["pattern"],{"pattern":[["x"]]}],{"c":[{"d":"pattern"}]}]`,
	`{"examples":[{"pattern":"x"}]}`,
	`{"const":{"pattern":"x"}}`,
	`{"type":"string","pattern":""}`,
	`{"a":[1,2.5e3,-0,true,false,null],"pattern":"é\u00e9"}`,
	`{"$defs":{"A":{"pattern":"x"},"B":{"pattern":3}}}`,
	`{"x":"p\"attern","y":"\"pattern\""}`,
}

func TestScanPattern(t *testing.T) {
	for _, doc := range patternSeeds {
		if !json.Valid([]byte(doc)) {
			t.Fatalf("seed %s is not JSON", doc)
		}
		want := decodePattern(doc)
		got, ok := scanPattern(doc)
		if !ok {
			t.Errorf("scanPattern(%s) gave up", doc)
			continue
		}
		if got != want {
			t.Errorf("scanPattern(%s) = %v, decoding says %v", doc, got, want)
		}
		// hasPattern only looks into documents with the quoted word (as
		// before the scan).
		want = want && strings.Contains(doc, `"pattern"`)
		if h := hasPattern([]string{`{}`, doc}); h != want {
			t.Errorf("hasPattern(%s) = %v, want %v", doc, h, want)
		}
	}
	// Deeper than encoding/json decodes: the scan leaves it to decoding
	// (which fails: no pattern).
	deep := strings.Repeat("[", maxScanDepth+1) + `{"pattern":"x"}` + strings.Repeat("]", maxScanDepth+1)
	if _, ok := scanPattern(deep); ok {
		t.Errorf("scanPattern took a document deeper than %d", maxScanDepth)
	}
	if hasPattern([]string{deep}) {
		t.Errorf("hasPattern found a pattern in a document that does not decode")
	}
}

// TestScanPatternSpec compares the scan with decoding on the JSON document
// $OPSGEN_PATTERN_DOC names, when set (a large, real document).
func TestScanPatternSpec(t *testing.T) {
	path := os.Getenv("OPSGEN_PATTERN_DOC")
	if path == "" {
		t.Skip("OPSGEN_PATTERN_DOC not set")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := scanPattern(string(b))
	if want := decodePattern(string(b)); !ok || got != want {
		t.Errorf("scanPattern = %v, %v; decoding says %v", got, ok, want)
	}
}

func FuzzScanPattern(f *testing.F) {
	for _, s := range patternSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		got, ok := scanPattern(doc) // must not panic on any text
		if !json.Valid([]byte(doc)) || !ok {
			return
		}
		if want := decodePattern(doc); got != want {
			t.Errorf("scanPattern(%q) = %v, decoding says %v", doc, got, want)
		}
	})
}

// BenchmarkScanPattern measures the scan of a large defs document without
// patterns, against decoding it.
func BenchmarkScanPattern(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"$defs":{`)
	for i := range 5000 {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`"T` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + `":{"type":"object","description":"a \"pattern\" in text","properties":{"id":{"type":"integer","minimum":1},"pattern":{"type":["string","null"],"maxLength":40},"tags":{"type":"array","items":{"$ref":"#/$defs/Tag"}}}}`)
	}
	sb.WriteString(`}}`)
	doc := sb.String()
	b.SetBytes(int64(len(doc)))
	b.Run("scan", func(b *testing.B) {
		for b.Loop() {
			if found, ok := scanPattern(doc); found || !ok {
				b.Fatal(found, ok)
			}
		}
	})
	b.Run("decode", func(b *testing.B) {
		for b.Loop() {
			if decodePattern(doc) {
				b.Fatal("found")
			}
		}
	})
}
