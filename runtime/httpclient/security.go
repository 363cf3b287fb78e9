package httpclient

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// SecurityScheme is a security scheme of the spec (components.securitySchemes).
type SecurityScheme struct {
	// Name is the scheme's key in the spec; credentials are set by it.
	Name string
	// Type is "apiKey", "http", "oauth2", "openIdConnect" or "mutualTLS".
	Type string
	// Scheme is the HTTP authentication scheme for Type "http": "bearer",
	// "basic", or another sent as "<Scheme> <token>".
	Scheme string
	// In is where an apiKey goes: "header", "query" or "cookie".
	In string
	// ParamName is the header, query parameter or cookie name of an apiKey.
	ParamName string
}

type credKind uint8

const (
	credToken credKind = iota + 1
	credBasic
	credSource
)

// Credential is the secret for one security scheme. Build it with APIKey,
// BearerToken, BasicAuth or TokenSource and set it with WithCredential.
type Credential struct {
	kind           credKind
	token          string
	user, password string
	source         func(context.Context) (string, error)
}

// APIKey is the value of an apiKey scheme.
func APIKey(value string) Credential { return Credential{kind: credToken, token: value} }

// BearerToken is a token for an http bearer scheme (or an oauth2 or
// openIdConnect scheme whose token does not change).
func BearerToken(token string) Credential { return Credential{kind: credToken, token: token} }

// BasicAuth is the user and password of an http basic scheme.
func BasicAuth(user, password string) Credential {
	return Credential{kind: credBasic, user: user, password: password}
}

// TokenSource is a credential whose token is fetched per request, as
// OAuth2 and OpenID Connect access tokens are (an oauth2.TokenSource's
// Token().AccessToken, say). It serves any scheme that takes a token:
// apiKey, http bearer, oauth2, openIdConnect.
func TokenSource(f func(ctx context.Context) (string, error)) Credential {
	return Credential{kind: credSource, source: f}
}

// Security sets the operation's security requirement: nil or empty means
// none; otherwise each alternative lists the scheme names that must all
// apply. Do applies the first non-empty alternative whose credentials are all
// configured; when there is none, an empty alternative ("no auth needed")
// sends the request without credentials, and without one the call fails
// with ACCESS_DENIED before anything is sent. Preferring a configured
// alternative over an earlier empty one sends credentials the user gave to
// operations where auth is optional.
//
// When the operation also declares the credential as a parameter (an
// api_key query parameter beside an apiKey-in-query scheme of the same
// name, an Authorization header parameter beside a bearer scheme), it is
// sent once: a non-empty parameter value set on the request (for a query
// credential, also one in the base URL's query) wins (it is the more
// specific choice, made for this call) and the scheme is not applied
// (its TokenSource is not called); an empty value is dropped and the
// scheme's credential sent instead, so that the zero value of a required
// parameter field does not hide a configured credential.
func (r *Request) Security(alternatives [][]string) { r.security = alternatives }

// satisfied reports whether every scheme of alt is declared and has a
// credential (mutualTLS needs none: it lives in the HTTPClient's TLS config).
func (c *Client) satisfied(alt []string) bool {
	for _, name := range alt {
		s, ok := c.cfg.schemes[name]
		if !ok {
			return false
		}
		if s.Type != "mutualTLS" && c.cfg.credentials[name].kind == 0 {
			return false
		}
	}
	return true
}

// authorize applies the credentials of the chosen security alternative to
// req; cookie credentials are appended to cookies.
func (c *Client) authorize(ctx context.Context, r *Request, req *http.Request, cookies []byte) ([]byte, error) {
	opID, alts := r.opID, r.security
	if len(alts) == 0 {
		return cookies, nil
	}
	var alt []string
	found, optional := false, false
	for _, a := range alts {
		if len(a) == 0 {
			optional = true
		} else if !found && c.satisfied(a) {
			alt, found = a, true
		}
	}
	if !found {
		if optional {
			return cookies, nil
		}
		names := make([]string, len(alts))
		for i, a := range alts {
			names[i] = strings.Join(a, " + ")
		}
		return cookies, runtime.Errorf(runtime.CodeAccessDenied, opID,
			"no credentials configured for any security alternative (%s); set them with httpclient.WithCredential",
			strings.Join(names, " or "))
	}
	for _, name := range alt {
		s, cred := c.cfg.schemes[name], c.cfg.credentials[name]
		var err error
		if cookies, err = c.apply(ctx, r, s, cred, req, cookies); err != nil {
			return cookies, err
		}
	}
	return cookies, nil
}

