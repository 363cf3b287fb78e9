package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"log/slog"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/golden/openapi/streams32"
	"github.com/opsgen/opsgen/runtime"
)

// collectStream iterates seq to its end: the data of each envelope, its
// meta and warnings, and the errors.
func collectStream[T any](t *testing.T, seq iter.Seq2[runtime.ResponseEnvelope[T], error]) (data []T, metas []*runtime.HTTPMeta, warnings [][]runtime.Warning, errs []error) {
	t.Helper()
	for env, err := range seq {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		data = append(data, env.Data)
		metas = append(metas, httpMeta(t, env))
		warnings = append(warnings, env.Warnings)
	}
	return data, metas, warnings, errs
}

// The OpenAPI 3.2 golden: each JSON sequence media type streams LogEntry
// items, a drifted one kept with a warning on its own envelope, a
// malformed one skipped with a warning to the client's hook.
func TestHTTPJSONSequences(t *testing.T) {
	lines := []string{
		`{"level":"info","message":"started","at":"2026-11-28T05:00:00Z"}`,
		`{"level":"info","message":42}`,
		`{"level":"warn","message":`,
		`{"level":"error","message":"stopped"}`,
	}
	for _, c := range []struct {
		mt   string
		call func(*streams32.Client) iter.Seq2[runtime.ResponseEnvelope[streams32.LogEntry], error]
	}{
		{"application/jsonl", func(c *streams32.Client) iter.Seq2[runtime.ResponseEnvelope[streams32.LogEntry], error] {
			return c.TailLogs(context.Background())
		}},
		{"application/json-seq", func(c *streams32.Client) iter.Seq2[runtime.ResponseEnvelope[streams32.LogEntry], error] {
			return c.ExportRecords(context.Background())
		}},
	} {
		t.Run(strings.ReplaceAll(c.mt, "/", "_"), func(t *testing.T) {
			body := strings.Join(lines, "\n") + "\n"
			if c.mt == "application/json-seq" {
				body = "\x1e" + strings.Join(lines, "\n\x1e") + "\n"
			}
			srv := newWireServer(t, replyJSON(200, body, c.mt))
			var log warningLog
			client := streams32.NewClient(streams32.WithBaseURL(srv.URL), streams32.WithWarningHook(log.hook), quietHTTP32)
			data, metas, warnings, errs := collectStream(t, c.call(client))
			if len(errs) != 0 || len(data) != 3 {
				t.Fatalf("items %+v, errors %v", data, errs)
			}
			checkWireHeader(t, srv.only(t), "Accept", c.mt)
			if data[0].Level != streams32.LogEntryLevelInfo || data[0].Message != "started" || data[0].At == nil || data[2].Message != "stopped" {
				t.Errorf("items %+v", data)
			}
			if data[1].Message != "" || len(warnings[1]) == 0 || warnings[1][0].Pointer != "/message" || len(warnings[0])+len(warnings[2]) != 0 {
				t.Errorf("drift: item %+v, warnings %v", data[1], warnings)
			}
			for _, m := range metas {
				if m.ContentType != c.mt || m.StatusCode != 200 {
					t.Errorf("meta %+v", m)
				}
			}
			if !strings.Contains(fmt.Sprint(log.all()), "stream item 3 skipped") {
				t.Errorf("hook warnings %v", log.all())
			}
		})
	}
}

// quietHTTP32 keeps the pipeline's warnings out of the test log.
var quietHTTP32 = streams32.WithLogger(slog.New(slog.DiscardHandler))

func TestHTTPNDJSON(t *testing.T) {
	srv := newWireServer(t, replyJSON(200, "{\"name\":\"cpu\",\"value\":0.5}\r\n\r\n{\"name\":\"mem\",\"value\":2}", "application/x-ndjson"))
	client := streams32.NewClient(streams32.WithBaseURL(srv.URL), quietHTTP32)
	data, _, _, errs := collectStream(t, client.StreamMetrics(context.Background()))
	if len(errs) != 0 || len(data) != 2 || data[0].Name != "cpu" || data[0].Value != 0.5 || data[1].Name != "mem" || data[1].Value != 2 {
		t.Errorf("items %+v, errors %v", data, errs)
	}
}

