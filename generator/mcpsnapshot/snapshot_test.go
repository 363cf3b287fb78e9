package mcpsnapshot

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var update = flag.Bool("update", false, "rewrite the committed listings captured by tests")

// sdkListing is the committed snapshot of newSDKServer.
var sdkListing = filepath.Join("..", "..", "testdata", "specs", "mcp", "sdk-server.json")

// snapshotInMemory snapshots newSDKServer over an in-memory transport.
func snapshotInMemory(t *testing.T) []byte {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := newSDKServer().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	got, err := SnapshotTransport(ctx, ct)
	if err != nil {
		t.Fatalf("SnapshotTransport: %v", err)
	}
	return got
}

func TestSnapshotTransportMatchesCommittedListing(t *testing.T) {
	got := snapshotInMemory(t)
	if *update {
		if err := os.WriteFile(sdkListing, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(sdkListing)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("snapshot differs from %s (run with -update if the change is intended):\n%s", sdkListing, got)
	}
}

// protocolLine matches a listing's protocolVersion, which depends on the
// transport: go-sdk v1.8.0 agrees on 2026-07-28 in memory and over stdio,
// on 2025-11-25 over streamable HTTP and HTTP+SSE.
var protocolLine = regexp.MustCompile(`(?m)^  "protocolVersion": "[0-9-]+",\n`)

// transportLine matches a listing's transport, the last member.
var transportLine = regexp.MustCompile(`(?m),\n  "transport": "([a-z-]+)"\n}\n$`)

// transportOf returns the transport a listing names.
func transportOf(b []byte) string {
	m := transportLine.FindSubmatch(b)
	if m == nil {
		return ""
	}
	return string(m[1])
}

// sameListing reports whether two listings are the same but for their
// protocol versions and transports, which both must have.
func sameListing(a, b []byte) bool {
	strip := func(x []byte) []byte {
		return transportLine.ReplaceAll(protocolLine.ReplaceAll(x, nil), []byte("\n}\n"))
	}
	return protocolLine.Match(a) && protocolLine.Match(b) && transportOf(a) != "" && transportOf(b) != "" &&
		bytes.Equal(strip(a), strip(b))
}

func TestSnapshotFormat(t *testing.T) {
	got := snapshotInMemory(t)
	if !bytes.HasSuffix(got, []byte("}\n")) || !bytes.HasPrefix(got, []byte("{\n  \"protocolVersion\": \"")) {
		t.Errorf("not a 2-space indented object with a trailing newline:\n%s", got)
	}
	var parsed struct {
		ProtocolVersion string
		ServerInfo      map[string]any
		Tools           []map[string]any `json:"tools"`
		Transport       string
	}
	if err := json.Unmarshal(got, &parsed); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range parsed.Tools {
		names = append(names, tool["name"].(string))
	}
	// Three tools over two pages: every page was read, and sorted by name.
	if want := []string{"ping", "read-graph", "search_items"}; !slices.Equal(names, want) {
		t.Errorf("tool names = %v, want %v", names, want)
	}
	if bytes.Contains(got, []byte("nextCursor")) {
		t.Error("listing contains nextCursor")
	}
	// What the server said about itself at initialize.
	if parsed.ServerInfo["name"] != sdkServerName || parsed.ServerInfo["version"] != sdkServerVersion || parsed.ProtocolVersion == "" {
		t.Errorf("serverInfo %v, protocolVersion %q", parsed.ServerInfo, parsed.ProtocolVersion)
	}
	// Keys are sorted at every level: re-encoding with sorted keys is a no-op.
	tools := make([]json.RawMessage, len(parsed.Tools))
	for i, tool := range parsed.Tools {
		tools[i], _ = json.Marshal(tool)
	}
	info, _ := json.Marshal(parsed.ServerInfo)
	again, err := (&listing{tools: tools, serverInfo: info, protocolVersion: parsed.ProtocolVersion, transport: parsed.Transport}).format()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, got) {
		t.Errorf("listing is not in canonical form:\n%s\nwant:\n%s", got, again)
	}
}

func TestSnapshotStdio(t *testing.T) {
	cmd, env := serverCommand(t, "sdk")
	got, err := Snapshot(context.Background(), SnapshotOptions{Command: cmd, Env: env, Timeout: time.Minute})
	if err != nil {
		t.Fatalf("Snapshot: %v", err)
	}
	if want := snapshotInMemory(t); !sameListing(got, want) || transportOf(got) != "stdio" || transportOf(want) != "in-memory" {
		t.Errorf("stdio snapshot:\n%s\nwant (in-memory):\n%s", got, want)
	}
}

// requestLog records the method of every HTTP request a handler gets.
type requestLog struct {
	mu   sync.Mutex
	reqs []string
}

func (l *requestLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.reqs = append(l.reqs, r.Method)
		l.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

func (l *requestLog) first() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.reqs) == 0 {
		return ""
	}
	return l.reqs[0]
}

