package callproto_test

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"

	"github.com/opsgen/opsgen/callproto"
	"github.com/opsgen/opsgen/callproto/natsbus"
	"github.com/opsgen/opsgen/runtime"
)

// A hub serves a registry over an embedded NATS server; a spoke calls an
// operation with typed output and subscribes to a stream. In real use the
// two are separate processes: the spoke connects with natsbus.Options{URL: ...}.
func Example() {
	ctx := context.Background()
	reg := runtime.NewRegistry(nil)
	reg.Register(runtime.OperationSpec{ID: "greet.hello"}, func(_ context.Context, in json.RawMessage) (any, error) {
		var p struct{ Name string }
		json.Unmarshal(in, &p)
		return map[string]string{"greeting": "Hello, " + p.Name}, nil
	})
	reg.RegisterSubscription(runtime.OperationSpec{ID: "greet.count"}, func(ctx context.Context, _ []byte) iter.Seq2[any, error] {
		return func(yield func(any, error) bool) {
			for i := 1; i <= 3 && yield(i, nil); i++ {
			}
		}
	})

	hubBus, _ := natsbus.Connect(natsbus.Options{}) // starts an embedded server
	defer hubBus.Close()
	hub, _ := callproto.NewCallHandler(reg, hubBus, callproto.HandlerOptions{
		Policy: callproto.Rules(callproto.Rule{Operation: "greet.*", Roles: []string{"guest"}}),
	})
	defer hub.Close()

	spokeBus, _ := natsbus.Connect(natsbus.Options{URL: hubBus.URL()})
	defer spokeBus.Close()
	spoke, _ := callproto.NewPendingRequestMap(spokeBus, callproto.SpokeOptions{
		Identity: &callproto.Identity{Subject: "ann", Roles: []string{"guest"}},
	})
	defer spoke.Close()

	type greeting struct {
		Greeting string `json:"greeting"`
	}
	env, err := callproto.CallAs[greeting](ctx, spoke, "greet.hello", map[string]string{"name": "Ann"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(env.Data.Greeting, runtime.SourceOf(env.Meta))
	for env, err := range callproto.SubscribeAs[int](ctx, spoke, "greet.count", nil) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(env.Data)
	}
	_, err = spoke.Call(ctx, "greet.hello", nil, callproto.WithIdentity(&callproto.Identity{Subject: "eve"}))
	fmt.Println(err)
	// Output:
	// Hello, Ann local
	// 1
	// 2
	// 3
	// ACCESS_DENIED greet.hello: "eve" may not call greet.hello
}
