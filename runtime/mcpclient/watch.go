package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/runtime/mcpdiff"
)

// ListingHook is told that the server's tool listing changed: diff compares
// the baseline listing (ConnectOptions.Listing, or the listing when the
// session opened) with the one the server lists now, each change classified
// for the generated client (diff.Breaking() says whether any breaks it).
// err is set instead when the new listing could not be read. ctx ends when
// the session does.
type ListingHook func(ctx context.Context, diff mcpdiff.Diff, err error)

// listingWatch re-lists the tools of a session when the server says they
// changed, and reports the changes to its hook.
type listingWatch struct {
	hook     ListingHook
	baseline []json.RawMessage
	last     []json.RawMessage // the listing last reported (or the baseline)
	// changed has room for one pending notification: more notifications
	// while one is pending need no second listing.
	changed chan struct{}
	// ttl is how long the server said its last listing stays fresh
	// (ttlMs of 2026-07-28 list results; zero when it did not say): the
	// watch lists again when it ends, so that a server that changes its
	// tools without notifying is watched too.
	ttl time.Duration
}

// newListingWatch returns the watch of opts, nil when there is none.
func newListingWatch(opts *ConnectOptions) (*listingWatch, error) {
	if opts.OnListingChanged == nil {
		if opts.Listing != nil {
			return nil, errors.New("mcpclient: ConnectOptions.Listing is set without OnListingChanged")
		}
		return nil, nil
	}
	w := &listingWatch{hook: opts.OnListingChanged, changed: make(chan struct{}, 1)}
	if opts.Listing != nil {
		tools, err := mcpdiff.ReadListing(opts.Listing)
		if err != nil {
			return nil, fmt.Errorf("mcpclient: ConnectOptions.Listing: %w", err)
		}
		// The listing is read through go-sdk's mcp.Tool, as the live
		// listings are: members it does not model must not count as
		// changes.
		for i, raw := range tools {
			var tool mcp.Tool
			if err := json.Unmarshal(raw, &tool); err != nil {
				return nil, fmt.Errorf("mcpclient: ConnectOptions.Listing: /tools/%d: %w", i, err)
			}
			if tools[i], err = json.Marshal(&tool); err != nil {
				return nil, fmt.Errorf("mcpclient: ConnectOptions.Listing: /tools/%d: %w", i, err)
			}
		}
		w.baseline = tools
	}
	return w, nil
}

// clientOptions returns the client options with a tools/list_changed
// handler that wakes w (after the caller's own handler, if any). With a
// handler set, go-sdk asks a 2026-07-28 server for toolsListChanged on a
// subscriptions/listen stream; older servers send the notification as is.
func (w *listingWatch) clientOptions(opts *mcp.ClientOptions) *mcp.ClientOptions {
	var o mcp.ClientOptions
	if opts != nil {
		o = *opts
	}
	next := o.ToolListChangedHandler
	o.ToolListChangedHandler = func(ctx context.Context, req *mcp.ToolListChangedRequest) {
		if next != nil {
			next(ctx, req)
		}
		select {
		case w.changed <- struct{}{}:
		default:
		}
	}
	return &o
}

// start lists the tools (the baseline, when ConnectOptions.Listing gave
// none, and the listing's ttlMs) and runs the watch until the session ends.
func (w *listingWatch) start(ctx context.Context, cs *mcp.ClientSession) error {
	tools, ttl, err := listAll(ctx, cs)
	if err != nil {
		return fmt.Errorf("mcpclient: listing the tools to watch: %w", err)
	}
	if w.baseline == nil {
		w.baseline = tools
	}
	w.ttl = ttl
	w.last = w.baseline
	watchCtx, cancel := context.WithCancel(context.Background())
	go func() {
		cs.Wait()
		cancel()
	}()
	go w.run(watchCtx, cs)
	return nil
}

func (w *listingWatch) run(ctx context.Context, cs *mcp.ClientSession) {
	for {
		var stale <-chan time.Time
		var timer *time.Timer
		if w.ttl > 0 {
			timer = time.NewTimer(w.ttl)
			stale = timer.C
		}
		select {
		case <-ctx.Done():
		case <-w.changed:
		case <-stale:
		}
		if timer != nil {
			timer.Stop()
		}
		if ctx.Err() != nil {
			return
		}
		tools, ttl, err := listAll(ctx, cs)
		if ctx.Err() != nil {
			return
		}
		w.ttl = ttl
		if err != nil {
			w.hook(ctx, nil, fmt.Errorf("mcpclient: listing the tools again: %w", err))
			continue
		}
		if sameTools(tools, w.last) {
			continue // a notification without a change
		}
		w.last = tools
		diff, err := mcpdiff.CompareTools(w.baseline, tools)
		w.hook(ctx, diff, err)
	}
}

// listAll returns every tool of every page, as JSON, and how long the
// listing stays fresh: the shortest ttlMs of its pages, zero when a page
// has none. go-sdk's mcp.Tool keeps the members the comparison reads
// (schemas, title, description), not the ones it does not model: a change
// of execution.taskSupport is not seen by the watch (opsgen mcp check sees
// it). go-sdk serves pages from its cache while their ttlMs holds.
func listAll(ctx context.Context, cs *mcp.ClientSession) ([]json.RawMessage, time.Duration, error) {
	var tools []json.RawMessage
	var ttl time.Duration
	params := &mcp.ListToolsParams{}
	for page := 0; ; page++ {
		res, err := cs.ListTools(ctx, params)
		if err != nil {
			return nil, 0, err
		}
		d := time.Duration(res.TTLMs) * time.Millisecond
		if page == 0 || d < ttl {
			ttl = d
		}
		for _, tool := range res.Tools {
			b, err := json.Marshal(tool)
			if err != nil {
				return nil, 0, fmt.Errorf("tool %q: %w", tool.Name, err)
			}
			tools = append(tools, b)
		}
		if res.NextCursor == "" || res.NextCursor == params.Cursor {
			return tools, max(ttl, 0), nil
		}
		params = &mcp.ListToolsParams{Cursor: res.NextCursor}
	}
}

func sameTools(a, b []json.RawMessage) bool {
	return slices.EqualFunc(a, b, func(x, y json.RawMessage) bool { return bytes.Equal(x, y) })
}
