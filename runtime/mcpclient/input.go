//lint:file-ignore SA1019 sampling and roots are deprecated by MCP 2026-07-28 but still in use (deprecation window): servers ask for them, and this file answers or asks

package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Input answers a server's requests for input during a call: elicitation
// (a form for the user to fill in, or a URL to visit) and sampling (a
// message from the client's model). Set it as ConnectOptions.Input; the
// same functions answer every way a server can ask: a direct
// server-to-client request (protocols up to 2025-11-25, and the requests
// a 2025-11-25 task sends while the client waits in tasks/result), an
// input_required result of 2026-07-28 (which go-sdk retries with the
// answers), and the inputRequests of a 2026-07-28 task (which Call answers
// with tasks/update).
type Input struct {
	// Elicit answers elicitation/create. Nil means the client does not
	// declare the elicitation capability, so servers should not ask.
	Elicit func(ctx context.Context, req *ElicitRequest) (*ElicitResponse, error)
	// Sample answers sampling/createMessage. Nil means the client does not
	// declare the sampling capability.
	Sample func(ctx context.Context, req *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error)
}

// ElicitRequest is a server's request for input from the user.
type ElicitRequest struct {
	// Mode is "form" (fill in Form) or "url" (visit URL).
	Mode string
	// Message tells the user what is asked and why.
	Message string
	// Form is the form to fill in, read from the request's
	// requestedSchema (form mode).
	Form *Form
	// URL and ElicitationID are the page to visit and the id of the
	// elicitation (url mode).
	URL, ElicitationID string
}

// ElicitResponse is the user's answer: Action "accept" with Content (the
// form's values by field name), "decline" or "cancel". Accept, Decline
// and Cancel make them.
type ElicitResponse struct {
	Action  string
	Content map[string]any
}

// Accept answers a form with content.
func Accept(content map[string]any) *ElicitResponse {
	return &ElicitResponse{Action: "accept", Content: content}
}

// Decline answers that the user declined to give what was asked.
func Decline() *ElicitResponse { return &ElicitResponse{Action: "decline"} }

// Cancel answers that the user dismissed the request.
func Cancel() *ElicitResponse { return &ElicitResponse{Action: "cancel"} }

// Form is an elicitation form: the fields of a requestedSchema (an object
// schema of primitive properties, as the MCP specification restricts it),
// in the order of its properties in the JSON text. (go-sdk decodes the
// requestedSchema of a direct elicitation/create into a map, so the
// fields of those come in the order of their names.)
type Form struct {
	Fields []FormField
}

// FieldType is the kind of value a form field takes.
type FieldType string

// The field types of elicitation forms.
const (
	FieldString  FieldType = "string"
	FieldNumber  FieldType = "number"
	FieldInteger FieldType = "integer"
	FieldBoolean FieldType = "boolean"
	// FieldChoice takes one of Options' values; FieldChoices a list of
	// them (between MinItems and MaxItems).
	FieldChoice  FieldType = "choice"
	FieldChoices FieldType = "choices"
)

// FormField is one field of a Form.
type FormField struct {
	// Name is the property name: the key of the field's value in
	// ElicitResponse.Content.
	Name string
	// Title and Description say what the field is for.
	Title, Description string
	Type               FieldType
	Required           bool
	// Format is a string field's format: "email", "uri", "date" or
	// "date-time".
	Format string
	// Options are the values a choice field takes, with their titles.
	Options []FormOption
	// Default is the server's default value, if any.
	Default any
	// Minimum and Maximum bound a number or integer; MinLength and
	// MaxLength a string; MinItems and MaxItems a choices field. Nil when
	// unbounded.
	Minimum, Maximum                         *float64
	MinLength, MaxLength, MinItems, MaxItems *int
}

// FormOption is one value of a choice field.
type FormOption struct {
	Value string
	Title string // the value itself when the server gives no title
}

