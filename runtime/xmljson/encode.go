package xmljson

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// member is one member of a JSON object, in document order.
type member struct {
	key   string
	value any
}

// object is a JSON object that keeps its members' order (Go structs
// marshal their fields in declaration order; XML readers often expect
// the elements in the order of the schema's properties).
type object []member

// readJSON decodes one JSON value with objects as object, numbers as
// json.Number.
func readJSON(d *json.Decoder, depth int) (any, error) {
	if depth > MaxDepth {
		return nil, fmt.Errorf("JSON value nested deeper than %d", MaxDepth)
	}
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := object{}
			for d.More() {
				kt, err := d.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := readJSON(d, depth+1)
				if err != nil {
					return nil, err
				}
				o = append(o, member{k, v})
			}
			_, err := d.Token()
			return o, err
		case '[':
			a := []any{}
			for d.More() {
				v, err := readJSON(d, depth+1)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			_, err := d.Token()
			return a, err
		}
	}
	return tok, nil
}

// Encode writes the JSON value as the XML document schema s describes:
// the inverse of Decode. The root element is named by the schema's
// xml.name, else by the name of the definition it refers to. Properties
// become child elements in the value's member order, or attributes
// (xml.attribute), or the element's text (xml.nodeType text); arrays are
// runs of elements, wrapped in one element with xml.wrapped; elements and
// attributes get the xml.namespace and xml.prefix their schema declares.
// A null member is left out. Members the schema does not declare are
// written as elements of their own name; a name that cannot be an XML
// name fails. A root object whose xml.nodeType is none (OpenAPI 3.2: no
// element of its own) and that has one member is written as that member's
// element, in the root's namespace when the member's schema names none.
func Encode(value []byte, s Schema) ([]byte, error) {
	d := json.NewDecoder(bytes.NewReader(value))
	d.UseNumber()
	v, err := readJSON(d, 0)
	if err != nil {
		return nil, fmt.Errorf("xml: reading the JSON value: %w", err)
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("xml: data after the JSON value")
	}
	r := resolver{doc: s.Doc}
	sh := r.shapeOf(s.Value)
	name := cmpOr(sh.xml.name, sh.refName, "value")
	var b bytes.Buffer
	b.WriteString(xml.Header)
	e := encoder{r: r, b: &b}
	if a, ok := v.([]any); ok {
		// A root array: one element holding the items.
		if err := e.open(name, sh, nil, nil); err != nil {
			return nil, err
		}
		if err := e.items(a, sh, "", 1); err != nil {
			return nil, err
		}
		e.close(name, sh)
		return b.Bytes(), nil
	}
	if o, ok := v.(object); ok && sh.xml.none && len(o) == 1 {
		// nodeType none: the root has no element of its own; its one
		// member is the document's element.
		m := o[0]
		ps := &shape{}
		if p, ok := sh.props[m.key]; ok {
			ps = r.shapeOf(p)
		}
		if ps.xml.namespace == "" && sh.xml.namespace != "" {
			// The root's namespace is the document's: its element's.
			c := *ps
			c.xml.namespace, c.xml.prefix = sh.xml.namespace, sh.xml.prefix
			ps = &c
		}
		if err := e.element(nodeName(ps, m.key), m.value, ps, 0); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	}
	if err := e.element(name, v, sh, 0); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func cmpOr(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

type encoder struct {
	r resolver
	b *bytes.Buffer
	// ns maps the namespace declared for each prefix ("" the default) by
	// the elements open, innermost last.
	ns []nsDecl
}

type nsDecl struct{ prefix, uri string }

// inScope reports whether prefix is bound to uri by an open element.
func (e *encoder) inScope(prefix, uri string) bool {
	for i := len(e.ns) - 1; i >= 0; i-- {
		if e.ns[i].prefix == prefix {
			return e.ns[i].uri == uri
		}
	}
	return prefix == "" && uri == ""
}

// qname is the written name of a node named name with sh's prefix.
func qname(name string, sh *shape) string {
	if sh != nil && sh.xml.prefix != "" {
		return sh.xml.prefix + ":" + name
	}
	return name
}

// checkName fails unless name is an XML name (without a prefix).
func checkName(name string) error {
	if name == "" {
		return errors.New("xml: an empty element name")
	}
	for i, c := range name {
		ok := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c > 0x7f ||
			i > 0 && (c == '-' || c == '.' || c >= '0' && c <= '9')
		if !ok {
			return fmt.Errorf("xml: %q is not an XML name", name)
		}
	}
	return nil
}

// open writes the start tag of an element named name, with its namespace
// declaration and the attributes attrs (written as they are: name and
// escaped value).
func (e *encoder) open(name string, sh *shape, attrs []string, marks *int) error {
	if err := checkName(name); err != nil {
		return err
	}
	if sh.xml.prefix != "" {
		if err := checkName(sh.xml.prefix); err != nil {
			return err
		}
	}
	e.b.WriteByte('<')
	e.b.WriteString(qname(name, sh))
	pushed := 0
	if uri := sh.xml.namespace; uri != "" && !e.inScope(sh.xml.prefix, uri) {
		e.b.WriteString(" xmlns")
		if sh.xml.prefix != "" {
			e.b.WriteString(":" + sh.xml.prefix)
		}
		e.b.WriteString(`="`)
		xml.EscapeText(e.b, []byte(uri))
		e.b.WriteByte('"')
		e.ns = append(e.ns, nsDecl{sh.xml.prefix, uri})
		pushed = 1
	}
	for _, a := range attrs {
		e.b.WriteByte(' ')
		e.b.WriteString(a)
	}
	e.b.WriteByte('>')
	if marks != nil {
		*marks = pushed
	}
	return nil
}

func (e *encoder) close(name string, sh *shape) {
	e.b.WriteString("</" + qname(name, sh) + ">")
}

// element writes value v as an element named name, as sh describes it.
func (e *encoder) element(name string, v any, sh *shape, depth int) error {
	if depth > MaxDepth {
		return fmt.Errorf("xml: value nested deeper than %d", MaxDepth)
	}
	switch v := v.(type) {
	case nil:
		return nil
	case object:
		return e.object(name, v, sh, depth)
	case []any:
		// An array where the schema has none: a run of elements.
		for _, it := range v {
			if err := e.element(name, it, &shape{}, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	var pushed int
	if err := e.open(name, sh, nil, &pushed); err != nil {
		return err
	}
	writeText(e.b, v)
	e.close(name, sh)
	e.ns = e.ns[:len(e.ns)-pushed]
	return nil
}

// writeText writes a scalar as escaped text.
func writeText(b *bytes.Buffer, v any) {
	var s string
	switch v := v.(type) {
	case string:
		s = v
	case json.Number:
		s = v.String()
	case bool:
		s = "false"
		if v {
			s = "true"
		}
	}
	xml.EscapeText(b, []byte(s))
}

// object writes the object o as an element named name.
func (e *encoder) object(name string, o object, sh *shape, depth int) error {
	var attrs []string
	var text any
	type child struct {
		name string
		v    any
		sh   *shape
	}
	var children []child
	var extra *shape
	for _, m := range o {
		if m.value == nil {
			continue
		}
		ps := &shape{}
		if p, ok := sh.props[m.key]; ok {
			ps = e.r.shapeOf(p)
		} else if sh.extra != nil {
			if extra == nil {
				extra = e.r.shapeOf(sh.extra)
			}
			ps = extra
		}
		n := nodeName(ps, m.key)
		switch {
		case ps.xml.attribute:
			if err := checkName(n); err != nil {
				return err
			}
			var b bytes.Buffer
			writeText(&b, m.value)
			attrs = append(attrs, qname(n, ps)+`="`+strings.ReplaceAll(b.String(), `"`, "&#34;")+`"`)
		case ps.xml.text:
			text = m.value
		default:
			children = append(children, child{m.key, m.value, ps})
		}
	}
	var pushed int
	if err := e.open(name, sh, attrs, &pushed); err != nil {
		return err
	}
	if text != nil {
		writeText(e.b, text)
	}
	for _, c := range children {
		n := nodeName(c.sh, c.name)
		a, isArr := c.v.([]any)
		switch {
		case isArr && c.sh.xml.wrapped:
			var wp int
			if err := e.open(n, c.sh, nil, &wp); err != nil {
				return err
			}
			if err := e.items(a, c.sh, c.name, depth+1); err != nil {
				return err
			}
			e.close(n, c.sh)
			e.ns = e.ns[:len(e.ns)-wp]
		case isArr:
			if err := e.items(a, c.sh, c.name, depth+1); err != nil {
				return err
			}
		default:
			if err := e.element(n, c.v, c.sh, depth+1); err != nil {
				return err
			}
		}
	}
	e.close(name, sh)
	e.ns = e.ns[:len(e.ns)-pushed]
	return nil
}

// items writes the items of array sh, one element each: named by the
// items' xml.name, else by the array's name (prop, the property's name, or
// its xml.name), else (a root array) by the items' definition.
func (e *encoder) items(a []any, sh *shape, prop string, depth int) error {
	is := &shape{}
	if sh.items != nil {
		is = e.r.shapeOf(sh.items)
	}
	name := is.xml.name
	if name == "" && prop != "" {
		name = nodeName(sh, prop)
	}
	name = cmpOr(name, is.refName, "item")
	for _, it := range a {
		if err := e.element(name, it, is, depth+1); err != nil {
			return err
		}
	}
	return nil
}
