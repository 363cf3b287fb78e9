package runtime

import (
	"reflect"
)

// isNilLogger reports whether l is nil or a nil pointer (a nil *slog.Logger
// given where a Logger is taken): the default logger is used then.
func isNilLogger(l Logger) bool {
	if l == nil {
		return true
	}
	v := reflect.ValueOf(l)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
