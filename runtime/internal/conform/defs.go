package conform

import (
	"fmt"
	"sync"
)

// Def is the JSON Schema of one named type of a generated package: JSON
// under Name in "$defs", and Deps, the defs it refers to directly.
// Generated code declares each as a statically initialised variable, so a
// program links only the defs that the schemas it reaches list, and decodes
// and compiles them when one of those schemas is first used.
type Def struct {
	Name string
	JSON string
	Deps []DefRef

	once   sync.Once
	parsed any
	err    error
}

// DefRef refers to a Def. Generated code implements it with one zero-size
// type per def whose method returns the def: converting such a value to a
// DefRef is no initialisation reference (Go refuses cycles of those, and
// recursive types are common), it needs no code at package initialisation,
// and the linker keeps the method, hence the def, only when a reachable
// value of the type is.
type DefRef interface{ Def() *Def }

// value returns the def's schema decoded (once; the value is shared and
// must not be modified).
func (d *Def) value() (any, error) {
	d.once.Do(func() { d.parsed, d.err = d.decode() })
	return d.parsed, d.err
}

func (d *Def) decode() (any, error) {
	v, err := parseJSON(d.JSON)
	if err != nil {
		return nil, fmt.Errorf("opsgen: schema of %q: %w", d.Name, err)
	}
	return v, nil
}

// defsDocument returns {"$defs": {name: schema}} with every def refs reach,
// transitively. With fresh, the schemas are decoded anew (the caller may
// modify them); else they are the defs' shared values.
func defsDocument(refs []DefRef, fresh bool) (map[string]any, error) {
	defs := map[string]any{}
	seen := map[*Def]bool{}
	work := append([]DefRef(nil), refs...)
	for len(work) > 0 {
		d := work[len(work)-1].Def()
		work = work[:len(work)-1]
		if d == nil || seen[d] {
			continue
		}
		seen[d] = true
		var v any
		var err error
		if fresh {
			v, err = d.decode()
		} else {
			v, err = d.value()
		}
		if err != nil {
			return nil, err
		}
		defs[d.Name] = v
		work = append(work, d.Deps...)
	}
	return map[string]any{"$defs": defs}, nil
}
