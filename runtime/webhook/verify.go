package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// A Verifier checks that a delivery was signed by its sender. Verify is
// given the request's headers, its body as received and the current time;
// it returns the delivery's id, which the Receiver's ReplayStore records so
// that the same delivery is not handled twice ("" when the scheme carries
// none). An error fails the request with 400 Bad Request when it wraps
// ErrMalformed, and 401 Unauthorized otherwise; its text is the answer's
// body, so it names the header and what is wrong with it, never a secret.
type Verifier interface {
	Verify(header http.Header, body []byte, now time.Time) (id string, err error)
}

var (
	// ErrMalformed is wrapped by verification errors for a signature
	// header that is missing or cannot be parsed.
	ErrMalformed = errors.New("malformed signature headers")
	// ErrNoMatch is wrapped by verification errors for a signature that
	// does not match the body with any of the secrets.
	ErrNoMatch = errors.New("no signature matches the body")
	// ErrTimestamp is wrapped by verification errors for a delivery whose
	// signed timestamp is outside the tolerance.
	ErrTimestamp = errors.New("timestamp outside the tolerance")
)

// DefaultTolerance is how far a signed timestamp may be from the receiver's
// clock, either way, when a scheme's Tolerance is zero: five minutes, as
// Standard Webhooks and Stripe recommend.
const DefaultTolerance = 5 * time.Minute

// checkTime fails when ts is more than tolerance away from now.
func checkTime(scheme string, ts, now time.Time, tolerance time.Duration) error {
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	switch d := now.Sub(ts); {
	case d > tolerance:
		return fmt.Errorf("webhook: %s: signed timestamp %d is %s old, more than the tolerance of %s: %w", scheme, ts.Unix(), d.Round(time.Second), tolerance, ErrTimestamp)
	case -d > tolerance:
		return fmt.Errorf("webhook: %s: signed timestamp %d is %s in the future, more than the tolerance of %s: %w", scheme, ts.Unix(), (-d).Round(time.Second), tolerance, ErrTimestamp)
	}
	return nil
}

func unixSeconds(scheme, header, v string) (time.Time, error) {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("webhook: %s: header %s: %q is not Unix seconds: %w", scheme, header, v, ErrMalformed)
	}
	return time.Unix(n, 0), nil
}

func mac(key []byte, parts ...[]byte) []byte {
	h := hmac.New(sha256.New, key)
	for _, p := range parts {
		h.Write(p)
	}
	return h.Sum(nil)
}

// StandardWebhooks verifies the symmetric (v1) signatures of the Standard
// Webhooks specification (https://www.standardwebhooks.com), which Svix and
// others send: the headers webhook-id, webhook-timestamp (Unix seconds) and
// webhook-signature (space-separated "v1,<base64 HMAC-SHA256>" entries, of
// which one must match), the HMAC taken over "id.timestamp.body". The
// delivery id is webhook-id; a retry of a delivery keeps it.
type StandardWebhooks struct {
	// Keys are the HMAC keys; a signature made with any of them is accepted
	// (several while a secret is rotated).
	Keys [][]byte
	// Tolerance bounds the distance between the signed timestamp and the
	// receiver's clock (zero: DefaultTolerance).
	Tolerance time.Duration
}

// NewStandardWebhooks returns a StandardWebhooks verifier for the secrets
// as the sender shows them: "whsec_" followed by the base64 key.
func NewStandardWebhooks(secrets ...string) (*StandardWebhooks, error) {
	if len(secrets) == 0 {
		return nil, errors.New("webhook: Standard Webhooks: no secret")
	}
	v := &StandardWebhooks{}
	for i, s := range secrets {
		key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(s, "whsec_"))
		if err != nil || len(key) == 0 {
			return nil, fmt.Errorf("webhook: Standard Webhooks: secret %d is not \"whsec_\" and a base64 key", i+1)
		}
		v.Keys = append(v.Keys, key)
	}
	return v, nil
}

// Verify implements Verifier.
func (v *StandardWebhooks) Verify(header http.Header, body []byte, now time.Time) (string, error) {
	const scheme = "Standard Webhooks"
	id, ts, sigs := header.Get("webhook-id"), header.Get("webhook-timestamp"), header.Get("webhook-signature")
	for _, h := range [...]struct{ name, v string }{{"webhook-id", id}, {"webhook-timestamp", ts}, {"webhook-signature", sigs}} {
		if h.v == "" {
			return "", fmt.Errorf("webhook: %s: missing header %s: %w", scheme, h.name, ErrMalformed)
		}
	}
	t, err := unixSeconds(scheme, "webhook-timestamp", ts)
	if err != nil {
		return "", err
	}
	if err := checkTime(scheme, t, now, v.Tolerance); err != nil {
		return "", err
	}
	var want [][]byte
	for _, k := range v.Keys {
		want = append(want, mac(k, []byte(id), []byte{'.'}, []byte(ts), []byte{'.'}, body))
	}
	for _, entry := range strings.Fields(sigs) {
		version, sig, ok := strings.Cut(entry, ",")
		if !ok || version != "v1" {
			continue // other versions (v1a: asymmetric) are not ours to check
		}
		got, err := base64.StdEncoding.DecodeString(sig)
		if err != nil {
			continue
		}
		for _, w := range want {
			if hmac.Equal(got, w) {
				return id, nil
			}
		}
	}
	return "", fmt.Errorf("webhook: %s: header webhook-signature: %w", scheme, ErrNoMatch)
}

