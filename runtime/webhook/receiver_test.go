package webhook_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	stripewebhook "github.com/stripe/stripe-go/v84/webhook"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
	"github.com/opsgen/opsgen/runtime/webhook"
)

// pet is the payload type a generated receiver would declare.
type pet struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	Status string `json:"status,omitempty"`
}

var petSchema = opsgenimpl.NewSchema(`{"type":"object","required":["id","name"],"properties":{"id":{"type":"integer"},"name":{"type":"string"},"status":{"type":"string","default":"available"}}}`)

var newPet = webhook.Operation{ID: "petstore.newPet", Name: "newPet", Method: "POST", Schema: petSchema}

const swSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

// recorder keeps the envelopes a handler got.
type recorder struct {
	mu   sync.Mutex
	got  []runtime.ResponseEnvelope[pet]
	fail error
}

func (r *recorder) handle(_ context.Context, env runtime.ResponseEnvelope[pet]) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, env)
	return r.fail
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.got)
}

// swRequest is a delivery signed by the Standard Webhooks reference library.
func swRequest(t *testing.T, url, secret, id string, ts time.Time, body string) *http.Request {
	t.Helper()
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := wh.Sign(id, ts, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(standardwebhooks.HeaderWebhookID, id)
	req.Header.Set(standardwebhooks.HeaderWebhookTimestamp, strconv.FormatInt(ts.Unix(), 10))
	req.Header.Set(standardwebhooks.HeaderWebhookSignature, sig)
	return req
}

// send sends req and returns the status and the answer's body.
func send(t *testing.T, req *http.Request) (int, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func newStandard(t *testing.T, opts ...webhook.Option) (*webhook.Receiver, *recorder, *httptest.Server) {
	t.Helper()
	v, err := webhook.NewStandardWebhooks(swSecret)
	if err != nil {
		t.Fatal(err)
	}
	rc := webhook.New(v, opts...)
	rec := &recorder{}
	srv := httptest.NewServer(webhook.Handle(rc, newPet, rec.handle))
	t.Cleanup(srv.Close)
	return rc, rec, srv
}

func TestStandardWebhooksDelivery(t *testing.T) {
	_, rec, srv := newStandard(t)
	// "extra" is not declared: normalization drops it; status gets its default.
	status, body := send(t, swRequest(t, srv.URL, swSecret, "msg_1", time.Now(), `{"id":7,"name":"Rex","extra":true}`))
	if status != http.StatusNoContent {
		t.Fatalf("status %d (%s), want 204", status, body)
	}
	if rec.count() != 1 {
		t.Fatalf("handler called %d times, want 1", rec.count())
	}
	env := rec.got[0]
	if env.Data != (pet{ID: 7, Name: "Rex", Status: "available"}) {
		t.Errorf("data %+v", env.Data)
	}
	m := runtime.HTTPMetaOf(env.Meta)
	if m == nil || m.EventType != "newPet" || m.LastEventID != "msg_1" || m.ContentType != "application/json" || m.Headers["webhook-id"] != "msg_1" || m.StatusCode != 200 {
		t.Errorf("meta %+v", m)
	}
	if len(env.Warnings) != 0 {
		t.Errorf("warnings %v", env.Warnings)
	}
}

func TestStandardWebhooksDriftIsAWarning(t *testing.T) {
	_, rec, srv := newStandard(t)
	// name is a number: drift, kept as a warning; the rest is delivered.
	status, body := send(t, swRequest(t, srv.URL, swSecret, "msg_drift", time.Now(), `{"id":7,"name":12}`))
	if status != http.StatusNoContent || rec.count() != 1 {
		t.Fatalf("status %d (%s), %d calls", status, body, rec.count())
	}
	env := rec.got[0]
	if env.Data.ID != 7 || env.Data.Name != "" {
		t.Errorf("data %+v", env.Data)
	}
	if len(env.Warnings) == 0 || env.Warnings[0].Pointer != "/name" || env.Warnings[0].OperationID != "petstore.newPet" {
		t.Errorf("warnings %v, want one at /name", env.Warnings)
	}
}

func TestStandardWebhooksRejects(t *testing.T) {
	now := time.Now()
	cases := []struct {
		name   string
		req    func(url string) *http.Request
		status int
		says   string
	}{
		{"tampered body", func(url string) *http.Request {
			r := swRequest(t, url, swSecret, "msg_t", now, `{"id":7,"name":"Rex"}`)
			r.Body = io.NopCloser(strings.NewReader(`{"id":8,"name":"Rex"}`))
			return r
		}, 401, "no signature matches"},
		{"other secret", func(url string) *http.Request {
			return swRequest(t, url, "whsec_"+base64.StdEncoding.EncodeToString([]byte("another key")), "msg_o", now, `{"id":7,"name":"Rex"}`)
		}, 401, "no signature matches"},
		{"too old", func(url string) *http.Request {
			return swRequest(t, url, swSecret, "msg_old", now.Add(-6*time.Minute), `{"id":7,"name":"Rex"}`)
		}, 401, "old, more than the tolerance of 5m0s"},
		{"from the future", func(url string) *http.Request {
			return swRequest(t, url, swSecret, "msg_new", now.Add(6*time.Minute), `{"id":7,"name":"Rex"}`)
		}, 401, "in the future"},
		{"no signature", func(url string) *http.Request {
			r := swRequest(t, url, swSecret, "msg_n", now, `{"id":7,"name":"Rex"}`)
			r.Header.Del("webhook-signature")
			return r
		}, 400, "missing header webhook-signature"},
		{"bad timestamp", func(url string) *http.Request {
			r := swRequest(t, url, swSecret, "msg_b", now, `{"id":7,"name":"Rex"}`)
			r.Header.Set("webhook-timestamp", "yesterday")
			return r
		}, 400, `"yesterday" is not Unix seconds`},
		{"malformed JSON", func(url string) *http.Request {
			return swRequest(t, url, swSecret, "msg_j", now, `{"id":7,`)
		}, 400, "malformed JSON"},
		{"not JSON", func(url string) *http.Request {
			r := swRequest(t, url, swSecret, "msg_x", now, `{"id":7,"name":"Rex"}`)
			r.Header.Set("Content-Type", "text/xml")
			return r
		}, 415, `content type "text/xml" is not JSON`},
		{"wrong method", func(url string) *http.Request {
			r := swRequest(t, url, swSecret, "msg_m", now, `{"id":7,"name":"Rex"}`)
			r.Method = "PUT"
			return r
		}, 405, "method PUT not allowed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, rec, srv := newStandard(t)
			status, body := send(t, c.req(srv.URL))
			if status != c.status || !strings.Contains(body, c.says) {
				t.Errorf("answer %d %q, want %d saying %q", status, body, c.status, c.says)
			}
			if rec.count() != 0 {
				t.Errorf("handler called")
			}
		})
	}
}

func TestBodyLimit(t *testing.T) {
	_, rec, srv := newStandard(t, webhook.WithMaxBodyBytes(64))
	big := fmt.Sprintf(`{"id":7,"name":%q}`, strings.Repeat("x", 100))
	status, body := send(t, swRequest(t, srv.URL, swSecret, "msg_big", time.Now(), big))
	if status != http.StatusRequestEntityTooLarge || !strings.Contains(body, "body larger than 64 bytes") || rec.count() != 0 {
		t.Errorf("answer %d %q, %d calls", status, body, rec.count())
	}
}

func TestReplayRejected(t *testing.T) {
	_, rec, srv := newStandard(t)
	now := time.Now()
	const payload = `{"id":7,"name":"Rex"}`
	if status, body := send(t, swRequest(t, srv.URL, swSecret, "msg_r", now, payload)); status != 204 {
		t.Fatalf("first delivery: %d %s", status, body)
	}
	// The same signed request again: answered, not handled.
	status, body := send(t, swRequest(t, srv.URL, swSecret, "msg_r", now, payload))
	if status != http.StatusOK || !strings.Contains(body, `duplicate delivery "msg_r"`) {
		t.Errorf("replay answered %d %q", status, body)
	}
	if rec.count() != 1 {
		t.Errorf("handler called %d times, want 1", rec.count())
	}
}

func TestFailedHandlerIsRetried(t *testing.T) {
	var hooked error
	_, rec, srv := newStandard(t, webhook.WithErrorHook(func(_ context.Context, op webhook.Operation, err error) { hooked = err }))
	rec.fail = errors.New("database down at 10.0.0.7")
	now := time.Now()
	status, body := send(t, swRequest(t, srv.URL, swSecret, "msg_f", now, `{"id":7,"name":"Rex"}`))
	if status != 500 || !strings.Contains(body, "webhook newPet: handler failed") || strings.Contains(body, "10.0.0.7") {
		t.Errorf("failed handler answered %d %q", status, body)
	}
	if hooked != rec.fail {
		t.Errorf("error hook got %v", hooked)
	}
	rec.fail = nil
	if status, body := send(t, swRequest(t, srv.URL, swSecret, "msg_f", now, `{"id":7,"name":"Rex"}`)); status != 204 {
		t.Errorf("retry answered %d %q, want 204", status, body)
	}
	if rec.count() != 2 {
		t.Errorf("handler called %d times, want 2", rec.count())
	}
}

func TestHandlerPanic(t *testing.T) {
	v, _ := webhook.NewStandardWebhooks(swSecret)
	var hooked error
	rc := webhook.New(v, webhook.WithErrorHook(func(_ context.Context, _ webhook.Operation, err error) { hooked = err }))
	srv := httptest.NewServer(webhook.Handle(rc, newPet, func(context.Context, runtime.ResponseEnvelope[pet]) error { panic("boom") }))
	defer srv.Close()
	status, body := send(t, swRequest(t, srv.URL, swSecret, "msg_p", time.Now(), `{"id":7,"name":"Rex"}`))
	if pe, ok := errors.AsType[*runtime.PanicError](hooked); status != 500 || !strings.Contains(body, "handler panicked") || !ok || pe.Value != "boom" {
		t.Errorf("panic answered %d %q, hook got %v", status, body, hooked)
	}
}

func TestStrictModeMismatch(t *testing.T) {
	_, rec, srv := newStandard(t, webhook.WithPipeline(&runtime.Pipeline{Mode: runtime.ValidateStrict}))
	status, body := send(t, swRequest(t, srv.URL, swSecret, "msg_s", time.Now(), `{"id":7}`))
	if status != http.StatusUnprocessableEntity || !strings.Contains(body, "does not match its schema") || rec.count() != 0 {
		t.Errorf("strict mismatch answered %d %q, %d calls", status, body, rec.count())
	}
}

func TestTextAndBytesPayloads(t *testing.T) {
	rc := webhook.New(webhook.Unsigned{IDHeader: "X-Delivery"})
	var gotText string
	var gotBytes []byte
	mux := http.NewServeMux()
	mux.Handle("/text", webhook.Handle(rc, webhook.Operation{ID: "a.text", Name: "text", Kind: webhook.BodyText}, func(_ context.Context, env runtime.ResponseEnvelope[string]) error {
		gotText = env.Data
		return nil
	}))
	mux.Handle("/bytes", webhook.Handle(rc, webhook.Operation{ID: "a.bytes", Name: "bytes", Kind: webhook.BodyBytes}, func(_ context.Context, env runtime.ResponseEnvelope[[]byte]) error {
		gotBytes = env.Data
		return nil
	}))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/text", "text/plain", strings.NewReader("hello"))
	if err != nil || resp.StatusCode != 204 || gotText != "hello" {
		t.Errorf("text: %v %v %q", err, resp.StatusCode, gotText)
	}
	resp, err = http.Post(srv.URL+"/bytes", "application/octet-stream", strings.NewReader("\x00\x01"))
	if err != nil || resp.StatusCode != 204 || string(gotBytes) != "\x00\x01" {
		t.Errorf("bytes: %v %v %q", err, resp.StatusCode, gotBytes)
	}
}

func TestStripeSignedByStripeGo(t *testing.T) {
	const secret = "whsec_test_secret"
	const payload = `{"id":7,"name":"Rex"}`
	rc := webhook.New(&webhook.Stripe{Secrets: []string{"whsec_old", secret}})
	rec := &recorder{}
	srv := httptest.NewServer(webhook.Handle(rc, newPet, rec.handle))
	defer srv.Close()
	post := func(signed *stripewebhook.SignedPayload) (int, string) {
		req, _ := http.NewRequest("POST", srv.URL, strings.NewReader(string(signed.Payload)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Stripe-Signature", signed.Header)
		return send(t, req)
	}
	signed := stripewebhook.GenerateTestSignedPayload(&stripewebhook.UnsignedPayload{Payload: []byte(payload), Secret: secret})
	if status, body := post(signed); status != 204 || rec.count() != 1 || rec.got[0].Data.Name != "Rex" {
		t.Fatalf("stripe delivery: %d %q, %d calls", status, body, rec.count())
	}
	if status, body := post(signed); status != 200 || !strings.Contains(body, "duplicate delivery") {
		t.Errorf("stripe replay: %d %q", status, body)
	}
	wrong := stripewebhook.GenerateTestSignedPayload(&stripewebhook.UnsignedPayload{Payload: []byte(payload), Secret: "whsec_wrong"})
	if status, body := post(wrong); status != 401 || !strings.Contains(body, "Stripe-Signature: no signature matches") {
		t.Errorf("wrong secret: %d %q", status, body)
	}
	old := stripewebhook.GenerateTestSignedPayload(&stripewebhook.UnsignedPayload{Payload: []byte(payload), Secret: secret, Timestamp: time.Now().Add(-time.Hour)})
	if status, body := post(old); status != 401 || !strings.Contains(body, "tolerance") {
		t.Errorf("old: %d %q", status, body)
	}
	if rec.count() != 1 {
		t.Errorf("handler called %d times, want 1", rec.count())
	}
}

func TestGitHubDocumentedVector(t *testing.T) {
	// The example of GitHub's documentation, "Validating webhook deliveries".
	v := &webhook.GitHub{Secrets: []string{"It's a Secret to Everybody"}}
	h := http.Header{}
	h.Set("X-Hub-Signature-256", "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17")
	h.Set("X-GitHub-Delivery", "72d3162e-cc78-11e3-81ab-4c9367dc0958")
	id, err := v.Verify(h, []byte("Hello, World!"), time.Now())
	if err != nil || id != "72d3162e-cc78-11e3-81ab-4c9367dc0958" {
		t.Errorf("Verify = %q, %v", id, err)
	}
	if _, err := v.Verify(h, []byte("Hello, World?"), time.Now()); !errors.Is(err, webhook.ErrNoMatch) {
		t.Errorf("tampered body: %v", err)
	}
	h.Set("X-Hub-Signature-256", "sha1=0123")
	if _, err := v.Verify(h, []byte("Hello, World!"), time.Now()); !errors.Is(err, webhook.ErrMalformed) {
		t.Errorf("sha1 header: %v", err)
	}
}

func TestNewStandardWebhooksBadSecret(t *testing.T) {
	if _, err := webhook.NewStandardWebhooks("whsec_not base64!"); err == nil || !strings.Contains(err.Error(), "secret 1") {
		t.Errorf("err = %v", err)
	}
}
