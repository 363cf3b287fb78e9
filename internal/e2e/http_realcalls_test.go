package e2e_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/golden/openapi/realcalls"
	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/httpclient"
)

// The tests of this file call the client generated from
// testdata/specs/openapi/realcalls.yaml, the minimal forms of what failed
// when calling real API descriptions through a validating mock server
// (opsgen issue 11). Each is named after its class of failure.

// TestFormUnionBodySentGenerated is class 2 through generated code:
// soundcloud's POST /oauth2/token has a form body whose schema is a oneOf of
// objects; the form encoder could not see into the union and sent nothing.
func TestFormUnionBodySentGenerated(t *testing.T) {
	ctx := context.Background()
	srv := newWireServer(t, replyJSON(200, `{"access_token":"at"}`, ""))
	c := realcalls.NewClient(realcalls.WithBaseURL(srv.URL), realcalls.WithAPIKey("k"))

	body := realcalls.TokenBodyFromClientCredentials(realcalls.ClientCredentials{
		GrantType: realcalls.ClientCredentialsGrantTypeClientCredentials, ClientID: "id 1", ClientSecret: "s&cret",
	})
	env, err := c.Token(ctx, body)
	if err != nil {
		t.Fatal(err)
	}
	if env.Data.AccessToken == nil || *env.Data.AccessToken != "at" {
		t.Errorf("data = %+v", env.Data)
	}
	r := srv.only(t)
	checkWireLine(t, r, "POST", "/oauth2/token")
	checkWireHeader(t, r, "Content-Type", "application/x-www-form-urlencoded")
	if want := "client_id=id+1&client_secret=s%26cret&grant_type=client_credentials"; string(r.Body) != want {
		t.Errorf("body\n got %q\nwant %q", r.Body, want)
	}

	// The other variant, and a union that went through JSON (as the
	// registry's input does).
	srv.reset()
	var decoded realcalls.TokenBody
	if err := json.Unmarshal([]byte(`{"grant_type":"authorization_code","code":"c0de","redirect_uri":"https://app/cb"}`), &decoded); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Token(ctx, decoded); err != nil {
		t.Fatal(err)
	}
	if want := "grant_type=authorization_code&code=c0de&redirect_uri=https%3A%2F%2Fapp%2Fcb"; string(srv.only(t).Body) != want {
		t.Errorf("decoded variant body\n got %q\nwant %q", srv.only(t).Body, want)
	}

	// A union-typed query parameter is sent too (it was omitted as an
	// object without members).
	srv.reset()
	srv.setReply(nil)
	grant := realcalls.GrantFromInteger(42)
	if _, err := c.Search(ctx, realcalls.SearchParams{Grant: &grant}); err != nil {
		t.Fatal(err)
	}
	checkWireLine(t, srv.only(t), "GET", "/search?grant=42&api_key=k")

	// A multipart body that is a union of objects: one part per member of
	// the chosen variant, with the encoding's content types.
	srv.reset()
	note := realcalls.PostNoteBodyFromTextNote(realcalls.TextNote{Text: "hi", Meta: &realcalls.TextNoteMeta{Lang: ptrTo("en")}})
	if _, err := c.PostNote(ctx, note); err != nil {
		t.Fatal(err)
	}
	want := []formPart{{"meta", "", "application/json", `{"lang":"en"}`}, {"text", "", "", "hi"}}
	if got := readParts(t, srv.only(t)); !slices.Equal(got, want) {
		t.Errorf("union multipart parts\n got %q\nwant %q", got, want)
	}
}

// TestPathTemplateLiteralHashGenerated is class 4 through generated code:
// in AWS's path templates "/alerts#resourceArn" and "/{Bucket}?uploads" a
// "#..." suffix only tells operations apart and is never sent, and a
// "?..." part is a literal query, sent before the query parameters (they
// were sent percent-encoded in the path, which a real server reads as
// another resource).
func TestPathTemplateLiteralHashGenerated(t *testing.T) {
	ctx := context.Background()
	srv := newWireServer(t, nil)
	c := realcalls.NewClient(realcalls.WithBaseURL(srv.URL), realcalls.WithAPIKey("k"))

	if _, err := c.ListAlerts(ctx, realcalls.ListAlertsParams{ResourceArn: "arn:aws:x", MaxResults: ptrTo(int64(5))}); err != nil {
		t.Fatal(err)
	}
	checkWireLine(t, srv.only(t), "GET", "/alerts?maxResults=5&resourceArn=arn%3Aaws%3Ax&api_key=k")

	srv.reset()
	if _, err := c.CreateMultipartUpload(ctx, realcalls.CreateMultipartUploadParams{Bucket: "b", Key: "a/b.txt"}); err != nil {
		t.Fatal(err)
	}
	checkWireLine(t, srv.only(t), "POST", "/b?uploads&Key=a%2Fb.txt&api_key=k")
}

