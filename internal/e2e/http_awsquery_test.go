package e2e_test

import (
	"context"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/golden/openapi/awsquery"
)

// awsQueryServer answers AssumeRole as an AWS query-protocol service
// does: it reads the parameters from the URL's query and a form body
// (application/x-www-form-urlencoded only; XML is refused), rebuilds
// lists from their Name.member.N keys, and answers text/xml naming what
// it read.
func awsQueryServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fail := func(code, msg string) {
			w.Header().Set("Content-Type", "text/xml")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, "<ErrorResponse><Error><Type>Sender</Type><Code>%s</Code><Message>%s</Message></Error></ErrorResponse>", code, msg)
		}
		if ct := r.Header.Get("Content-Type"); r.Method == http.MethodPost && !strings.HasPrefix(ct, "application/x-www-form-urlencoded") {
			fail("InvalidAction", "Content-Type "+ct+" is not a query request")
			return
		}
		if err := r.ParseForm(); err != nil {
			fail("MalformedQueryString", err.Error())
			return
		}
		f := r.Form
		if f.Get("Action") != "AssumeRole" || f.Get("Version") != "2011-06-15" {
			fail("InvalidAction", "Action "+f.Get("Action")+" Version "+f.Get("Version"))
			return
		}
		if f.Get("RoleArn") == "" || f.Get("RoleSessionName") == "" {
			fail("MissingParameter", "RoleArn and RoleSessionName are required")
			return
		}
		var read []string
		for n := 1; f.Has(fmt.Sprintf("PolicyArns.member.%d.arn", n)); n++ {
			read = append(read, "policy="+f.Get(fmt.Sprintf("PolicyArns.member.%d.arn", n)))
		}
		for n := 1; f.Has(fmt.Sprintf("Tags.member.%d.Key", n)); n++ {
			read = append(read, "tag="+f.Get(fmt.Sprintf("Tags.member.%d.Key", n))+":"+f.Get(fmt.Sprintf("Tags.member.%d.Value", n)))
		}
		if f.Has("DurationSeconds") {
			read = append(read, "duration="+f.Get("DurationSeconds"))
		}
		esc := func(s string) string {
			var b strings.Builder
			xml.EscapeText(&b, []byte(s))
			return b.String()
		}
		w.Header().Set("Content-Type", "text/xml")
		fmt.Fprintf(w, `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <AssumeRoleResult><AssumedRoleUser><Arn>%s/%s</Arn><AssumedRoleId>%s</AssumedRoleId></AssumedRoleUser></AssumeRoleResult>
</AssumeRoleResponse>`, esc(f.Get("RoleArn")), esc(f.Get("RoleSessionName")), esc(strings.Join(read, ";")))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestHTTPAWSQueryBody: an AWS query-protocol operation whose description
// declares a text/xml body (APIs.guru's STS) sends its members as the
// service reads them, a form with lists as Name.member.N.Member, and
// reads the XML answer.
func TestHTTPAWSQueryBody(t *testing.T) {
	srv := awsQueryServer(t)
	c := awsquery.NewClient(awsquery.WithBaseURL(srv.URL))
	body := awsquery.AssumeRoleRequest{
		RoleArn: "arn:aws:iam::123456789012:role/demo", RoleSessionName: "s&1",
		PolicyArns:      []awsquery.PolicyDescriptorType{{Arn: ptrTo("arn:aws:iam::aws:policy/A")}, {Arn: ptrTo("arn:b")}},
		Tags:            []awsquery.Tag{{Key: "team", Value: "a b"}},
		DurationSeconds: ptrTo(int64(900)),
	}
	env, err := c.PostAssumeRole(context.Background(), awsquery.PostAssumeRoleParams{Action: awsquery.PostAssumeRoleActionAssumeRole, Version: awsquery.PostAssumeRoleVersion20110615}, &body)
	if err != nil {
		t.Fatal(err)
	}
	u := env.Data.AssumedRoleUser
	if u == nil || u.Arn == nil || *u.Arn != "arn:aws:iam::123456789012:role/demo/s&1" {
		t.Fatalf("Data = %+v", env.Data)
	}
	if want := "policy=arn:aws:iam::aws:policy/A;policy=arn:b;tag=team:a b;duration=900"; u.AssumedRoleID == nil || *u.AssumedRoleID != want {
		t.Errorf("the service read %v, want %q", u.AssumedRoleID, want)
	}
	if len(env.Warnings) != 0 {
		t.Errorf("warnings: %v", env.Warnings)
	}
}
