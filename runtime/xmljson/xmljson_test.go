package xmljson

import (
	"encoding/json"
	"strings"
	"testing"
)

// schemaOf decodes a JSON Schema document: its "$defs" are what "$ref"s
// resolve to, its "schema" member the schema itself.
func schemaOf(t testing.TB, doc string) Schema {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal([]byte(doc), &d); err != nil {
		t.Fatal(err)
	}
	return Schema{Value: d["schema"], Doc: d}
}

// sameJSON fails unless got and want are the same JSON value.
func sameJSON(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("got %s: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want %s: %v", want, err)
	}
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	if string(gb) != string(wb) {
		t.Errorf("got  %s\nwant %s", gb, wb)
	}
}

// stsSchemas are the schemas of AWS STS's description (APIs.guru
// amazonaws.com/sts.json) as opsgen publishes them: members are allOf a
// $ref and their description.
const stsSchemas = `{
	"schema": {"$ref": "#/$defs/AssumeRoleResponse"},
	"$defs": {
		"GetCallerIdentityResponse": {"type": "object", "properties": {
			"UserId": {"allOf": [{"$ref": "#/$defs/userIdType"}]},
			"Account": {"allOf": [{"$ref": "#/$defs/accountType"}]},
			"Arn": {"allOf": [{"$ref": "#/$defs/arnType"}]}}},
		"AssumeRoleResponse": {"type": "object", "properties": {
			"Credentials": {"allOf": [{"$ref": "#/$defs/Credentials"}]},
			"AssumedRoleUser": {"allOf": [{"$ref": "#/$defs/AssumedRoleUser"}]},
			"PackedPolicySize": {"allOf": [{"$ref": "#/$defs/nonNegativeIntegerType"}]},
			"SourceIdentity": {"type": "string"}}},
		"Credentials": {"type": "object", "required": ["AccessKeyId", "SecretAccessKey", "SessionToken", "Expiration"], "properties": {
			"AccessKeyId": {"type": "string"}, "SecretAccessKey": {"type": "string"},
			"SessionToken": {"type": "string"}, "Expiration": {"type": "string", "format": "date-time"}}},
		"AssumedRoleUser": {"type": "object", "properties": {"AssumedRoleId": {"type": "string"}, "Arn": {"$ref": "#/$defs/arnType"}}},
		"userIdType": {"type": "string"}, "accountType": {"type": "string"}, "arnType": {"type": "string", "minLength": 20},
		"nonNegativeIntegerType": {"type": "integer", "minimum": 0}
	}
}`

func TestDecodeAWSQueryResponses(t *testing.T) {
	// What STS answers (docs.aws.amazon.com/STS/latest/APIReference):
	// the declared members sit in <XResult>, beside ResponseMetadata.
	s := schemaOf(t, stsSchemas)
	got, err := Decode([]byte(`<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <AssumeRoleResult>
    <SourceIdentity>Alice</SourceIdentity>
    <AssumedRoleUser>
      <Arn>arn:aws:sts::123456789012:assumed-role/demo/TestAR</Arn>
      <AssumedRoleId>ARO123EXAMPLE123:TestAR</AssumedRoleId>
    </AssumedRoleUser>
    <Credentials>
      <AccessKeyId>ASIAIOSFODNN7EXAMPLE</AccessKeyId>
      <SecretAccessKey>wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY</SecretAccessKey>
      <SessionToken>AQoDYXdzEPT//////////wEXAMPLE</SessionToken>
      <Expiration>2019-11-09T13:34:41Z</Expiration>
    </Credentials>
    <PackedPolicySize>6</PackedPolicySize>
  </AssumeRoleResult>
  <ResponseMetadata>
    <RequestId>c6104cbe-af31-11e0-8154-cbc7ccf896c7</RequestId>
  </ResponseMetadata>
</AssumeRoleResponse>`), s)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, got, `{"SourceIdentity":"Alice",
		"AssumedRoleUser":{"Arn":"arn:aws:sts::123456789012:assumed-role/demo/TestAR","AssumedRoleId":"ARO123EXAMPLE123:TestAR"},
		"Credentials":{"AccessKeyId":"ASIAIOSFODNN7EXAMPLE","SecretAccessKey":"wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY",
			"SessionToken":"AQoDYXdzEPT//////////wEXAMPLE","Expiration":"2019-11-09T13:34:41Z"},
		"PackedPolicySize":6}`)

	s.Value = map[string]any{"$ref": "#/$defs/GetCallerIdentityResponse"}
	got, err = Decode([]byte(`<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <GetCallerIdentityResult>
    <Arn>arn:aws:iam::123456789012:user/Alice</Arn>
    <UserId>AIDACKCEVSQ6C2EXAMPLE</UserId>
    <Account>123456789012</Account>
  </GetCallerIdentityResult>
  <ResponseMetadata>
    <RequestId>01234567-89ab-cdef-0123-456789abcdef</RequestId>
  </ResponseMetadata>
</GetCallerIdentityResponse>`), s)
	if err != nil {
		t.Fatal(err)
	}
	// The account stays a string: its schema says so, though it looks like a number.
	sameJSON(t, got, `{"Arn":"arn:aws:iam::123456789012:user/Alice","UserId":"AIDACKCEVSQ6C2EXAMPLE","Account":"123456789012"}`)

	// A document that already holds the members directly is read as it is.
	got, err = Decode([]byte(`<GetCallerIdentityResponse><Arn>a</Arn><Result><Arn>b</Arn></Result></GetCallerIdentityResponse>`), s)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, got, `{"Arn":"a","Result":{"Arn":"b"}}`)
}

