package realcalls

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/httpclient"
)

// Registrar is a generated client: it registers its operations.
type Registrar interface {
	Register(r *runtime.Registry) error
}

// Target is one generated client the caller program drives. The caller's
// generated main lists one per package (see WriteCaller).
type Target struct {
	// Package is the generated package's name (s0000...).
	Package string
	// Schemes are the package's security schemes (its securitySchemes).
	Schemes []httpclient.SecurityScheme
	// New creates the client with the options.
	New func(opts ...httpclient.Option) Registrar
}

// PlanSpec is one spec of a Plan.
type PlanSpec struct {
	Name    string `json:"name"`
	Path    string `json:"path"`
	Package string `json:"package"`
	// SpecOps counts the operations of the description.
	SpecOps int `json:"specOps"`
}

// Plan is what the caller program does: the specs (generated and built),
// Prism, the seed, and where to write results.
type Plan struct {
	Prism        string        `json:"prism"`
	Seed         uint64        `json:"seed"`
	Specs        []PlanSpec    `json:"specs"`
	Out          string        `json:"out"`
	CallTimeout  time.Duration `json:"callTimeout"`
	StartTimeout time.Duration `json:"startTimeout"`
}

// CallerMain is the main of the generated caller program: it reads the
// plan (-plan FILE), runs every spec and writes the SpecRun results as JSON
// to the plan's Out. It returns the exit code.
func CallerMain(targets []Target) int {
	fs := flag.NewFlagSet("caller", flag.ContinueOnError)
	planPath := fs.String("plan", "", "plan file (JSON)")
	verbose := fs.Bool("v", false, "progress on stderr")
	if err := fs.Parse(os.Args[1:]); err != nil {
		return 2
	}
	data, err := os.ReadFile(*planPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "caller:", err)
		return 2
	}
	var plan Plan
	if err := json.Unmarshal(data, &plan); err != nil {
		fmt.Fprintln(os.Stderr, "caller: plan:", err)
		return 2
	}
	byPkg := map[string]Target{}
	for _, t := range targets {
		byPkg[t.Package] = t
	}
	if plan.StartTimeout <= 0 {
		plan.StartTimeout = 2 * time.Minute
	}
	// Prism takes seconds to start (more on a loaded machine): the next
	// specs' start while the current one's calls run.
	type started struct {
		p   *Prism
		err error
	}
	start := func(s PlanSpec) <-chan started {
		ch := make(chan started, 1)
		go func() {
			p, err := StartPrism(context.Background(), plan.Prism, s.Path, plan.StartTimeout)
			ch <- started{p, err}
		}()
		return ch
	}
	// Up to lookahead Prisms start ahead of the spec whose calls run.
	const lookahead = 3
	var runs []SpecRun
	pending := make([]<-chan started, len(plan.Specs))
	for i := 0; i < len(plan.Specs) && i < lookahead; i++ {
		pending[i] = start(plan.Specs[i])
	}
	for i, s := range plan.Specs {
		cur := <-pending[i]
		if j := i + lookahead; j < len(plan.Specs) {
			pending[j] = start(plan.Specs[j])
		}
		t, ok := byPkg[s.Package]
		if !ok {
			if cur.p != nil {
				cur.p.Stop()
			}
			runs = append(runs, SpecRun{Spec: s, Outcome: "not built"})
			continue
		}
		run := RunSpec(context.Background(), plan, s, t, cur.p, cur.err)
		if *verbose {
			fmt.Fprintf(os.Stderr, "[%d/%d] %s: %s, %d calls %v\n", i+1, len(plan.Specs), s.Name, run.Outcome, len(run.Calls), run.Counts())
		}
		runs = append(runs, run)
	}
	out, err := json.MarshalIndent(runs, "", "  ")
	if err == nil {
		err = os.WriteFile(plan.Out, out, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "caller:", err)
		return 2
	}
	return 0
}

