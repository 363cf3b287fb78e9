package httpclient

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Operation is what a request knows about the operation it calls. Every
// request the client sends carries it in its context (see OperationFrom):
// middlewares, hooks and the *http.Client's own transport can read it.
type Operation struct {
	// ID is the operation id ("listPets").
	ID string
	// Method is the HTTP method ("GET").
	Method string
	// PathTemplate is the path as the spec writes it, relative to the base
	// URL ("/pets/{petId}"): the url.template of OpenTelemetry's HTTP
	// conventions.
	PathTemplate string
	// Tags are the operation's tags in the spec.
	Tags []string
}

type attemptKey struct{}

// attemptInfo is the context value of one attempt of a call.
type attemptInfo struct {
	r       *Request
	attempt int
}

// OperationFrom returns the operation of the request whose context is ctx
// (use req.Context() in a middleware or RoundTripper); ok is false for a
// context that does not come from this package.
func OperationFrom(ctx context.Context) (op Operation, ok bool) {
	ai, ok := ctx.Value(attemptKey{}).(*attemptInfo)
	if !ok {
		return Operation{}, false
	}
	r := ai.r
	return Operation{ID: r.opID, Method: r.method, PathTemplate: r.path, Tags: r.tags}, true
}

// ResendCount returns how many times the request whose context is ctx was
// sent before this attempt: 0 for the first attempt, 1 for the first retry
// (OpenTelemetry's http.request.resend_count).
func ResendCount(ctx context.Context) int {
	if ai, ok := ctx.Value(attemptKey{}).(*attemptInfo); ok {
		return ai.attempt
	}
	return 0
}

// RedactedURL returns req's URL for logs and traces: user information and
// the values of query parameters that carry credentials (those of the
// spec's apiKey schemes, and the signatures OpenTelemetry lists:
// AWSAccessKeyId, Signature, sig, X-Goog-Signature) are replaced by
// "REDACTED".
func RedactedURL(req *http.Request) string {
	u := *req.URL
	if u.User != nil {
		u.User = url.UserPassword("REDACTED", "REDACTED")
	}
	if u.RawQuery != "" {
		var cred []string
		if ai, ok := req.Context().Value(attemptKey{}).(*attemptInfo); ok {
			cred = ai.r.credQuery
		}
		parts := strings.Split(u.RawQuery, "&")
		changed := false
		for i, p := range parts {
			k, _, _ := strings.Cut(p, "=")
			name, err := url.QueryUnescape(k)
			if err != nil {
				name = k
			}
			switch {
			case name == "AWSAccessKeyId", name == "Signature", name == "sig", name == "X-Goog-Signature", slices.Contains(cred, name):
				parts[i], changed = k+"=REDACTED", true
			}
		}
		if changed {
			u.RawQuery = strings.Join(parts, "&")
		}
	}
	return u.String()
}

// Middleware wraps the sending of requests: it gets the next RoundTripper
// of the chain and returns one that calls it. Middlewares see every
// attempt (a retry is sent through the chain again) and can read the
// operation with OperationFrom(req.Context()). The request a middleware
// gets is the client's own for this attempt: it may change it (set a
// header, say) before passing it on. The innermost RoundTripper sends the
// request with the client's *http.Client (which follows redirects).
type Middleware func(next http.RoundTripper) http.RoundTripper

// RoundTripperFunc is a function that is an http.RoundTripper: the usual
// way to write a Middleware.
type RoundTripperFunc func(*http.Request) (*http.Response, error)

// RoundTrip calls f(req).
func (f RoundTripperFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// WithMiddleware appends middlewares to the client's chain. The first one
// is the outermost: it sees the request first and the response last.
func WithMiddleware(m ...Middleware) Option {
	return func(c *Config) { c.middleware = append(c.middleware, m...) }
}

// WithBeforeRequest adds a hook called with every request just before it
// enters the middleware chain (after credentials, headers and request
// editors, once per attempt). It may change the request; an error fails
// the call with TRANSPORT_ERROR, without retries.
func WithBeforeRequest(f func(*http.Request) error) Option {
	return func(c *Config) { c.before = append(c.before, f) }
}

// WithAfterResponse adds a hook called with every response the middleware
// chain returns (any status, once per attempt, before retries are decided
// and the body decoded). It must not consume the body (or must replace
// it); an error fails the call with TRANSPORT_ERROR, without retries.
// Transport failures do not reach it: see Middleware.
func WithAfterResponse(f func(*http.Response) error) Option {
	return func(c *Config) { c.after = append(c.after, f) }
}

// WithTimeout sets the default timeout of every call: the time from the
// call to its decoded result, all attempts and retry waits included (a
// stream's timeout bounds each connection until its response headers).
// Zero means none (the default); the context's own deadline always holds.
func WithTimeout(d time.Duration) Option { return func(c *Config) { c.Timeout = d } }

// WithOperationTimeout sets the timeout of the calls of one operation, by
// operation id, replacing the client's default (WithTimeout). Generated
// clients apply those of opsgen.yaml (operations.<id>.timeout) first, so
// that this option overrides them.
func WithOperationTimeout(operationID string, d time.Duration) Option {
	return func(c *Config) {
		if c.opTimeouts == nil {
			c.opTimeouts = make(map[string]time.Duration)
		}
		c.opTimeouts[operationID] = d
	}
}

// WithCallTimeout sets the timeout of this call, replacing the operation's
// and the client's; zero means none.
func WithCallTimeout(d time.Duration) CallOption {
	return func(cc *callConfig) { cc.timeout, cc.hasTimeout = d, true }
}

// timeout returns the timeout of a call of r: the call's, else the
// operation's, else the client's.
func (c *Client) timeout(r *Request, cc *callConfig) time.Duration {
	if cc != nil && cc.hasTimeout {
		return cc.timeout
	}
	if d, ok := c.cfg.opTimeouts[r.opID]; ok {
		return d
	}
	return c.cfg.Timeout
}

// chain builds the round tripper of the middlewares around the *http.Client;
// nil when there are none (the client's Do is called directly).
func (c *Client) chain() http.RoundTripper {
	if len(c.cfg.middleware) == 0 {
		return nil
	}
	hc := c.cfg.HTTPClient
	var rt http.RoundTripper = RoundTripperFunc(hc.Do)
	for i := len(c.cfg.middleware) - 1; i >= 0; i-- {
		rt = c.cfg.middleware[i](rt)
	}
	return rt
}
