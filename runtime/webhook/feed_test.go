package webhook_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/webhook"
)

// post hands a signed delivery to h directly (no network, so that the test
// runs inside a synctest bubble).
func post(t *testing.T, h http.Handler, id, body string) int {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, swRequest(t, "http://receiver/", swSecret, id, time.Now(), body))
	return w.Code
}

func TestSubscriptionThroughRegistry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		v, _ := webhook.NewStandardWebhooks(swSecret)
		rc := webhook.New(v)
		h := webhook.Handle[pet](rc, newPet, nil) // events consumed only by subscribers
		reg := runtime.NewRegistry(nil)
		if err := reg.RegisterSubscription(runtime.OperationSpec{ID: newPet.ID, Output: petSchema}, rc.Subscription(newPet.ID)); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		got := make(chan runtime.ResponseEnvelope[any], 2)
		done := make(chan error, 1)
		for range 2 {
			go func() {
				for env, err := range reg.Subscribe(ctx, newPet.ID, nil) {
					if err != nil {
						done <- err
						return
					}
					got <- env
				}
			}()
		}
		synctest.Wait() // both subscribers wait for events
		if code := post(t, h, "msg_a", `{"id":1,"name":"Rex","extra":1}`); code != 204 {
			t.Fatalf("delivery answered %d", code)
		}
		for range 2 {
			env := <-got
			p, ok := env.Data.(pet)
			m := runtime.HTTPMetaOf(env.Meta)
			if !ok || p != (pet{ID: 1, Name: "Rex", Status: "available"}) || m == nil || m.LastEventID != "msg_a" || m.EventType != "newPet" {
				t.Errorf("subscriber got %#v, meta %+v", env.Data, m)
			}
		}
		cancel()
		for range 2 {
			// Registry.Subscribe ends a cancelled subscription with CANCELED.
			if err := <-done; !errors.Is(err, context.Canceled) {
				t.Errorf("cancelled subscription ended with %v", err)
			}
		}
	})
}

func TestSlowSubscriberIsDropped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		v, _ := webhook.NewStandardWebhooks(swSecret)
		rc := webhook.New(v, webhook.WithSubscriberBuffer(2))
		h := webhook.Handle[pet](rc, newPet, nil)
		next := make(chan struct{})
		var got []int64
		var end error
		go func() {
			for e, err := range rc.Subscription(newPet.ID)(t.Context(), nil) {
				if err != nil {
					end = err
					return
				}
				got = append(got, e.(runtime.ResponseEnvelope[any]).Data.(pet).ID)
				<-next // a slow consumer
			}
		}()
		synctest.Wait()
		for i, id := range []string{"m1", "m2", "m3", "m4", "m5"} {
			// The sender is never held up by the subscriber.
			if code := post(t, h, id, `{"id":`+string(rune('1'+i))+`,"name":"x"}`); code != 204 {
				t.Fatalf("delivery %s answered %d", id, code)
			}
		}
		close(next)
		synctest.Wait()
		// m1 was taken, m2 and m3 buffered, m4 overflowed the buffer.
		if !errors.Is(end, webhook.ErrLagged) || len(got) != 3 || got[0] != 1 || got[2] != 3 {
			t.Errorf("got %v, end %v; want [1 2 3] then ErrLagged", got, end)
		}
		if !strings.Contains(webhook.ErrLagged.Error(), "fell behind") {
			t.Error(webhook.ErrLagged)
		}
	})
}
