package httpclient

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/opsgen/opsgen/runtime"
)

// DefaultMaxBodyBytes is the default cap on response bodies read into memory.
const DefaultMaxBodyBytes = 64 << 20

// Client sends the requests of one generated client. It is safe for
// concurrent use; its configuration is fixed by New.
type Client struct {
	cfg  Config
	base baseURL
	// baseErr is why cfg.BaseURL is unusable; Do reports it.
	baseErr error
	// rt is the middleware chain; nil without middlewares.
	rt http.RoundTripper
	// opCtx says whether requests carry their operation in their context:
	// unless nothing but net/http's own transport could read it.
	opCtx bool
}

// Config is the configuration of a Client, set by Options.
type Config struct {
	// BaseURL is prepended to every operation's path. It defaults to the
	// spec's server URL given to New.
	BaseURL string
	// HTTPClient sends the requests; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Pipeline is the result pipeline's settings: validation mode, logger
	// and warning hook.
	Pipeline runtime.Pipeline
	// MaxBodyBytes caps response bodies read into memory (JSON, text and
	// binary data, and each event of a stream). A larger body fails with a
	// DECODE_ERROR. Zero or less means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// UserAgent, if set, is sent as the User-Agent header.
	UserAgent string
	// Header is sent on every request.
	Header http.Header
	// Timeout is the default timeout of a call (see WithTimeout).
	Timeout time.Duration
	// Retry is the retry policy (see WithRetry); the zero value retries
	// nothing.
	Retry RetryPolicy
	// Reconnect is how streams reconnect (see WithReconnect).
	Reconnect ReconnectPolicy
	// Remote, when set, runs the operations that have a registry id
	// instead of sending HTTP requests (see WithRemote).
	Remote Remote
	// IdempotencyKeys gives calls of non-idempotent methods a generated
	// Idempotency-Key (see WithIdempotencyKeys).
	IdempotencyKeys bool

	middleware  []Middleware
	before      []func(*http.Request) error
	after       []func(*http.Response) error
	opTimeouts  map[string]time.Duration
	credentials map[string]Credential
	schemes     map[string]SecurityScheme
}

// Option configures a Client.
type Option func(*Config)

// New returns a Client for a service whose default server URL is
// defaultBaseURL and whose security schemes are schemes, configured by opts.
// An unusable base URL is reported by every call, not here.
func New(defaultBaseURL string, schemes []SecurityScheme, opts ...Option) *Client {
	cfg := Config{BaseURL: defaultBaseURL}
	if len(schemes) > 0 {
		cfg.schemes = make(map[string]SecurityScheme, len(schemes))
		for _, s := range schemes {
			cfg.schemes[s.Name] = s
		}
	}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = http.DefaultClient
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	c := &Client{cfg: cfg}
	c.base, c.baseErr = parseBaseURL(cfg.BaseURL)
	c.rt = c.chain()
	c.opCtx = c.rt != nil || len(cfg.before) > 0 || len(cfg.after) > 0 || !stdTransport(cfg.HTTPClient)
	return c
}

// stdTransport reports whether hc sends with net/http's own transport,
// which has no use for the operation in the request's context.
func stdTransport(hc *http.Client) bool {
	if hc.Transport == nil {
		return true
	}
	_, ok := hc.Transport.(*http.Transport)
	return ok
}

// WithBaseURL sets the base URL, replacing the spec's default server URL.
func WithBaseURL(u string) Option { return func(c *Config) { c.BaseURL = u } }

// WithHTTPClient sets the *http.Client that sends requests.
func WithHTTPClient(h *http.Client) Option { return func(c *Config) { c.HTTPClient = h } }

// WithValidation sets the validation mode of the result pipeline.
func WithValidation(m runtime.ValidationMode) Option {
	return func(c *Config) { c.Pipeline.Mode = m }
}

// WithLogger sets the logger of the result pipeline (warnings, skipped
// stream frames): a *slog.Logger, such as slog.Default(). The default
// (nil) is package log's default logger (see runtime.Pipeline's Logger).
func WithLogger(l runtime.Logger) Option { return func(c *Config) { c.Pipeline.Logger = l } }