// An event stream described by a 3.2 itemSchema: each event's data is
// decoded by the data property's contentSchema (Token); event and id stay
// on the meta. Without contentSchema, data is the text.
func TestHTTPEventItemSchema(t *testing.T) {
	srv := newWireServer(t, replyJSON(200, "event: token\nid: 1\ndata: {\"text\":\"Hel\",\"index\":0}\n\nevent: token\nid: 2\ndata: {\"text\":\"lo\",\"index\":1}\n\n", "text/event-stream"))
	client := streams32.NewClient(streams32.WithBaseURL(srv.URL), quietHTTP32)
	data, metas, _, errs := collectStream(t, client.Chat(context.Background(), streams32.ChatBody{Prompt: new("hi")}))
	if len(errs) != 0 || len(data) != 2 || data[0].Text+data[1].Text != "Hello" || *data[1].Index != 1 {
		t.Fatalf("events %+v, errors %v", data, errs)
	}
	if metas[1].EventType != "token" || metas[1].LastEventID != "2" {
		t.Errorf("meta %+v", metas[1])
	}
	if r := srv.only(t); r.Method != "POST" || string(r.Body) != `{"prompt":"hi"}` {
		t.Errorf("request %s %s", r.Method, r.Body)
	}
	srv.setReply(replyJSON(200, "data: tick 1\n\ndata: {\"not\": \"decoded\"}\n\n", "text/event-stream"))
	ticks, _, _, errs := collectStream(t, client.Ticks(context.Background()))
	if len(errs) != 0 || fmt.Sprintf("%q", ticks) != `["tick 1" "{\"not\": \"decoded\"}"]` {
		t.Errorf("ticks %q, errors %v", ticks, errs)
	}
}

// The QUERY method: sent with its body, registered as a query.
func TestHTTPQueryMethod(t *testing.T) {
	srv := newWireServer(t, replyJSON(200, `[{"level":"debug","message":"m"}]`, ""))
	client := streams32.NewClient(streams32.WithBaseURL(srv.URL), quietHTTP32)
	env, err := client.Search(context.Background(), streams32.SearchBody{Q: "disk"})
	if err != nil || len(env.Data) != 1 || env.Data[0].Message != "m" {
		t.Fatalf("%+v %v", env, err)
	}
	r := srv.only(t)
	checkWireLine(t, r, "QUERY", "/search")
	if string(r.Body) != `{"q":"disk"}` {
		t.Errorf("body %s", r.Body)
	}
	reg := runtime.NewRegistry(nil)
	if err := client.Register(reg); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]runtime.Kind{
		"streams32.search": runtime.KindQuery, "streams32.purgeSearch": runtime.KindMutation,
		"streams32.tailLogs": runtime.KindSubscription, "streams32.exportRecords": runtime.KindSubscription,
	} {
		if k, ok := reg.Kind(id); !ok || k != want {
			t.Errorf("%s: kind %q, %v; want %q", id, k, ok, want)
		}
	}
	// A JSON Lines stream through the registry: one envelope per item.
	srv.setReply(replyJSON(200, "{\"level\":\"info\",\"message\":\"a\"}\n{\"level\":\"info\",\"message\":\"b\"}\n", "application/jsonl"))
	var msgs []string
	for env, err := range reg.Subscribe(context.Background(), "streams32.tailLogs", json.RawMessage(`{}`)) {
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, env.Data.(streams32.LogEntry).Message)
	}
	if fmt.Sprint(msgs) != "[a b]" {
		t.Errorf("subscription items %v", msgs)
	}
}