// SpecRun is what happened to one spec.
type SpecRun struct {
	Spec PlanSpec `json:"spec"`
	// Outcome is "ran", or why no call was made ("prism failed", "register failed", ...).
	Outcome string `json:"outcome"`
	Reason  string `json:"reason,omitempty"`
	// Fault blames a spec-level failure (see Fault).
	Fault      Fault   `json:"fault,omitempty"`
	Registered int     `json:"registered"`
	Calls      []*Call `json:"calls,omitempty"`
	// Seconds is the wall time, Prism's start-up included.
	Seconds float64 `json:"seconds"`
}

// Counts returns the number of calls by class.
func (r SpecRun) Counts() map[Class]int {
	m := map[Class]int{}
	for _, c := range r.Calls {
		m[c.Class]++
	}
	return m
}

// Exchange is one HTTP request and its response, as sent and received.
type Exchange struct {
	Method     string            `json:"method"`
	URL        string            `json:"url"`
	ReqHeaders map[string]string `json:"reqHeaders,omitempty"`
	ReqBody    string            `json:"reqBody,omitempty"`
	Status     int               `json:"status,omitempty"`
	RespType   string            `json:"respType,omitempty"`
	RespBody   string            `json:"respBody,omitempty"`
	// Violations is Prism's sl-violations header or its problem body's
	// validation list: what it found wrong with the request.
	Violations string `json:"violations,omitempty"`
	Err        string `json:"err,omitempty"`
	// body and reqBody are the whole bodies (RespBody and ReqBody are
	// clipped for the report).
	body, reqBody []byte
}

// requestBody returns the whole request body (ReqBody, clipped, for an
// exchange read back from a report).
func (x *Exchange) requestBody() []byte {
	if x.reqBody != nil {
		return x.reqBody
	}
	return []byte(x.ReqBody)
}

// recorder is the caller's http.RoundTripper: it keeps the last exchange.
type recorder struct {
	mu   sync.Mutex
	last *Exchange
	n    int
	next http.RoundTripper
}

func (rec *recorder) take() (*Exchange, int) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	x, n := rec.last, rec.n
	rec.last, rec.n = nil, 0
	return x, n
}

const maxKeep = 4 << 10

func clip(b []byte) string {
	if len(b) > maxKeep {
		return string(b[:maxKeep]) + "...(truncated)"
	}
	return string(b)
}

// unwritten are the request header fields net/http does not send from
// Request.Header but from the message itself (http.Request.Write): a
// header parameter of one of these names never reaches the server.
var unwritten = map[string]bool{"Host": true, "Content-Length": true, "Transfer-Encoding": true, "Trailer": true}

func (rec *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	x := &Exchange{Method: req.Method, URL: req.URL.String(), ReqHeaders: map[string]string{}}
	for k, v := range req.Header {
		if !unwritten[k] {
			x.ReqHeaders[k] = strings.Join(v, ", ")
		}
	}
	if req.ContentLength > 0 {
		x.ReqHeaders["Content-Length"] = strconv.FormatInt(req.ContentLength, 10)
	}
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		x.ReqBody, x.reqBody = clip(b), b
		req.Body = io.NopCloser(bytes.NewReader(b))
	}
	rec.mu.Lock()
	rec.last = x
	rec.n++
	rec.mu.Unlock()
	resp, err := rec.next.RoundTrip(req)
	if err != nil {
		x.Err = err.Error()
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	resp.Body.Close()
	if err != nil {
		x.Err = err.Error()
		return nil, err
	}
	x.Status, x.RespType, x.RespBody, x.body = resp.StatusCode, resp.Header.Get("Content-Type"), clip(b), b
	x.Violations = resp.Header.Get("Sl-Violations")
	if x.Violations == "" && resp.StatusCode >= 400 {
		var problem struct {
			Type       string          `json:"type"`
			Validation json.RawMessage `json:"validation"`
		}
		if json.Unmarshal(b, &problem) == nil && strings.Contains(problem.Type, "stoplight.io/prism/errors") {
			x.Violations = problem.Type
			if len(problem.Validation) > 0 {
				x.Violations += " " + string(problem.Validation)
			}
		}
	}
	resp.Body = io.NopCloser(bytes.NewReader(b))
	return resp, nil
}

