package mcpclient_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/internal/leakcheck"
	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpclient"
)

// Hostile MCP servers: a raw JSON-RPC server (not go-sdk, which would never
// misbehave) that completes the handshake properly and then answers each
// tools/call as the tool's name says:
//
//	exit      the server goes away mid-call (closes its end, or the process exits)
//	partial   half a response line, then the server goes away
//	garbage   a line that is not JSON
//	badresult a response whose result is not a CallToolResult
//	wrongid   a response to a request that was never sent
//	hang      no response at all
//	huge      a 20 MB text block (over go-sdk's 16 MiB frame limit)
//	ok        a normal text result
//
// hostileServer returns when the connection ends or after "exit".
func hostileServer(r io.Reader, w io.Writer, exit func()) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	send := func(s string) { io.WriteString(w, s+"\n") }
	for sc.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
				Name            string `json:"name"`
			} `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &req) != nil || req.ID == nil {
			continue // notifications
		}
		result := func(v string) { send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, v)) }
		switch req.Method {
		case "initialize":
			result(fmt.Sprintf(`{"protocolVersion":%q,"capabilities":{"tools":{}},"serverInfo":{"name":"hostile","version":"0"}}`, req.Params.ProtocolVersion))
			continue
		case "tools/call":
		default:
			result(`{}`)
			continue
		}
		switch req.Params.Name {
		case "exit":
			exit()
			return
		case "partial":
			io.WriteString(w, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"te`, req.ID))
			exit()
			return
		case "garbage":
			send(`}{ this is not JSON-RPC`)
		case "badresult":
			result(`{"content":"not a list","isError":"maybe"}`)
		case "wrongid":
			send(`{"jsonrpc":"2.0","id":987654,"result":{"content":[]}}`)
		case "hang":
		case "huge":
			// Written while the server goes on reading, as a real one would:
			// io.Pipe has no buffer, and the client writes when it gives up.
			go result(`{"content":[{"type":"text","text":"` + strings.Repeat("h", 20<<20) + `"}]}`)
		default:
			result(`{"content":[{"type":"text","text":"ok"}]}`)
		}
	}
}

// pipeServer connects a client session to a hostileServer over in-memory
// pipes (the go-sdk IOTransport, as for stdio).
func pipeServer(t *testing.T) *mcpclient.Client {
	t.Helper()
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		hostileServer(sr, sw, func() { sw.Close(); sr.Close() })
		sw.Close()
		sr.Close()
	}()
	cs, err := mcpclient.Connect(t.Context(), &mcp.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		<-done
	})
	return mcpclient.New(cs, quiet)
}

func call(ctx context.Context, c *mcpclient.Client, name string) error {
	_, err := mcpclient.Call[[]runtime.ContentBlock](ctx, c, &mcpclient.Tool{Name: name}, nil)
	return err
}

func TestHostileMCPServer(t *testing.T) {
	for _, tc := range []struct {
		tool string
		want error
		// gone: the session is unusable afterwards (the server is gone).
		gone bool
	}{
		{"exit", runtime.ErrTransport, true},
		{"partial", runtime.ErrTransport, true},
		{"garbage", runtime.ErrDecode, true},
		{"badresult", runtime.ErrDecode, false},
		{"huge", runtime.ErrTransport, true},
		{"wrongid", runtime.ErrTimeout, false},
		{"hang", runtime.ErrTimeout, false},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			c := pipeServer(t)
			if err := call(t.Context(), c, "ok"); err != nil {
				t.Fatalf("ok before: %v", err)
			}
			// Only the calls that get no answer wait for the deadline;
			// the others must end on their own.
			ctx := t.Context()
			if tc.want == runtime.ErrTimeout {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, 100*time.Millisecond)
				defer cancel()
			}
			err := call(ctx, c, tc.tool)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			err = call(t.Context(), c, "ok")
			if tc.gone && !errors.Is(err, runtime.ErrTransport) {
				t.Errorf("call after the server went away: %v, want TRANSPORT_ERROR", err)
			}
			if !tc.gone && err != nil {
				t.Errorf("call after: %v", err)
			}
		})
	}
}

// TestHostileMCPHelperProcess is the hostile server of TestHostileMCPProcess
// when run as a subprocess; it does nothing in a normal test run.
func TestHostileMCPHelperProcess(t *testing.T) {
	if os.Getenv("OPSGEN_HOSTILE_MCP") != "1" {
		return
	}
	hostileServer(os.Stdin, os.Stdout, func() { os.Exit(3) })
	os.Exit(0)
}

// TestHostileMCPProcess: a stdio server process that exits in the middle of
// a call (after half a response) gives a TRANSPORT_ERROR, not a hang.
func TestHostileMCPProcess(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHostileMCPHelperProcess$")
	cmd.Env = append(os.Environ(), "OPSGEN_HOSTILE_MCP=1")
	cs := connect(t, &mcp.CommandTransport{Command: cmd})
	c := mcpclient.New(cs, quiet)
	if err := call(t.Context(), c, "ok"); err != nil {
		t.Fatalf("ok before: %v", err)
	}
	if err := call(t.Context(), c, "partial"); !errors.Is(err, runtime.ErrTransport) {
		t.Fatalf("err = %v, want TRANSPORT_ERROR", err)
	}
	cs.Close()
	if code := cmd.ProcessState.ExitCode(); code != 3 {
		t.Errorf("server exit code %d, want 3 (it exited mid-call)", code)
	}
}

// TestHostileMCPNoLeaks runs every hostile exchange again and checks that
// the goroutine count settles back once the sessions are closed.
func TestHostileMCPNoLeaks(t *testing.T) {
	before := goruntime.NumGoroutine()
	for range 3 {
		t.Run("round", func(t *testing.T) {
			for _, tool := range []string{"exit", "partial", "garbage", "badresult", "huge", "wrongid", "hang"} {
				c := pipeServer(t)
				ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
				call(ctx, c, tool)
				cancel()
			}
		})
	}
	// Closed sessions' goroutines end asynchronously.
	leakcheck.Settle(t, before)
}
