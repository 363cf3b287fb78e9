package httpclient

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/runtime"
)

var testSchemes = []SecurityScheme{
	{Name: "key_header", Type: "apiKey", In: "header", ParamName: "X-API-Key"},
	{Name: "key_query", Type: "apiKey", In: "query", ParamName: "api key"},
	{Name: "key_cookie", Type: "apiKey", In: "cookie", ParamName: "sid"},
	{Name: "bearer", Type: "http", Scheme: "bearer"},
	{Name: "basic", Type: "http", Scheme: "Basic"},
	{Name: "digestish", Type: "http", Scheme: "Custom"},
	{Name: "oauth", Type: "oauth2"},
	{Name: "oidc", Type: "openIdConnect"},
	{Name: "mtls", Type: "mutualTLS"},
}

func TestSecuritySchemes(t *testing.T) {
	rec := newRecorder(t, reply(204, "", ""))
	calls := 0
	source := TokenSource(func(ctx context.Context) (string, error) {
		calls++
		return "tok" + strings.Repeat("!", calls), nil
	})
	c := New(rec.URL, testSchemes,
		WithCredential("key_header", APIKey("k1")),
		WithCredential("key_query", APIKey("k&2")),
		WithCredential("key_cookie", APIKey("k 3")),
		WithCredential("bearer", BearerToken("b1")),
		WithCredential("basic", BasicAuth("ann", "pa:ss")),
		WithCredential("digestish", APIKey("xyz")),
		WithCredential("oauth", source),
		WithCredential("oidc", BearerToken("id1")),
	)
	cases := []struct {
		alts             [][]string
		wantURI          string
		header, want     string
		wantCookieHeader string
	}{
		{[][]string{{"key_header"}}, "/r", "X-API-Key", "k1", ""},
		{[][]string{{"key_query"}}, "/r?q=1&api%20key=k%262", "", "", ""},
		{[][]string{{"key_cookie"}}, "/r", "", "", "c=v; sid=k%203"},
		{[][]string{{"bearer"}}, "/r", "Authorization", "Bearer b1", ""},
		{[][]string{{"basic"}}, "/r", "Authorization", "Basic " + base64.StdEncoding.EncodeToString([]byte("ann:pa:ss")), ""},
		{[][]string{{"digestish"}}, "/r", "Authorization", "Custom xyz", ""},
		{[][]string{{"oauth"}}, "/r", "Authorization", "Bearer tok!", ""},
		{[][]string{{"oauth"}}, "/r", "Authorization", "Bearer tok!!", ""}, // the source is called per request
		{[][]string{{"oidc"}}, "/r", "Authorization", "Bearer id1", ""},
		{[][]string{{"mtls"}}, "/r", "Authorization", "", ""},
		// Both schemes of one alternative apply.
		{[][]string{{"key_header", "key_query"}}, "/r?q=1&api%20key=k%262", "X-API-Key", "k1", ""},
		{nil, "/r", "Authorization", "", ""},
		{[][]string{}, "/r", "Authorization", "", ""},
	}
	for i, tc := range cases {
		r := c.NewRequest("op", "GET", "/r")
		switch {
		case strings.Contains(tc.wantURI, "q=1"):
			r.QueryParam("q", StyleForm, false, false, 1)
		case tc.wantCookieHeader != "":
			r.CookieParam("c", false, "v")
		}
		r.Security(tc.alts)
		if _, err := Do[struct{}](t.Context(), c, r, nil); err != nil {
			t.Errorf("case %d %v: %v", i, tc.alts, err)
			continue
		}
		got := rec.last(t)
		if got.requestURI != tc.wantURI {
			t.Errorf("case %d %v: URI %q, want %q", i, tc.alts, got.requestURI, tc.wantURI)
		}
		if tc.header != "" && got.header.Get(tc.header) != tc.want {
			t.Errorf("case %d %v: %s = %q, want %q", i, tc.alts, tc.header, got.header.Get(tc.header), tc.want)
		}
		if g := got.header.Get("Cookie"); g != tc.wantCookieHeader {
			t.Errorf("case %d %v: Cookie %q, want %q", i, tc.alts, g, tc.wantCookieHeader)
		}
	}
}