// Dummy credentials: Prism checks that they are present, not their value.
func credentials(schemes []httpclient.SecurityScheme) []httpclient.Option {
	var opts []httpclient.Option
	for _, s := range schemes {
		switch {
		case s.Type == "apiKey":
			opts = append(opts, httpclient.WithCredential(s.Name, httpclient.APIKey("e2e-key")))
		case s.Type == "http" && strings.EqualFold(s.Scheme, "basic"):
			opts = append(opts, httpclient.WithCredential(s.Name, httpclient.BasicAuth("e2e", "secret")))
		case s.Type == "http", s.Type == "oauth2", s.Type == "openIdConnect":
			opts = append(opts, httpclient.WithCredential(s.Name, httpclient.BearerToken("e2e-token")))
		}
	}
	return opts
}

// RunSpec calls every operation of the client t registers, with Prism
// (started by the caller, or failed to with startErr) as base URL, and
// stops Prism.
func RunSpec(ctx context.Context, plan Plan, s PlanSpec, t Target, prism *Prism, startErr error) (run SpecRun) {
	begin := time.Now()
	run.Spec = s
	defer func() { run.Seconds = time.Since(begin).Seconds() }()
	if plan.CallTimeout <= 0 {
		plan.CallTimeout = 30 * time.Second
	}
	if startErr != nil {
		run.Outcome, run.Reason, run.Fault = startFailure(startErr, func() (int, error) {
			// Prism is not there: the client is registered against nowhere,
			// only to count its operations.
			reg := runtime.NewRegistry(&runtime.Pipeline{})
			if err := t.New(httpclient.WithBaseURL("http://127.0.0.1:9")).Register(reg); err != nil {
				return 0, err
			}
			return len(reg.Operations()), nil
		})
		return run
	}
	defer func() { prism.Stop() }()
	rec := &recorder{next: &http.Transport{DisableKeepAlives: true}}
	// Warnings are counted from the envelopes; the log would repeat them.
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	opts := append([]httpclient.Option{httpclient.WithBaseURL(prism.URL), httpclient.WithHTTPClient(&http.Client{Transport: rec}), httpclient.WithLogger(quiet)}, credentials(t.Schemes)...)
	reg := runtime.NewRegistry(&runtime.Pipeline{Logger: quiet})
	if err := t.New(opts...).Register(reg); err != nil {
		run.Outcome, run.Reason, run.Fault = "register failed", err.Error(), FaultOpsgen
		return run
	}
	oracle := NewOracle(s.Path)
	ops := reg.Operations()
	run.Registered = len(ops)
	run.Outcome = "ran"
	for i, op := range ops {
		c := callOne(ctx, plan, reg, rec, op, plan.Seed+uint64(i)*7919)
		if c.ErrCode == string(runtime.CodeTransport) {
			// A crashing Prism resets the connection before its process
			// is gone: give it time to exit, so that the crash is seen here.
			for wait := 0; wait < 30 && prism.Alive(); wait++ {
				time.Sleep(100 * time.Millisecond)
			}
		}
		if !prism.Alive() {
			c.Class, c.Fault, c.Rule = ClassError, FaultMock, "mock-died"
			c.Evidence = requestLine(c.Exchange) + ": Prism exited during the call: " + prismCrash(prism.Log())
			if bad := oracle.InvalidMediaTypes(c.Exchange.Method, c.Exchange.URL); len(bad) > 0 {
				c.Evidence += fmt.Sprintf("; the operation declares content keys that are not media types (%s), which Prism parses", strings.Join(bad, ", "))
			}
			if h := badMediaHeader(c.Exchange); h != "" {
				// Prism should not crash, but the request was the client's fault first.
				c.Fault, c.Rule = FaultOpsgen, "bad-media-header"
				c.Evidence = fmt.Sprintf("%s: %s %q is not a media type (OpenAPI ignores header parameters named Accept, Content-Type and Authorization); Prism crashed on it: %s", requestLine(c.Exchange), h, c.Exchange.ReqHeaders[h], tail(prism.Log(), 300))
			}
			run.Calls = append(run.Calls, c)
			// Start it again on the same port for the remaining operations.
			p, err := StartPrismOn(ctx, plan.Prism, s.Path, prism.Port, plan.StartTimeout)
			if err != nil {
				run.Reason = "prism died and did not restart: " + err.Error()
				break
			}
			prism = p
			continue
		}
		Classify(c, oracle, t.Schemes)
		run.Calls = append(run.Calls, c)
	}
	return run
}

