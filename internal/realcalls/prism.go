package realcalls

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// Prism is a running `prism mock` of one description.
type Prism struct {
	// URL is its base URL (http://127.0.0.1:PORT).
	URL     string
	Port    int
	cmd     *exec.Cmd
	log     *syncBuffer
	done    chan struct{}
	waitErr error
}

// listening is what Prism prints once its server accepts connections.
const listening = "Prism is listening"

// syncBuffer keeps what Prism prints (up to 4 MiB) and closes ready when
// the listening line appears in it.
type syncBuffer struct {
	mu    sync.Mutex
	b     bytes.Buffer
	ready chan struct{}
	seen  bool
}

func newSyncBuffer() *syncBuffer { return &syncBuffer{ready: make(chan struct{})} }

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.b.Len() > 4<<20 {
		return len(p), nil
	}
	from := max(0, s.b.Len()-len(listening)) // the line may straddle two writes
	s.b.Write(p)
	if !s.seen && bytes.Contains(s.b.Bytes()[from:], []byte(listening)) {
		s.seen = true
		close(s.ready)
	}
	return len(p), nil
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startAttempts is how many times StartPrism starts Prism when it exits
// before it listens: under load node may exit at start-up, and another
// process may take the free port between freePort and Prism's listen.
const startAttempts = 3

// StartPrism starts `BIN mock -h 127.0.0.1 -p PORT SPEC` on a free port
// (static mode: examples first, else data from the schema, deterministic)
// and waits until it answers, at most timeout for each attempt. When Prism
// exits before it listens it is started again on a new port, up to three
// times; when it does not listen in time, once more with twice the
// timeout (the error then wraps ErrPrismTimeout). The error gives each
// attempt's exit and the end of its output.
func StartPrism(ctx context.Context, bin, spec string, timeout time.Duration) (*Prism, error) {
	return startPrism(ctx, bin, spec, 0, timeout)
}

// StartPrismOn is StartPrism on the given port (kept across attempts).
func StartPrismOn(ctx context.Context, bin, spec string, port int, timeout time.Duration) (*Prism, error) {
	return startPrism(ctx, bin, spec, port, timeout)
}

// startPrism starts Prism on port, or on a free port per attempt when
// port is 0.
func startPrism(ctx context.Context, bin, spec string, port int, timeout time.Duration) (*Prism, error) {
	var errs []error
	timedOut := false
	for attempt := 1; attempt <= startAttempts; attempt++ {
		pt := port
		if pt == 0 {
			var err error
			if pt, err = freePort(); err != nil {
				return nil, err
			}
		}
		p, exited, err := startPrismOnce(ctx, bin, spec, pt, timeout)
		if err == nil {
			return p, nil
		}
		if ctx.Err() != nil {
			return nil, err
		}
		if !exited {
			if !errors.Is(err, ErrPrismTimeout) || timedOut {
				return nil, errors.Join(append(errs, fmt.Errorf("attempt %d: %w", attempt, err))...)
			}
			// A loaded machine (several helpers, a Go build beside) can
			// slow node's start-up past the bound: once, with twice the time.
			timedOut = true
			timeout *= 2
		}
		errs = append(errs, fmt.Errorf("attempt %d: %w", attempt, err))
	}
	return nil, fmt.Errorf("prism %s: did not start, %d times: %w", spec, startAttempts, errors.Join(errs...))
}

// ErrPrismTimeout is wrapped by the error of a Prism that did not listen
// within its start-up bound, twice (the second time with twice the bound).
var ErrPrismTimeout = errors.New("prism did not start in time")

// startPrismOnce starts Prism on port and waits for its listening line and
// then for a connection to succeed; exited reports that Prism ended
// before.
func startPrismOnce(ctx context.Context, bin, spec string, port int, timeout time.Duration) (p *Prism, exited bool, err error) {
	p = &Prism{Port: port, URL: fmt.Sprintf("http://127.0.0.1:%d", port), log: newSyncBuffer()}
	p.cmd = exec.Command(bin, "mock", "-h", "127.0.0.1", "-p", fmt.Sprint(port), spec)
	p.cmd.Stdout, p.cmd.Stderr = p.log, p.log
	// Its own process group, so that Stop ends node and nothing else.
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := p.cmd.Start(); err != nil {
		return nil, false, fmt.Errorf("start prism: %w", err)
	}
	p.done = make(chan struct{})
	go func() { p.waitErr = p.cmd.Wait(); close(p.done) }()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-p.log.ready:
	case <-p.done:
		return nil, true, fmt.Errorf("prism exited (%v): %s", p.waitErr, tail(p.log.String(), 1200))
	case <-ctx.Done():
		p.Stop()
		return nil, false, ctx.Err()
	case <-timer.C:
		p.Stop()
		return nil, false, fmt.Errorf("%w: not listening within %s: %s", ErrPrismTimeout, timeout, tail(p.log.String(), 1200))
	}
	// It says it listens: a connection confirms it (a few tries, in case
	// the line came before the socket).
	var dialErr error
	for range 5 {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 2*time.Second)
		if err == nil {
			c.Close()
			return p, false, nil
		}
		dialErr = err
		select {
		case <-p.done:
			return nil, true, fmt.Errorf("prism exited after listening (%v): %s", p.waitErr, tail(p.log.String(), 1200))
		case <-time.After(100 * time.Millisecond):
		}
	}
	p.Stop()
	return nil, false, fmt.Errorf("prism said it listens on port %d but refuses connections (%v): %s", port, dialErr, tail(p.log.String(), 1200))
}

// Alive reports whether Prism still runs.
func (p *Prism) Alive() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// Log returns what Prism printed.
func (p *Prism) Log() string { return p.log.String() }

// Stop ends Prism's process group and waits for it.
func (p *Prism) Stop() {
	if p.cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		<-p.done
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}
