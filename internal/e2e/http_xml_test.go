package e2e_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/opsgen/opsgen/golden/openapi/xml"
	"github.com/opsgen/opsgen/runtime"
)

const xmlHeader = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"

// TestHTTPXML calls the operations of testdata/specs/openapi/xml.yaml: XML
// bodies are written and responses read as their schemas' xml objects say,
// typed as JSON bodies are, through the same pipeline.
func TestHTTPXML(t *testing.T) {
	ctx := context.Background()
	srv := newWireServer(t, replyJSON(200, `<p:pet xmlns:p="https://example.com/pets" id="8">
  <p:name>Rex</p:name><p:sold>false</p:sold>
  <p:photoUrls><p:photoUrl>a.png</p:photoUrl><p:photoUrl>b.png</p:photoUrl></p:photoUrls>
  <tag><name>good</name></tag><tag><name>dog</name></tag>
  <p:owner>undeclared</p:owner>
</p:pet>`, "application/xml; charset=utf-8"))
	c := xml.NewClient(xml.WithBaseURL(srv.URL))

	env, err := c.AddPet(ctx, xml.Pet{ID: ptrTo(int64(7)), Name: "Rex & Co", PhotoURLs: []string{"a.png"}, Tags: []xml.Tag{{Name: ptrTo("good")}}})
	if err != nil {
		t.Fatal(err)
	}
	r := srv.only(t)
	checkWireLine(t, r, "POST", "/pets")
	checkWireHeader(t, r, "Content-Type", "application/xml")
	checkWireHeader(t, r, "Accept", "application/xml")
	// The prefix and namespace are the Pet's: its members, which declare
	// none, are not in its namespace.
	got := string(r.Body)
	wantBody := xmlHeader + `<p:pet xmlns:p="https://example.com/pets" id="7"><name>Rex &amp; Co</name><photoUrls><photoUrl>a.png</photoUrl></photoUrls><tag><name>good</name></tag></p:pet>`
	if got != wantBody {
		t.Errorf("body\n got %s\nwant %s", got, wantBody)
	}
	p := env.Data
	if p.ID == nil || *p.ID != 8 || p.Name != "Rex" || p.Sold == nil || *p.Sold || len(p.PhotoURLs) != 2 || p.PhotoURLs[1] != "b.png" ||
		len(p.Tags) != 2 || p.Tags[1].Name == nil || *p.Tags[1].Name != "dog" {
		b, _ := json.Marshal(p)
		t.Errorf("Data = %s", b)
	}
	if m := httpMeta(t, env); m.ContentType != "application/xml; charset=utf-8" {
		t.Errorf("content type = %q", m.ContentType)
	}

	// A wrapped list at the root.
	srv.setReply(replyJSON(200, `<pets><pet id="1"><name>a</name></pet><pet id="2"><name>b</name></pet></pets>`, "application/xml"))
	list, err := c.ListPets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Data) != 2 || list.Data[1].Name != "b" || *list.Data[1].ID != 2 {
		t.Errorf("ListPets = %+v", list.Data)
	}

	// Drift is a warning, as for JSON: a name missing, a sold that is not a boolean.
	srv.setReply(replyJSON(200, `<pet id="3"><sold>maybe</sold></pet>`, "application/xml"))
	env, err = c.AddPet(ctx, xml.Pet{Name: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if len(env.Warnings) == 0 || *env.Data.ID != 3 {
		t.Errorf("drifted pet: %+v, warnings %v", env.Data, env.Warnings)
	}

	// A declared error status: its XML body typed.
	srv.setReply(replyJSON(404, `<Error><code>44</code><message>no owner</message></Error>`, "application/xml"))
	_, err = c.AddPet(ctx, xml.Pet{Name: "x"})
	var nf *xml.AddPetNotFound
	if !errors.As(err, &nf) || nf.Body.Code == nil || *nf.Body.Code != 44 || *nf.Body.Message != "no owner" {
		t.Errorf("404: %v (%+v)", err, nf)
	}
	if ce := wantCallError(t, err, runtime.CodeExecution); string(ce.HTTP.Body) != `<Error><code>44</code><message>no owner</message></Error>` {
		t.Errorf("error body = %s", ce.HTTP.Body)
	}

	// The root element of a component without an xml name is the
	// component's name (note), not its Go type's (Note).
	srv.reset()
	srv.setReply(nil)
	if _, err := c.PutNote(ctx, xml.Note{Lang: ptrTo("en"), Text: ptrTo("hi")}); err != nil {
		t.Fatal(err)
	}
	if r := srv.only(t); string(r.Body) != xmlHeader+`<note lang="en"><text>hi</text></note>` {
		t.Errorf("note body = %s", r.Body)
	}

	// Not XML at all: DECODE_ERROR naming the operation.
	srv.setReply(replyJSON(200, `{"id":1}`, "application/xml"))
	_, err = c.AddPet(ctx, xml.Pet{Name: "x"})
	if ce := wantCallError(t, err, runtime.CodeDecode); ce.OperationID != "addPet" {
		t.Errorf("decode error names %q", ce.OperationID)
	}
}

// TestHTTPXMLAWSQuery reads an AWS query-protocol response, whose members
// are in <GetCallerIdentityResult> while the description declares them on
// the response (APIs.guru's STS), and checks the request body sent.
func TestHTTPXMLAWSQuery(t *testing.T) {
	ctx := context.Background()
	srv := newWireServer(t, replyJSON(200, `<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <GetCallerIdentityResult>
    <Arn>arn:aws:iam::123456789012:user/Alice</Arn>
    <UserId>AIDACKCEVSQ6C2EXAMPLE</UserId>
    <Account>123456789012</Account>
  </GetCallerIdentityResult>
  <ResponseMetadata><RequestId>01234567-89ab-cdef-0123-456789abcdef</RequestId></ResponseMetadata>
</GetCallerIdentityResponse>`, "text/xml"))
	c := xml.NewClient(xml.WithBaseURL(srv.URL))
	env, err := c.GetCallerIdentity(ctx, xml.GetCallerIdentityRequest{})
	if err != nil {
		t.Fatal(err)
	}
	d := env.Data
	if d.Arn == nil || *d.Arn != "arn:aws:iam::123456789012:user/Alice" || *d.Account != "123456789012" || *d.UserID != "AIDACKCEVSQ6C2EXAMPLE" {
		t.Errorf("Data = %+v", d)
	}
	if len(env.Warnings) != 0 {
		t.Errorf("warnings: %v", env.Warnings)
	}
	r := srv.only(t)
	checkWireHeader(t, r, "Content-Type", "text/xml")
	if string(r.Body) != xmlHeader+`<GetCallerIdentityRequest></GetCallerIdentityRequest>` {
		t.Errorf("body = %s", r.Body)
	}
}

// TestHTTPXMLRegistry calls the XML operations through the Registry with
// input that matches their published input schemas.
func TestHTTPXMLRegistry(t *testing.T) {
	ctx := context.Background()
	srv := newWireServer(t, replyJSON(200, `<pet id="5"><name>n</name></pet>`, "application/xml"))
	c := xml.NewClient(xml.WithBaseURL(srv.URL))
	reg := runtime.NewRegistry(nil)
	if err := c.Register(reg); err != nil {
		t.Fatal(err)
	}
	env, err := reg.Execute(ctx, "xml.addPet", json.RawMessage(`{"body":{"name":"n","id":5,"photoUrls":["u"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	r := srv.only(t)
	if want := xmlHeader + `<p:pet xmlns:p="https://example.com/pets" id="5"><name>n</name><photoUrls><photoUrl>u</photoUrl></photoUrls></p:pet>`; string(r.Body) != want {
		t.Errorf("body\n got %s\nwant %s", r.Body, want)
	}
	if b, _ := json.Marshal(env.Data); string(b) != `{"id":5,"name":"n"}` {
		t.Errorf("Data = %s", b)
	}
}