// Call is one operation called through Registry.Execute.
type Call struct {
	Op    string          `json:"op"`
	Input json.RawMessage `json:"input"`
	// Tries counts the inputs generated before one passed the registry's
	// input validation.
	Tries    int       `json:"tries"`
	Exchange *Exchange `json:"exchange,omitempty"`
	Requests int       `json:"requests"`
	Warnings []string  `json:"warnings,omitempty"`
	ErrCode  string    `json:"errCode,omitempty"`
	ErrMsg   string    `json:"errMsg,omitempty"`
	Class    Class     `json:"class"`
	Fault    Fault     `json:"fault,omitempty"`
	// Rule names the classification rule that decided Fault (see Classify).
	Rule     string `json:"rule,omitempty"`
	Evidence string `json:"evidence,omitempty"`
	// Data is the envelope's data (clipped), for ok and warned calls.
	Data string `json:"data,omitempty"`
	// Refusals counts the generated inputs the registry refused before
	// sending that the published input schema refuses too (the harness's
	// misses, retried); FirstRefusal is the first one's error.
	Refusals     int    `json:"refusals,omitempty"`
	FirstRefusal string `json:"firstRefusal,omitempty"`
	// RefusedValid is set when the registry refused, before sending, an
	// input its published input schema accepts (the call stops there).
	RefusedValid bool `json:"refusedValid,omitempty"`
}

// callOne generates an input for op and executes it. An input the
// registry refuses before sending is checked against the operation's
// published input schema by an independent validator (santhosh-tekuri's
// jsonschema, formats asserted): one the schema refuses too is the
// generator's miss, counted and regenerated (without examples, then with
// other seeds); one it accepts is opsgen's refusal and ends the call.
func callOne(ctx context.Context, plan Plan, reg *runtime.Registry, rec *recorder, op runtime.OperationSpec, seed uint64) *Call {
	c := &Call{Op: op.ID}
	var env runtime.ResponseEnvelope[any]
	var err error
	published := compileInput(op.InputSchema)
	for try := 0; try < 4; try++ {
		g := NewInputGen(seed + uint64(try)*104729)
		g.NoExamples = try%2 == 1
		if try >= 2 {
			g.Optional = 0
		}
		in, gerr := g.Generate(op.InputSchema)
		if gerr != nil {
			c.ErrCode, c.ErrMsg = "HARNESS", gerr.Error()
			break
		}
		c.Input, c.Tries = in, try+1
		cctx, cancel := context.WithTimeout(ctx, plan.CallTimeout)
		env, err = reg.Execute(cctx, op.ID, in)
		cancel()
		var ce *runtime.CallError
		if errors.As(err, &ce) && ce.Code == runtime.CodeValidation {
			if x, n := rec.take(); n == 0 {
				_ = x
				if published != nil && published(in) == nil {
					c.RefusedValid = true
					break // opsgen refused an input its schema accepts
				}
				c.Refusals++
				if c.FirstRefusal == "" {
					c.FirstRefusal = clip([]byte(err.Error()))
				}
				continue // the harness's miss: generate again
			} else {
				c.Exchange, c.Requests = x, n
				break
			}
		}
		c.Exchange, c.Requests = rec.take()
		break
	}
	if err != nil {
		var ce *runtime.CallError
		if errors.As(err, &ce) {
			c.ErrCode = string(ce.Code)
		} else {
			c.ErrCode = "NOT_A_CALL_ERROR"
		}
		c.ErrMsg = clip([]byte(err.Error()))
		return c
	}
	for _, w := range env.Warnings {
		msg := w.Message
		if w.Pointer != "" {
			msg = w.Pointer + ": " + msg
		}
		c.Warnings = append(c.Warnings, msg)
	}
	sort.Strings(c.Warnings)
	if b, err := json.Marshal(env.Data); err == nil {
		c.Data = clip(b)
	}
	return c
}

