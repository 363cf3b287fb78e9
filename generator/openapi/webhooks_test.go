package openapi_test

import (
	"context"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/openapi"
)

func TestWebhooksAndCallbacksLoad(t *testing.T) {
	const spec = `{"openapi":"3.1.0","info":{"title":"t","version":"1"},
"paths":{"/subs":{"post":{"operationId":"subscribe","responses":{"201":{"description":"ok"}},
  "callbacks":{"done":{"{$request.body#/url}":{"post":{"requestBody":{"content":{"application/json":{"schema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}}},"responses":{"204":{"description":"ok"}}}}}}}},
  "/x":{"get":{"operationId":"ping","responses":{"200":{"description":"ok"}}}}},
"webhooks":{
  "ping":{"post":{"requestBody":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/P"}}}},"responses":{"200":{"description":"ok"}}}},
  "empty":{"post":{"responses":{"200":{"description":"ok"}}}}},
"components":{"schemas":{"P":{"type":"object","required":["n"],"properties":{"n":{"type":"integer"}}}}}}`
	svc, diags, err := openapi.LoadData(context.Background(), []byte(spec), "hooks.json", openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*ir.Operation{}
	for _, op := range svc.Webhooks {
		byName[op.Webhook.Name] = op
	}
	if len(svc.Webhooks) != 2 {
		t.Fatalf("webhooks %v, want ping and subscribe/done", byName)
	}
	ping := byName["ping"]
	// "ping" is also a client operation's id: the webhook's is renamed, so
	// that both can be registered in one Registry.
	if ping == nil || ping.ID != "ping_2" || ping.Method != "POST" || ping.Body == nil || ping.Body.Type.Name != "P" || !strings.Contains(ping.OutputSchema.String(), `#/$defs/P`) {
		t.Errorf("ping webhook %+v", ping)
	}
	done := byName["subscribe/done"]
	if done == nil || done.ID != "subscribe.done" || done.Webhook.Expression != "{$request.body#/url}" || done.GoName != "SubscribeDone" ||
		done.Body.Type.Name != "SubscribeDonePayload" || done.Pos.Pointer != "/paths/~1subs/post/callbacks/done/{$request.body#~1url}/post" {
		t.Errorf("callback %+v, pos %v", done, done.Pos)
	}
	var lines []string
	for _, d := range diags {
		lines = append(lines, d.Message)
	}
	text := strings.Join(lines, "\n")
	if !strings.Contains(text, `webhook "empty" has no request body; it is left out`) || !strings.Contains(text, `webhook id "ping" is used more than once; using "ping_2"`) {
		t.Errorf("diagnostics:\n%s", text)
	}
}