// s3Schemas are S3's (APIs.guru amazonaws.com/s3.json): lists unwrapped,
// item names given beside the $ref in an allOf.
const s3Schemas = `{
	"schema": {"$ref": "#/$defs/ListObjectsV2Output"},
	"$defs": {
		"ListObjectsV2Output": {"type": "object", "properties": {
			"IsTruncated": {"allOf": [{"$ref": "#/$defs/IsTruncated"}]},
			"Contents": {"allOf": [{"$ref": "#/$defs/ObjectList"}]},
			"Name": {"type": "string"}, "Prefix": {"type": "string"},
			"MaxKeys": {"type": "integer"}, "KeyCount": {"type": "integer"},
			"CommonPrefixes": {"type": "array", "items": {"$ref": "#/$defs/CommonPrefix"}}}},
		"IsTruncated": {"type": "boolean"},
		"ObjectList": {"type": "array", "items": {"$ref": "#/$defs/Object"}, "xml": {"wrapped": false}},
		"Object": {"type": "object", "properties": {
			"Key": {"type": "string"}, "LastModified": {"type": "string", "format": "date-time"},
			"ETag": {"type": "string"}, "Size": {"type": "integer"}, "StorageClass": {"type": "string"}}},
		"CommonPrefix": {"type": "object", "properties": {"Prefix": {"type": "string"}}},
		"ListBucketsOutput": {"type": "object", "properties": {
			"Buckets": {"allOf": [{"$ref": "#/$defs/Buckets"}, {"description": "The list of buckets."}]},
			"Owner": {"type": "object", "properties": {"DisplayName": {"type": "string"}, "ID": {"type": "string"}}}}},
		"Buckets": {"type": "array", "items": {"allOf": [{"$ref": "#/$defs/Bucket"}, {"xml": {"name": "Bucket"}}]}},
		"Bucket": {"type": "object", "properties": {"Name": {"type": "string"}, "CreationDate": {"type": "string"}}},
		"LifecycleConfiguration": {"type": "object", "properties": {
			"Rules": {"allOf": [{"$ref": "#/$defs/Rules"}, {"xml": {"name": "Rule"}, "description": "The rules."}]}},
			"xml": {"namespace": "http://s3.amazonaws.com/doc/2006-03-01/"}},
		"Rules": {"type": "array", "items": {"$ref": "#/$defs/Rule"}, "xml": {"wrapped": false}},
		"Rule": {"type": "object", "properties": {"ID": {"type": "string"}, "Status": {"type": "string"}, "Days": {"type": "integer"}}}
	}
}`

