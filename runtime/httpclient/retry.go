package httpclient

import (
	"cmp"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// RetryPolicy says when a failed attempt is sent again. The zero value of
// a field takes its default; a policy with MaxAttempts under 2 (the zero
// RetryPolicy) retries nothing.
//
// An attempt is retried when its method may be (Methods, or any method
// when the request has an Idempotency-Key header), its body can be sent
// again (see MaxBufferedBody), and it failed in transport (not by the
// call's context), timed out (AttemptTimeout) or answered one of Statuses.
// The wait before retry n (1, 2, ...) is the response's Retry-After (in
// seconds or as an HTTP date) when it has one, else InitialBackoff·2^(n-1)
// capped at MaxBackoff, with jitter (a random wait between half and all of
// it). A wait that would end after the context's deadline is not started:
// the last failure is returned at once; a Retry-After longer than
// MaxRetryAfter ends the retries the same way.
type RetryPolicy struct {
	// MaxAttempts is the number of attempts, the first included.
	MaxAttempts int
	// InitialBackoff is the wait before the first retry (default 200ms).
	InitialBackoff time.Duration
	// MaxBackoff caps the exponential wait (default 20s).
	MaxBackoff time.Duration
	// MaxRetryAfter is the longest Retry-After honoured (default 2 minutes).
	MaxRetryAfter time.Duration
	// Statuses are the response statuses retried (default 429, 502, 503,
	// 504).
	Statuses []int
	// Methods are the methods retried (default the idempotent ones: GET,
	// HEAD, OPTIONS, PUT, DELETE, TRACE and QUERY, the safe method with a
	// body that OpenAPI 3.2 describes). A request with an Idempotency-Key
	// header is retried whatever its method.
	Methods []string
	// AttemptTimeout, if set, bounds each attempt until its response
	// headers arrive; an attempt that times out is retried.
	AttemptTimeout time.Duration
	// MaxBufferedBody bounds what is read into memory to make a body that
	// cannot seek replayable (default DefaultMaxReplayBytes). Bytes bodies
	// and io.ReadSeekers (files) are replayed without it; a larger stream is
	// sent once, without retries.
	MaxBufferedBody int64
}

var (
	defaultRetryStatuses = []int{http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout}
	defaultRetryMethods  = []string{http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodPut, http.MethodDelete, http.MethodTrace, "QUERY"}
)

// WithRetry sets the retry policy of every call (default: no retries).
func WithRetry(p RetryPolicy) Option { return func(c *Config) { c.Retry = p } }

// WithCallRetry sets the retry policy of this call;
// WithCallRetry(httpclient.RetryPolicy{}) disables retries.
func WithCallRetry(p RetryPolicy) CallOption {
	return func(cc *callConfig) { cc.retry, cc.hasRetry = p, true }
}

func (c *Client) retryPolicy(cc *callConfig) *RetryPolicy {
	if cc != nil && cc.hasRetry {
		return &cc.retry
	}
	return &c.cfg.Retry
}

func (p *RetryPolicy) methodAllowed(method string, h http.Header) bool {
	methods := p.Methods
	if methods == nil {
		methods = defaultRetryMethods
	}
	return slices.Contains(methods, method) || h.Get("Idempotency-Key") != ""
}

func (p *RetryPolicy) statusRetried(code int) bool {
	if p.Statuses == nil {
		return slices.Contains(defaultRetryStatuses, code)
	}
	return slices.Contains(p.Statuses, code)
}

// backoff is the wait before retry n (1, 2, ...) without Retry-After.
func (p *RetryPolicy) backoff(n int) time.Duration {
	d := cmp.Or(p.InitialBackoff, 200*time.Millisecond)
	maxD := cmp.Or(p.MaxBackoff, 20*time.Second)
	for i := 1; i < n && d < maxD; i++ {
		d *= 2
	}
	d = min(d, maxD)
	return d/2 + rand.N(d/2+1)
}

// retryAfter parses a Retry-After value: seconds or an HTTP date.
func retryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 {
			return 0, false
		}
		return time.Duration(min(n, int64(1<<62/time.Second))) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}

// errAttemptTimeout is the cause of an attempt's context cancelled by
// RetryPolicy.AttemptTimeout (or a stream connection's timeout).
var errAttemptTimeout = errors.New("attempt timed out")

