package redisbus

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"

	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Server is a redis-server process started by StartServer, for tests and
// demos: no persistence, bound to loopback.
type Server struct {
	// Addr is the server's host:port.
	Addr string
	cmd  *exec.Cmd
	dir  string
	port int
}

// ErrNoServer is returned by StartServer when redis-server is not
// installed (Debian: apt-get install redis-server).
var ErrNoServer = errors.New("redisbus: redis-server not found in PATH")

// StartServer starts redis-server on 127.0.0.1:port (0: a free port) with
// dir as its working directory, and waits until it answers.
func StartServer(dir string, port int) (*Server, error) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return nil, ErrNoServer
	}
	if port == 0 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		port = l.Addr().(*net.TCPAddr).Port
		l.Close()
	}
	s := &Server{Addr: "127.0.0.1:" + strconv.Itoa(port), dir: dir, port: port}
	s.cmd = exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", dir, "--daemonize", "no", "--loglevel", "warning")
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("redisbus: start redis-server: %w", err)
	}
	var log strings.Builder
	go func() { // keep the pipe drained; remember the start for errors
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if log.Len() < 4096 {
				log.WriteString(sc.Text() + "\n")
			}
		}
	}()
	rdb := redis.NewClient(&redis.Options{Addr: s.Addr, MaxRetries: -1})
	defer rdb.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := rdb.Ping(ctx).Err()
		cancel()
		if err == nil {
			return s, nil
		}
		if time.Now().After(deadline) {
			s.Stop()
			return nil, fmt.Errorf("redisbus: redis-server on %s did not answer within 10s: %v", s.Addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Port returns the server's port.
func (s *Server) Port() int { return s.port }

// Stop kills the server (as a crash would: nothing is saved) and waits for
// it to exit.
func (s *Server) Stop() {
	if s.cmd.Process != nil {
		s.cmd.Process.Kill()
		s.cmd.Wait()
	}
}

// Restart stops the server and starts a new one on the same port.
func (s *Server) Restart() error {
	s.Stop()
	n, err := StartServer(s.dir, s.port)
	if err != nil {
		return err
	}
	*s = *n
	return nil
}