func TestSnapshotStreamableHTTP(t *testing.T) {
	s := newSDKServer()
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	defer srv.Close()
	got, err := Snapshot(context.Background(), SnapshotOptions{URL: srv.URL, Timeout: time.Minute})
	if err != nil {
		t.Fatalf("Snapshot: %v", err)
	}
	if want := snapshotInMemory(t); !sameListing(got, want) || transportOf(got) != "streamable-http" {
		t.Errorf("streamable HTTP snapshot:\n%s\nwant (in-memory):\n%s", got, want)
	}
}

func TestSnapshotFallsBackToSSE(t *testing.T) {
	s := newSDKServer()
	var log requestLog
	srv := httptest.NewServer(log.wrap(mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return s }, nil)))
	defer srv.Close()
	got, err := Snapshot(context.Background(), SnapshotOptions{URL: srv.URL, Timeout: time.Minute})
	if err != nil {
		t.Fatalf("Snapshot: %v", err)
	}
	if want := snapshotInMemory(t); !sameListing(got, want) || transportOf(got) != "sse" {
		t.Errorf("SSE snapshot:\n%s\nwant (in-memory):\n%s", got, want)
	}
	// Streamable HTTP was tried first (a POST, rejected by the SSE-only server).
	if m := log.first(); m != http.MethodPost {
		t.Errorf("first request was %q, want a streamable POST", m)
	}
}

func TestSnapshotNoFallbackWithoutServer(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there any more
	_, err := Snapshot(context.Background(), SnapshotOptions{URL: url, Timeout: time.Minute})
	if err == nil {
		t.Fatal("Snapshot of a closed port succeeded")
	}
	if strings.Contains(err.Error(), "HTTP+SSE") {
		t.Errorf("fell back to SSE on a connection error: %v", err)
	}
	if !strings.Contains(err.Error(), url) {
		t.Errorf("error does not name the URL: %v", err)
	}
}

// The strict servers exit when probed with server/discover, as go-sdk
// v1.8.0's client does by default: a plain Connect fails.
func TestStrictServerDiesOnDiscoverProbe(t *testing.T) {
	cmd, env := serverCommand(t, "strict-2025-06-18")
	c := exec.Command(cmd[0], cmd[1:]...)
	c.Env = append(os.Environ(), env...)
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: c}, nil)
	if err == nil {
		cs.Close()
		t.Fatal("default Connect to the strict server succeeded; the fallback test below proves nothing")
	}
}

func TestSnapshotStrictOldProtocolServers(t *testing.T) {
	for _, version := range []string{"2025-06-18", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			cmd, env := serverCommand(t, "strict-"+version)
			got, err := Snapshot(context.Background(), SnapshotOptions{Command: cmd, Env: env, Timeout: time.Minute})
			if err != nil {
				t.Fatalf("Snapshot: %v", err)
			}
			want := `{
  "protocolVersion": "` + version + `",
  "serverInfo": {
    "name": "strict",
    "version": "0.1"
  },
  "tools": [
    {
      "annotations": {
        "readOnlyHint": true
      },
      "inputSchema": {
        "type": "object"
      },
      "name": "alpha"
    },
    {
      "_meta": {
        "vendor/x": 1
      },
      "inputSchema": {
        "properties": {
          "s": {
            "type": "string"
          }
        },
        "type": "object"
      },
      "name": "mid",
      "outputSchema": {
        "items": {
          "type": "string"
        },
        "type": "array"
      }
    },
    {
      "description": "Last by name.",
      "execution": {
        "taskSupport": "optional"
      },
      "inputSchema": {
        "properties": {
          "n": {
            "type": "number"
          }
        },
        "type": "object"
      },
      "name": "zeta"
    }
  ],
  "transport": "stdio"
}
`
			if string(got) != want {
				t.Errorf("snapshot:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func TestSnapshotErrors(t *testing.T) {
	ctx := context.Background()
	for _, opts := range []SnapshotOptions{{}, {Command: []string{"x"}, URL: "http://localhost"}} {
		if _, err := Snapshot(ctx, opts); err == nil || !strings.Contains(err.Error(), "exactly one of") {
			t.Errorf("Snapshot(%+v) = %v, want a usage error", opts, err)
		}
	}
	missing := filepath.Join(t.TempDir(), "no-such-server")
	_, err := Snapshot(ctx, SnapshotOptions{Command: []string{missing}, Timeout: time.Minute})
	if err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("Snapshot of a missing command = %v, want an error naming it", err)
	}
	// A server that exits at once: the error carries its stderr.
	_, err = Snapshot(ctx, SnapshotOptions{Command: []string{"sh", "-c", "echo config file missing >&2; exit 1"}, Timeout: time.Minute})
	if err == nil || !strings.Contains(err.Error(), "config file missing") {
		t.Errorf("Snapshot of a failing server = %v, want its stderr in the error", err)
	}
}

func BenchmarkSnapshotTransport(b *testing.B) {
	ctx := context.Background()
	s := newSDKServer()
	for b.Loop() {
		ct, st := mcp.NewInMemoryTransports()
		ss, err := s.Connect(ctx, st, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := SnapshotTransport(ctx, ct); err != nil {
			b.Fatal(err)
		}
		ss.Close()
	}
}