// send builds the HTTP requests of r and sends them until one is not
// retried. defaultAccept is sent when r has no Accept of its own;
// headerTimeout, if set, bounds each attempt until its response headers.
func (c *Client) send(ctx context.Context, r *Request, cc *callConfig, defaultAccept string, headerTimeout time.Duration) (*http.Response, error) {
	if r.err != nil {
		return nil, r.err
	}
	u, err := c.requestURL(r, cc)
	if err != nil {
		return nil, err
	}
	policy := c.retryPolicy(cc)
	retries := policy.MaxAttempts > 1 && policy.methodAllowed(r.method, r.header)
	if !retries && policy.MaxAttempts > 1 && cc != nil {
		retries = policy.methodAllowed(r.method, cc.header)
	}
	if r.src == nil {
		r.srcVal.r = r
		r.src = &r.srcVal
	}
	if err := r.src.prepare(retries, cmp.Or(policy.MaxBufferedBody, DefaultMaxReplayBytes)); err != nil {
		return nil, runtime.NewError(runtime.CodeValidation, r.opID, "reading request body: "+err.Error(), err)
	}
	if policy.AttemptTimeout > 0 && (headerTimeout <= 0 || policy.AttemptTimeout < headerTimeout) {
		headerTimeout = policy.AttemptTimeout
	}
	for attempt := 0; ; attempt++ {
		resp, req, err := c.attempt(ctx, r, cc, u, defaultAccept, attempt, headerTimeout)
		if err == nil && resp == nil {
			return nil, runtime.Errorf(runtime.CodeTransport, r.opID, "the request body cannot be sent again")
		}
		if !retries || attempt+1 >= policy.MaxAttempts || ctx.Err() != nil || !r.src.replayable {
			return resp, c.sendError(ctx, r, err)
		}
		if err != nil {
			var cf *callFailure
			if errors.As(err, &cf) {
				return nil, cf.err
			}
		} else if !policy.statusRetried(resp.StatusCode) {
			return resp, nil
		}
		if !policy.methodAllowed(req.Method, req.Header) {
			return resp, c.sendError(ctx, r, err)
		}
		wait := policy.backoff(attempt + 1)
		if resp != nil {
			if d, ok := retryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
				if d > cmp.Or(policy.MaxRetryAfter, 2*time.Minute) {
					return resp, nil
				}
				wait = d
			}
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) <= wait {
			return resp, c.sendError(ctx, r, err)
		}
		if resp != nil {
			// Read a little of the body so that the connection can be reused.
			io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
			resp.Body.Close()
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, opsgenimpl.ContextError(ctx, r.opID, nil)
		case <-t.C:
		}
	}
}

// callFailure is a failure of the call that no retry can fix (a hook or
// request editor error, a missing credential).
type callFailure struct{ err error }

func (f *callFailure) Error() string { return f.err.Error() }
func (f *callFailure) Unwrap() error { return f.err }

// sendError turns the error of the last attempt into a CallError.
func (c *Client) sendError(ctx context.Context, r *Request, err error) error {
	if err == nil {
		return nil
	}
	var cf *callFailure
	if errors.As(err, &cf) {
		return cf.err
	}
	if errors.Is(err, errAttemptTimeout) {
		return runtime.NewError(runtime.CodeTimeout, r.opID, "request timed out", err)
	}
	if ce := opsgenimpl.ContextError(ctx, r.opID, err); ce != nil {
		return ce
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return runtime.NewError(runtime.CodeTimeout, r.opID, "request timed out", err)
	}
	return runtime.NewError(runtime.CodeTransport, r.opID, "sending request", err)
}

// requestURL is the URL of r: its raw URL, or the base URL (the call's or
// the client's) joined with the path and query.
func (c *Client) requestURL(r *Request, cc *callConfig) (string, error) {
	if r.rawURL != "" {
		return r.rawURL, nil
	}
	base, err := c.base, c.baseErr
	if cc != nil && cc.hasBase {
		base, err = parseBaseURL(cc.baseURL)
	}
	if err != nil {
		return "", runtime.NewError(runtime.CodeValidation, r.opID, err.Error(), nil)
	}
	u, err := r.buildURL(base)
	if err != nil {
		return "", runtime.NewError(runtime.CodeValidation, r.opID, err.Error(), nil)
	}
	return u, nil
}

