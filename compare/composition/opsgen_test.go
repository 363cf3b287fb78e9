package composition

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/opsgen/opsgen/compare/composition/opsgenclient"
	"github.com/opsgen/opsgen/runtime"
)

func TestOpsgen(t *testing.T) {
	ctx := context.Background()
	var patched string
	c := opsgenclient.NewClient(opsgenclient.WithBaseURL(server(t, &patched)))

	// A declared 404: the operation's own error type, its body typed.
	_, err := c.GetPet(ctx, opsgenclient.GetPetParams{ID: "2"})
	var nf *opsgenclient.GetPetNotFound
	if !errors.As(err, &nf) || nf.Body.Title != "no pet" {
		t.Fatalf("404: %v", err)
	}

	env, err := c.GetPet(ctx, opsgenclient.GetPetParams{ID: "1"})
	if err != nil {
		t.Fatal(err)
	}
	// allOf: one struct with the fields of both.
	if env.Data.Name != "Rex" {
		t.Errorf("name = %q", env.Data.Name)
	}

	// A oneOf: Match, a function per variant (leaving one out does not
	// compile); a switch over Variant() and its constants works too.
	lives := 0
	err = env.Data.Kind.Match(
		func(opsgenclient.Dog) error { return errors.New("a dog") },
		func(cat opsgenclient.Cat) error { lives = int(cat.Lives); return nil },
		func(raw json.RawMessage) error { return fmt.Errorf("no variant: %s", raw) })
	if err != nil || lives != 7 {
		t.Errorf("Match: %d %v", lives, err)
	}

	// An anyOf: its variants are named by type (StringTag, NumberTag).
	if tag := env.Data.Tag; tag == nil || tag.Variant() != opsgenclient.StringTag {
		t.Errorf("tag = %v", tag)
	} else if s, _ := tag.AsString(); s != "fluffy" {
		t.Errorf("tag = %q", s)
	}

	// A date: runtime.Date.
	if b := env.Data.Born; b == nil || b.In(time.UTC) != leapDay {
		t.Errorf("born = %v", b)
	}

	// An explicit null.
	if _, err := c.PatchPet(ctx, opsgenclient.PatchPetParams{ID: "1"}, opsgenclient.PetPatch{Nick: runtime.Null[string]()}); err != nil {
		t.Fatal(err)
	}
	if patched != `{"nick":null}` {
		t.Errorf("patch body = %s", patched)
	}
}