func TestDecodeS3(t *testing.T) {
	s := schemaOf(t, s3Schemas)
	// docs.aws.amazon.com/AmazonS3/latest/API/API_ListObjectsV2.html
	got, err := Decode([]byte(`<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <Name>bucket</Name>
  <Prefix/>
  <KeyCount>2</KeyCount>
  <MaxKeys>1000</MaxKeys>
  <IsTruncated>false</IsTruncated>
  <Contents>
    <Key>my-image.jpg</Key>
    <LastModified>2009-10-12T17:50:30.000Z</LastModified>
    <ETag>&quot;fba9dede5f27731c9771645a39863328&quot;</ETag>
    <Size>434234</Size>
    <StorageClass>STANDARD</StorageClass>
  </Contents>
  <Contents>
    <Key>my-third-image.jpg</Key>
    <Size>64994</Size>
  </Contents>
  <CommonPrefixes><Prefix>photos/</Prefix></CommonPrefixes>
</ListBucketResult>`), s)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, got, `{"Name":"bucket","Prefix":"","KeyCount":2,"MaxKeys":1000,"IsTruncated":false,
		"Contents":[{"Key":"my-image.jpg","LastModified":"2009-10-12T17:50:30.000Z","ETag":"\"fba9dede5f27731c9771645a39863328\"","Size":434234,"StorageClass":"STANDARD"},
			{"Key":"my-third-image.jpg","Size":64994}],
		"CommonPrefixes":[{"Prefix":"photos/"}]}`)

	// ListBuckets: <Buckets> wraps the <Bucket> items, though the
	// description does not say wrapped.
	s.Value = map[string]any{"$ref": "#/$defs/ListBucketsOutput"}
	got, err = Decode([]byte(`<ListAllMyBucketsResult><Owner><ID>o1</ID><DisplayName>me</DisplayName></Owner>
<Buckets><Bucket><Name>a</Name><CreationDate>2019-12-11T23:32:47+00:00</CreationDate></Bucket></Buckets></ListAllMyBucketsResult>`), s)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, got, `{"Owner":{"ID":"o1","DisplayName":"me"},"Buckets":[{"Name":"a","CreationDate":"2019-12-11T23:32:47+00:00"}]}`)

	// The xml name beside the $ref names the run of items, both ways (the
	// elements in the order of the JSON value's members).
	s.Value = map[string]any{"$ref": "#/$defs/LifecycleConfiguration"}
	doc := `<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
		`<LifecycleConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Rule><Days>3</Days><ID>r1</ID><Status>Enabled</Status></Rule><Rule><ID>r2</ID></Rule></LifecycleConfiguration>`
	got, err = Decode([]byte(doc), s)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, got, `{"Rules":[{"ID":"r1","Status":"Enabled","Days":3},{"ID":"r2"}]}`)
	back, err := Encode(got, s)
	if err != nil {
		t.Fatal(err)
	}
	if string(back) != doc {
		t.Errorf("Encode =\n%s\nwant\n%s", back, doc)
	}
}

// oasSchemas are the OpenAPI specification's XML Object examples
// (3.0.3 and 3.1.1, "XML Object Examples").
const oasSchemas = `{
	"$defs": {
		"Person": {"type": "object", "properties": {
			"id": {"type": "integer", "format": "int32", "xml": {"attribute": true}},
			"name": {"type": "string", "xml": {"namespace": "https://example.com/schema/sample", "prefix": "sample"}}}},
		"Animals": {"type": "object", "properties": {
			"unwrapped": {"type": "array", "items": {"type": "string", "xml": {"name": "animal"}}},
			"wrapped": {"type": "array", "xml": {"name": "aliens", "wrapped": true}, "items": {"type": "string", "xml": {"name": "alien"}}},
			"plain": {"type": "array", "xml": {"wrapped": true}, "items": {"type": "string"}}}},
		"Pet": {"type": "object", "xml": {"name": "pet"}, "required": ["name"], "properties": {
			"id": {"type": "integer"}, "name": {"type": "string"}, "sold": {"type": "boolean"},
			"category": {"$ref": "#/$defs/Category"},
			"photoUrls": {"type": "array", "xml": {"wrapped": true}, "items": {"type": "string", "xml": {"name": "photoUrl"}}},
			"tags": {"type": "array", "xml": {"wrapped": true}, "items": {"$ref": "#/$defs/Tag"}}}},
		"Category": {"type": "object", "xml": {"name": "category"}, "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}},
		"Tag": {"type": "object", "xml": {"name": "tag"}, "properties": {"name": {"type": "string"}}},
		"Note": {"type": "object", "xml": {"name": "note"}, "properties": {
			"lang": {"type": "string", "xml": {"nodeType": "attribute"}},
			"body": {"type": "string", "xml": {"nodeType": "text"}}}}
	}
}`

func TestOpenAPIExamples(t *testing.T) {
	s := schemaOf(t, oasSchemas)
	for _, c := range []struct {
		ref, json, xml string
	}{
		{"Person", `{"id":123,"name":"example"}`,
			`<Person id="123"><sample:name xmlns:sample="https://example.com/schema/sample">example</sample:name></Person>`},
		{"Animals", `{"unwrapped":["a","b"],"wrapped":["c"],"plain":["d","e"]}`,
			`<Animals><animal>a</animal><animal>b</animal><aliens><alien>c</alien></aliens><plain><plain>d</plain><plain>e</plain></plain></Animals>`},
		{"Pet", `{"id":7,"name":"doggie","sold":true,"category":{"id":1,"name":"Dogs"},"photoUrls":["u1"],"tags":[{"name":"t"}]}`,
			`<pet><id>7</id><name>doggie</name><sold>true</sold><category><id>1</id><name>Dogs</name></category><photoUrls><photoUrl>u1</photoUrl></photoUrls><tags><tag><name>t</name></tag></tags></pet>`},
		{"Note", `{"lang":"en","body":"a &lt; b"}`, `<note lang="en">a &amp;lt; b</note>`},
	} {
		t.Run(c.ref, func(t *testing.T) {
			s.Value = map[string]any{"$ref": "#/$defs/" + c.ref}
			got, err := Encode([]byte(c.json), s)
			if err != nil {
				t.Fatal(err)
			}
			want := `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + c.xml
			if string(got) != want {
				t.Errorf("Encode =\n%s\nwant\n%s", got, want)
			}
			back, err := Decode(got, s)
			if err != nil {
				t.Fatal(err)
			}
			sameJSON(t, back, c.json)
		})
	}
}