// compileInput compiles a published input schema with santhosh-tekuri's
// jsonschema (formats asserted), independent of the runtime's walker; nil
// when it does not compile (refusals then count as the harness's).
func compileInput(schema json.RawMessage) func(in json.RawMessage) error {
	if len(schema) == 0 {
		return nil
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil
	}
	comp := jsonschema.NewCompiler()
	// Formats (OpenAPI's "byte" too) and contentEncoding are what the
	// published schema asks of a caller.
	comp.AssertFormat()
	comp.AssertContent()
	comp.RegisterFormat(&jsonschema.Format{Name: "byte", Validate: func(v any) error {
		if s, ok := v.(string); ok {
			_, err := base64.StdEncoding.DecodeString(s)
			return err
		}
		return nil
	}})
	if err := comp.AddResource("input.json", doc); err != nil {
		return nil
	}
	s, err := comp.Compile("input.json")
	if err != nil {
		return nil
	}
	return func(in json.RawMessage) error {
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(in))
		if err != nil {
			return err
		}
		return s.Validate(v)
	}
}

// startFailure is the outcome, reason and fault of a document whose Prism
// did not start; operations counts the operations its client registers.
//   - Prism refusing a document without operations (only webhooks, say) when
//     opsgen's client has none either: nothing to call, no fault ("no
//     operations").
//   - Prism not listening in time, twice (ErrPrismTimeout): the machine's
//     load, the harness's ("prism timed out").
//   - Otherwise Prism refused a description that opsgen generated a client
//     for: the mock's ("prism failed").
func startFailure(startErr error, operations func() (int, error)) (outcome, reason string, fault Fault) {
	reason = startErr.Error()
	if strings.Contains(reason, "No operations found in the current file") {
		n, err := operations()
		if err == nil && n == 0 {
			return "no operations", "the document declares no operation (Prism: No operations found) and its client registers none", ""
		}
		if err != nil {
			return "register failed", err.Error(), FaultOpsgen
		}
		reason = fmt.Sprintf("Prism finds no operations but opsgen's client registers %d: %s", n, reason)
		return "prism failed", reason, FaultMock
	}
	if errors.Is(startErr, ErrPrismTimeout) {
		return "prism timed out", reason, FaultHarness
	}
	return "prism failed", reason, FaultMock
}

// prismCrash returns what a crashed Prism printed about its crash: the
// last "...Error: message" line of its log with the first frame of its
// stack (paths from node_modules on), or the log's end when there is none.
func prismCrash(log string) string {
	lines := strings.Split(log, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		name, msg, ok := strings.Cut(lines[i], ": ")
		if !ok || !strings.HasSuffix(name, "Error") || strings.ContainsAny(name, " \t[") {
			continue
		}
		out := name + ": " + msg
		if i+1 < len(lines) {
			if frame, ok := strings.CutPrefix(strings.TrimSpace(lines[i+1]), "at "); ok {
				out += " (at " + nodeModulesPath.ReplaceAllString(frame, "") + ")"
			}
		}
		return out
	}
	return tail(log, 600)
}

// nodeModulesPath is a path up to node_modules/, left out of stack frames.
var nodeModulesPath = regexp.MustCompile(`[^\s(]*/node_modules/`)
