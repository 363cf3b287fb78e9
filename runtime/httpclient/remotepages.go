package httpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// remotePages is Pages through rm (a client configured WithRemote): each
// page is a call of the operation's registry id, the first with the input
// the generated method recorded, the next ones with one parameter changed
// in it: the cursor or page parameter, or the query parameters of the Link
// header's next URL (the hub's envelope carries the response headers in its
// meta). The parameters struct's fields are named by their parameters'
// names (the generator's json tags), which is how they are found; a next
// page that needs a parameter the struct cannot carry ends iteration with
// an error instead of fetching the same page again. Ends, errors and the
// checks that pagination advances are those of Pages; the hub does the
// HTTP, with its own server and credentials, so there is no server of the
// first request to hold Link targets to, only the operation's path.
func (c *Client) remotePages(ctx context.Context, rm Remote, r *Request, responses []Response, paging Paging, cc *callConfig, data any, yield func(runtime.Meta, []runtime.Warning, error) bool) {
	// Each page is a call of its own: the call's idempotency key, if the
	// context has one, is not theirs.
	if runtime.IdempotencyKeyFrom(ctx) != "" {
		ctx = runtime.WithIdempotencyKey(ctx, "")
	}
	fail := func(err error) bool {
		zeroData(data)
		return yield(nil, nil, err)
	}
	in, err := c.remoteInput(r)
	if err != nil {
		fail(err)
		return
	}
	page := 0
	if paging.Page != "" {
		page = 1
		if v, ok := paramValue(in.Params, paging.Page); ok {
			if n, err := strconv.Atoi(v); err == nil {
				page = n
			}
		}
	}
	seen := map[string]bool{}
	p := c.pipeline(cc)
	for n := 0; ; n++ {
		out, warned, err := callRemote(ctx, c, rm, r, in, cc)
		if err != nil {
			fail(remoteError(err, responses))
			return
		}
		zeroData(data) // each page decodes into a zero value
		meta, warnings, err := remoteInto(ctx, p, r, out, warned, data)
		if err != nil {
			fail(err)
			return
		}
		yieldPage := func() bool { return yield(meta, warnings, nil) }
		// stop yields the last page, then err (if any) as the end.
		stop := func(err error) {
			if yieldPage() && err != nil {
				fail(err)
			}
		}
		var next any
		switch {
		case paging.Link:
			var links []string
			if m := runtime.HTTPMetaOf(meta); m != nil && m.Headers["link"] != "" {
				links = []string{m.Headers["link"]}
			}
			target := nextLink(links)
			if target == "" {
				stop(nil)
				return
			}
			if seen[target] {
				stop(runtime.Errorf(runtime.CodeExecution, r.opID, "pagination does not advance: the next page %q was already fetched", target))
				return
			}
			seen[target] = true
			if next, err = paramsFromLink(r, in.Params, target); err != nil {
				stop(err)
				return
			}
		case paging.Cursor != "":
			cursor, ok := pointerString(envelopeData(out), paging.Next)
			if !ok {
				stop(nil)
				return
			}
			if seen[cursor] {
				stop(runtime.Errorf(runtime.CodeExecution, r.opID, "pagination does not advance: cursor %q repeats", cursor))
				return
			}
			seen[cursor] = true
			if next, err = setParam(r.opID, in.Params, paging.Cursor, []string{cursor}); err != nil {
				stop(err)
				return
			}
		case paging.Page != "":
			if !hasItems(envelopeData(out), paging.Items) {
				if n == 0 {
					yieldPage()
				}
				return
			}
			page++
			if next, err = setParam(r.opID, in.Params, paging.Page, []string{strconv.Itoa(page)}); err != nil {
				stop(err)
				return
			}
		default:
			stop(nil)
			return
		}
		if !yieldPage() {
			return
		}
		in.Params = next
	}
}

// callRemote is one page's call, with the call's timeout.
// It returns the envelope's warnings too when rm carries them
// (opsgenimpl.WarningsRemote).
func callRemote(ctx context.Context, c *Client, rm Remote, r *Request, in RemoteInput, cc *callConfig) (json.RawMessage, []runtime.Warning, error) {
	if d := c.timeout(r, cc); d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	if wr, ok := rm.(opsgenimpl.WarningsRemote); ok {
		return wr.CallJSONWarnings(ctx, r.remoteID, in)
	}
	out, err := rm.CallJSON(ctx, r.remoteID, in)
	return out, nil, err
}