func TestDecodeTypes(t *testing.T) {
	s := schemaOf(t, `{"schema": {"type": "object", "properties": {
		"n": {"type": "number"}, "i": {"type": ["integer", "null"]}, "b": {"type": "boolean"},
		"bad": {"type": "integer"}, "s": {"type": "string"}, "nil": {"type": ["string", "null"]},
		"m": {"type": "object", "additionalProperties": {"type": "integer"}},
		"u": {"oneOf": [{"type": "object", "properties": {"a": {"type": "integer"}}}, {"type": "object", "properties": {"b": {"type": "boolean"}}}]}}}}`)
	got, err := Decode([]byte(`<r xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
		<n> 1.5e3 </n><i></i><b>1</b><bad>ten</bad><s> padded </s><nil xsi:nil="true"/>
		<m><x>1</x><y>2</y></m><u><b>false</b></u>
		<extra><deep>1</deep><deep>2</deep></extra></r>`), s)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, got, `{"n":1.5e3,"i":null,"b":true,"bad":"ten","s":" padded ","nil":null,"m":{"x":1,"y":2},"u":{"b":false},
		"extra":{"deep":["1","2"]}}`)
}

// TestDecodeAttributeAsElement: a property the schema declares as an
// attribute is read from a child element of its name when the element has
// no such attribute (apisetu.gov.in's certificates, as Prism writes them),
// and from the attribute when both are there.
func TestDecodeAttributeAsElement(t *testing.T) {
	s := schemaOf(t, `{"schema": {"type": "object", "properties": {"License": {"type": "object",
		"required": ["code", "n"], "properties": {
		"code": {"type": "string", "xml": {"attribute": true}},
		"n": {"type": "integer", "xml": {"attribute": true}}}}}}}`)
	got, err := Decode([]byte(`<xml><License><code>NT</code><n>7</n></License></xml>`), s)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, got, `{"License":{"code":"NT","n":7}}`)
	got, err = Decode([]byte(`<xml><License code="A" n="1"><code>B</code></License></xml>`), s)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, got, `{"License":{"code":"A","n":1}}`)
}

func TestEncodeErrors(t *testing.T) {
	s := Schema{Value: map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}}}
	for _, in := range []string{`{"a b":"x"}`, `{"1a":"x"}`, `{"a":`, `{} {}`} {
		if got, err := Encode([]byte(in), s); err == nil {
			t.Errorf("Encode(%s) = %s, want an error", in, got)
		}
	}
	got, err := Encode([]byte(`{"a":"<&>","skip":null}`), s)
	if err != nil || !strings.HasSuffix(string(got), `<value><a>&lt;&amp;&gt;</a></value>`) {
		t.Errorf("Encode = %s, %v", got, err)
	}
}

