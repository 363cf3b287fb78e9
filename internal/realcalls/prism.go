package realcalls

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os/exec"
	"strings"
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

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.b.Len() > 4<<20 {
		return len(p), nil
	}
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// StartPrism starts `BIN mock -h 127.0.0.1 -p PORT SPEC` on a free port
// (static mode: examples first, else data from the schema, deterministic)
// and waits until it answers, at most timeout.
func StartPrism(ctx context.Context, bin, spec string, timeout time.Duration) (*Prism, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	return StartPrismOn(ctx, bin, spec, port, timeout)
}

// StartPrismOn is StartPrism on the given port.
func StartPrismOn(ctx context.Context, bin, spec string, port int, timeout time.Duration) (*Prism, error) {
	p := &Prism{Port: port, URL: fmt.Sprintf("http://127.0.0.1:%d", port), log: &syncBuffer{}}
	p.cmd = exec.Command(bin, "mock", "-h", "127.0.0.1", "-p", fmt.Sprint(port), spec)
	p.cmd.Stdout, p.cmd.Stderr = p.log, p.log
	// Its own process group, so that Stop ends node and nothing else.
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start prism: %w", err)
	}
	p.done = make(chan struct{})
	go func() { p.waitErr = p.cmd.Wait(); close(p.done) }()
	deadline := time.Now().Add(timeout)
	for {
		select {
		case <-p.done:
			return nil, fmt.Errorf("prism exited (%v): %s", p.waitErr, tail(p.log.String(), 1200))
		case <-ctx.Done():
			p.Stop()
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
		if strings.Contains(p.log.String(), "Prism is listening") {
			c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
			if err == nil {
				c.Close()
				return p, nil
			}
		}
		if time.Now().After(deadline) {
			p.Stop()
			return nil, fmt.Errorf("prism did not start within %s: %s", timeout, tail(p.log.String(), 1200))
		}
	}
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
