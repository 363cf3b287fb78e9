package testdeps

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// ServeHTTP runs an npm MCP server's HTTP mode: argv with PORT set to a
// free port in its environment (beside env), and returns the port once the
// server says it is listening (a line holding "listening" or "running on
// port", in any case, on its standard output or error). The server is killed when the test ends.
func ServeHTTP(t testing.TB, argv, env []string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(append(os.Environ(), env...), "PORT="+port)
	r, w := io.Pipe()
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		w.Close()
		close(exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	ready := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(r)
		var said []string
		for sc.Scan() {
			if line := strings.ToLower(sc.Text()); strings.Contains(line, "listening") || strings.Contains(line, "running on port") {
				ready <- nil
				io.Copy(io.Discard, r)
				return
			}
			said = append(said, sc.Text())
		}
		ready <- fmt.Errorf("%v ended before listening: %q", argv, said)
	}()
	select {
	case err := <-ready:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatalf("%v did not start listening within a minute", argv)
	}
	return port
}