func (c *Client) apply(ctx context.Context, r *Request, s SecurityScheme, cred Credential, req *http.Request, cookies []byte) ([]byte, error) {
	opID := r.opID
	if s.Type == "mutualTLS" {
		return cookies, nil
	}
	// A non-empty parameter of the same name and location wins; an empty
	// one is removed (see Request.Security).
	switch {
	case s.Type == "apiKey" && s.In == "query":
		if !slices.Contains(r.credQuery, s.ParamName) {
			r.credQuery = append(r.credQuery, s.ParamName) // for RedactedURL, even when the URL has it already
		}
		q, set := dropEmptyPairs(req.URL.RawQuery, "&", s.ParamName)
		if set {
			return cookies, nil
		}
		req.URL.RawQuery = q
	case s.Type == "apiKey" && s.In == "cookie":
		q, set := dropEmptyPairs(string(cookies), "; ", s.ParamName)
		if set {
			return cookies, nil
		}
		cookies = []byte(q)
	default:
		name := "Authorization"
		if s.Type == "apiKey" {
			name = s.ParamName
		}
		if r.header.Get(name) != "" {
			return cookies, nil
		}
	}
	if s.Type == "http" && strings.EqualFold(s.Scheme, "basic") {
		if cred.kind != credBasic {
			return cookies, runtime.Errorf(runtime.CodeAccessDenied, opID, "security scheme %q is http basic: set its credential with httpclient.BasicAuth", s.Name)
		}
		req.SetBasicAuth(cred.user, cred.password)
		return cookies, nil
	}
	token, err := cred.secret(ctx, opID, s.Name)
	if err != nil {
		return cookies, err
	}
	switch s.Type {
	case "apiKey":
		switch s.In {
		case "header":
			req.Header.Set(s.ParamName, token)
		case "query":
			q := []byte(req.URL.RawQuery)
			if len(q) > 0 {
				q = append(q, '&')
			}
			q = appendEscaped(q, s.ParamName, escapeAll)
			q = append(q, '=')
			req.URL.RawQuery = string(appendEscaped(q, token, escapeAll))
		case "cookie":
			if len(cookies) > 0 {
				cookies = append(cookies, "; "...)
			}
			cookies = appendEscaped(cookies, s.ParamName, escapeAll)
			cookies = append(cookies, '=')
			cookies = appendEscaped(cookies, token, escapeAll)
		default:
			return cookies, runtime.Errorf(runtime.CodeAccessDenied, opID, "security scheme %q: apiKey location %q is not header, query or cookie", s.Name, s.In)
		}
	case "http":
		scheme := s.Scheme
		if strings.EqualFold(scheme, "bearer") || scheme == "" {
			scheme = "Bearer"
		}
		req.Header.Set("Authorization", scheme+" "+token)
	case "oauth2", "openIdConnect":
		req.Header.Set("Authorization", "Bearer "+token)
	default:
		return cookies, runtime.Errorf(runtime.CodeAccessDenied, opID, "security scheme %q has unsupported type %q", s.Name, s.Type)
	}
	return cookies, nil
}

// secret returns the token of a token credential, calling its source if it
// has one.
func (cred Credential) secret(ctx context.Context, opID, scheme string) (string, error) {
	switch cred.kind {
	case credToken:
		return cred.token, nil
	case credSource:
		tok, err := cred.source(ctx)
		if err != nil {
			if ce := opsgenimpl.ContextError(ctx, opID, err); ce != nil {
				return "", ce
			}
			return "", runtime.NewError(runtime.CodeAccessDenied, opID, "token source of security scheme \""+scheme+"\" failed", err)
		}
		if tok == "" {
			return "", runtime.Errorf(runtime.CodeAccessDenied, opID, "token source of security scheme %q returned an empty token", scheme)
		}
		return tok, nil
	}
	return "", runtime.Errorf(runtime.CodeAccessDenied, opID, "security scheme %q takes a token: set it with httpclient.APIKey, BearerToken or TokenSource, not BasicAuth", scheme)
}

// dropEmptyPairs looks for the pairs named name in list, a query (sep "&")
// or a Cookie header value (sep "; ") whose names are percent-encoded. set
// reports a pair with a non-empty value, in which case list is returned
// unchanged; otherwise pairs named name (all empty) are removed.
func dropEmptyPairs(list, sep, name string) (out string, set bool) {
	if list == "" {
		return list, false
	}
	esc := string(appendEscaped(nil, name, escapeAll))
	found := false
	for p := range strings.SplitSeq(list, sep) {
		k, v, _ := strings.Cut(p, "=")
		if k == esc || k == name {
			if v != "" {
				return list, true
			}
			found = true
		}
	}
	if !found {
		return list, false
	}
	var keep []string
	for p := range strings.SplitSeq(list, sep) {
		if k, _, _ := strings.Cut(p, "="); k != esc && k != name {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, sep), false
}