// fieldSchema is the part of a property schema that forms use.
type fieldSchema struct {
	Type        string          `json:"type"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Format      string          `json:"format"`
	Enum        []string        `json:"enum"`
	EnumNames   []string        `json:"enumNames"` // legacy titles of enum
	OneOf       []constTitle    `json:"oneOf"`
	AnyOf       []constTitle    `json:"anyOf"`
	Items       *fieldSchema    `json:"items"`
	Default     json.RawMessage `json:"default"`
	Minimum     *float64        `json:"minimum"`
	Maximum     *float64        `json:"maximum"`
	MinLength   *int            `json:"minLength"`
	MaxLength   *int            `json:"maxLength"`
	MinItems    *int            `json:"minItems"`
	MaxItems    *int            `json:"maxItems"`
}

type constTitle struct {
	Const string `json:"const"`
	Title string `json:"title"`
}

func (s *fieldSchema) options() []FormOption {
	var opts []FormOption
	for i, v := range s.Enum {
		title := v
		if i < len(s.EnumNames) {
			title = s.EnumNames[i]
		}
		opts = append(opts, FormOption{Value: v, Title: title})
	}
	for _, c := range slices.Concat(s.OneOf, s.AnyOf) {
		title := c.Title
		if title == "" {
			title = c.Const
		}
		opts = append(opts, FormOption{Value: c.Const, Title: title})
	}
	return opts
}

// ParseForm reads an elicitation's requestedSchema: an object schema
// whose properties are strings, numbers, integers, booleans, single-choice
// enums (enum, enumNames, or oneOf of const and title) and multiple-choice
// arrays of them. Anything else is an error naming the property.
func ParseForm(requestedSchema []byte) (*Form, error) {
	var root struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if err := json.Unmarshal(requestedSchema, &root); err != nil {
		return nil, fmt.Errorf("requestedSchema: %w", err)
	}
	if root.Type != "" && root.Type != "object" {
		return nil, fmt.Errorf("requestedSchema: type %q, want object", root.Type)
	}
	order, err := propertyOrder(requestedSchema)
	if err != nil {
		return nil, fmt.Errorf("requestedSchema: %w", err)
	}
	form := &Form{}
	for _, name := range order {
		var s fieldSchema
		if err := json.Unmarshal(root.Properties[name], &s); err != nil {
			return nil, fmt.Errorf("requestedSchema /properties/%s: %w", name, err)
		}
		f := FormField{
			Name: name, Title: s.Title, Description: s.Description, Format: s.Format,
			Required: slices.Contains(root.Required, name),
			Minimum:  s.Minimum, Maximum: s.Maximum, MinLength: s.MinLength, MaxLength: s.MaxLength,
			MinItems: s.MinItems, MaxItems: s.MaxItems,
		}
		if len(s.Default) > 0 {
			if err := json.Unmarshal(s.Default, &f.Default); err != nil {
				return nil, fmt.Errorf("requestedSchema /properties/%s/default: %w", name, err)
			}
		}
		switch s.Type {
		case "string":
			f.Type = FieldString
			if f.Options = s.options(); len(f.Options) > 0 {
				f.Type = FieldChoice
			}
		case "number":
			f.Type = FieldNumber
		case "integer":
			f.Type = FieldInteger
		case "boolean":
			f.Type = FieldBoolean
		case "array":
			if s.Items == nil || len(s.Items.options()) == 0 {
				return nil, fmt.Errorf("requestedSchema /properties/%s: an array field must list its choices in items", name)
			}
			f.Type, f.Options = FieldChoices, s.Items.options()
		default:
			return nil, fmt.Errorf("requestedSchema /properties/%s: type %q is not a form field type", name, s.Type)
		}
		form.Fields = append(form.Fields, f)
	}
	return form, nil
}

// propertyOrder returns the keys of the "properties" object of a schema,
// in their order in the text.
func propertyOrder(schema []byte) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(schema))
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		if tok != "properties" {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, err
			}
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('{') {
			return nil, errors.New("properties is not an object")
		}
		var keys []string
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			keys = append(keys, k.(string))
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, err
			}
		}
		return keys, nil
	}
	return nil, nil
}

// Check reports whether content fills in the form: every required field
// present, each value of its field's type, within its bounds and among
// its options. Fields the form does not have are errors too.
func (f *Form) Check(content map[string]any) error {
	var problems []string
	for _, fd := range f.Fields {
		v, ok := content[fd.Name]
		if !ok {
			if fd.Required {
				problems = append(problems, fd.Name+": required")
			}
			continue
		}
		if err := fd.check(v); err != nil {
			problems = append(problems, fd.Name+": "+err.Error())
		}
	}
	for name := range content {
		if !slices.ContainsFunc(f.Fields, func(fd FormField) bool { return fd.Name == name }) {
			problems = append(problems, name+": not a field of the form")
		}
	}
	if len(problems) > 0 {
		slices.Sort(problems)
		return errors.New("the answer does not fill in the form: " + strings.Join(problems, "; "))
	}
	return nil
}

func (fd *FormField) check(v any) error {
	switch fd.Type {
	case FieldString:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("want a string, got %T", v)
		}
		n := len([]rune(s))
		if fd.MinLength != nil && n < *fd.MinLength || fd.MaxLength != nil && n > *fd.MaxLength {
			return fmt.Errorf("length %d out of bounds", n)
		}
	case FieldNumber, FieldInteger:
		x, ok := number(v)
		if !ok {
			return fmt.Errorf("want a number, got %T", v)
		}
		if fd.Type == FieldInteger && x != math.Trunc(x) {
			return fmt.Errorf("want an integer, got %v", x)
		}
		if fd.Minimum != nil && x < *fd.Minimum || fd.Maximum != nil && x > *fd.Maximum {
			return fmt.Errorf("%v out of bounds", x)
		}
	case FieldBoolean:
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("want a boolean, got %T", v)
		}
	case FieldChoice:
		s, ok := v.(string)
		if !ok || !fd.hasOption(s) {
			return fmt.Errorf("%v is not one of the options", v)
		}
	case FieldChoices:
		var list []string
		switch l := v.(type) {
		case []string:
			list = l
		case []any:
			for _, e := range l {
				s, ok := e.(string)
				if !ok {
					return fmt.Errorf("want a list of options, got a %T in it", e)
				}
				list = append(list, s)
			}
		default:
			return fmt.Errorf("want a list of options, got %T", v)
		}
		for _, s := range list {
			if !fd.hasOption(s) {
				return fmt.Errorf("%q is not one of the options", s)
			}
		}
		if fd.MinItems != nil && len(list) < *fd.MinItems || fd.MaxItems != nil && len(list) > *fd.MaxItems {
			return fmt.Errorf("%d choices out of bounds", len(list))
		}
	}
	return nil
}

func (fd *FormField) hasOption(s string) bool {
	return slices.ContainsFunc(fd.Options, func(o FormOption) bool { return o.Value == s })
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case int32:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

// install sets the go-sdk handlers of opts (a copy) that call in's
// functions. go-sdk handlers already set in opts win.
func (in *Input) install(opts *mcp.ClientOptions) *mcp.ClientOptions {
	var cp mcp.ClientOptions
	if opts != nil {
		cp = *opts
	}
	if in.Elicit != nil && cp.ElicitationHandler == nil {
		cp.ElicitationHandler = in.elicit
	}
	if in.Sample != nil && cp.CreateMessageHandler == nil && cp.CreateMessageWithToolsHandler == nil {
		cp.CreateMessageHandler = func(ctx context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return in.Sample(ctx, req.Params)
		}
	}
	return &cp
}

// elicit is the go-sdk elicitation handler of in: it reads the form, asks
// in.Elicit, and checks an accepted answer against the form before it is
// sent.
func (in *Input) elicit(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	p := req.Params
	if p == nil {
		return nil, errors.New("elicitation/create without params")
	}
	er := &ElicitRequest{Mode: p.Mode, Message: p.Message, URL: p.URL, ElicitationID: p.ElicitationID}
	if er.Mode == "" {
		er.Mode = "form"
		if p.URL != "" {
			er.Mode = "url"
		}
	}
	if er.Mode == "form" {
		schema, err := json.Marshal(p.RequestedSchema)
		if err != nil {
			return nil, fmt.Errorf("requestedSchema: %w", err)
		}
		if er.Form, err = ParseForm(schema); err != nil {
			return nil, err
		}
	}
	resp, err := in.Elicit(ctx, er)
	if err != nil {
		return nil, err
	}
	if resp == nil {
		resp = Cancel()
	}
	switch resp.Action {
	case "accept":
		if er.Form != nil {
			if err := er.Form.Check(resp.Content); err != nil {
				return nil, err
			}
		}
	case "decline", "cancel":
	default:
		return nil, fmt.Errorf("elicitation answer: action %q, want accept, decline or cancel", resp.Action)
	}
	return &mcp.ElicitResult{Action: resp.Action, Content: resp.Content}, nil
}