// envelopeData returns the data of an envelope's wire form (nil when it
// has none).
func envelopeData(out json.RawMessage) []byte {
	var e struct {
		Data json.RawMessage `json:"data"`
	}
	if json.Unmarshal(out, &e) != nil {
		return nil
	}
	return e.Data
}

// paramsFromLink returns params with the query parameters of the Link
// target set, after checking that the target is the operation's path.
func paramsFromLink(r *Request, params any, target string) (any, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, runtime.Errorf(runtime.CodeExecution, r.opID, "the Link header's next page %q is not a URL", target)
	}
	if own, err := r.buildURL(baseURL{}); err == nil {
		if o, err := url.Parse(own); err == nil && !strings.HasSuffix(u.Path, o.Path) {
			return nil, runtime.Errorf(runtime.CodeExecution, r.opID, "the Link header's next page %q is not the operation's path %q; not followed", target, o.Path)
		}
	}
	q := u.Query()
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	// One order, so that the first unknown parameter named is always the same.
	slices.Sort(keys)
	for _, k := range keys {
		if params, err = setParam(r.opID, params, k, q[k]); err != nil {
			return nil, err
		}
	}
	return params, nil
}

// paramField finds the field of the parameters struct v (a struct or a
// pointer to one) whose json tag names the parameter name.
func paramField(v reflect.Value, name string) (reflect.Value, bool) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return reflect.Value{}, false
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return reflect.Value{}, false
	}
	t := v.Type()
	for i := range t.NumField() {
		tag, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if tag == name && tag != "-" && t.Field(i).IsExported() {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}

// paramValue returns the parameter name's value in params, formatted.
func paramValue(params any, name string) (string, bool) {
	f, ok := paramField(reflect.ValueOf(params), name)
	if !ok {
		return "", false
	}
	for f.Kind() == reflect.Pointer {
		if f.IsNil() {
			return "", false
		}
		f = f.Elem()
	}
	return fmt.Sprint(f.Interface()), true
}

// setParam returns a copy of the parameters struct params with the
// parameter name set to values (one value, unless the field is a slice),
// each converted to the field's type.
func setParam(opID string, params any, name string, values []string) (any, error) {
	v := reflect.ValueOf(params)
	for v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil, runtime.Errorf(runtime.CodeExecution, opID, "the next page needs parameter %q, and the operation has no parameters to carry it over the remote", name)
	}
	cp := reflect.New(v.Type()).Elem()
	cp.Set(v)
	f, ok := paramField(cp, name)
	if !ok {
		return nil, runtime.Errorf(runtime.CodeExecution, opID, "the next page needs parameter %q, which is not a field of %s: not followed over the remote", name, v.Type())
	}
	if err := setValue(f, values); err != nil {
		return nil, runtime.Errorf(runtime.CodeExecution, opID, "the next page's parameter %q: %v", name, err)
	}
	return cp.Interface(), nil
}

// setValue sets f (a scalar, a pointer to one, or a slice of them) from
// text values.
func setValue(f reflect.Value, values []string) error {
	if f.Kind() == reflect.Slice {
		s := reflect.MakeSlice(f.Type(), len(values), len(values))
		for i, v := range values {
			if err := setValue(s.Index(i), []string{v}); err != nil {
				return err
			}
		}
		f.Set(s)
		return nil
	}
	if len(values) != 1 {
		return fmt.Errorf("%d values for one", len(values))
	}
	if f.Kind() == reflect.Pointer {
		p := reflect.New(f.Type().Elem())
		if err := setValue(p.Elem(), values); err != nil {
			return err
		}
		f.Set(p)
		return nil
	}
	s := values[0]
	switch f.Kind() {
	case reflect.String:
		f.SetString(s)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(s, 10, f.Type().Bits())
		if err != nil {
			return err
		}
		f.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := strconv.ParseUint(s, 10, f.Type().Bits())
		if err != nil {
			return err
		}
		f.SetUint(n)
	case reflect.Float32, reflect.Float64:
		n, err := strconv.ParseFloat(s, f.Type().Bits())
		if err != nil {
			return err
		}
		f.SetFloat(n)
	case reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return err
		}
		f.SetBool(b)
	default:
		// Other types (formats, named structs) decode from JSON: the text
		// as a JSON string.
		q, _ := json.Marshal(s)
		if err := json.Unmarshal(q, f.Addr().Interface()); err != nil {
			return err
		}
	}
	return nil
}
