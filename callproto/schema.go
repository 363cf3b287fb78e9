package callproto

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"

	"github.com/opsgen/opsgen/runtime/opsgenimpl"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed events_schema.json
var eventsSchema []byte

// EventsURL and EnvelopeURL are the $ids of the events' schema and of the
// envelope's schema it refers to.
const (
	EventsURL   = "https://opsgen.dev/schema/call-events.json"
	EnvelopeURL = "https://opsgen.dev/schema/response-envelope.json"
)

// EventsSchema returns the JSON Schema (draft 2020-12) of the protocol's
// messages: one of the nine events, each under its name in $defs
// (CallRequested, CallResponded, ...). Their envelopes refer to
// opsgenimpl.EnvelopeSchema by its $id (EnvelopeURL); publish the two
// together. It returns a fresh copy on each call.
func EventsSchema() []byte { return bytes.Clone(eventsSchema) }

var eventsValidator = sync.OnceValue(func() *jsonschema.Schema {
	c := jsonschema.NewCompiler()
	for url, doc := range map[string][]byte{EventsURL: eventsSchema, EnvelopeURL: opsgenimpl.EnvelopeSchema()} {
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
		if err != nil {
			panic("callproto: embedded schema " + url + ": " + err.Error())
		}
		if err := c.AddResource(url, v); err != nil {
			panic("callproto: embedded schema " + url + ": " + err.Error())
		}
	}
	return c.MustCompile(EventsURL)
})

// ValidateEvent checks b, one message of the protocol, against
// EventsSchema. The error says where b does not match.
func ValidateEvent(b []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("callproto: event JSON: %w", err)
	}
	if err := eventsValidator().Validate(v); err != nil {
		return fmt.Errorf("callproto: event does not match its schema: %w", err)
	}
	return nil
}
