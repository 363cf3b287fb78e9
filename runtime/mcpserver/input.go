//lint:file-ignore SA1019 sampling and roots are deprecated by MCP 2026-07-28 but still in use (deprecation window): servers ask for them, and this file answers or asks

package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ErrNoInput is returned by Elicit and Sample when the client of the call
// cannot be asked for input: the context is not a served call's, or the
// call came on protocol 2026-07-28 (where a call in progress asks through
// a task) from a client that does not declare the tasks extension, or to
// a Server without Options.Tasks.
var ErrNoInput = errors.New("mcpserver: the client of this call cannot be asked for input")

// sessionKey is the context key of the *mcp.ServerSession of a served call.
type sessionKey struct{}

// Elicit asks the user of the client that made the call ctx belongs to
// (the context a served operation's handler gets) for input: a form
// (params.RequestedSchema) or a URL to visit. The handler waits for the
// answer. How it is asked depends on the call:
//
//   - in a task (see Options.Tasks: a 2026-07-28 client that declares the
//     tasks extension): the task turns input_required (a call that was not
//     a task yet becomes one at once) with the request in its
//     inputRequests, and the client's tasks/update answers it;
//   - on protocols up to 2025-11-25: an elicitation/create request to the
//     client, which must declare the elicitation capability.
//
// Anything else is ErrNoInput.
func Elicit(ctx context.Context, params *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	if params == nil {
		return nil, errors.New("mcpserver.Elicit: nil params")
	}
	if st, ok := ctx.Value(taskKey{}).(*serverTask); ok {
		p := *params
		if p.Mode == "" {
			p.Mode = "form"
			if p.URL != "" {
				p.Mode = "url"
			}
		}
		res := new(mcp.ElicitResult)
		return res, st.ask(ctx, "elicitation/create", &p, res)
	}
	ss, err := legacySession(ctx)
	if err != nil {
		return nil, err
	}
	return ss.Elicit(ctx, params)
}

// Sample asks the client that made the call ctx belongs to for a message
// from its model (sampling/createMessage), as Elicit asks for input.
func Sample(ctx context.Context, params *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
	if params == nil {
		return nil, errors.New("mcpserver.Sample: nil params")
	}
	if st, ok := ctx.Value(taskKey{}).(*serverTask); ok {
		res := new(mcp.CreateMessageResult)
		return res, st.ask(ctx, "sampling/createMessage", params, res)
	}
	ss, err := legacySession(ctx)
	if err != nil {
		return nil, err
	}
	return ss.CreateMessage(ctx, params)
}

// legacySession returns the session of the call ctx belongs to when it
// speaks a protocol where the server may send requests to the client.
func legacySession(ctx context.Context) (*mcp.ServerSession, error) {
	ss, ok := ctx.Value(sessionKey{}).(*mcp.ServerSession)
	if !ok || ss == nil {
		return nil, ErrNoInput
	}
	if ip := ss.InitializeParams(); ip == nil || modernProtocol(ip.ProtocolVersion) {
		return nil, fmt.Errorf("%w (protocol 2026-07-28 asks through a task: serve with Options.Tasks, for a client that declares the tasks extension)", ErrNoInput)
	}
	return ss, nil
}

// ask puts an input request on the task, makes the call a task if it is
// not one yet, and waits for the client's response, decoded into res.
func (t *serverTask) ask(ctx context.Context, method string, params, res any) error {
	raw, err := json.Marshal(map[string]any{"method": method, "params": params})
	if err != nil {
		return err
	}
	ch := make(chan json.RawMessage, 1)
	t.mu.Lock()
	if terminalTask(t.state.Status) {
		t.mu.Unlock()
		return ErrNoInput
	}
	t.asked++
	key := "opsgen-input-" + strconv.Itoa(t.asked) // unique over the task's life
	if t.state.InputRequests == nil {
		t.state.InputRequests = map[string]json.RawMessage{}
	}
	t.state.InputRequests[key] = raw
	t.state.Status = taskInputRequired
	t.inputs[key] = ch
	t.mu.Unlock()
	t.promoteOnce.Do(func() { close(t.promote) })
	select {
	case resp := <-ch:
		return json.Unmarshal(resp, res)
	case <-ctx.Done():
		t.mu.Lock()
		delete(t.inputs, key)
		delete(t.state.InputRequests, key)
		t.mu.Unlock()
		return ctx.Err()
	}
}
