package openapi

import (
	"mime"
	"regexp"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opsgen/opsgen/generator/jsonschema"
)

// APIs.guru converts the AWS SDK's service models to OpenAPI
// (aws2openapi). Two XML conventions of the models do not survive the
// conversion as OpenAPI states them, and the services read XML by the
// models' rules, so a client that followed the description alone would
// send XML the service refuses:
//
//   - A list is one element holding its members (<Changes><Change/>
//     </Changes>) unless the model says flattened, which aws2openapi writes
//     as xml {wrapped: false}; OpenAPI's default is the other way round.
//     A member the model does not name is <member> (CloudFront's
//     <EndPoints><member/></EndPoints>), where OpenAPI would repeat the
//     list's name.
//   - A REST-XML request body is either the element of its payload member
//     (S3's PutBucketTagging sends <Tagging>, the member {Tagging: {...}}
//     of the description's body), or the input shape's element, named
//     <Operation>Request (Route53's <ChangeResourceRecordSetsRequest>
//     around <ChangeBatch>). The descriptions of both have the same shape;
//     aws2openapi copies the payload member's XML namespace onto the
//     input's component schema (<Operation>Request), which is how the two
//     are told apart.
//
// The framing was checked against the models of aws-sdk 2.1693.0 (npm)
// for the four REST-XML descriptions (s3, s3control, cloudfront, route53)
// by make aws-xml-check (internal/realcalls/cmd/awsxmlcheck): 110 XML
// request bodies, 65 of them a payload's, each with the namespace on its
// component, the others without it and named <Operation>Request. The
// lists are not checked there (the npm models rename their shapes); in the
// descriptions, xml {wrapped: false} marks the lists the models flatten
// (34 in s3, such as LifecycleRules, which S3 writes as a run of <Rule>
// elements).

// awsDocument reports whether doc is one of APIs.guru's amazonaws.com
// descriptions (info x-providerName).
func awsDocument(doc *openapi3.T) bool {
	return doc.Info != nil && doc.Info.Extensions["x-providerName"] == "amazonaws.com"
}

// awsWrappedLists reports whether the lists of doc's schemas are wrapped
// unless they say otherwise: an AWS description with XML bodies.
func awsWrappedLists(doc *openapi3.T) bool {
	if !awsDocument(doc) || doc.Paths == nil {
		return false
	}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			if op.RequestBody != nil && op.RequestBody.Value != nil && xmlContent(op.RequestBody.Value.Content) {
				return true
			}
			if op.Responses == nil {
				continue
			}
			for _, r := range op.Responses.Map() {
				if r != nil && r.Value != nil && xmlContent(r.Value.Content) {
					return true
				}
			}
		}
	}
	return false
}

// xmlContent reports whether content has an XML media type.
func xmlContent(content openapi3.Content) bool {
	for mt := range content {
		base, _, _ := mime.ParseMediaType(mt)
		if base == "application/xml" || base == "text/xml" || strings.HasSuffix(base, "+xml") {
			return true
		}
	}
	return false
}

// awsVersionSuffix is the API version aws2openapi appends to the
// operation IDs of some services (CloudFront's
// CreateDistribution2020_05_31); the model's operation has no suffix.
var awsVersionSuffix = regexp.MustCompile(`\d{4}_\d{2}_\d{2}$`)

// awsXMLRoot returns how the REST-XML request body of the AWS operation
// operationID is framed: payload when its one member's element is the
// document, else the name of the element around its members; and the
// namespace of that element: the payload's, or the service's when the
// inputs' components (<Operation>Request) agree on one (Route53's name
// none).
func awsXMLRoot(doc *openapi3.T, operationID string) (root string, payload bool, namespace string) {
	input := awsVersionSuffix.ReplaceAllString(operationID, "") + "Request"
	if doc.Components == nil {
		return input, false, ""
	}
	if c := doc.Components.Schemas[input]; c != nil && c.Value != nil && c.Value.XML != nil && c.Value.XML.Namespace != "" {
		return "", true, c.Value.XML.Namespace
	}
	for name, c := range doc.Components.Schemas {
		if !strings.HasSuffix(name, "Request") || c == nil || c.Value == nil || c.Value.XML == nil || c.Value.XML.Namespace == "" {
			continue // not an input's (S3's Grantee has the XML Schema instance namespace)
		}
		if namespace != "" && namespace != c.Value.XML.Namespace {
			return input, false, ""
		}
		namespace = c.Value.XML.Namespace
	}
	return input, false, namespace
}

// xmlNamed reports whether ref's schema names its element: its xml name,
// or an allOf part's (aws2openapi's allOf [{$ref}, {xml: {name}}]).
func xmlNamed(ref *openapi3.SchemaRef, depth int) bool {
	if ref == nil || ref.Value == nil || depth > 8 {
		return false
	}
	if x := ref.Value.XML; x != nil && x.Name != "" {
		return true
	}
	for _, p := range ref.Value.AllOf {
		if xmlNamed(p, depth+1) {
			return true
		}
	}
	return false
}

// awsMember names the element of an AWS list's items, which the model
// does not name, <member>: beside a $ref as aws2openapi writes a name
// (allOf [{$ref}, {xml: {name}}]), or on an inline schema, which only
// this list has.
func awsMember(items *jsonschema.Schema) *jsonschema.Schema {
	name := map[string]any{"name": "member"}
	if items.Ref != "" {
		return &jsonschema.Schema{AllOf: []*jsonschema.Schema{items, {XML: name}}}
	}
	if items.XML == nil {
		items.XML = name
	}
	return items
}
