package callproto_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/opsgen/opsgen/callproto"
	"github.com/opsgen/opsgen/callproto/natsbus"
	"github.com/opsgen/opsgen/callproto/redisbus"
	"github.com/opsgen/opsgen/callproto/wsbus"
	rt "github.com/opsgen/opsgen/runtime"
)

// The tests below run hubs and spokes in child processes: the test binary
// re-executed with CALLPROTO_ROLE set, running TestHelperProcess only.

func TestHelperProcess(t *testing.T) {
	role := os.Getenv("CALLPROTO_ROLE")
	if role == "" {
		return // not a child: nothing to do (this is no test of its own)
	}
	bus, err := connectBus(os.Getenv("CALLPROTO_BUS"), os.Getenv("CALLPROTO_URL"), role)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(2)
	}
	switch role {
	case "hub":
		reg := testRegistry(t, &counters{})
		pid := os.Getpid()
		reg.Register(rt.OperationSpec{ID: "hub.pid"}, func(context.Context, json.RawMessage) (any, error) { return pid, nil })
		if _, err := callproto.NewCallHandler(reg, bus, callproto.HandlerOptions{}); err != nil {
			fmt.Println("error:", err)
			os.Exit(2)
		}
		fmt.Println("ready")
		io.Copy(io.Discard, os.Stdin) // until the parent closes stdin or kills us
		os.Exit(0)
	case "envelope-hub": // TestEnvelopeAcrossProcesses's
		if _, err := callproto.NewCallHandler(apiRegistry(t, os.Getenv("ENVELOPE_API")), bus, callproto.HandlerOptions{}); err != nil {
			fmt.Println("error:", err)
			os.Exit(2)
		}
		fmt.Println("ready")
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	case "spoke-call", "spoke-subscribe":
		spoke, err := callproto.NewPendingRequestMap(bus, callproto.SpokeOptions{Heartbeat: 100 * time.Millisecond})
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(2)
		}
		fmt.Println("ready")
		if role == "spoke-call" {
			spoke.Call(context.Background(), "pets.slow", nil) // no deadline: only our death ends it
		} else {
			for env, err := range spoke.Subscribe(context.Background(), "pets.count", nil) {
				if err != nil {
					fmt.Println("error:", err)
					os.Exit(2)
				}
				fmt.Println(env.Data)
			}
		}
		os.Exit(3)
	}
	os.Exit(2)
}

// connectBus connects a child process to the broker at url: NATS (kind
// ""), Redis ("redis": url is host:port) or a WebSocket hub ("ws").
func connectBus(kind, url, name string) (callproto.Bus, error) {
	switch kind {
	case "redis":
		return redisbus.Connect(context.Background(), redisbus.Options{Addr: url})
	case "ws":
		return wsbus.Dial(context.Background(), url, wsbus.SpokeOptions{})
	}
	return natsbus.Connect(natsbus.Options{URL: url, Name: name})
}

// child starts the test binary as role, connected to url, and waits for
// its "ready" line.
func child(t *testing.T, role, url string) (*exec.Cmd, *bufio.Scanner) {
	return childOn(t, "", role, url)
}

// childOn is child on the bus of kind (see connectBus).
func childOn(t *testing.T, kind, role, url string) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "CALLPROTO_ROLE="+role, "CALLPROTO_URL="+url, "CALLPROTO_BUS="+kind)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		cmd.Process.Kill()
		cmd.Wait()
	})
	sc := bufio.NewScanner(out)
	if !sc.Scan() || sc.Text() != "ready" {
		t.Fatalf("%s did not start: %q %v", role, sc.Text(), sc.Err())
	}
	return cmd, sc
}

