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

// MaxDepth bounds the nesting of elements in a document Decode reads.
const MaxDepth = 512

// element is one XML element of a parsed document.
type element struct {
	name     xml.Name
	attrs    []xml.Attr
	children []*element
	text     strings.Builder
	line     int
}

// parse reads a whole XML document: its root element.
func parse(data []byte) (*element, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	var stack []*element
	var root *element
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) >= MaxDepth {
				return nil, fmt.Errorf("elements nested deeper than %d", MaxDepth)
			}
			line, _ := d.InputPos()
			e := &element{name: t.Name, attrs: t.Attr, line: line}
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.children = append(p.children, e)
			} else if root != nil {
				return nil, fmt.Errorf("line %d: a second root element <%s>", line, t.Name.Local)
			} else {
				root = e
			}
			stack = append(stack, e)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text.Write(t)
			} else if len(bytes.TrimSpace(t)) > 0 {
				line, _ := d.InputPos()
				return nil, fmt.Errorf("line %d: text outside the root element", line)
			}
		}
	}
	if root == nil {
		return nil, errors.New("no root element")
	}
	return root, nil
}

// Decode reads the XML document data as the value schema s describes and
// returns that value as JSON, so that it is decoded, normalized and
// validated as a JSON body would be.
//
// Elements and attributes are matched to properties by name: the
// property's xml.name, or the property name; namespaces are not compared
// (a document names them as it likes). An array property is a run of
// elements (named by the items' xml.name, else the property's name), or,
// with xml.wrapped, one element holding them. Text becomes the scalar
// type the schema gives (a number, integer or boolean that does not parse
// stays a string, for validation to report); an element with
// xsi:nil="true" is null. Elements the schema does not declare are kept,
// read without a schema (text as strings, repeated names as arrays), for
// normalization to drop or keep as the schema says.
//
// A root whose xml.nodeType is none (OpenAPI 3.2: no element of its own)
// and that declares one property reads the document's element as that
// property.
//
// An AWS query-protocol response (<XResponse><XResult>...</XResult>
// <ResponseMetadata/></XResponse>), whose descriptions declare the
// members of XResult on XResponse, is read from XResult.
func Decode(data []byte, s Schema) (json.RawMessage, error) {
	root, err := parse(data)
	if err != nil {
		return nil, fmt.Errorf("xml: %w", err)
	}
	r := resolver{doc: s.Doc}
	sh := r.shapeOf(s.Value)
	if sh.kind == kindObject && !declaresAny(r, root, sh) {
		for _, c := range root.children {
			if strings.HasSuffix(c.name.Local, "Result") && declaresAny(r, c, sh) {
				root = c
				break
			}
		}
	}
	dec := decoder{r: r}
	var v any
	if sh.xml.none && len(sh.order) == 1 {
		// nodeType none: the document's element is the root's one member.
		name := sh.order[0]
		return json.Marshal(map[string]any{name: dec.value(root, r.shapeOf(sh.props[name]), 0)})
	}
	if sh.kind == kindArray {
		v = dec.array(root.children, sh, "", 0)
	} else {
		v = dec.value(root, sh, 0)
	}
	return json.Marshal(v)
}

// declaresAny reports whether one of e's attributes or child elements is a
// property of sh.
func declaresAny(r resolver, e *element, sh *shape) bool {
	if len(sh.props) == 0 {
		return false
	}
	for _, name := range sh.order {
		ps := r.shapeOf(sh.props[name])
		n := nodeName(ps, name)
		if ps.xml.attribute {
			if _, ok := attr(e, n); ok {
				return true
			}
			// An attribute may come as a child element (see object).
		}
		for _, c := range e.children {
			if c.name.Local == n || ps.kind == kindArray && c.name.Local == itemName(r, ps, name) {
				return true
			}
		}
	}
	return false
}

// nodeName is the element or attribute name of a property: its xml.name,
// or the property's name.
func nodeName(sh *shape, prop string) string {
	if sh.xml.name != "" {
		return sh.xml.name
	}
	return prop
}

// itemName is the element name of the items of array sh, a property named
// prop: the items' xml.name, else the array's own name.
func itemName(r resolver, sh *shape, prop string) string {
	if sh.items != nil {
		if is := r.shapeOf(sh.items); is.xml.name != "" {
			return is.xml.name
		}
	}
	return nodeName(sh, prop)
}

func attr(e *element, name string) (string, bool) {
	for _, a := range e.attrs {
		if a.Name.Local == name && a.Name.Space != "xmlns" && !(a.Name.Space == "" && a.Name.Local == "xmlns") {
			return a.Value, true
		}
	}
	return "", false
}

// isNil reports xsi:nil="true".
func isNil(e *element) bool {
	for _, a := range e.attrs {
		if a.Name.Local == "nil" && (a.Name.Space == xsiNamespace || a.Name.Space == "xsi") && strings.TrimSpace(a.Value) == "true" {
			return true
		}
	}
	return false
}

const xsiNamespace = "http://www.w3.org/2001/XMLSchema-instance"

type decoder struct{ r resolver }

