package callproto

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/opsgen/opsgen/runtime"
)

// Policy decides whether who (nil when the request carried no identity)
// may call op. A nil error allows; an error denies, and reaches the caller
// as an ACCESS_DENIED CallError with the error's text. The CallHandler
// checks it for every request; Registry.Execute and Registry.Subscribe,
// which are trusted in-process calls, do not.
type Policy func(ctx context.Context, who *Identity, op runtime.OperationSpec) error

// AllowAll is the Policy that allows every call.
func AllowAll(context.Context, *Identity, runtime.OperationSpec) error { return nil }

// Rule grants the callers holding any of Roles the operations matching
// Operation: an exact id ("petstore.getPet"), a namespace ("petstore.*"),
// or "*" for all.
type Rule struct {
	Operation string
	Roles     []string
}

// Rules returns the Policy that allows a call when some rule matches its
// operation and the caller holds one of that rule's roles; everything
// else, including a call without identity, is denied.
func Rules(rules ...Rule) Policy {
	return func(_ context.Context, who *Identity, op runtime.OperationSpec) error {
		if who == nil {
			return errors.New("no identity")
		}
		for _, r := range rules {
			if !matchOperation(r.Operation, op.ID) {
				continue
			}
			for _, role := range who.Roles {
				if slices.Contains(r.Roles, role) {
					return nil
				}
			}
		}
		return errors.New(quote(who.Subject) + " may not call " + op.ID)
	}
}

func matchOperation(pattern, id string) bool {
	switch {
	case pattern == "*":
		return true
	case strings.HasSuffix(pattern, ".*"):
		return strings.HasPrefix(id, pattern[:len(pattern)-1])
	}
	return pattern == id
}

func quote(s string) string { return `"` + s + `"` }

func containsStr(s, sub string) bool { return strings.Contains(s, sub) }

func asCallError(err error) *runtime.CallError {
	var ce *runtime.CallError
	if errors.As(err, &ce) {
		return ce
	}
	return nil
}
