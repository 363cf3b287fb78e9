//go:build opsgen_stdjson

package runtime

// fastUnmarshal is nil with the opsgen_stdjson build tag: results decode
// with encoding/json alone (a smaller binary, a slower decode).
var fastUnmarshal func([]byte, any) error
