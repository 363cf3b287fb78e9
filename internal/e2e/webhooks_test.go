package e2e_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/opsgen/opsgen/callproto"
	"github.com/opsgen/opsgen/golden/openapi/callbacks"
	"github.com/opsgen/opsgen/golden/openapi/webhooks"
	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/webhook"
)

const hookSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

var quietPipeline = &runtime.Pipeline{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}

// signedPost sends body to url as a delivery signed by the Standard
// Webhooks reference library, and returns the answer's status and text.
func signedPost(t *testing.T, method, url, contentType, id, body string) (int, string) {
	t.Helper()
	wh, err := standardwebhooks.NewWebhook(hookSecret)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	sig, err := wh.Sign(id, now, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("webhook-id", id)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(now.Unix(), 10))
	req.Header.Set("webhook-signature", sig)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func hookReceiver(t *testing.T, opts ...webhook.Option) *webhook.Receiver {
	t.Helper()
	v, err := webhook.NewStandardWebhooks(hookSecret)
	if err != nil {
		t.Fatal(err)
	}
	return webhook.New(v, append([]webhook.Option{webhook.WithPipeline(quietPipeline)}, opts...)...)
}

// petHooks is a webhooks.WebhookHandler keeping what it gets.
type petHooks struct {
	newPet  []runtime.ResponseEnvelope[webhooks.Pet]
	removed []runtime.ResponseEnvelope[webhooks.PetRemovedPayload]
	ping    []string
	weird   [][]byte
}

func (h *petHooks) NewPet(_ context.Context, e runtime.ResponseEnvelope[webhooks.Pet]) error {
	h.newPet = append(h.newPet, e)
	return nil
}

func (h *petHooks) PetRemoved(_ context.Context, e runtime.ResponseEnvelope[webhooks.PetRemovedPayload]) error {
	h.removed = append(h.removed, e)
	return nil
}

func (h *petHooks) Ping(_ context.Context, e runtime.ResponseEnvelope[string]) error {
	h.ping = append(h.ping, e.Data)
	return nil
}

func (h *petHooks) WeirdName(_ context.Context, e runtime.ResponseEnvelope[[]byte]) error {
	h.weird = append(h.weird, e.Data)
	return nil
}

// The generated receiver of OpenAPI 3.1 webhooks: each delivery, signed by
// the reference library, reaches its typed method through the pipeline.
func TestGeneratedWebhookReceiver(t *testing.T) {
	h := &petHooks{}
	srv := httptest.NewServer(webhooks.NewWebhookMux(hookReceiver(t), h))
	defer srv.Close()

	if status, text := signedPost(t, "POST", srv.URL+"/newPet", "application/json", "m1", `{"id":1,"name":"Rex","undeclared":true}`); status != 204 {
		t.Fatalf("newPet: %d %s", status, text)
	}
	if len(h.newPet) != 1 {
		t.Fatalf("NewPet called %d times", len(h.newPet))
	}
	e := h.newPet[0]
	if e.Data.ID != 1 || e.Data.Name != "Rex" || e.Data.Status == nil || *e.Data.Status != "available" {
		t.Errorf("NewPet data %+v (the default status must be filled in)", e.Data)
	}
	if m := runtime.HTTPMetaOf(e.Meta); m == nil || m.EventType != "newPet" || m.LastEventID != "m1" {
		t.Errorf("NewPet meta %+v", e.Meta)
	}

	// Drift: an unknown enum value and a date-time that is not RFC 3339 are
	// warnings; the event is still handled.
	if status, text := signedPost(t, "POST", srv.URL+"/petRemoved", "application/json", "m2", `{"id":2,"reason":"escaped","at":"yesterday"}`); status != 204 {
		t.Fatalf("petRemoved: %d %s", status, text)
	}
	r := h.removed[0]
	if r.Data.ID != 2 || r.Data.Reason != "escaped" || r.Data.At != nil {
		t.Errorf("PetRemoved data %+v", r.Data)
	}
	pointers := map[string]bool{}
	for _, w := range r.Warnings {
		pointers[w.Pointer] = true
		if w.OperationID != "webhooks.petRemoved" {
			t.Errorf("warning of %q", w.OperationID)
		}
	}
	if !pointers["/reason"] || !pointers["/at"] {
		t.Errorf("PetRemoved warnings %v, want /reason and /at", r.Warnings)
	}

	if status, text := signedPost(t, "POST", srv.URL+"/ping", "text/plain", "m3", "still here"); status != 204 || len(h.ping) != 1 || h.ping[0] != "still here" {
		t.Errorf("ping: %d %s %q", status, text, h.ping)
	}
	if status, text := signedPost(t, "PUT", srv.URL+"/WeirdName", "application/octet-stream", "m4", "\x00\xff"); status != 204 || len(h.weird) != 1 || string(h.weird[0]) != "\x00\xff" {
		t.Errorf("weird name: %d %s %q", status, text, h.weird)
	}
	// The receiver answers what is wrong with a delivery.
	if status, text := signedPost(t, "GET", srv.URL+"/newPet", "application/json", "m5", `{}`); status != 405 {
		t.Errorf("GET newPet: %d %s", status, text)
	}
	if status, text := signedPost(t, "POST", srv.URL+"/newPet", "application/json", "m6", `{"id":`); status != 400 || !strings.Contains(text, "malformed JSON") {
		t.Errorf("malformed: %d %s", status, text)
	}
	if status, text := signedPost(t, "POST", srv.URL+"/newPet", "application/json", "m1", `{"id":1,"name":"Rex","undeclared":true}`); status != 200 || len(h.newPet) != 1 {
		t.Errorf("replay: %d %s, NewPet called %d times", status, text, len(h.newPet))
	}
}

// orderHooks is a callbacks.WebhookHandler.
type orderHooks struct {
	paid    []callbacks.Order
	shipped []callbacks.OnOrderShippedPayload
}

func (h *orderHooks) OnOrderShipped(_ context.Context, e runtime.ResponseEnvelope[callbacks.OnOrderShippedPayload]) error {
	h.shipped = append(h.shipped, e.Data)
	return nil
}

func (h *orderHooks) SubscribeOrderPaid(_ context.Context, e runtime.ResponseEnvelope[callbacks.Order]) error {
	h.paid = append(h.paid, e.Data)
	return nil
}

// The generated receiver of OpenAPI 3.0 callbacks.
func TestGeneratedCallbackReceiver(t *testing.T) {
	h := &orderHooks{}
	srv := httptest.NewServer(callbacks.NewWebhookMux(hookReceiver(t), h))
	defer srv.Close()
	if status, text := signedPost(t, "POST", srv.URL+"/subscribe/orderPaid", "application/json", "c1", `{"id":"o1","total":9.5}`); status != 204 {
		t.Fatalf("orderPaid: %d %s", status, text)
	}
	if status, text := signedPost(t, "POST", srv.URL+"/subscribe/orderShipped", "application/cloudevents+json", "c2", `{"order":{"id":"o1","total":9.5},"carrier":null}`); status != 204 {
		t.Fatalf("orderShipped: %d %s", status, text)
	}
	if len(h.paid) != 1 || h.paid[0].ID != "o1" || h.paid[0].Currency == nil || *h.paid[0].Currency != "EUR" {
		t.Errorf("paid %+v", h.paid)
	}
	if len(h.shipped) != 1 || h.shipped[0].Order == nil || h.shipped[0].Order.Total != 9.5 {
		t.Errorf("shipped %+v", h.shipped)
	}
}

// Webhook events registered with RegisterWebhooks are a subscription a
// call protocol hub serves: a spoke gets each delivery, typed, with its meta.
func TestWebhooksFanOutOverCallProtocol(t *testing.T) {
	subscribed := make(chan int, 8)
	rc := hookReceiver(t, webhook.WithSubscribeHook(func(id string, n int) {
		if id == "webhooks.newPet" {
			subscribed <- n
		}
	}))
	srv := httptest.NewServer(webhooks.NewWebhookMux(rc, &petHooks{}))
	defer srv.Close()
	reg := runtime.NewRegistry(quietPipeline)
	if err := webhooks.RegisterWebhooks(reg, rc); err != nil {
		t.Fatal(err)
	}
	spoke := remoteSpoke(t, reg)

	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	got := make(chan runtime.ResponseEnvelope[webhooks.Pet], 4)
	go func() {
		for env, err := range callproto.SubscribeAs[webhooks.Pet](ctx, spoke, "webhooks.newPet", nil) {
			if err != nil {
				return
			}
			got <- env
		}
	}()
	if n := <-subscribed; n != 1 {
		t.Fatalf("%d subscribers", n)
	}
	for i, name := range []string{"Rex", "Tom"} {
		body := `{"id":` + strconv.Itoa(i+1) + `,"name":"` + name + `"}`
		if status, text := signedPost(t, "POST", srv.URL+"/newPet", "application/json", "f"+strconv.Itoa(i), body); status != 204 {
			t.Fatalf("delivery %d: %d %s", i, status, text)
		}
	}
	for i, name := range []string{"Rex", "Tom"} {
		select {
		case env := <-got:
			m := runtime.HTTPMetaOf(env.Meta)
			if env.Data.Name != name || env.Data.Status == nil || *env.Data.Status != "available" || m == nil || m.LastEventID != "f"+strconv.Itoa(i) || m.EventType != "newPet" {
				t.Errorf("spoke got %+v, meta %+v", env.Data, env.Meta)
			}
		case <-ctx.Done():
			t.Fatal("the spoke got no event")
		}
	}
}