// value converts element e as sh describes it.
func (d decoder) value(e *element, sh *shape, depth int) any {
	if isNil(e) {
		return nil
	}
	switch sh.kind {
	case kindObject:
		return d.object(e, sh, depth)
	case kindArray:
		// An array read from one element: its children are the items.
		return d.array(e.children, sh, "", depth)
	case kindAny:
		if len(e.children) > 0 || len(e.attrs) > 0 && hasPlainAttr(e) {
			return d.object(e, sh, depth)
		}
	}
	return scalar(e.text.String(), sh)
}

func hasPlainAttr(e *element) bool {
	for _, a := range e.attrs {
		if a.Name.Space != "xmlns" && a.Name.Local != "xmlns" {
			return true
		}
	}
	return false
}

// scalar converts text to the type sh gives; text that does not parse as
// that type stays a string.
func scalar(text string, sh *shape) any {
	switch sh.kind {
	case kindInteger, kindNumber:
		t := strings.TrimSpace(text)
		if t == "" && sh.nullable {
			return nil
		}
		if json.Valid([]byte(t)) && t != "" && (t[0] == '-' || t[0] >= '0' && t[0] <= '9') {
			return json.Number(t)
		}
	case kindBoolean:
		switch t := strings.TrimSpace(text); t {
		case "true", "1":
			return true
		case "false", "0":
			return false
		case "":
			if sh.nullable {
				return nil
			}
		}
	case kindNull:
		if strings.TrimSpace(text) == "" {
			return nil
		}
	}
	return text
}

// object converts element e to an object of sh's properties, then of the
// elements it does not declare.
func (d decoder) object(e *element, sh *shape, depth int) any {
	out := map[string]any{}
	if depth >= MaxDepth {
		return out
	}
	used := make([]bool, len(e.children))
	for _, name := range sh.order {
		ps := d.r.shapeOf(sh.props[name])
		n := nodeName(ps, name)
		switch {
		case ps.xml.attribute:
			if v, ok := attr(e, n); ok {
				out[name] = scalar(v, ps)
				break
			}
			// Written as a child element instead (as Prism and other
			// writers that ignore xml.attribute do): read it, as a
			// server's drift is read, rather than lose the value.
			for i, c := range e.children {
				if !used[i] && c.name.Local == n {
					used[i] = true
					out[name] = d.value(c, ps, depth+1)
				}
			}
		case ps.xml.text:
			out[name] = scalar(e.text.String(), ps)
		case ps.kind == kindArray && ps.xml.wrapped:
			for i, c := range e.children {
				if !used[i] && c.name.Local == n {
					used[i] = true
					// Every child of the wrapper is an item, whatever its name.
					out[name] = d.array(c.children, ps, "", depth+1)
					break
				}
			}
		case ps.kind == kindArray:
			in := itemName(d.r, ps, name)
			var items []*element
			for i, c := range e.children {
				if !used[i] && c.name.Local == in {
					used[i] = true
					items = append(items, c)
				}
			}
			if items == nil && in != n {
				// No item elements: the items may be in an element
				// named as the array, as S3's <Buckets><Bucket/></Buckets>
				// are while its description does not say wrapped.
				for i, c := range e.children {
					if !used[i] && c.name.Local == n {
						used[i] = true
						items = c.children
						break
					}
				}
			}
			if items != nil {
				out[name] = d.array(items, ps, "", depth+1)
			}
		default:
			// The last of repeated elements wins, as the last of
			// repeated JSON members does.
			for i, c := range e.children {
				if !used[i] && c.name.Local == n {
					used[i] = true
					out[name] = d.value(c, ps, depth+1)
				}
			}
		}
	}
	extra := &shape{}
	if sh.extra != nil {
		extra = d.r.shapeOf(sh.extra)
	}
	for i, c := range e.children {
		if used[i] {
			continue
		}
		v := d.value(c, extra, depth+1)
		if prev, ok := out[c.name.Local]; ok && sh.props[c.name.Local] == nil {
			// An undeclared name repeated: an array of its values.
			if list, ok := prev.(repeated); ok {
				out[c.name.Local] = append(list, v)
			} else {
				out[c.name.Local] = repeated{prev, v}
			}
			continue
		}
		if sh.props[c.name.Local] == nil {
			out[c.name.Local] = v
		}
	}
	if sh.kind == kindAny && sh.props == nil {
		for _, a := range e.attrs {
			if a.Name.Space == "xmlns" || a.Name.Local == "xmlns" || a.Name.Space == xsiNamespace {
				continue
			}
			if _, ok := out[a.Name.Local]; !ok {
				out[a.Name.Local] = a.Value
			}
		}
	}
	return out
}

// repeated is the array of the values of an undeclared element name met
// more than once.
type repeated = []any

// array converts the elements items (those named name, or all when name
// is "") to the items of array sh.
func (d decoder) array(items []*element, sh *shape, name string, depth int) any {
	out := []any{}
	if depth >= MaxDepth {
		return out
	}
	is := &shape{}
	if sh.items != nil {
		is = d.r.shapeOf(sh.items)
	}
	for _, c := range items {
		if name != "" && c.name.Local != name {
			continue
		}
		out = append(out, d.value(c, is, depth+1))
	}
	return out
}
