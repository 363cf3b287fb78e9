package mcpclient

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Progress notifications are matched to calls by their token. The
// transports of Connect and WrapTransport read them on the wire, in the
// reading goroutine, before the result that follows them is handed to
// go-sdk: so a call's sink holds every notification sent before its result
// by the time CallTool returns. (go-sdk's own ProgressNotificationHandler
// runs on another goroutine, which may still be behind.)
//
// Tokens are unguessable, so a server cannot address another server's
// calls.
var (
	sinks       sync.Map     // token string -> *progressSink
	activeSinks atomic.Int64 // len(sinks): the wire check is skipped at 0
	tokenPrefix = newTokenPrefix()
	tokenSeq    atomic.Uint64
)

const methodProgress = "notifications/progress"

func newTokenPrefix() string {
	var b [12]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	return "opsgen-" + hex.EncodeToString(b[:]) + "-"
}

// progressSink queues the progress notifications of one call and passes
// them to its callback on a goroutine of its own.
type progressSink struct {
	tool  string
	token string

	mu     sync.Mutex
	queue  []Progress
	closed bool
	wake   chan struct{} // capacity 1
	done   chan struct{}
}

// newProgressSink registers a sink under a fresh token and starts its
// delivery goroutine; finish undoes both.
func newProgressSink(ctx context.Context, tool string, f func(context.Context, Progress)) *progressSink {
	s := &progressSink{
		tool:  tool,
		token: tokenPrefix + strconv.FormatUint(tokenSeq.Add(1), 10),
		wake:  make(chan struct{}, 1),
		done:  make(chan struct{}),
	}
	sinks.Store(s.token, s)
	activeSinks.Add(1)
	go s.run(ctx, f)
	return s
}

func (s *progressSink) push(p Progress) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.queue = append(s.queue, p)
	s.mu.Unlock()
	s.signal()
}

func (s *progressSink) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *progressSink) run(ctx context.Context, f func(context.Context, Progress)) {
	defer close(s.done)
	for range s.wake {
		s.mu.Lock()
		q, closed := s.queue, s.closed
		s.queue = nil
		s.mu.Unlock()
		for _, p := range q {
			f(ctx, p)
		}
		if closed {
			s.mu.Lock()
			empty := len(s.queue) == 0
			s.mu.Unlock()
			if empty {
				return
			}
		}
	}
}

// finish unregisters the sink, drops later notifications and waits until
// the queued ones have been delivered.
func (s *progressSink) finish() {
	sinks.Delete(s.token)
	activeSinks.Add(-1)
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.signal()
	<-s.done
}

// progressParams is the part of notifications/progress read here.
type progressParams struct {
	Token    any     `json:"progressToken"`
	Progress float64 `json:"progress"`
	Total    float64 `json:"total"`
	Message  string  `json:"message"`
}

// dispatchProgress passes msg to the sink of its token when it is a
// progress notification of a call made with WithProgress.
func dispatchProgress(msg jsonrpc.Message) {
	if activeSinks.Load() == 0 {
		return
	}
	req, ok := msg.(*jsonrpc.Request)
	if !ok || req.Method != methodProgress || req.ID.IsValid() {
		return
	}
	var p progressParams
	if json.Unmarshal(req.Params, &p) != nil {
		return
	}
	token, ok := p.Token.(string)
	if !ok {
		return
	}
	if v, ok := sinks.Load(token); ok {
		s := v.(*progressSink)
		s.push(Progress{Tool: s.tool, Progress: p.Progress, Total: p.Total, Message: p.Message})
	}
}
