package callproto_test

// Fault tests with a checker (checker_test.go): a hub process serves an
// idempotency-keyed counter and a numbered stream over NATS while faults
// strike, a spoke in the test drives mutations (retrying, with the same
// request id, every attempt that got no hub's answer) and subscriptions,
// and the checker proves that no call ran twice, that every call that ran
// is accounted for, and that no stream lost values silently. Scenarios: a
// partition between the spoke and the broker (a TCP proxy that drops the
// connections, or blackholes them), the hub paused past its heartbeat
// (SIGSTOP; and one of two hubs sharing a duplicate record), the broker
// killed and restarted, and a spoke whose clock is skewed against the
// deadline.
//
// go test runs FAULTS_N mutations per scenario (default 300) on NATS;
// `make faults` runs thousands, on NATS and Redis.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/opsgen/opsgen/callproto"
	"github.com/opsgen/opsgen/callproto/internal/faultproxy"
	"github.com/opsgen/opsgen/callproto/natsbus"
	"github.com/opsgen/opsgen/callproto/redisbus"
	rt "github.com/opsgen/opsgen/runtime"
)

const (
	faultsPrefix  = "faults"
	faultsBeat    = 100 * time.Millisecond // the spokes' heartbeat: a silent hub is noticed after 3
	faultsWorkers = 16                     // concurrent mutations
	faultsAttempt = 3 * time.Second        // each attempt's deadline
	faultsTicks   = 100                    // values per subscription
)