func TestDecodeErrors(t *testing.T) {
	s := Schema{Value: map[string]any{"type": "object"}}
	deep := strings.Repeat("<a>", MaxDepth+1) + strings.Repeat("</a>", MaxDepth+1)
	for _, in := range []string{``, `not xml`, `<a>`, `<a></a><b></b>`, `<a></b>`, deep} {
		if got, err := Decode([]byte(in), s); err == nil {
			t.Errorf("Decode(%.40q) = %s, want an error", in, got)
		}
	}
}

func TestRefCycle(t *testing.T) {
	s := schemaOf(t, `{"schema": {"$ref": "#/$defs/A"}, "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"},
		"N": {"type": "object", "properties": {"next": {"$ref": "#/$defs/N"}, "v": {"type": "integer"}}}}}`)
	if _, err := Decode([]byte(`<A><x>1</x></A>`), s); err != nil {
		t.Fatal(err)
	}
	s.Value = map[string]any{"$ref": "#/$defs/N"}
	got, err := Decode([]byte(`<N><v>1</v><next><v>2</v><next><v>3</v></next></next></N>`), s)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, got, `{"v":1,"next":{"v":2,"next":{"v":3}}}`)
}

func FuzzDecode(f *testing.F) {
	s := schemaOf(f, oasSchemas)
	s.Value = map[string]any{"$ref": "#/$defs/Pet"}
	for _, seed := range []string{`<pet id="1"><name>x</name><photoUrls><photoUrl>u</photoUrl></photoUrls></pet>`, `<a><b/><b>1</b></a>`, `<x xmlns:p="u"><p:y p:z="1"/></x>`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		js, err := Decode(data, s)
		if err != nil {
			return
		}
		if !json.Valid(js) {
			t.Fatalf("Decode(%q) = %s, not JSON", data, js)
		}
		// What Decode returns, Encode writes as XML that Decode reads again.
		x, err := Encode(js, s)
		if err != nil {
			return // an undeclared element name that is not an XML name after all
		}
		if _, err := Decode(x, s); err != nil {
			t.Fatalf("Decode(Encode(%s)) = %v\n%s", js, err, x)
		}
	})
}

func TestRootWithoutElement(t *testing.T) {
	// APIs.guru's S3 bodies: an object whose one member is the document's
	// element, marked as having no element of its own.
	s := schemaOf(t, `{"schema": {"type": "object", "xml": {"nodeType": "none"}, "properties": {"Tagging": {"$ref": "#/$defs/Tagging"}}},
		"$defs": {"Tagging": {"type": "object", "xml": {"namespace": "http://s3.amazonaws.com/doc/2006-03-01/"}, "properties": {
			"TagSet": {"type": "array", "xml": {"wrapped": true}, "items": {"allOf": [{"$ref": "#/$defs/Tag"}, {"xml": {"name": "Tag"}}]}}}},
			"Tag": {"type": "object", "properties": {"Key": {"type": "string"}, "Value": {"type": "string"}}}}}`)
	const value = `{"Tagging":{"TagSet":[{"Key":"k","Value":"v"}]}}`
	got, err := Encode([]byte(value), s)
	if err != nil {
		t.Fatal(err)
	}
	const want = `<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
		`<Tagging xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><TagSet><Tag><Key>k</Key><Value>v</Value></Tag></TagSet></Tagging>`
	if string(got) != want {
		t.Errorf("Encode =\n%s\nwant\n%s", got, want)
	}
	back, err := Decode(got, s)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, back, value)

	// A namespace beside nodeType none is the document's (the AWS
	// payload's namespace, which the description gives its input):
	// the member's element declares it when its own schema names none.
	s = schemaOf(t, `{"schema": {"type": "object", "xml": {"nodeType": "none", "namespace": "http://s3.amazonaws.com/doc/2006-03-01/"},
		"properties": {"Tagging": {"type": "object", "properties": {"Key": {"type": "string"}}}}}}`)
	if got, err = Encode([]byte(`{"Tagging":{"Key":"k"}}`), s); err != nil {
		t.Fatal(err)
	}
	if want := `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<Tagging xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Key>k</Key></Tagging>`; string(got) != want {
		t.Errorf("Encode with the root's namespace =\n%s\nwant\n%s", got, want)
	}
}
