package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"mime"
	"slices"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/opsgen/opsgen/golden/openapi/bodies"
	"github.com/opsgen/opsgen/golden/openapi/composition"
	"github.com/opsgen/opsgen/golden/openapi/e2ehttp"
	"github.com/opsgen/opsgen/golden/openapi/external"
	"github.com/opsgen/opsgen/golden/openapi/githubissues"
	"github.com/opsgen/opsgen/golden/openapi/paging"
	"github.com/opsgen/opsgen/golden/openapi/params"
	"github.com/opsgen/opsgen/golden/openapi/realcalls"
	"github.com/opsgen/opsgen/golden/openapi/responses"
	"github.com/opsgen/opsgen/golden/openapi/schemas31"
	"github.com/opsgen/opsgen/golden/openapi/swagger"
	"github.com/opsgen/opsgen/golden/openapi/types"
	"github.com/opsgen/opsgen/golden/openapi/unioncollide"
	"github.com/opsgen/opsgen/golden/openapi/xml"
	inputs "github.com/opsgen/opsgen/internal/realcalls"
	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/httpclient"
)

// goldenRegistries registers the operations of every golden OpenAPI
// package generated with a registry, each client calling baseURL.
var goldenRegistries = map[string]func(reg *runtime.Registry, baseURL string) error{
	"bodies": func(reg *runtime.Registry, u string) error {
		return bodies.NewClient(append(creds(), bodies.WithBaseURL(u))...).Register(reg)
	},
	"composition": func(reg *runtime.Registry, u string) error {
		return composition.NewClient(append(creds(), composition.WithBaseURL(u))...).Register(reg)
	},
	"e2ehttp": func(reg *runtime.Registry, u string) error {
		return e2ehttp.NewClient(append(creds(), e2ehttp.WithBaseURL(u))...).Register(reg)
	},
	"external": func(reg *runtime.Registry, u string) error {
		return external.NewClient(append(creds(), external.WithBaseURL(u))...).Register(reg)
	},
	"githubissues": func(reg *runtime.Registry, u string) error {
		return githubissues.NewClient(append(creds(), githubissues.WithBaseURL(u))...).Register(reg)
	},
	"paging": func(reg *runtime.Registry, u string) error {
		return paging.NewClient(append(creds(), paging.WithBaseURL(u))...).Register(reg)
	},
	"params": func(reg *runtime.Registry, u string) error {
		return params.NewClient(append(creds(), params.WithBaseURL(u))...).Register(reg)
	},
	"realcalls": func(reg *runtime.Registry, u string) error {
		return realcalls.NewClient(append(creds(), realcalls.WithBaseURL(u))...).Register(reg)
	},
	"responses": func(reg *runtime.Registry, u string) error {
		return responses.NewClient(append(creds(), responses.WithBaseURL(u))...).Register(reg)
	},
	"schemas31": func(reg *runtime.Registry, u string) error {
		return schemas31.NewClient(append(creds(), schemas31.WithBaseURL(u))...).Register(reg)
	},
	"swagger": func(reg *runtime.Registry, u string) error {
		return swagger.NewClient(append(creds(), swagger.WithBaseURL(u))...).Register(reg)
	},
	"types": func(reg *runtime.Registry, u string) error {
		return types.NewClient(append(creds(), types.WithBaseURL(u))...).Register(reg)
	},
	"unioncollide": func(reg *runtime.Registry, u string) error {
		return unioncollide.NewClient(append(creds(), unioncollide.WithBaseURL(u))...).Register(reg)
	},
	"xml": func(reg *runtime.Registry, u string) error {
		return xml.NewClient(append(creds(), xml.WithBaseURL(u))...).Register(reg)
	},
}

// creds gives a credential to every security scheme of the golden specs.
func creds() []httpclient.Option {
	return []httpclient.Option{
		httpclient.WithCredential("api_key", httpclient.APIKey("k")),
		httpclient.WithCredential("apiKey", httpclient.APIKey("k")),
		httpclient.WithCredential("cookieKey", httpclient.APIKey("k")),
		httpclient.WithCredential("token", httpclient.APIKey("k")),
		httpclient.WithCredential("bearer", httpclient.BearerToken("t")),
		httpclient.WithCredential("oauth", httpclient.BearerToken("t")),
		httpclient.WithCredential("basic", httpclient.BasicAuth("u", "p")),
	}
}

// inputSeeds is how many inputs each operation is given: the generator
// includes optional members at random, so that each body kind is sent
// with and without them.
const inputSeeds = 8

// TestRegistryAcceptsPublishedInputs feeds every registered operation of
// the golden OpenAPI packages inputs that are valid per the input schema
// the Registry publishes (checked by an independent validator,
// santhosh-tekuri/jsonschema), and requires the call to be sent: whatever
// the body kind (JSON, XML, form, multipart, binary, text), the decoder
// behind the Registry accepts what its schema promises.
func TestRegistryAcceptsPublishedInputs(t *testing.T) {
	ctx := context.Background()
	srv := newWireServer(t, nil) // 204 to everything
	sent := map[string]bool{}    // the media types of the bodies sent
	for name, register := range goldenRegistries {
		reg := runtime.NewRegistry(nil)
		if err := register(reg, srv.URL); err != nil {
			t.Fatalf("%s: Register: %v", name, err)
		}
		for _, op := range reg.Operations() {
			if op.Kind == runtime.KindSubscription {
				continue // streams are subscribed to, not executed
			}
			schema := compileInputSchema(t, op)
			valid := 0
			for seed := range uint64(inputSeeds) {
				in, err := inputs.NewInputGen(seed).Generate(op.InputSchema)
				if err != nil {
					t.Fatalf("%s: generating input: %v", op.ID, err)
				}
				inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(in))
				if err != nil {
					t.Fatal(err)
				}
				if schema.Validate(inst) != nil {
					continue // the generator missed; this input promises nothing
				}
				valid++
				srv.reset()
				if _, err := reg.Execute(ctx, op.ID, json.RawMessage(in)); err != nil {
					t.Errorf("%s: Execute(%s): %v", op.ID, in, err)
					continue
				}
				reqs := srv.requests()
				if len(reqs) != 1 {
					t.Errorf("%s: Execute(%s) sent %d requests, want 1", op.ID, in, len(reqs))
					continue
				}
				if ct := reqs[0].Header.Get("Content-Type"); ct != "" {
					mt, _, _ := mime.ParseMediaType(ct)
					sent[mt] = true
				}
			}
			if valid == 0 {
				t.Errorf("%s: none of %d generated inputs is valid per the published schema %s", op.ID, inputSeeds, op.InputSchema)
			}
		}
	}
	// Every body kind was sent.
	for _, mt := range []string{"application/json", "application/xml", "text/xml", "application/x-www-form-urlencoded",
		"multipart/form-data", "application/octet-stream", "text/plain"} {
		if !sent[mt] {
			t.Errorf("no %s body was sent; sent %v", mt, slices.Sorted(maps.Keys(sent)))
		}
	}
}

// compileInputSchema compiles op's published input schema with
// santhosh-tekuri/jsonschema (formats as annotations, as the Registry's
// input validation treats them).
func compileInputSchema(t *testing.T, op runtime.OperationSpec) *jsonschema.Schema {
	t.Helper()
	doc := op.InputSchema
	if len(doc) == 0 {
		doc = json.RawMessage(`{}`)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatalf("%s: input schema: %v", op.ID, err)
	}
	c := jsonschema.NewCompiler()
	url := fmt.Sprintf("mem://%s.json", op.ID)
	if err := c.AddResource(url, v); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s: input schema: %v", op.ID, err)
	}
	return s
}
