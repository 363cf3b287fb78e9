package openapi

import (
	"fmt"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// pathPlan is how an operation's path template is sent: the template the
// client fills ({name} variables only, then an optional literal query) and
// what the template says about its path parameters.
type pathPlan struct {
	path string
	// fixes are keyed by the declared name of a path parameter.
	fixes map[string]paramFix
}

// paramFix changes a declared path parameter as its template expression
// says: an RFC 6570 operator sets the style ({.x} label, {;x} matrix), and
// {?x}, {&x} or a "name={x}" query part make it a form query parameter.
type paramFix struct {
	name    string // wire name (the RFC 6570 varname)
	style   string
	explode bool
	query   bool
	// reserved: {+x}, RFC 6570's reserved expansion (reserved characters,
	// "/" among them, and %XX triplets are sent as they are).
	reserved bool
}

// declaredParams returns the names of the path and of the query
// parameters the path item and the operation declare.
func declaredParams(item *openapi3.PathItem, op *openapi3.Operation) (path, query map[string]bool) {
	path, query = map[string]bool{}, map[string]bool{}
	for _, refs := range []openapi3.Parameters{item.Parameters, op.Parameters} {
		for _, pr := range refs {
			if pr == nil || pr.Value == nil {
				continue
			}
			switch pr.Value.In {
			case openapi3.ParameterInPath:
				path[pr.Value.Name] = true
			case openapi3.ParameterInQuery:
				query[pr.Value.Name] = true
			}
		}
	}
	return path, query
}

// planPath reads a path template as APIs.guru's descriptions and RFC 6570
// write them:
//
//   - a "#..." suffix (AWS's "/v1/tags/{resourceArn}#tagKeys", Box's
//     "/files/{file_id}#add_shared_link") only tells operations apart: it
//     is never sent;
//   - a "?..." part is a literal query ("/{Bucket}?uploads", "?x=y"); its
//     "name={var}" parts are sent by the parameter that declares var
//     (as a form query parameter);
//   - an RFC 6570 operator expression is expanded as OpenAPI's styles
//     expand it ({.x} label, {;x} matrix, {/x} a "/" then simple, {?x} and
//     {&x} a form query parameter, {#x} dropped as a fragment, {+x} in
//     style simple with reserved characters kept, as RFC 6570 says:
//     Google's "/v1/{+name}" with name "projects/p/topics/t").
//
// It returns an error, for a generation diagnostic, for what no request
// can carry as the description means it: a variable no parameter
// declares, several variables in one expression, a prefix modifier or
// {/x*}.
func planPath(tmpl string, pathParams, queryParams map[string]bool) (pathPlan, error) {
	plan := pathPlan{fixes: map[string]paramFix{}}
	// The fragment: a '#' outside braces ends what is sent.
	if i := outsideBraces(tmpl, '#'); i >= 0 {
		tmpl = tmpl[:i]
	}
	pathPart, queryPart := tmpl, ""
	if i := outsideBraces(tmpl, '?'); i >= 0 {
		pathPart, queryPart = tmpl[:i], tmpl[i+1:]
	}
	var b strings.Builder
	rest := pathPart
	for {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			b.WriteString(rest)
			break
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return plan, fmt.Errorf("path template %q: unclosed {", tmpl)
		}
		b.WriteString(rest[:i])
		expr := rest[i+1 : i+j]
		rest = rest[i+j+1:]
		if pathParams[expr] && !isOperator(expr) {
			b.WriteString("{" + expr + "}")
			continue
		}
		var op byte
		list := expr
		if isOperator(expr) {
			op, list = expr[0], expr[1:]
		}
		if strings.Contains(list, ",") {
			return plan, fmt.Errorf("path template %q: expression {%s} has several variables, which no parameter style expands", tmpl, expr)
		}
		v, explode := strings.CutSuffix(list, "*")
		if strings.Contains(v, ":") && !pathParams[expr] {
			return plan, fmt.Errorf("path template %q: expression {%s} has a prefix modifier, which no parameter style expands", tmpl, expr)
		}
		if op == '#' {
			rest = "" // a fragment expression: never sent, nor what follows
			continue
		}
		name := ""
		switch {
		case pathParams[expr]:
			name = expr
		case pathParams[v]:
			name = v
		case (op == '?' || op == '&') && queryParams[v]:
			continue // the query parameter sends it
		default:
			return plan, fmt.Errorf("path template %q: variable %q of {%s} is declared by no path parameter", tmpl, v, expr)
		}
		switch op {
		case 0:
			if explode {
				plan.fixes[name] = paramFix{name: name, style: "simple", explode: true}
			}
			b.WriteString("{" + name + "}")
		case '.':
			plan.fixes[name] = paramFix{name: name, style: "label", explode: explode}
			b.WriteString("{" + name + "}")
		case ';':
			// Matrix style writes the parameter's name: the varname.
			plan.fixes[name] = paramFix{name: v, style: "matrix", explode: explode}
			b.WriteString("{" + v + "}")
		case '/':
			if explode {
				return plan, fmt.Errorf("path template %q: {%s} joins an array's items with \"/\", which no parameter style does", tmpl, expr)
			}
			b.WriteString("/{" + name + "}")
		case '?', '&':
			plan.fixes[name] = paramFix{name: v, style: "form", explode: explode, query: true}
		default: // '+'
			plan.fixes[name] = paramFix{name: name, style: "simple", explode: explode, reserved: true}
			b.WriteString("{" + name + "}")
		}
	}
	// The literal query: parts without variables are kept; "name={var}"
	// parts are sent by the parameter declaring var.
	var literal []string
	for _, part := range strings.Split(queryPart, "&") {
		if part == "" {
			continue
		}
		if !strings.Contains(part, "{") {
			literal = append(literal, part)
			continue
		}
		key, val, _ := strings.Cut(part, "=")
		v, ok := strings.CutPrefix(val, "{")
		v, ok2 := strings.CutSuffix(v, "}")
		switch {
		case !ok || !ok2 || strings.ContainsAny(key, "{}") || strings.ContainsAny(v, "{}"):
			return plan, fmt.Errorf("path template %q: query part %q is neither literal nor name={variable}", tmpl, part)
		case queryParams[key] || queryParams[v]:
			// The query parameter sends it.
		case pathParams[v]:
			plan.fixes[v] = paramFix{name: key, style: "form", explode: true, query: true}
		default:
			return plan, fmt.Errorf("path template %q: variable %q of query part %q is declared by no parameter", tmpl, v, part)
		}
	}
	plan.path = b.String()
	if len(literal) > 0 {
		plan.path += "?" + strings.Join(literal, "&")
	}
	return plan, nil
}

// isOperator reports whether a template expression starts with an RFC 6570
// operator.
func isOperator(expr string) bool {
	return expr != "" && strings.IndexByte("+#./;?&", expr[0]) >= 0
}

// outsideBraces returns the index of the first c outside {...} in s, or -1.
func outsideBraces(s string, c byte) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			if depth > 0 {
				depth--
			}
		case c:
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}