// attempt sends one attempt of r. It returns a nil response and a nil
// error when the body cannot be sent again; failures that retrying cannot
// fix are *callFailure.
func (c *Client) attempt(ctx context.Context, r *Request, cc *callConfig, u, defaultAccept string, attempt int, timeout time.Duration) (*http.Response, *http.Request, error) {
	body, length, contentType, ok := r.src.next()
	if !ok {
		return nil, nil, nil
	}
	actx := ctx
	if c.opCtx {
		ai := &r.first
		if attempt > 0 {
			ai = &attemptInfo{}
		}
		ai.r, ai.attempt = r, attempt
		actx = context.WithValue(ctx, attemptKey{}, ai)
	}
	var cancel context.CancelCauseFunc
	var timer *time.Timer
	if timeout > 0 {
		actx, cancel = context.WithCancelCause(actx)
		timer = time.AfterFunc(timeout, func() { cancel(errAttemptTimeout) })
	}
	fail := func(err error) (*http.Response, *http.Request, error) {
		if cancel != nil {
			timer.Stop()
			cancel(nil)
		}
		return nil, nil, err
	}
	req, err := http.NewRequestWithContext(actx, r.method, u, body)
	if err != nil {
		if cl, ok := body.(io.Closer); ok {
			cl.Close()
		}
		return fail(&callFailure{runtime.NewError(runtime.CodeValidation, r.opID, "building request: "+err.Error(), err)})
	}
	if body != nil {
		req.ContentLength = length
		if length == 0 {
			req.Body = http.NoBody
		}
	}
	if err := c.prepareRequest(ctx, r, cc, req, contentType, defaultAccept); err != nil {
		closeRequest(req)
		return fail(&callFailure{err})
	}
	for _, h := range c.cfg.before {
		if err := h(req); err != nil {
			closeRequest(req)
			return fail(&callFailure{runtime.NewError(runtime.CodeTransport, r.opID, "before-request hook: "+err.Error(), err)})
		}
	}
	var resp *http.Response
	if c.rt != nil {
		resp, err = c.rt.RoundTrip(req)
	} else {
		resp, err = c.cfg.HTTPClient.Do(req)
	}
	if cancel != nil {
		if !timer.Stop() {
			// The timeout fired: the response, if any, cannot be read.
			if resp != nil {
				resp.Body.Close()
				resp = nil
			}
			if err == nil || ctx.Err() == nil {
				err = errAttemptTimeout
			}
		}
		if err != nil {
			cancel(nil)
		} else {
			resp.Body = &cancelBody{ReadCloser: resp.Body, cancel: cancel}
		}
	}
	if err != nil {
		if ctx.Err() == nil && context.Cause(actx) == errAttemptTimeout {
			err = errAttemptTimeout
		}
		return nil, req, err
	}
	for _, h := range c.cfg.after {
		if err := h(resp); err != nil {
			resp.Body.Close()
			return nil, req, &callFailure{runtime.NewError(runtime.CodeTransport, r.opID, "after-response hook: "+err.Error(), err)}
		}
	}
	return resp, req, nil
}

// cancelBody releases an attempt's context when its body is closed.
type cancelBody struct {
	io.ReadCloser
	cancel context.CancelCauseFunc
}

func (b *cancelBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel(nil)
	return err
}

// prepareRequest sets the headers of one attempt: the client's, the
// operation's, credentials, the call's, then runs the request editors.
func (c *Client) prepareRequest(ctx context.Context, r *Request, cc *callConfig, req *http.Request, contentType, defaultAccept string) error {
	h := req.Header
	for k, vs := range c.cfg.Header {
		h[k] = append(h[k], vs...)
	}
	if c.cfg.UserAgent != "" {
		h.Set("User-Agent", c.cfg.UserAgent)
	}
	for k, vs := range r.header {
		h[k] = vs
	}
	if accept := cmp.Or(r.accept, defaultAccept); accept != "" {
		h.Set("Accept", accept)
	}
	if contentType != "" {
		h.Set("Content-Type", contentType)
	}
	cookies, err := c.authorize(ctx, r, req, slices.Clip(r.cookies))
	if err != nil {
		return err
	}
	if len(cookies) > 0 {
		if prev := h.Get("Cookie"); prev != "" {
			cookies = append([]byte(prev+"; "), cookies...)
		}
		h.Set("Cookie", string(cookies))
	}
	if cc != nil {
		for k, vs := range cc.header {
			h[k] = vs
		}
		for _, edit := range cc.editors {
			if err := edit(req); err != nil {
				return runtime.NewError(runtime.CodeTransport, r.opID, "request editor: "+err.Error(), err)
			}
		}
	}
	return nil
}