// Stripe verifies Stripe's signatures: the header Stripe-Signature,
// "t=<Unix seconds>,v1=<hex HMAC-SHA256>[,v1=...]", the HMAC taken over
// "t.body" with the endpoint's secret ("whsec_..."; the whole string is the
// key). Stripe sends no delivery id in a header: the id a Receiver records
// is the timestamp and the matching signature, so that the same signed
// request is handled once; a retry, which Stripe signs afresh, is handled
// again (deduplicate on the event's "id" for that).
type Stripe struct {
	// Secrets are the endpoint's signing secrets; a signature made with any
	// of them is accepted.
	Secrets []string
	// Tolerance bounds the distance between the signed timestamp and the
	// receiver's clock (zero: DefaultTolerance).
	Tolerance time.Duration
}

// Verify implements Verifier.
func (v *Stripe) Verify(header http.Header, body []byte, now time.Time) (string, error) {
	const scheme = "Stripe"
	h := header.Get("Stripe-Signature")
	if h == "" {
		return "", fmt.Errorf("webhook: %s: missing header Stripe-Signature: %w", scheme, ErrMalformed)
	}
	var ts string
	var sigs []string
	for part := range strings.SplitSeq(h, ",") {
		k, val, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			ts = val
		case "v1":
			sigs = append(sigs, val)
		}
	}
	if ts == "" || len(sigs) == 0 {
		return "", fmt.Errorf("webhook: %s: header Stripe-Signature has no t= or no v1= entry: %w", scheme, ErrMalformed)
	}
	t, err := unixSeconds(scheme, "Stripe-Signature t=", ts)
	if err != nil {
		return "", err
	}
	if err := checkTime(scheme, t, now, v.Tolerance); err != nil {
		return "", err
	}
	for _, s := range v.Secrets {
		want := mac([]byte(s), []byte(ts), []byte{'.'}, body)
		for _, sig := range sigs {
			if got, err := hex.DecodeString(sig); err == nil && hmac.Equal(got, want) {
				return ts + "." + sig, nil
			}
		}
	}
	return "", fmt.Errorf("webhook: %s: header Stripe-Signature: %w", scheme, ErrNoMatch)
}

// GitHub verifies GitHub's signatures: the header X-Hub-Signature-256,
// "sha256=<hex HMAC-SHA256 of the body>". The delivery id is the header
// X-GitHub-Delivery, which a redelivery keeps. GitHub signs no timestamp,
// so the ReplayStore's window is the only bound on a replay.
type GitHub struct {
	// Secrets are the webhook's secrets; a signature made with any of them
	// is accepted.
	Secrets []string
}

// Verify implements Verifier.
func (v *GitHub) Verify(header http.Header, body []byte, _ time.Time) (string, error) {
	const scheme = "GitHub"
	h := header.Get("X-Hub-Signature-256")
	if h == "" {
		return "", fmt.Errorf("webhook: %s: missing header X-Hub-Signature-256: %w", scheme, ErrMalformed)
	}
	sig, ok := strings.CutPrefix(h, "sha256=")
	got, err := hex.DecodeString(sig)
	if !ok || err != nil {
		return "", fmt.Errorf("webhook: %s: header X-Hub-Signature-256 is not \"sha256=\" and hex: %w", scheme, ErrMalformed)
	}
	for _, s := range v.Secrets {
		if hmac.Equal(got, mac([]byte(s), body)) {
			return header.Get("X-GitHub-Delivery"), nil
		}
	}
	return "", fmt.Errorf("webhook: %s: header X-Hub-Signature-256: %w", scheme, ErrNoMatch)
}

// Unsigned accepts every delivery: for senders that sign nothing (the
// endpoint must then be protected otherwise, e.g. by mutual TLS or a
// secret path). IDHeader, if set, names the header whose value is the
// delivery id.
type Unsigned struct {
	IDHeader string
}

// Verify implements Verifier.
func (v Unsigned) Verify(header http.Header, _ []byte, _ time.Time) (string, error) {
	if v.IDHeader == "" {
		return "", nil
	}
	return header.Get(v.IDHeader), nil
}