func TestSecurityAlternatives(t *testing.T) {
	rec := newRecorder(t, reply(204, "", ""))
	c := New(rec.URL, testSchemes, WithCredential("bearer", BearerToken("b1")), WithCredential("key_header", APIKey("k1")))
	do := func(alts [][]string) (seen, error) {
		r := c.NewRequest("op", "GET", "/")
		r.Security(alts)
		n := rec.count()
		_, err := Do[struct{}](t.Context(), c, r, nil)
		if err != nil {
			if rec.count() != n {
				t.Errorf("%v: a request was sent although the call failed: %v", alts, err)
			}
			return seen{}, err
		}
		return rec.last(t), nil
	}
	// The first alternative lacks a credential; the second is used.
	got, err := do([][]string{{"oauth"}, {"bearer"}, {"key_header"}})
	if err != nil || got.header.Get("Authorization") != "Bearer b1" || got.header.Get("X-API-Key") != "" {
		t.Errorf("second alternative: %v %v", got.header, err)
	}
	// An alternative is used only when all its schemes have credentials.
	got, err = do([][]string{{"bearer", "oauth"}, {"key_header"}})
	if err != nil || got.header.Get("Authorization") != "" || got.header.Get("X-API-Key") != "k1" {
		t.Errorf("partial alternative: %v %v", got.header, err)
	}
	// Optional auth: configured credentials are still sent...
	got, err = do([][]string{{}, {"bearer"}})
	if err != nil || got.header.Get("Authorization") != "Bearer b1" {
		t.Errorf("optional auth with credentials: %v %v", got.header, err)
	}
	// ...and without them the request goes out bare.
	got, err = do([][]string{{}, {"oauth"}})
	if err != nil || got.header.Get("Authorization") != "" {
		t.Errorf("optional auth without credentials: %v %v", got.header, err)
	}
	// No alternative satisfied: ACCESS_DENIED naming them, nothing sent.
	_, err = do([][]string{{"oauth"}, {"basic", "oidc"}, {"undeclared"}})
	if !errors.Is(err, runtime.ErrAccessDenied) || !strings.Contains(err.Error(), "oauth or basic + oidc or undeclared") {
		t.Errorf("unsatisfied: %v", err)
	}
}

func TestSecurityCredentialErrors(t *testing.T) {
	rec := newRecorder(t, reply(204, "", ""))
	boom := errors.New("idp down")
	c := New(rec.URL, append(testSchemes, SecurityScheme{Name: "weird", Type: "magic"}),
		WithCredential("basic", BearerToken("b")),
		WithCredential("bearer", BasicAuth("u", "p")),
		WithCredential("oauth", TokenSource(func(context.Context) (string, error) { return "", boom })),
		WithCredential("oidc", TokenSource(func(context.Context) (string, error) { return "", nil })),
		WithCredential("weird", APIKey("x")),
	)
	cases := []struct {
		scheme string
		want   string
	}{
		{"basic", `"basic" is http basic: set its credential with httpclient.BasicAuth`},
		{"bearer", `"bearer" takes a token`},
		{"oauth", `token source of security scheme "oauth" failed: idp down`},
		{"oidc", `"oidc" returned an empty token`},
		{"weird", `"weird" has unsupported type "magic"`},
	}
	for _, tc := range cases {
		r := c.NewRequest("op", "GET", "/")
		r.Security([][]string{{tc.scheme}})
		_, err := Do[struct{}](t.Context(), c, r, nil)
		if !errors.Is(err, runtime.ErrAccessDenied) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want ACCESS_DENIED containing %q", tc.scheme, err, tc.want)
		}
		if tc.scheme == "oauth" && !errors.Is(err, boom) {
			t.Errorf("oauth: the source's error is not wrapped: %v", err)
		}
	}
	if rec.count() != 0 {
		t.Errorf("%d requests sent", rec.count())
	}
	// A token source that fails because the context did is a context error.
	ctx, cancel := context.WithCancel(t.Context())
	c = New(rec.URL, testSchemes, WithCredential("oauth", TokenSource(func(ctx context.Context) (string, error) {
		cancel()
		return "", ctx.Err()
	})))
	r := c.NewRequest("op", "GET", "/")
	r.Security([][]string{{"oauth"}})
	if _, err := Do[struct{}](ctx, c, r, nil); !errors.Is(err, runtime.ErrCanceled) {
		t.Errorf("canceled token source: %v", err)
	}
}
