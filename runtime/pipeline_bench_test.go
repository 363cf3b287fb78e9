package runtime_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// benchOrder is a realistic API object: nested objects, arrays, strings,
// numbers, enums and optional fields, about 2 KB as JSON.
type benchOrder struct {
	ID        string `json:"id"`
	Number    int64  `json:"number"`
	Status    string `json:"status"`
	CreatedAt string `json:"createdAt"`
	Currency  string `json:"currency"`
	Customer  struct {
		ID      string   `json:"id"`
		Name    string   `json:"name"`
		Email   string   `json:"email"`
		Phone   string   `json:"phone,omitempty"`
		Tags    []string `json:"tags,omitempty"`
		Premium bool     `json:"premium"`
	} `json:"customer"`
	Lines []struct {
		SKU      string   `json:"sku"`
		Name     string   `json:"name"`
		Quantity int      `json:"quantity"`
		Price    float64  `json:"price"`
		Discount *float64 `json:"discount,omitempty"`
		Tags     []string `json:"tags,omitempty"`
	} `json:"lines"`
	Shipping struct {
		Method  string `json:"method"`
		Address struct {
			Line1   string `json:"line1"`
			Line2   string `json:"line2,omitempty"`
			City    string `json:"city"`
			Postal  string `json:"postal"`
			Country string `json:"country"`
		} `json:"address"`
		Cost float64 `json:"cost"`
	} `json:"shipping"`
	Total    float64           `json:"total"`
	Notes    string            `json:"notes,omitempty"`
	Metadata map[string]string `json:"metadata,omitempty"`
}

const benchSchema = `{
	"type": "object",
	"required": ["id", "number", "status", "customer", "lines", "total"],
	"properties": {
		"id": {"type": "string"},
		"number": {"type": "integer", "minimum": 1},
		"status": {"type": "string", "enum": ["pending", "paid", "shipped", "cancelled"]},
		"createdAt": {"type": "string", "format": "date-time"},
		"currency": {"type": "string", "minLength": 3, "maxLength": 3},
		"customer": {"$ref": "#/$defs/Customer"},
		"lines": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/Line"}},
		"shipping": {"type": "object", "properties": {
			"method": {"type": "string", "enum": ["standard", "express"]},
			"address": {"$ref": "#/$defs/Address"},
			"cost": {"type": "number", "minimum": 0}
		}},
		"total": {"type": "number", "minimum": 0},
		"notes": {"type": "string"},
		"metadata": {"type": "object", "additionalProperties": {"type": "string"}}
	},
	"$defs": {
		"Customer": {"type": "object", "required": ["id", "name"], "properties": {
			"id": {"type": "string"}, "name": {"type": "string"}, "email": {"type": "string"},
			"phone": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}},
			"premium": {"type": "boolean"}
		}},
		"Line": {"type": "object", "required": ["sku", "quantity", "price"], "properties": {
			"sku": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$"}, "name": {"type": "string"},
			"quantity": {"type": "integer", "minimum": 1}, "price": {"type": "number", "minimum": 0},
			"discount": {"type": "number", "nullable": true}, "tags": {"type": "array", "items": {"type": "string"}}
		}},
		"Address": {"type": "object", "required": ["line1", "city", "country"], "properties": {
			"line1": {"type": "string"}, "line2": {"type": "string"}, "city": {"type": "string"},
			"postal": {"type": "string"}, "country": {"type": "string", "minLength": 2, "maxLength": 2}
		}}
	}
}`

