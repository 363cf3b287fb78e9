package conform

import (
	"strings"
	"testing"
)

// exactUsesUnsupported is NeedsFullValidator's answer for one document
// without the scan: decode, then walk.
func exactUsesUnsupported(doc string) bool {
	v, err := parseJSON(doc)
	return err == nil && usesUnsupported(v)
}

var scanSeeds = []string{
	`{"type":"object","properties":{"not":{"type":"string"}}}`,
	`{"$defs":{"if":{"enum":["not","if"]}},"default":{"not":1}}`,
	`{"type":"integer","not":{"const":1}}`,
	`{"$defs":{"A":{"patternProperties":{"^x":{}}}}}`,
	`{"properties":{"a":{"items":{"contains":{"type":"string"}}}}}`,
	`{"anyOf":[{"type":"string"},{"if":{"type":"string"},"then":false}]}`,
	`{"properties":{"a":{"not":{}}}}`,
	`{"properties":{"a":{"not": { } }}}`,
	`{"not":true}`,
	`{"not":false}`,
	`{"not":{"type":"null"}}`,
	`{"properties":[{"if":1}]}`,
	`{"properties":{"a":[{"if":1}]}}`,
	`{"examples":[{"if":1}],"const":{"then":2},"example":{"else":3}}`,
	`{"discriminator":{"mapping":{"if":"x"}}}`,
	`{"items":[{"unevaluatedItems":false}]}`,
	`{"a":{"b":{"c":{"$dynamicRef":"#x"}}}}`,
	`{"\u006eot":{"type":"string"}}`,
	`{"a\"b":{"if":1}}`,
	`{"enum":["a\\"if\\"b"],"x":"\"not\""}`,
	` { "type" : "string" , "minContains" : 1 } `,
	`{"type":"string","properties":{"p":{"properties":{"q":{"contentSchema":{}}}}}}`,
	`[{"if":1}]`,
	`{"a":1,"a":{"if":1}}`,
	`{"a":{"if":1},"a":1}`,
	`{"a":-1.5e+3,"b":null,"c":true,"d":[1,2,{"then":{}}]}`,
	`{"a":`,
	`{"if"`,
	`{"if":1`,
	`{"type":"string"} trailing`,
	`not JSON`,
	`"if"`,
	`{}`,
	`[]`,
	strings.Repeat(`{"a":`, 20) + `{"not":{"type":"string"}}` + strings.Repeat(`}`, 20),
	strings.Repeat(`[`, 10002) + strings.Repeat(`]`, 10002),
}

// TestNeedsFullValidatorScan checks the scan against decoding: it never
// misses a document that decoding finds, and NeedsFullValidator answers
// as decoding does.
func TestNeedsFullValidatorScan(t *testing.T) {
	for _, doc := range scanSeeds {
		exact := exactUsesUnsupported(doc)
		if exact && !mayUseUnsupported(doc) {
			t.Errorf("scan misses %.80s", doc)
		}
		if got := NeedsFullValidator(doc); got != exact {
			t.Errorf("NeedsFullValidator(%.80s) = %v, decoding says %v", doc, got, exact)
		}
	}
	// The scan alone rules out the documents without such keywords.
	for _, doc := range []string{
		`{"type":"object","properties":{"not":{"type":"string"}}}`,
		`{"properties":{"a":{"not":{}}}}`,
		`{"enum":["a\"if\"b"],"x":"\"not\""}`,
	} {
		if mayUseUnsupported(doc) {
			t.Errorf("scan reports %s", doc)
		}
	}
}

func FuzzNeedsFullValidatorScan(f *testing.F) {
	for _, s := range scanSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		exact := exactUsesUnsupported(doc)
		if exact && !mayUseUnsupported(doc) {
			t.Errorf("scan misses %q", doc)
		}
		if got := NeedsFullValidator(doc); got != exact {
			t.Errorf("NeedsFullValidator(%q) = %v, decoding says %v", doc, got, exact)
		}
	})
}

// BenchmarkNeedsFullValidator measures the answer on a large schema
// document without unsupported keywords.
func BenchmarkNeedsFullValidator(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"$defs":{`)
	for i := range 5000 {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`"T` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + `":{"type":"object","required":["id"],"properties":{"id":{"type":"integer","minimum":1},"name":{"type":["string","null"],"maxLength":40},"tags":{"type":"array","items":{"$ref":"#/$defs/Tag"}},"kind":{"enum":["a","b","if"],"default":"a"}}}`)
	}
	sb.WriteString(`}}`)
	doc := sb.String()
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		if NeedsFullValidator(doc) {
			b.Fatal("needs a full validator")
		}
	}
}
