package runtime

import (
	"context"
	"reflect"
	"slices"

	"github.com/opsgen/opsgen/runtime/internal/conform"
)

// processInto is opsgenimpl.ProcessInto (see its doc): a result stored through out, a non-nil
// pointer to the data's type: it returns the envelope's meta and
// warnings, and leaves *out zero on error. One compiled copy serves every
// result type, which a generated package with hundreds of them would
// otherwise compile once each (ProcessAs is generic).
func processInto(ctx context.Context, p *Pipeline, operationID string, schema *conform.Schema, result any, out any) (Meta, []Warning, error) {
	env, err := p.process(ctx, operationID, schema, result)
	if err != nil {
		return nil, nil, err
	}
	rv := reflect.ValueOf(out).Elem()
	if env.Data != nil {
		// As envelopeAs's env.Data.(T): the same type, or an interface
		// type the data implements.
		dv := reflect.ValueOf(env.Data)
		if dv.Type() == rv.Type() || rv.Kind() == reflect.Interface && dv.Type().Implements(rv.Type()) {
			rv.Set(dv)
			return env.Meta, env.Warnings, nil
		}
	}
	id := operationID
	if len(env.Warnings) > 0 && env.Warnings[0].OperationID != "" {
		id = env.Warnings[0].OperationID
	}
	w, err := p.convert(ctx, id, env.Data, out)
	if err != nil {
		rv.SetZero()
		return nil, nil, err
	}
	return env.Meta, append(slices.Clip(env.Warnings), w...), nil
}