const benchBody = `{
  "id": "ord_01HZX3K9Q2W7E5R8T6Y4U1I0OP",
  "number": 104729,
  "status": "paid",
  "createdAt": "2026-05-16T09:41:27.512Z",
  "currency": "EUR",
  "customer": {
    "id": "cus_8f3a9c2e71b4",
    "name": "Ada Lovelace",
    "email": "ada@example.com",
    "phone": "+44 20 7946 0958",
    "tags": ["vip", "newsletter", "beta-tester"],
    "premium": true
  },
  "lines": [
    {"sku": "BOO-0001", "name": "Notes on the Analytical Engine", "quantity": 1, "price": 42.5, "tags": ["book", "history"]},
    {"sku": "PEN-0420", "name": "Fountain pen, medium nib", "quantity": 2, "price": 18.99, "discount": 0.1},
    {"sku": "INK-0007", "name": "Ink bottle, blue-black, 50 ml", "quantity": 3, "price": 7.25, "discount": null, "tags": ["ink"]},
    {"sku": "PAP-1200", "name": "Dot grid notebook, A5, 120 pages", "quantity": 4, "price": 12, "tags": ["paper", "a5", "dotted"]},
    {"sku": "CAS-0300", "name": "Leather pen case", "quantity": 1, "price": 29.95},
    {"sku": "BLT-0055", "name": "Blotting paper, pack of 25 sheets", "quantity": 2, "price": 4.5, "tags": ["paper"]},
    {"sku": "RUL-0030", "name": "Brass ruler, 30 cm, engraved", "quantity": 1, "price": 24, "discount": 0.15, "tags": ["gift", "brass"]},
    {"sku": "WAX-0012", "name": "Sealing wax sticks, burgundy, set of 12", "quantity": 1, "price": 11.8, "tags": ["wax", "gift"]}
  ],
  "shipping": {
    "method": "express",
    "address": {"line1": "12 St James's Square", "line2": "Flat 3", "city": "London", "postal": "SW1Y 4JH", "country": "GB"},
    "cost": 9.9
  },
  "total": 214.31,
  "notes": "Please leave the parcel with the concierge if nobody answers the door. Gift wrap the notebook; no invoice in the box, send it by email instead.",
  "metadata": {"channel": "web", "campaign": "spring-2026", "referrer": "newsletter-may", "ab": "checkout-v3", "session": "5f0c9e6d-1b2a-4c3d-8e9f-0a1b2c3d4e5f"}
}`

func benchDecode(b *testing.B, p *runtime.Pipeline, body string) {
	schema := opsgenimpl.NewSchema(benchSchema)
	raw := []byte(body)
	ctx := context.Background()
	var out benchOrder
	ws, err := opsgenimpl.Decode(ctx, p, "orders.get", schema, raw, &out)
	if err != nil || len(ws) != 0 || len(out.Lines) != 8 || out.Lines[4].SKU != "CAS-0300" {
		b.Fatalf("warm-up: %v %v %+v", ws, err, out)
	}
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		out = benchOrder{}
		if _, err := opsgenimpl.Decode(ctx, p, "orders.get", schema, raw, &out); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPipelineUnmarshal is the baseline: plain json.Unmarshal.
func BenchmarkPipelineUnmarshal(b *testing.B) {
	raw := []byte(benchBody)
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	var out benchOrder
	for b.Loop() {
		out = benchOrder{}
		if err := json.Unmarshal(raw, &out); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPipelineOff: Decode in ValidateOff mode (target: <= 1.05x Unmarshal).
func BenchmarkPipelineOff(b *testing.B) {
	benchDecode(b, &runtime.Pipeline{Mode: runtime.ValidateOff}, benchBody)
}

// BenchmarkPipelineWarn: Decode normalizing and validating conforming data
// (target: <= 1.5x Unmarshal).
func BenchmarkPipelineWarn(b *testing.B) {
	benchDecode(b, &runtime.Pipeline{}, benchBody)
}

// BenchmarkPipelineWarnRewrite: data the pipeline must rewrite (absent
// defaults, an integer spelled 1e0): the slow path, for comparison.
func BenchmarkPipelineWarnRewrite(b *testing.B) {
	schema := opsgenimpl.NewSchema(`{"type":"object","properties":{"number":{"type":"integer"},"status":{"type":"string","default":"pending"}}}`)
	raw := []byte(`{"id":"x","number":1e0}`)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		var out benchOrder
		if _, err := opsgenimpl.Decode(ctx, nil, "orders.get", schema, raw, &out); err != nil || out.Status != "pending" {
			b.Fatal(err, out.Status)
		}
	}
}

// BenchmarkPipelineWarnGoTypeDrift: data the Go type cannot hold (a
// non-RFC 3339 date-time, a float32 out of range, invalid base64, an
// object for a slice): decoded, repaired member by member, decoded again.
// The slow path of issue 11, for comparison; conforming data never takes it.
func BenchmarkPipelineWarnGoTypeDrift(b *testing.B) {
	schema := opsgenimpl.NewSchema(driftSchema)
	raw := []byte(driftBody)
	ctx := context.Background()
	p := &runtime.Pipeline{Logger: discardLogger()}
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		var out driftThing
		if ws, err := opsgenimpl.Decode(ctx, p, "things.get", schema, raw, &out); err != nil || len(ws) != 7 {
			b.Fatal(err, ws)
		}
	}
}
