package openapi_test

import (
	"context"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/openapi"
)

// TestXMLBodies checks which XML bodies are typed (BodyXML: a structured
// schema), which stay text or bytes, and that xml objects reach the JSON
// Schemas, OpenAPI 3.2's nodeType included.
func TestXMLBodies(t *testing.T) {
	const doc = `{"openapi": "3.1.0", "info": {"title": "x", "version": "1"},
	"paths": {"/a": {"post": {"operationId": "a",
		"requestBody": {"content": {"application/atom+xml": {"schema": {"$ref": "#/components/schemas/feed"}}}},
		"responses": {
			"200": {"description": "ok", "content": {"text/xml": {"schema": {"type": "array", "items": {"type": "string", "xml": {"name": "s"}}}}}},
			"201": {"description": "ok", "content": {"text/xml": {"schema": {"type": "string"}}}},
			"202": {"description": "ok", "content": {"application/xml": {}}},
			"203": {"description": "ok", "content": {"text/plain": {"schema": {"type": "string"}}, "application/xml": {"schema": {"type": "object"}}}}}}},
	"/b": {"put": {"operationId": "b", "requestBody": {"content": {"application/xml": {"schema": {"type": "integer"}}}}, "responses": {"204": {"description": "none"}}}},
	"/c": {"put": {"operationId": "c", "requestBody": {"content": {"text/xml": {"schema": {"type": "object", "properties": {"feed": {"allOf": [{"$ref": "#/components/schemas/feed"}, {"description": "d"}]}}}}}}, "responses": {"204": {"description": "none"}}}},
	"/d": {"put": {"operationId": "d", "requestBody": {"content": {"text/xml": {"schema": {"type": "object", "properties": {"n": {"type": "string"}}}}}}, "responses": {"204": {"description": "none"}}}}},
	"components": {"schemas": {"feed": {"type": "object", "xml": {"namespace": "http://www.w3.org/2005/Atom"},
		"properties": {"title": {"type": "string", "xml": {"nodeType": "text"}}}}}}}`
	svc, _, err := openapi.LoadData(context.Background(), []byte(doc), "x.json", openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := op(t, svc, "a")
	equal(t, "a body kind", a.Body.Kind, ir.BodyXML)
	equalJSON(t, "a body schema", a.Body.Schema, `{"$ref":"#/$defs/Feed","xml":{"name":"feed"}}`)
	kinds := map[string]ir.BodyKind{}
	for _, r := range a.Responses {
		kinds[r.Status] = r.Kind
	}
	// An array is typed; a string or no schema is text (text/xml) or bytes;
	// text/plain wins over XML, as before.
	for status, want := range map[string]ir.BodyKind{"200": ir.BodyXML, "201": ir.BodyText, "202": ir.BodyBinary, "203": ir.BodyText} {
		equal(t, "response "+status+" kind", kinds[status], want)
	}
	equal(t, "b body kind", op(t, svc, "b").Body.Kind, ir.BodyBinary)
	equal(t, "b body schema", op(t, svc, "b").Body.Schema, (*ir.Schema)(nil))
	// An inline object is the root element, named after its type, even
	// when its one property is an object (AWS descriptions aside: see
	// TestAWSXMLBodies).
	equalJSON(t, "c body schema", op(t, svc, "c").Body.Schema, `{"$ref":"#/$defs/CBody"}`)
	equalJSON(t, "d body schema", op(t, svc, "d").Body.Schema, `{"$ref":"#/$defs/DBody"}`)
	equalJSON(t, "Feed schema", svc.Def("Feed"),
		`{"type":"object","xml":{"namespace":"http://www.w3.org/2005/Atom"},"properties":{"title":{"type":"string","xml":{"nodeType":"text"}}}}`)
}

// TestAWSXMLBodies checks the AWS model's XML conventions in an APIs.guru
// AWS description (see aws.go): a payload member's element is the
// document (S3's <Tagging>), the other bodies are in <Operation>Request
// (Route53's, CloudFront's without the operation ID's version suffix), and
// lists are wrapped unless xml says wrapped false.
func TestAWSXMLBodies(t *testing.T) {
	const doc = `{"openapi": "3.0.0", "info": {"title": "x", "version": "1", "x-providerName": "amazonaws.com"},
	"paths": {
		"/tagging": {"put": {"operationId": "PutBucketTagging", "requestBody": {"content": {"text/xml": {"schema": {
			"type": "object", "properties": {"Tagging": {"type": "object", "properties": {"TagSet": {"$ref": "#/components/schemas/TagSet"}}}}}}}},
			"responses": {"200": {"description": "ok"}}}},
		"/rrset": {"post": {"operationId": "ChangeResourceRecordSets", "requestBody": {"content": {"text/xml": {"schema": {
			"type": "object", "properties": {"ChangeBatch": {"type": "object", "properties": {"Rules": {"$ref": "#/components/schemas/Rules"}}}}}}}},
			"responses": {"200": {"description": "ok"}}}},
		"/distribution": {"post": {"operationId": "CreateDistribution2020_05_31", "requestBody": {"content": {"text/xml": {"schema": {
			"type": "object", "properties": {"Name": {"type": "string"}, "Comment": {"type": "string"}}}}}},
			"responses": {"200": {"description": "ok"}}}}},
	"components": {"schemas": {
		"PutBucketTaggingRequest": {"type": "object", "xml": {"namespace": "http://s3.amazonaws.com/doc/2006-03-01/"},
			"properties": {"Tagging": {"type": "object"}}},
		"ChangeResourceRecordSetsRequest": {"type": "object", "properties": {"ChangeBatch": {"type": "object"}}},
		"TagSet": {"type": "array", "items": {"allOf": [{"$ref": "#/components/schemas/Tag"}, {"xml": {"name": "Tag"}}]}},
		"Tag": {"type": "object", "properties": {"Key": {"type": "string"}}},
		"Rules": {"type": "array", "items": {"type": "string"}, "xml": {"wrapped": false}},
		"EndPointList": {"type": "array", "items": {"$ref": "#/components/schemas/Tag"}},
		"Fields": {"type": "array", "items": {"type": "string"}},
		"Grantee": {"type": "object", "xml": {"namespace": "http://www.w3.org/2001/XMLSchema-instance"}}}}}`
	svc, _, err := openapi.LoadData(context.Background(), []byte(doc), "x.json", openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	equalJSON(t, "PutBucketTagging body", op(t, svc, "PutBucketTagging").Body.Schema,
		`{"$ref":"#/$defs/PutBucketTaggingBody","xml":{"namespace":"http://s3.amazonaws.com/doc/2006-03-01/","nodeType":"none"}}`)
	// The service's namespace: the one the inputs' components agree on
	// (Grantee's is not an input's).
	equalJSON(t, "ChangeResourceRecordSets body", op(t, svc, "ChangeResourceRecordSets").Body.Schema,
		`{"$ref":"#/$defs/ChangeResourceRecordSetsBody","xml":{"name":"ChangeResourceRecordSetsRequest","namespace":"http://s3.amazonaws.com/doc/2006-03-01/"}}`)
	equalJSON(t, "CreateDistribution body", op(t, svc, "CreateDistribution2020_05_31").Body.Schema,
		`{"$ref":"#/$defs/CreateDistribution20200531Body","xml":{"name":"CreateDistributionRequest","namespace":"http://s3.amazonaws.com/doc/2006-03-01/"}}`)
	equalJSON(t, "TagSet", svc.Def("TagSet"),
		`{"type":"array","xml":{"wrapped":true},"items":{"allOf":[{"$ref":"#/$defs/Tag"},{"xml":{"name":"Tag"}}]}}`)
	equalJSON(t, "Rules", svc.Def("Rules"), `{"type":"array","items":{"type":"string"}}`)
	// Items the model does not name are <member>.
	equalJSON(t, "EndPointList", svc.Def("EndPointList"),
		`{"type":"array","xml":{"wrapped":true},"items":{"allOf":[{"$ref":"#/$defs/Tag"},{"xml":{"name":"member"}}]}}`)
	equalJSON(t, "Fields", svc.Def("Fields"), `{"type":"array","xml":{"wrapped":true},"items":{"type":"string","xml":{"name":"member"}}}`)
	found := false
	for _, ty := range svc.Types {
		if ty.Name == "EndPointList" {
			found = true
			if ty.Elem == nil || ty.Elem.Name != "Tag" {
				t.Errorf("EndPointList's items are %v, want Tag", ty.Elem)
			}
		}
	}
	if !found {
		t.Error("no type EndPointList")
	}

	// Route53's description names no namespace: the root has none.
	route53 := strings.Replace(doc, `"xml": {"namespace": "http://s3.amazonaws.com/doc/2006-03-01/"},`, "", 1)
	if svc, _, err = openapi.LoadData(context.Background(), []byte(route53), "x.json", openapi.Options{}); err != nil {
		t.Fatal(err)
	}
	equalJSON(t, "ChangeResourceRecordSets body without namespaces", op(t, svc, "ChangeResourceRecordSets").Body.Schema,
		`{"$ref":"#/$defs/ChangeResourceRecordSetsBody","xml":{"name":"ChangeResourceRecordSetsRequest"}}`)
}