// faultsN is the number of mutations per scenario: FAULTS_N, or 300.
func faultsN(t *testing.T) int {
	s := os.Getenv("FAULTS_N")
	if s == "" {
		return 300
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 10 {
		t.Fatalf("FAULTS_N=%q: want a number of mutations, at least 10", s)
	}
	return n
}

// hubStride separates the counters of several hub processes: hub i
// counts from i*hubStride.
const hubStride = 1_000_000_000

// faultsRegistry holds the operations of the fault tests: faults.incr, a
// counter increment (from base) keyed by {"key"} whose runs report calls
// (the idempotency record the checker reads), faults.ticks, a stream of
// the numbers 0 to n-1, and faults.wait, which runs until its context ends.
func faultsRegistry(base int64, report func(key string, n int64)) *rt.Registry {
	reg := rt.NewRegistry(nil)
	var mu sync.Mutex
	counter := base
	reg.Register(rt.OperationSpec{
		ID: "faults.incr", Kind: rt.KindMutation, Method: "POST",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"key":{"type":"string","minLength":1}},"required":["key"]}`),
	}, func(ctx context.Context, in json.RawMessage) (any, error) {
		var q struct{ Key string }
		if err := json.Unmarshal(in, &q); err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err // not run: the caller gave up, or the deadline passed
		}
		mu.Lock()
		defer mu.Unlock()
		counter++
		report(q.Key, counter) // committed: reported before the answer leaves
		return counter, nil
	})
	reg.RegisterSubscription(rt.OperationSpec{ID: "faults.ticks"}, func(ctx context.Context, in []byte) iter.Seq2[any, error] {
		var q struct{ N int }
		json.Unmarshal(in, &q)
		return func(yield func(any, error) bool) {
			for i := 0; i < q.N && ctx.Err() == nil; i++ {
				if !yield(i, nil) {
					return
				}
			}
		}
	})
	reg.Register(rt.OperationSpec{ID: "faults.wait"}, func(ctx context.Context, _ json.RawMessage) (any, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	return reg
}

// TestFaultsHelper is the fault tests' child processes (FAULTS_ROLE):
// "broker", an embedded NATS server on FAULTS_PORT; "hub", a CallHandler
// of faultsRegistry connected to FAULTS_URL, printing "ran <key> <value>"
// for each run of faults.incr, and "answered <requestId>" for each
// call.responded or call.error it publishes (a second one for a request is
// a replay from the duplicate record). Each prints "ready", then runs
// until its stdin closes.
func TestFaultsHelper(t *testing.T) {
	switch os.Getenv("FAULTS_ROLE") {
	case "":
		return // not a child
	case "broker":
		port, _ := strconv.Atoi(os.Getenv("FAULTS_PORT"))
		srv, err := natsbus.StartServer("127.0.0.1", port)
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(2)
		}
		fmt.Println("ready")
		io.Copy(io.Discard, os.Stdin)
		srv.Shutdown()
		os.Exit(0)
	case "hub":
		bus, err := connectFaultBus(os.Getenv("FAULTS_BUS"), os.Getenv("FAULTS_URL"), false)
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(2)
		}
		index, _ := strconv.ParseInt(os.Getenv("FAULTS_HUB"), 10, 64)
		reg := faultsRegistry(index*hubStride, func(key string, n int64) { fmt.Printf("ran %s %d\n", key, n) })
		quiet := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})) // publish failures are the point
		opts := callproto.HandlerOptions{Prefix: faultsPrefix, Logger: quiet}
		if os.Getenv("FAULTS_SHARED") != "" {
			d, err := natsbus.NewDedupe(context.Background(), bus.(*natsbus.Bus), natsbus.DedupeOptions{Bucket: "faults"})
			if err != nil {
				fmt.Println("error:", err)
				os.Exit(2)
			}
			opts.SharedDedupe = d
		}
		h, err := callproto.NewCallHandler(reg, tapAnswers(bus), opts)
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(2)
		}
		fmt.Println("ready")
		io.Copy(io.Discard, os.Stdin)
		h.Close()
		bus.(io.Closer).Close()
		os.Exit(0)
	}
	os.Exit(2)
}

// answerTap prints "answered <requestId>" for each call.responded and
// call.error published.
type answerTap struct{ callproto.Bus }

// workerAnswerTap is an answerTap of a Bus that is a WorkerSubscriber,
// which it stays, so that the hub takes the path it takes on that Bus.
type workerAnswerTap struct {
	answerTap
	callproto.WorkerSubscriber
}

func tapAnswers(b callproto.Bus) callproto.Bus {
	if ws, ok := b.(callproto.WorkerSubscriber); ok {
		return workerAnswerTap{answerTap{b}, ws}
	}
	return answerTap{b}
}

func (b answerTap) Publish(ctx context.Context, subject string, data []byte) error {
	var ev struct {
		Type      string
		RequestID string
	}
	if json.Unmarshal(data, &ev) == nil && (ev.Type == callproto.TypeResponded || ev.Type == callproto.TypeError) {
		fmt.Printf("answered %s\n", ev.RequestID)
	}
	return b.Bus.Publish(ctx, subject, data)
}

// embeddedNATS is a bus on an embedded NATS server of its own, closed
// when the test ends.
func embeddedNATS(t *testing.T) *natsbus.Bus {
	t.Helper()
	b, err := natsbus.Connect(natsbus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// faultChild is a child process of TestFaultsHelper.
type faultChild struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	eof   chan struct{} // closed when its stdout ends
	wait  sync.Once
}

// startFaultChild starts a child with env (FAULTS_ROLE=...), feeding the
// runs it reports to chk, and waits for it to be ready.
func startFaultChild(t *testing.T, chk *checker, env ...string) *faultChild {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestFaultsHelper$")
	cmd.Env = append(os.Environ(), env...)
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
	c := &faultChild{cmd: cmd, stdin: stdin, eof: make(chan struct{})}
	t.Cleanup(c.kill)
	ready := make(chan string, 1)
	go func() {
		defer close(c.eof)
		sc := bufio.NewScanner(out)
		first := true
		for sc.Scan() {
			if first {
				first = false
				ready <- sc.Text()
				continue
			}
			var key string
			var n int64
			if chk == nil {
				continue
			}
			if _, err := fmt.Sscanf(sc.Text(), "ran %s %d", &key, &n); err == nil {
				chk.ran(key, n)
			} else if _, err := fmt.Sscanf(sc.Text(), "answered %s", &key); err == nil {
				chk.answered(key)
			}
		}
		if first {
			ready <- "(no output)"
		}
	}()
	select {
	case line := <-ready:
		if line != "ready" {
			t.Fatalf("child %v did not start: %s", env, line)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("child %v did not start within 30s", env)
	}
	return c
}

// stop closes the child's stdin and waits for it to exit, having
// reported every run.
func (c *faultChild) stop(t *testing.T) {
	t.Helper()
	c.stdin.Close()
	select {
	case <-c.eof:
	case <-time.After(30 * time.Second):
		t.Error("a child did not exit within 30s of its stdin closing")
	}
	c.kill()
}

// kill ends the child at once (SIGKILL) and reaps it.
func (c *faultChild) kill() {
	c.wait.Do(func() {
		c.cmd.Process.Kill()
		<-c.eof
		c.cmd.Wait()
	})
}

func (c *faultChild) signal(t *testing.T, s syscall.Signal) {
	t.Helper()
	if err := c.cmd.Process.Signal(s); err != nil {
		t.Fatalf("%v: %v", s, err)
	}
}

// faultSpoke connects a spoke to the broker of kind at addr (see
// connectFaultBus).
func faultSpoke(t *testing.T, kind, addr string, proxied bool) *callproto.PendingRequestMap {
	t.Helper()
	bus, err := connectFaultBus(kind, addr, proxied)
	if err != nil {
		t.Fatal(err)
	}
	spoke, err := callproto.NewPendingRequestMap(bus, callproto.SpokeOptions{Prefix: faultsPrefix, Heartbeat: faultsBeat, Window: 16})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		spoke.Close()
		bus.(io.Closer).Close()
	})
	return spoke
}

// driveOptions shape one drive.
type driveOptions struct {
	name    string // prefix of the mutations' keys
	n       int    // mutations
	streams int    // subscriptions per subscriber, run to their end (0: until the mutations are done)
}

// drive runs o.n mutations, faultsWorkers at a time, and two subscribers
// looping over streams on spoke, and meanwhile calls inject (faults) in
// the test's goroutine. It returns when the mutations are done (each
// answered by a hub, or the test's time is up) and the subscribers have
// stopped.
func drive(t *testing.T, chk *checker, spoke *callproto.PendingRequestMap, o driveOptions, inject func()) {
	t.Helper()
	limit := 2*time.Minute + time.Duration(o.n)*10*time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	var next atomic.Int64
	var workers, subscribers sync.WaitGroup
	for range faultsWorkers {
		workers.Go(func() {
			for i := next.Add(1); i <= int64(o.n) && ctx.Err() == nil; i = next.Add(1) {
				chk.mutate(ctx, spoke, fmt.Sprintf("%s-%d", o.name, i), faultsAttempt)
			}
		})
	}
	subCtx, stopSubs := context.WithCancel(ctx)
	for range 2 {
		subscribers.Go(func() {
			for k := 0; subCtx.Err() == nil && (o.streams == 0 || k < o.streams); k++ {
				chk.subscribe(subCtx, spoke, faultsTicks)
			}
		})
	}
	if inject != nil {
		inject()
	}
	workers.Wait()
	if o.streams == 0 {
		stopSubs()
	}
	subscribers.Wait()
	stopSubs()
	if ctx.Err() != nil {
		t.Errorf("%s: the mutations did not finish within %v", o.name, limit)
	}
}

// faultPoints are the numbers of answered mutations at which to strike:
// three, or one per 500 mutations.
func faultPoints(n int) []int {
	k := max(3, n/500)
	var at []int
	for i := 1; i <= k; i++ {
		at = append(at, i*n/(k+1))
	}
	return at
}

// strike calls fault at each of faultPoints(n), waits until the spoke has
// felt it (an attempt or a stream ended without a hub's answer), then
// calls heal.
func strike(t *testing.T, chk *checker, n int, fault, heal func()) {
	t.Helper()
	for _, at := range faultPoints(n) {
		chk.await(t, fmt.Sprintf("%d mutations answered", at), 2*time.Minute, func() bool { return chk.resolvedCalls() >= at })
		chk.mu.Lock()
		felt := chk.ambiguous + sum(chk.surfaced)
		chk.mu.Unlock()
		fault()
		chk.await(t, "the spoke to feel the fault", 30*time.Second, func() bool { return chk.ambiguous+sum(chk.surfaced) > felt })
		heal()
	}
}

// faultBuses are the brokers the scenarios run on: NATS, and with FAULTS_N
// set (make faults) Redis too, when redis-server is installed (make redis;
// required under CI). (Redis stays out of go test's short run to keep it
// short: its blackhole alone takes some 20s, its client noticing nothing
// until the partition heals.)
func faultBuses(t *testing.T) []string {
	if os.Getenv("FAULTS_N") == "" {
		return []string{"nats"}
	}
	if _, err := exec.LookPath("redis-server"); err != nil && os.Getenv("CI") == "" {
		t.Log("redis-server is not installed (make redis): the scenarios run on NATS only")
		return []string{"nats"}
	}
	return []string{"nats", "redis"}
}

// faultBroker is a scenario's broker, in a process of its own: an
// embedded NATS server in a TestFaultsHelper child, or redis-server.
type faultBroker struct {
	kind  string
	addr  string // host:port
	kill  func() // as a crash would: nothing is kept
	start func() // again, on the same port
}

func startBroker(t *testing.T, kind string) *faultBroker {
	t.Helper()
	b := &faultBroker{kind: kind}
	switch kind {
	case "nats":
		port := freePort(t)
		env := []string{"FAULTS_ROLE=broker", "FAULTS_PORT=" + strconv.Itoa(port)}
		var child *faultChild
		b.addr = fmt.Sprintf("127.0.0.1:%d", port)
		b.start = func() { child = startFaultChild(t, nil, env...) }
		b.kill = func() { child.kill() }
	case "redis":
		dir := t.TempDir()
		srv, err := redisbus.StartServer(dir, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { srv.Stop() })
		b.addr, b.kill = srv.Addr, srv.Stop
		port := srv.Port()
		b.start = func() {
			n, err := redisbus.StartServer(dir, port)
			if err != nil {
				t.Fatal(err)
			}
			*srv = *n
		}
		return b
	default:
		t.Fatalf("no broker %q", kind)
	}
	b.start()
	return b
}

// connectFaultBus connects to the broker of kind at addr. Through a proxy
// (partitions), a NATS client pings every 100ms and gives a connection up
// after two unanswered pings, so that it notices a blackhole.
func connectFaultBus(kind, addr string, proxied bool) (callproto.Bus, error) {
	if kind == "redis" {
		return redisbus.Connect(context.Background(), redisbus.Options{Addr: addr})
	}
	var opts []nats.Option
	if proxied {
		opts = append(opts, nats.PingInterval(100*time.Millisecond), nats.MaxPingsOutstanding(2))
	}
	return natsbus.Connect(natsbus.Options{URL: "nats://" + addr, NATS: opts})
}

// startFaultHub starts a hub process on the broker, reporting to chk.
func startFaultHub(t *testing.T, chk *checker, b *faultBroker) *faultChild {
	t.Helper()
	return startFaultChild(t, chk, "FAULTS_ROLE=hub", "FAULTS_BUS="+b.kind, "FAULTS_URL="+b.addr)
}

// A partition between the spoke and the broker: a proxy the test controls
// cuts the spoke's connections and refuses new ones (drop), or holds
// everything either way sends (blackhole: the spoke's NATS client notices
// the silence by its pings and reconnects, into the blackhole too, until
// it heals and the bytes held go on), then heals.
func TestFaultsPartition(t *testing.T) {
	n := faultsN(t)
	for _, kind := range faultBuses(t) {
		for _, mode := range []string{"drop", "blackhole"} {
			t.Run(kind+"/"+mode, func(t *testing.T) {
				broker := startBroker(t, kind)
				chk := newChecker()
				hub := startFaultHub(t, chk, broker)
				proxy, err := faultproxy.New(broker.addr)
				if err != nil {
					t.Fatal(err)
				}
				defer proxy.Close()
				spoke := faultSpoke(t, kind, proxy.Addr(), true)
				fault := proxy.Drop
				if mode == "blackhole" {
					fault = proxy.Blackhole
				}
				drive(t, chk, spoke, driveOptions{name: "partition-" + mode, n: n}, func() { strike(t, chk, n, fault, proxy.Heal) })
				hub.stop(t)
				s := chk.verify(t, "partition/"+kind+"/"+mode)
				if s.ambiguous == 0 && sum(chk.surfaced) == 0 {
					t.Error("the partitions went unnoticed")
				}
				if proxy.Accepted() < 2 {
					t.Errorf("the spoke connected %d times through the proxy; the partitions should have made it reconnect", proxy.Accepted())
				}
			})
		}
	}
}

// The hub process paused (SIGSTOP) past three of the spoke's heartbeats:
// the spoke gives its calls and streams up as TRANSPORT_ERRORs; resumed
// (SIGCONT), the hub works through what queued meanwhile, duplicates
// included, and the retries get its answers.
func TestFaultsHubPaused(t *testing.T) {
	n := faultsN(t)
	for _, kind := range faultBuses(t) {
		t.Run(kind, func(t *testing.T) {
			broker := startBroker(t, kind)
			chk := newChecker()
			hub := startFaultHub(t, chk, broker)
			spoke := faultSpoke(t, kind, broker.addr, false)
			drive(t, chk, spoke, driveOptions{name: "paused", n: n}, func() {
				strike(t, chk, n, func() { hub.signal(t, syscall.SIGSTOP) }, func() { hub.signal(t, syscall.SIGCONT) })
			})
			hub.stop(t)
			s := chk.verify(t, "hub-paused/"+kind)
			if s.ambiguous == 0 {
				t.Error("no call noticed the paused hub")
			}
		})
	}
}

// Two hub processes share a duplicate record (JetStream key-value, see
// HandlerOptions.SharedDedupe), and one is paused (SIGSTOP) past three
// heartbeats with requests in hand: the retries go to either hub, and
// none runs a request the other ran or holds.
func TestFaultsHubPausedShared(t *testing.T) {
	n := faultsN(t)
	srv, err := natsbus.StartJetStreamServer("127.0.0.1", -1, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	chk := newChecker()
	var hubs []*faultChild
	for i := range 2 {
		hubs = append(hubs, startFaultChild(t, chk, "FAULTS_ROLE=hub", "FAULTS_BUS=nats", "FAULTS_URL="+srv.Addr().String(),
			"FAULTS_SHARED=1", "FAULTS_HUB="+strconv.Itoa(i)))
	}
	spoke := faultSpoke(t, "nats", srv.Addr().String(), false)
	drive(t, chk, spoke, driveOptions{name: "paused-shared", n: n}, func() {
		strike(t, chk, n, func() { hubs[0].signal(t, syscall.SIGSTOP) }, func() { hubs[0].signal(t, syscall.SIGCONT) })
	})
	for _, h := range hubs {
		h.stop(t)
	}
	s := chk.verify(t, "hub-paused-shared")
	if s.ambiguous == 0 {
		t.Error("no call noticed the paused hub")
	}
	chk.mu.Lock()
	defer chk.mu.Unlock()
	ran := map[int64]int{}
	for _, runs := range chk.runs {
		for _, v := range runs {
			ran[v/hubStride]++
		}
	}
	if ran[0] == 0 || ran[1] == 0 {
		t.Errorf("runs per hub %v; want both hubs to have served", ran)
	}
}

// The broker (a process of its own) killed and restarted on its port with
// calls and subscriptions in flight: every other time right away, as a
// supervisor would, and otherwise after the spoke has noticed the outage.
func TestFaultsBrokerRestart(t *testing.T) {
	n := faultsN(t)
	for _, kind := range faultBuses(t) {
		t.Run(kind, func(t *testing.T) {
			broker := startBroker(t, kind)
			chk := newChecker()
			hub := startFaultHub(t, chk, broker)
			spoke := faultSpoke(t, kind, broker.addr, false)
			restarts := 0
			drive(t, chk, spoke, driveOptions{name: "restart", n: n}, func() {
				for i, at := range faultPoints(n) {
					chk.await(t, fmt.Sprintf("%d mutations answered", at), 2*time.Minute, func() bool { return chk.resolvedCalls() >= at })
					chk.mu.Lock()
					felt := chk.ambiguous + sum(chk.surfaced)
					chk.mu.Unlock()
					broker.kill()
					if i%2 == 1 {
						chk.await(t, "the spoke to feel the outage", 30*time.Second, func() bool { return chk.ambiguous+sum(chk.surfaced) > felt })
					}
					broker.start()
					restarts++
				}
			})
			hub.stop(t)
			s := chk.verify(t, "broker-restart/"+kind)
			t.Logf("broker-restart/%s: %d restarts", kind, restarts)
			if s.successes == 0 {
				t.Error("nothing succeeded")
			}
		})
	}
}

// A spoke whose wall clock is skewed against the deadline it stamps on its
// requests (the one clock that crosses the wire; the seam is
// callproto.SetClockSkew). Behind by more than the deadline, its requests
// arrive already expired: the hub answers TIMEOUT without running them,
// and the spoke sees that error at once, as a hub's answer. Ahead, the hub
// gives the handler more time than the caller waits: every call succeeds.
func TestFaultsClockSkew(t *testing.T) {
	n := faultsN(t)
	srv, err := natsbus.StartServer("127.0.0.1", -1)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	chk := newChecker()
	hub := startFaultHub(t, chk, &faultBroker{kind: "nats", addr: srv.Addr().String()})
	behind := faultSpoke(t, "nats", srv.Addr().String(), false)
	callproto.SetClockSkew(behind, -10*time.Minute) // past every deadline drive sets
	ahead := faultSpoke(t, "nats", srv.Addr().String(), false)
	callproto.SetClockSkew(ahead, 10*time.Minute)
	drive(t, chk, behind, driveOptions{name: "behind", n: n / 2, streams: 3}, nil)
	drive(t, chk, ahead, driveOptions{name: "ahead", n: n - n/2, streams: 3}, nil)
	hub.stop(t)
	s := chk.verify(t, "clock-skew")

	chk.mu.Lock()
	defer chk.mu.Unlock()
	if got := s.errorCodes[rt.CodeTimeout]; got != n/2 || s.errors != n/2 {
		t.Errorf("behind: %d TIMEOUT of %d errors; want all %d mutations to time out on the hub", got, s.errors, n/2)
	}
	if s.successes != n-n/2 || s.runs != n-n/2 {
		t.Errorf("ahead: %d succeeded, %d ran; want %d", s.successes, s.runs, n-n/2)
	}
	if s.ambiguous != 0 {
		t.Errorf("%d attempts got no hub's answer; a skewed deadline is answered at once", s.ambiguous)
	}
	if chk.surfaced[rt.CodeTimeout] != 6 || chk.completed != 6 {
		t.Errorf("subscriptions: %d ended with TIMEOUT, %d completed; want 6 of each (behind, ahead)", chk.surfaced[rt.CodeTimeout], chk.completed)
	}
}

// WithRequestID: a call retried with the same request id is answered from
// the hub's duplicate record instead of running again, and an id pending
// on the spoke is refused.
func TestWithRequestID(t *testing.T) {
	bus := embeddedNATS(t)
	var mu sync.Mutex
	runs := map[string]int{}
	reg := faultsRegistry(0, func(key string, _ int64) {
		mu.Lock()
		runs[key]++
		mu.Unlock()
	})
	hub, err := callproto.NewCallHandler(reg, bus, callproto.HandlerOptions{Prefix: faultsPrefix})
	if err != nil {
		t.Fatal(err)
	}
	defer hub.Close()
	spoke, err := callproto.NewPendingRequestMap(bus, callproto.SpokeOptions{Prefix: faultsPrefix})
	if err != nil {
		t.Fatal(err)
	}
	defer spoke.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	for _, key := range []string{"a", "b", "a", "a", "b"} {
		env, err := callproto.CallAs[int64](ctx, spoke, "faults.incr", map[string]string{"key": key}, callproto.WithRequestID("id-"+key))
		want := int64(1)
		if key == "b" {
			want = 2
		}
		if err != nil || env.Data != want {
			t.Fatalf("%s: %v %v, want %d (the first run's answer)", key, env.Data, err, want)
		}
	}
	if runs["a"] != 1 || runs["b"] != 1 {
		t.Fatalf("runs %v, want one each", runs)
	}

	// An id already pending on the spoke is refused, and leaves the
	// pending call alone.
	wctx, wcancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := spoke.Call(wctx, "faults.wait", nil, callproto.WithRequestID("w"))
		done <- err
	}()
	waitFor(t, "the call to wait", func() bool { return hub.Inflight() == 1 })
	if _, err := spoke.Call(ctx, "faults.wait", nil, callproto.WithRequestID("w")); code(err) != rt.CodeValidation {
		t.Fatalf("a pending id again: %v, want VALIDATION_ERROR", err)
	}
	if _, err := spoke.Call(ctx, "faults.wait", nil, callproto.WithRequestID("")); code(err) != rt.CodeValidation {
		t.Fatalf("an empty id: %v, want VALIDATION_ERROR", err)
	}
	wcancel()
	if err := <-done; code(err) != rt.CodeCanceled {
		t.Fatalf("the pending call: %v, want CANCELED", err)
	}
}

// stuckBus is a Bus whose publishes to one subject block until released,
// as natsbus's do while nats.go holds its lock through a reconnection's
// handshake (up to its connect timeout, again for every attempt while a
// partition lasts).
type stuckBus struct {
	callproto.Bus
	subject string
	release chan struct{}
}

func (b *stuckBus) Publish(ctx context.Context, subject string, data []byte) error {
	if subject == b.subject {
		<-b.release
	}
	return b.Bus.Publish(ctx, subject, data)
}

// A keepalive whose Publish blocks does not hold up the spoke's liveness
// check: a call no hub answers still fails with TRANSPORT_ERROR after
// three silent heartbeats, not when the publish returns. (The check and
// the publish shared a goroutine: found by TestFaultsPartition/blackhole,
// where it took the connect timeout, 2s, instead of 300ms.)
func TestKeepaliveBlocked(t *testing.T) {
	nb := embeddedNATS(t)
	bus := &stuckBus{Bus: nb, subject: callproto.SubjectsFor(faultsPrefix).Control, release: make(chan struct{})}
	spoke, err := callproto.NewPendingRequestMap(bus, callproto.SpokeOptions{Prefix: faultsPrefix, Heartbeat: faultsBeat})
	if err != nil {
		t.Fatal(err)
	}
	defer spoke.Close()
	unstick := sync.OnceFunc(func() { close(bus.release) })
	defer unstick() // before Close, which waits for the keepalive being published
	// No hub: the first keepalive blocks, and the call must still fail.
	done := make(chan error, 1)
	go func() {
		_, err := spoke.Call(context.Background(), "faults.incr", map[string]string{"key": "k"})
		done <- err
	}()
	select {
	case err := <-done:
		if code(err) != rt.CodeTransport {
			t.Fatalf("a call no hub answers, the keepalive stuck: %v, want TRANSPORT_ERROR", err)
		}
	case <-time.After(20 * time.Second): // 3 heartbeats are 300ms
		t.Error("a call no hub answers still waits 20s later, its keepalive stuck")
		unstick()
		<-done
	}
}

// tapBus counts the events of one type a Bus publishes, and drops them
// when drop is set.
type tapBus struct {
	callproto.Bus
	typ  string
	drop bool
	mu   sync.Mutex
	seen []string // the events of typ published (or dropped)
}

func (b *tapBus) Publish(ctx context.Context, subject string, data []byte) error {
	var ev struct{ Type string }
	if json.Unmarshal(data, &ev) == nil && ev.Type == b.typ {
		b.mu.Lock()
		b.seen = append(b.seen, string(data))
		b.mu.Unlock()
		if b.drop {
			return nil
		}
	}
	return b.Bus.Publish(ctx, subject, data)
}

// A call whose hub goes silent (its call.alive lost) fails with
// TRANSPORT_ERROR without cancelling it on the hub, so that the hub runs it
// to its end and a retry with the same request id gets its answer, not
// CANCELED for a call that never ran. (Found by TestFaultsPartition: the
// call.canceled of a failed attempt reached the hub with the request, and
// its retry was answered CANCELED from the duplicate record.)
func TestRetryAfterSilence(t *testing.T) {
	nb := embeddedNATS(t)
	hubBus := &tapBus{Bus: nb, typ: callproto.TypeAlive, drop: true} // the hub's call.alive never arrive
	spokeBus := &tapBus{Bus: nb, typ: callproto.TypeCanceled}
	gate := make(chan struct{})
	var runs atomic.Int64
	reg := rt.NewRegistry(nil)
	reg.Register(rt.OperationSpec{ID: "t.gated", Kind: rt.KindMutation}, func(ctx context.Context, _ json.RawMessage) (any, error) {
		select {
		case <-gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return runs.Add(1), nil
	})
	hub, err := callproto.NewCallHandler(reg, hubBus, callproto.HandlerOptions{Prefix: faultsPrefix})
	if err != nil {
		t.Fatal(err)
	}
	defer hub.Close()
	spoke, err := callproto.NewPendingRequestMap(spokeBus, callproto.SpokeOptions{Prefix: faultsPrefix, Heartbeat: faultsBeat})
	if err != nil {
		t.Fatal(err)
	}
	defer spoke.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	if _, err := spoke.Call(ctx, "t.gated", nil, callproto.WithRequestID("r")); code(err) != rt.CodeTransport {
		t.Fatalf("a call whose hub went silent: %v, want TRANSPORT_ERROR", err)
	}
	hubBus.mu.Lock()
	alive := len(hubBus.seen)
	hubBus.mu.Unlock()
	if alive == 0 || hub.Inflight() != 1 {
		t.Fatalf("the hub sent %d call.alive and runs %d requests; want the call running, unheard", alive, hub.Inflight())
	}
	close(gate)
	env, err := callproto.CallAs[int64](ctx, spoke, "t.gated", nil, callproto.WithRequestID("r"))
	if err != nil || env.Data != 1 {
		t.Fatalf("the retry: %v %v, want the first run's answer 1", env.Data, err)
	}
	spoke.Close() // publishes the control events still queued
	spokeBus.mu.Lock()
	defer spokeBus.mu.Unlock()
	if len(spokeBus.seen) != 0 || runs.Load() != 1 {
		t.Fatalf("the spoke sent %v; the handler ran %d times", spokeBus.seen, runs.Load())
	}
}
