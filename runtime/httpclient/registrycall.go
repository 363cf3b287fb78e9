package httpclient

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"sync"

	"github.com/opsgen/opsgen/runtime"
)

// CallMethod is the registry handler of a generated HTTP operation, shared
// by all of them: it decodes input, the operation's registry input
// ({"params": {...}, "body": ...}), into the arguments of method and calls
// it with client and ctx. method is the generated method as a method
// expression ((*Client).GetPet: a func(*Client, context.Context, params,
// body, ...CallOption) (runtime.ResponseEnvelope[T], error)); members
// names the input member of each argument after ctx, in order ("params",
// "body"). It returns the envelope the method returns, or a CallError
// with CodeValidation, naming operation id, when input does not decode.
//
// Input decodes as into a struct of one field per member (json tags
// "params" and "body"): an empty input leaves the arguments zero. A
// generated client registers hundreds of operations through this one
// function instead of compiling a handler (and an input struct type) for
// each.
func CallMethod(ctx context.Context, id string, input json.RawMessage, method, client any, members ...string) (any, error) {
	m := reflect.ValueOf(method)
	in := reflect.New(inputType(m.Type(), members)).Elem()
	if len(input) > 0 {
		if err := json.Unmarshal(input, in.Addr().Interface()); err != nil {
			return nil, runtime.NewError(runtime.CodeValidation, id, "decoding input", err)
		}
	}
	args := make([]reflect.Value, 0, 2+len(members))
	args = append(args, reflect.ValueOf(client), reflect.ValueOf(ctx))
	for i := range members {
		args = append(args, in.Field(i))
	}
	out := m.Call(args) // the variadic options: none
	err, _ := out[1].Interface().(error)
	return out[0].Interface(), err
}

// inputTypes caches inputType's structs by method type and members.
var inputTypes sync.Map // inputKey -> reflect.Type

type inputKey struct {
	method  reflect.Type
	members string
}

// inputType returns the struct the registry input of a method of type mt
// decodes into: a field per member, of the type of the argument after
// the client and ctx, tagged with the member's name.
func inputType(mt reflect.Type, members []string) reflect.Type {
	key := inputKey{mt, strings.Join(members, ",")}
	if t, ok := inputTypes.Load(key); ok {
		return t.(reflect.Type)
	}
	fields := make([]reflect.StructField, len(members))
	for i, name := range members {
		fields[i] = reflect.StructField{
			Name: exportedName(name),
			Type: mt.In(2 + i),
			Tag:  reflect.StructTag(`json:"` + name + `"`),
		}
	}
	t := reflect.StructOf(fields)
	inputTypes.Store(key, t)
	return t
}

// exportedName is member with its first letter upper-cased ("params":
// "Params"), a struct field name encoding/json sees.
func exportedName(member string) string {
	if member == "" || member[0] < 'a' || member[0] > 'z' {
		return "X" + member
	}
	return string(member[0]-'a'+'A') + member[1:]
}