// TestCredentialSentOnceGenerated: GET /search declares api_key as a query
// parameter and as the apiKey security scheme; it was sent twice.
func TestCredentialSentOnceGenerated(t *testing.T) {
	ctx := context.Background()
	srv := newWireServer(t, nil)
	c := realcalls.NewClient(realcalls.WithBaseURL(srv.URL), realcalls.WithAPIKey("from-scheme"))

	cases := []struct {
		key  *string
		want string
	}{
		{nil, "/search?api_key=from-scheme"},
		{ptrTo(""), "/search?api_key=from-scheme"},
		{ptrTo("from-param"), "/search?api_key=from-param"},
	}
	for _, tc := range cases {
		srv.reset()
		if _, err := c.Search(ctx, realcalls.SearchParams{APIKey: tc.key}); err != nil {
			t.Fatal(err)
		}
		checkWireLine(t, srv.only(t), "GET", tc.want)
	}
}

// TestMultipartFileNameGenerated: file parts carried the field name as
// file name whatever the caller had; httpclient.File sets name and type.
func TestMultipartFileNameGenerated(t *testing.T) {
	ctx := context.Background()
	srv := newWireServer(t, nil)
	c := realcalls.NewClient(realcalls.WithBaseURL(srv.URL), realcalls.WithAPIKey("k"))

	grant := realcalls.GrantFromString("g")
	_, err := c.UploadFile(ctx, realcalls.UploadFileBody{
		File:      httpclient.File{Name: "photo.jpg", Body: strings.NewReader("JPEG")},
		Thumbnail: strings.NewReader(png),
		Title:     ptrTo("t"),
		Grant:     &grant,
		// An array of files: one file part per item.
		Attachments: [][]byte{[]byte("one"), []byte("two")},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []formPart{
		{"attachments", "attachments", "application/octet-stream", "one"},
		{"attachments", "attachments", "application/octet-stream", "two"},
		{"file", "photo.jpg", "image/jpeg", "JPEG"}, // encoding "image/png, image/jpeg": the one the name gives
		{"grant", "", "", "g"},                       // a union part: its variant's text
		{"thumbnail", "thumbnail", "image/png", png}, // encoding "image/*": the sniffed type
		{"title", "", "", "t"},
	}
	if got := readParts(t, srv.only(t)); !slices.Equal(got, want) {
		t.Errorf("parts\n got %q\nwant %q", got, want)
	}

	srv.reset()
	_, err = c.PutRaw(ctx, realcalls.PutRawParams{Name: "x"}, &httpclient.File{ContentType: "image/webp", Body: strings.NewReader("W")})
	if err != nil {
		t.Fatal(err)
	}
	r := srv.only(t)
	checkWireHeader(t, r, "Content-Type", "image/webp")
	if string(r.Body) != "W" {
		t.Errorf("raw body = %q", r.Body)
	}
}

// png is the start of a PNG file, as http.DetectContentType knows it.
const png = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"

// TestRegistryFileOperations: multipart and binary-body operations were
// not registered; they take binary content as base64 strings.
func TestRegistryFileOperations(t *testing.T) {
	ctx := context.Background()
	srv := newWireServer(t, nil)
	c := realcalls.NewClient(realcalls.WithBaseURL(srv.URL), realcalls.WithAPIKey("k"))
	reg := runtime.NewRegistry(nil)
	if err := c.Register(reg); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, op := range reg.Operations() {
		ids = append(ids, op.ID)
	}
	slices.Sort(ids)
	wantIDs := []string{"realcalls.createAccount", "realcalls.createMultipartUpload", "realcalls.listAlerts", "realcalls.postNote", "realcalls.putPDF", "realcalls.putRaw",
		"realcalls.search", "realcalls.token", "realcalls.uploadFile"}
	if !slices.Equal(ids, wantIDs) {
		t.Fatalf("registered %q\nwant %q", ids, wantIDs)
	}
	spec, _ := reg.Lookup("realcalls.putRaw")
	var schema struct {
		Properties map[string]map[string]any `json:"properties"`
	}
	if err := json.Unmarshal(spec.InputSchema, &schema); err != nil {
		t.Fatal(err)
	}
	if b := schema.Properties["body"]; b["type"] != "string" || b["contentEncoding"] != "base64" || b["contentMediaType"] != "image/*" {
		t.Errorf("putRaw body schema = %v", b)
	}

	b64 := base64.StdEncoding.EncodeToString
	in := `{"body":{"file":"` + b64([]byte("\x89PNG")) + `","title":"t","grant":7,"attachments":["` + b64([]byte("a1")) + `"]}}`
	if _, err := reg.Execute(ctx, "realcalls.uploadFile", json.RawMessage(in)); err != nil {
		t.Fatal(err)
	}
	r := srv.only(t)
	checkWireLine(t, r, "POST", "/files?api_key=k")
	want := []formPart{{"attachments", "attachments", "application/octet-stream", "a1"},
		{"file", "file", "image/png", "\x89PNG"}, {"grant", "", "", "7"}, {"title", "", "", "t"}}
	if got := readParts(t, r); !slices.Equal(got, want) {
		t.Errorf("uploadFile parts\n got %q\nwant %q", got, want)
	}

	srv.reset()
	in = `{"params":{"name":"n"},"body":"` + b64([]byte{0, 1, 2}) + `"}`
	if _, err := reg.Execute(ctx, "realcalls.putRaw", json.RawMessage(in)); err != nil {
		t.Fatal(err)
	}
	r = srv.only(t)
	checkWireLine(t, r, "PUT", "/files/raw?name=n&api_key=k")
	checkWireHeader(t, r, "Content-Type", "image/*") // content of no known image type: the type declared
	if string(r.Body) != "\x00\x01\x02" {
		t.Errorf("putRaw body = %q", r.Body)
	}

	srv.reset()
	if _, err := reg.Execute(ctx, "realcalls.putRaw", json.RawMessage(`{"params":{"name":"n"},"body":"`+b64([]byte(png))+`"}`)); err != nil {
		t.Fatal(err)
	}
	checkWireHeader(t, srv.only(t), "Content-Type", "image/png") // a PNG: the sniffed type

	// A required binary body.
	srv.reset()
	if _, err := reg.Execute(ctx, "realcalls.putPDF", json.RawMessage(`{"body":"`+b64([]byte("%PDF-1.7"))+`"}`)); err != nil {
		t.Fatal(err)
	}
	r = srv.only(t)
	checkWireHeader(t, r, "Content-Type", "application/pdf")
	if string(r.Body) != "%PDF-1.7" {
		t.Errorf("putPDF body = %q", r.Body)
	}

	// Without a body the optional body is left out.
	srv.reset()
	if _, err := reg.Execute(ctx, "realcalls.putRaw", json.RawMessage(`{"params":{"name":"n"}}`)); err != nil {
		t.Fatal(err)
	}
	r = srv.only(t)
	checkWireHeader(t, r, "Content-Type")
	if len(r.Body) != 0 {
		t.Errorf("putRaw without body sent %q", r.Body)
	}

	// Input that is not base64 is refused before anything is sent.
	srv.reset()
	_, err := reg.Execute(ctx, "realcalls.putRaw", json.RawMessage(`{"params":{"name":"n"},"body":"not base64!"}`))
	wantCallError(t, err, runtime.CodeValidation)
	if n := len(srv.requests()); n != 0 {
		t.Errorf("%d requests sent for invalid input", n)
	}

	// A form union body from JSON input.
	srv.reset()
	srv.setReply(replyJSON(200, `{"access_token":"at"}`, ""))
	if _, err := reg.Execute(ctx, "realcalls.token", json.RawMessage(`{"body":{"grant_type":"client_credentials","client_id":"i","client_secret":"s"}}`)); err != nil {
		t.Fatal(err)
	}
	if got := string(srv.only(t).Body); got != "grant_type=client_credentials&client_id=i&client_secret=s" {
		t.Errorf("token body from registry input = %q", got)
	}
}

// TestRequiredReadOnly: a member both required and read-only (an account's
// id) is not required of a request, through the registry or the client,
// and is required of the response: one without it is warned about.
func TestRequiredReadOnly(t *testing.T) {
	ctx := context.Background()
	srv := newWireServer(t, replyJSON(201, `{"name":"a"}`, ""))
	c := realcalls.NewClient(realcalls.WithBaseURL(srv.URL), realcalls.WithAPIKey("k"))
	reg := runtime.NewRegistry(nil)
	if err := c.Register(reg); err != nil {
		t.Fatal(err)
	}
	res, err := reg.Execute(ctx, "realcalls.createAccount", json.RawMessage(`{"body":{"name":"a"}}`))
	if err != nil {
		t.Fatalf("a request without the read-only id: %v", err)
	}
	if r := srv.only(t); string(r.Body) != `{"name":"a"}` {
		t.Errorf("body sent %s", r.Body)
	}
	if !slices.ContainsFunc(res.Warnings, func(w runtime.Warning) bool {
		return strings.Contains(w.Message, "id") && strings.Contains(w.Message, "required")
	}) {
		t.Errorf("a response without the required read-only id: warnings %v", res.Warnings)
	}
	srv.setReply(replyJSON(201, `{"id":"u1","name":"a"}`, ""))
	env, err := c.CreateAccount(ctx, realcalls.Account{Name: "a"})
	if err != nil {
		t.Fatal(err)
	}
	if len(env.Warnings) != 0 || env.Data.ID == nil || *env.Data.ID != "u1" {
		t.Errorf("a response with the id: %+v, warnings %v", env.Data, env.Warnings)
	}
}
