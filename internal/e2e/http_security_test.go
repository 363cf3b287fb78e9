package e2e_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/opsgen/opsgen/golden/openapi/e2ehttp"
	"github.com/opsgen/opsgen/runtime"
)

// TestHTTPSecurity checks which credentials each operation sends: the
// first alternative of its security requirement whose credentials are all
// configured, nothing for operations that need none, and ACCESS_DENIED
// without sending anything when no alternative can be met.
func TestHTTPSecurity(t *testing.T) {
	ctx := context.Background()
	srv := newWireServer(t, nil)
	base := e2ehttp.WithBaseURL(srv.URL)
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("ann:s3cr:t"))

	tests := []struct {
		name string
		opts []e2ehttp.Option
		call func(c *e2ehttp.Client) error
		uri  string
		// headers are the credential headers expected on the wire; the
		// others of Authorization, X-API-Key and Cookie must be absent.
		headers map[string]string
		code    runtime.ErrorCode // set when the call must fail unsent
	}{
		{"bearer from the document's default", []e2ehttp.Option{e2ehttp.WithBearer("tok"), e2ehttp.WithBasic("ann", "s3cr:t")},
			func(c *e2ehttp.Client) error { _, err := c.GetItem(ctx, e2ehttp.GetItemParams{ID: 5}); return err },
			"/items/5", map[string]string{"Authorization": "Bearer tok"}, ""},
		{"basic by operation", []e2ehttp.Option{e2ehttp.WithBearer("tok"), e2ehttp.WithBasic("ann", "s3cr:t")},
			func(c *e2ehttp.Client) error { _, err := c.WithBasic(ctx); return err },
			"/secure/basic", map[string]string{"Authorization": basic}, ""},
		{"operation without security sends nothing", []e2ehttp.Option{e2ehttp.WithBearer("tok"), e2ehttp.WithHeaderKey("k")},
			func(c *e2ehttp.Client) error { _, err := c.GetNote(ctx); return err },
			"/note", nil, ""},
		{"apiKey header and query together", []e2ehttp.Option{e2ehttp.WithHeaderKey("hk"), e2ehttp.WithQueryKey("q k"), e2ehttp.WithCookieKey("ck")},
			func(c *e2ehttp.Client) error { _, err := c.WithKeys(ctx, e2ehttp.WithKeysParams{}); return err },
			"/secure/keys?api_key=q%20k", map[string]string{"X-API-Key": "hk"}, ""},
		{"apiKey query beside a query parameter", []e2ehttp.Option{e2ehttp.WithHeaderKey("hk"), e2ehttp.WithQueryKey("qk")},
			func(c *e2ehttp.Client) error {
				_, err := c.WithKeys(ctx, e2ehttp.WithKeysParams{Page: ptrTo(int64(2)), Crumb: ptrTo("c")})
				return err
			},
			"/secure/keys?page=2&api_key=qk", map[string]string{"X-API-Key": "hk", "Cookie": "crumb=c"}, ""},
		{"apiKey cookie when the first alternative is incomplete", []e2ehttp.Option{e2ehttp.WithHeaderKey("hk"), e2ehttp.WithCookieKey("c k")},
			func(c *e2ehttp.Client) error { _, err := c.WithKeys(ctx, e2ehttp.WithKeysParams{}); return err },
			"/secure/keys", map[string]string{"Cookie": "session_key=c%20k"}, ""},
		{"apiKey cookie beside a cookie parameter", []e2ehttp.Option{e2ehttp.WithCookieKey("ck")},
			func(c *e2ehttp.Client) error {
				_, err := c.WithKeys(ctx, e2ehttp.WithKeysParams{Crumb: ptrTo("c")})
				return err
			},
			"/secure/keys", map[string]string{"Cookie": "crumb=c; session_key=ck"}, ""},
		{"no alternative met", []e2ehttp.Option{e2ehttp.WithHeaderKey("hk"), e2ehttp.WithBearer("tok")},
			func(c *e2ehttp.Client) error { _, err := c.WithKeys(ctx, e2ehttp.WithKeysParams{}); return err },
			"", nil, runtime.CodeAccessDenied},
		{"no credentials at all", nil,
			func(c *e2ehttp.Client) error { _, err := c.GetItem(ctx, e2ehttp.GetItemParams{ID: 5}); return err },
			"", nil, runtime.CodeAccessDenied},
		{"optional security without credentials", nil,
			func(c *e2ehttp.Client) error { _, err := c.OptionalAuth(ctx); return err },
			"/secure/optional", nil, ""},
		{"optional security with credentials", []e2ehttp.Option{e2ehttp.WithHeaderKey("hk")},
			func(c *e2ehttp.Client) error { _, err := c.OptionalAuth(ctx); return err },
			"/secure/optional", map[string]string{"X-API-Key": "hk"}, ""},
		{"oauth2 fixed token", []e2ehttp.Option{e2ehttp.WithOauth("at")},
			func(c *e2ehttp.Client) error { _, err := c.WithOAuth(ctx); return err },
			"/secure/oauth", map[string]string{"Authorization": "Bearer at"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv.reset()
			err := tt.call(e2ehttp.NewClient(append([]e2ehttp.Option{base}, tt.opts...)...))
			if tt.code != "" {
				wantCallError(t, err, tt.code)
				if n := len(srv.requests()); n != 0 {
					t.Errorf("%d requests sent, want none", n)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			r := srv.only(t)
			checkWireLine(t, r, "GET", tt.uri)
			for _, h := range []string{"Authorization", "X-API-Key", "Cookie"} {
				if v, ok := tt.headers[h]; ok {
					checkWireHeader(t, r, h, v)
				} else {
					checkWireHeader(t, r, h)
				}
			}
		})
	}
}

// TestHTTPOAuthTokenSource: a token source is asked for a token on every
// request; its failure fails the call before anything is sent.
func TestHTTPOAuthTokenSource(t *testing.T) {
	ctx := context.Background()
	srv := newWireServer(t, nil)
	var calls atomic.Int32
	fail := errors.New("token endpoint down")
	c := e2ehttp.NewClient(e2ehttp.WithBaseURL(srv.URL), e2ehttp.WithOauthTokenSource(func(context.Context) (string, error) {
		n := calls.Add(1)
		if n == 3 {
			return "", fail
		}
		return fmt.Sprintf("t%d", n), nil
	}))
	for i := 1; i <= 2; i++ {
		srv.reset()
		if _, err := c.WithOAuth(ctx); err != nil {
			t.Fatal(err)
		}
		checkWireHeader(t, srv.only(t), "Authorization", fmt.Sprintf("Bearer t%d", i))
	}
	srv.reset()
	_, err := c.WithOAuth(ctx)
	if !errors.Is(err, fail) {
		t.Errorf("err = %v, want it to wrap the token source's error", err)
	}
	wantCallError(t, err, runtime.CodeAccessDenied)
	if n := len(srv.requests()); n != 0 {
		t.Errorf("%d requests sent after the token source failed", n)
	}
}