// WithWarningHook sets a function called with every warning the pipeline
// reports.
func WithWarningHook(f func(context.Context, runtime.Warning)) Option {
	return func(c *Config) { c.Pipeline.OnWarning = f }
}

// WithMaxBodyBytes sets the cap on response bodies read into memory.
func WithMaxBodyBytes(n int64) Option { return func(c *Config) { c.MaxBodyBytes = n } }

// WithHeader adds a header sent on every request.
func WithHeader(key, value string) Option {
	return func(c *Config) {
		if c.Header == nil {
			c.Header = make(http.Header)
		}
		c.Header.Add(key, value)
	}
}

// WithUserAgent sets the User-Agent header of every request.
func WithUserAgent(ua string) Option { return func(c *Config) { c.UserAgent = ua } }

// WithCredential sets the credential for the security scheme named
// schemeName in the spec.
func WithCredential(schemeName string, cred Credential) Option {
	return func(c *Config) {
		if c.credentials == nil {
			c.credentials = make(map[string]Credential)
		}
		c.credentials[schemeName] = cred
	}
}

// CallOption configures one call.
type CallOption func(*callConfig)

type callConfig struct {
	header  http.Header
	editors []func(*http.Request) error
	mode    runtime.ValidationMode
	hasMode bool
	baseURL string
	hasBase bool

	timeout    time.Duration
	hasTimeout bool
	retry      RetryPolicy
	hasRetry   bool

	reconnect    ReconnectPolicy
	hasReconnect bool

	page *pageState // set by Pages
	raw  *[]byte    // set by WithRawBody
}

// WithRequestHeader sets a header on this call's request, replacing any
// value set by the client or the operation.
func WithRequestHeader(key, value string) CallOption {
	return func(cc *callConfig) {
		if cc.header == nil {
			cc.header = make(http.Header)
		}
		cc.header.Add(key, value)
	}
}

// WithRequestEditor adds a function that may change the request just
// before it is sent; an error from it fails the call (TRANSPORT_ERROR).
func WithRequestEditor(f func(*http.Request) error) CallOption {
	return func(cc *callConfig) { cc.editors = append(cc.editors, f) }
}

// WithRawBody stores the body of this call's 2xx response in *dst, as
// received (after the transport's decompression), for a caller who needs
// what the schema does not describe: members it does not declare, the
// exact bytes. It is a copy, taken before decoding, so it is there even
// when decoding fails (DECODE_ERROR, strict validation); *dst is left
// alone when there is no body (204, HEAD, a body-less response), when the
// call fails before one is read, and for a T of io.ReadCloser (the body
// is the caller's then). A body outside 2xx is in the error
// (CallError.HTTP). It applies to Do and Call (and the generated methods
// that call them), not to streams, nor to calls routed through a Remote
// (the remote sends the decoded envelope). Calls without it cost nothing
// more.
func WithRawBody(dst *[]byte) CallOption {
	return func(cc *callConfig) { cc.raw = dst }
}

// WithCallValidation sets the validation mode for this call.
func WithCallValidation(m runtime.ValidationMode) CallOption {
	return func(cc *callConfig) { cc.mode, cc.hasMode = m, true }
}

// WithCallBaseURL sets the base URL for this call.
func WithCallBaseURL(u string) CallOption {
	return func(cc *callConfig) { cc.baseURL, cc.hasBase = u, true }
}

// baseURL is a parsed base URL: everything up to the path's end, without
// a trailing slash, and its query, if any.
type baseURL struct {
	prefix string
	query  string
}

func parseBaseURL(s string) (baseURL, error) {
	if s == "" {
		return baseURL{}, fmt.Errorf("no base URL: the spec has no server URL; set one with httpclient.WithBaseURL")
	}
	u, err := url.Parse(s)
	if err != nil {
		return baseURL{}, fmt.Errorf("invalid base URL %q: %v", s, err)
	}
	if u.Scheme == "" || u.Host == "" {
		return baseURL{}, fmt.Errorf("base URL %q is not absolute (scheme://host/path); set one with httpclient.WithBaseURL", s)
	}
	s, _, _ = strings.Cut(s, "#")
	prefix, query, _ := strings.Cut(s, "?")
	return baseURL{prefix: strings.TrimRight(prefix, "/"), query: query}, nil
}