// Two hub processes share the requests of a spoke (queue group); every
// call is answered exactly once, typed, across processes.
func TestAcrossProcesses(t *testing.T) {
	srv, err := natsbus.StartServer("127.0.0.1", -1)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	url := srv.ClientURL()
	child(t, "hub", url)
	child(t, "hub", url)
	bus, err := natsbus.Connect(natsbus.Options{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	defer bus.Close()
	spoke, err := callproto.NewPendingRequestMap(bus, callproto.SpokeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer spoke.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	pids := map[int]int{}
	for range 60 {
		env, err := callproto.CallAs[int](ctx, spoke, "hub.pid", nil)
		if err != nil {
			t.Fatal(err)
		}
		pids[env.Data]++
	}
	if len(pids) != 2 {
		t.Fatalf("answers came from %v; want both hubs", pids)
	}
	p, err := callproto.CallAs[pet](ctx, spoke, "pets.get", map[string]int{"id": 3})
	if err != nil || p.Data != (pet{3, "pet3"}) {
		t.Fatalf("pets.get: %+v %v", p.Data, err)
	}
	// Many concurrent calls: each answered once, with its own answer.
	errs := make(chan error, 200)
	for i := range 200 {
		go func() {
			env, err := spoke.Call(ctx, "pets.echo", map[string]int{"i": i})
			if err == nil {
				if b, _ := json.Marshal(env.Data); string(b) != fmt.Sprintf(`{"i":%d}`, i) {
					err = fmt.Errorf("call %d got %s", i, b)
				}
			}
			errs <- err
		}()
	}
	for range 200 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	var got []int
	for env, err := range callproto.SubscribeAs[int](ctx, spoke, "pets.count", map[string]int{"n": 300}) {
		if err != nil {
			t.Fatal(err)
		}
		if env.Data != len(got) {
			t.Fatalf("value %d at position %d", env.Data, len(got))
		}
		got = append(got, env.Data)
	}
	if len(got) != 300 {
		t.Fatalf("got %d values", len(got))
	}
	if spoke.Pending() != 0 {
		t.Fatalf("pending = %d", spoke.Pending())
	}
}

// A spoke process killed mid-call or mid-subscription: the hub stops the
// handler when the spoke's keepalives stop.
func TestSpokeKilled(t *testing.T) {
	for _, role := range []string{"spoke-call", "spoke-subscribe"} {
		t.Run(role, func(t *testing.T) {
			hub, _, c := setup(t, callproto.HandlerOptions{}, callproto.SpokeOptions{})
			url := hubURL(t, hub)
			bus, err := natsbus.Connect(natsbus.Options{URL: url})
			if err != nil {
				t.Fatal(err)
			}
			defer bus.Close()
			cmd, out := child(t, role, url)
			spokeLivesOn(t, bus, cmd, out, role, c, hub)
		})
	}
}

var hubURLs = map[*callproto.CallHandler]string{}

func hubURL(t *testing.T, h *callproto.CallHandler) string {
	if u, ok := hubURLs[h]; ok {
		return u
	}
	t.Fatal("no URL for hub")
	return ""
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// The broker restarts while a subscription streams: the spoke gets every
// value in order, without duplicates, or a TRANSPORT_ERROR naming the
// events lost; never a silent gap. Afterwards calls work again.
func TestBrokerRestart(t *testing.T) {
	port := freePort(t)
	srv, err := natsbus.StartServer("127.0.0.1", port)
	if err != nil {
		t.Fatal(err)
	}
	url := srv.ClientURL()
	hubBus, err := natsbus.Connect(natsbus.Options{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	defer hubBus.Close()
	spokeBus, err := natsbus.Connect(natsbus.Options{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	defer spokeBus.Close()
	c := &counters{}
	hub, err := callproto.NewCallHandler(testRegistry(t, c), hubBus, callproto.HandlerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer hub.Close()
	spoke, err := callproto.NewPendingRequestMap(spokeBus, callproto.SpokeOptions{Window: 16, Heartbeat: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer spoke.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	next, restarted := 0, false
	var end error
	for env, err := range callproto.SubscribeAs[int](ctx, spoke, "pets.count", nil) {
		if err != nil {
			end = err
			break
		}
		if env.Data != next {
			t.Fatalf("got %d, want %d (a duplicate or a silent gap)", env.Data, next)
		}
		next++
		if next == 50 {
			srv.Shutdown()
			srv.WaitForShutdown()
			waitFor(t, "both connections to notice the broker is gone", func() bool {
				return !hubBus.Conn().IsConnected() && !spokeBus.Conn().IsConnected()
			})
			if srv, err = natsbus.StartServer("127.0.0.1", port); err != nil {
				t.Fatal(err)
			}
			defer srv.Shutdown()
			restarted = true
		}
		if next == 400 {
			break
		}
	}
	if !restarted {
		t.Fatalf("stream ended at %d before the restart: %v", next, end)
	}
	if end != nil && (code(end) != rt.CodeTransport || !strings.Contains(end.Error(), "lost subscription events")) {
		t.Fatalf("stream ended with %v; want values or a TRANSPORT_ERROR for lost events", end)
	}
	t.Logf("after the restart: %d values, then %v", next-50, end)
	waitFor(t, "the handler to stop", func() bool { return hub.Inflight() == 0 })
	// The spoke and hub are usable again once both have reconnected.
	waitFor(t, "calls to work again", func() bool {
		cctx, ccancel := context.WithTimeout(ctx, 200*time.Millisecond)
		defer ccancel()
		_, err := spoke.Call(cctx, "pets.echo", nil)
		return err == nil
	})
}

// A hub process killed mid-subscription: the spoke notices its call.alive
// stop and ends the subscription with a TRANSPORT_ERROR. A call that no
// hub takes fails the same way, without a deadline.
func TestHubKilled(t *testing.T) {
	srv, err := natsbus.StartServer("127.0.0.1", -1)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	hub, _ := child(t, "hub", srv.ClientURL())
	bus, err := natsbus.Connect(natsbus.Options{URL: srv.ClientURL()})
	if err != nil {
		t.Fatal(err)
	}
	defer bus.Close()
	hubKilled(t, hub, bus)
}

// The same with the hub process a spoke of a WebSocket hub, and over Redis.
func TestHubKilledOtherBuses(t *testing.T) {
	t.Run("ws", func(t *testing.T) {
		wh := wsbus.NewHub(wsbus.HubOptions{})
		hs := httptest.NewServer(wh)
		defer hs.Close()
		defer wh.Close()
		hub, _ := childOn(t, "ws", "hub", hs.URL)
		hubKilled(t, hub, wh)
	})
	t.Run("redis", func(t *testing.T) {
		srv := startRedis(t)
		hub, _ := childOn(t, "redis", "hub", srv.Addr)
		bus, err := redisbus.Connect(context.Background(), redisbus.Options{Addr: srv.Addr})
		if err != nil {
			t.Fatal(err)
		}
		defer bus.Close()
		hubKilled(t, hub, bus)
	})
}

func hubKilled(t *testing.T, hub *exec.Cmd, bus callproto.Bus) {
	const beat = 200 * time.Millisecond
	spoke, err := callproto.NewPendingRequestMap(bus, callproto.SpokeOptions{Heartbeat: beat, Window: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer spoke.Close()
	// A generous bound, so that a spoke that never notices fails the test
	// rather than hangs it: the spoke's own is 3 heartbeats.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	n := 0
	var killed time.Time
	var end error
	for _, err := range spoke.Subscribe(ctx, "pets.count", nil) {
		if err != nil {
			end = err
			break
		}
		if n++; n == 10 {
			// Dead before the next value is consumed: past the window,
			// the stream stalls.
			hub.Process.Kill()
			hub.Wait()
			killed = time.Now()
		}
	}
	if code(end) != rt.CodeTransport || !strings.Contains(end.Error(), "no hub has answered") {
		t.Fatalf("after %d values: %v, want TRANSPORT_ERROR", n, end)
	}
	t.Logf("noticed %v after the hub died", time.Since(killed))
	start := time.Now()
	if _, err := spoke.Call(ctx, "pets.echo", nil); code(err) != rt.CodeTransport {
		t.Fatalf("call without hub: %v, want TRANSPORT_ERROR", err)
	}
	t.Logf("a call without hub failed after %v", time.Since(start))
	if spoke.Pending() != 0 {
		t.Fatalf("pending = %d", spoke.Pending())
	}
}

// A spoke process killed mid-call or mid-subscription, over Redis and over
// the WebSocket hub (the hub in this process serves the call protocol's
// hub too): the handler stops when the spoke's keepalives stop. Over the
// WebSocket hub the dead spoke's connection also ends its subscriptions.
func TestSpokeKilledOtherBuses(t *testing.T) {
	for _, kind := range []string{"redis", "ws"} {
		for _, role := range []string{"spoke-call", "spoke-subscribe"} {
			t.Run(kind+"/"+role, func(t *testing.T) {
				var bus callproto.Bus
				var url string
				switch kind {
				case "redis":
					srv := startRedis(t)
					b, err := redisbus.Connect(context.Background(), redisbus.Options{Addr: srv.Addr})
					if err != nil {
						t.Fatal(err)
					}
					defer b.Close()
					bus, url = b, srv.Addr
				case "ws":
					hub := wsbus.NewHub(wsbus.HubOptions{})
					hs := httptest.NewServer(hub)
					defer hs.Close()
					defer hub.Close()
					bus, url = hub, hs.URL
				}
				c := &counters{}
				h, err := callproto.NewCallHandler(testRegistry(t, c), bus, callproto.HandlerOptions{})
				if err != nil {
					t.Fatal(err)
				}
				defer h.Close()
				cmd, out := childOn(t, kind, role, url)
				spokeLivesOn(t, bus, cmd, out, role, c, h)
			})
		}
	}
}

// spokeLivesOn checks that the handler a spoke process started on hub
// runs while the spoke lives, through more heartbeats than a hub waits
// for, and stops once the process is killed. It counts the spoke's
// keepalives on bus.
func spokeLivesOn(t *testing.T, bus callproto.Bus, cmd *exec.Cmd, out *bufio.Scanner, role string, c *counters, hub *callproto.CallHandler) {
	t.Helper()
	waitFor(t, "the handler to start", func() bool { return c.started.Load() == 1 })
	if role == "spoke-subscribe" {
		for i := 0; i < 3 && out.Scan(); i++ {
		}
	}
	// A hub stops the requests of a spoke silent for 3 heartbeats: 5 of
	// them from the live spoke, and its handler still runs.
	beats := make(chan struct{}, 64)
	sub, err := bus.Subscribe(callproto.SubjectsFor("").Control, "", func(data []byte) {
		var ctl callproto.Control
		if json.Unmarshal(data, &ctl) == nil && ctl.Type == callproto.TypeKeepalive {
			select {
			case beats <- struct{}{}:
			default:
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	for i := range 5 {
		select {
		case <-beats:
		case <-time.After(30 * time.Second):
			t.Fatalf("no keepalive %d from the spoke", i+1)
		}
	}
	if c.stopped.Load() != 0 {
		t.Fatal("the handler stopped while the spoke was alive")
	}
	cmd.Process.Kill()
	cmd.Wait()
	killed := time.Now()
	// waitFor's 30 seconds bound it: the hub's own bound is 3 heartbeats.
	waitFor(t, "the handler to stop after the spoke died", func() bool { return c.stopped.Load() == 1 && hub.Inflight() == 0 })
	t.Logf("the handler stopped %v after the spoke died", time.Since(killed))
}
