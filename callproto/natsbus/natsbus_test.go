package natsbus_test

import (
	"testing"

	"github.com/opsgen/opsgen/callproto"
	"github.com/opsgen/opsgen/callproto/bustest"
	"github.com/opsgen/opsgen/callproto/natsbus"
)

func TestBus(t *testing.T) {
	bustest.Run(t, func(t *testing.T) (callproto.Bus, callproto.Bus) {
		a, err := natsbus.Connect(natsbus.Options{}) // a fresh embedded server
		if err != nil {
			t.Fatal(err)
		}
		b, err := natsbus.Connect(natsbus.Options{URL: a.URL()})
		if err != nil {
			a.Close()
			t.Fatal(err)
		}
		t.Cleanup(func() {
			b.Close()
			a.Close()
		})
		return a, b
	})
}

func TestConnectBadURL(t *testing.T) {
	_, err := natsbus.Connect(natsbus.Options{URL: "nats://127.0.0.1:1"})
	if err == nil {
		t.Fatal("connected to nothing")
	}
}
