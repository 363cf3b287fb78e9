package mcpserver

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"

	"github.com/opsgen/opsgen/runtime"
)

// Tool name limits. The MCP specification (2025-11-25, "Tool names") says
// names SHOULD be 1 to 128 characters of A-Z, a-z, 0-9, '_', '-' and '.',
// case-sensitive and unique within a server. DefaultToolName stays inside
// the stricter rule of the LLM APIs that clients pass tools to (OpenAI's
// and Anthropic's function names: ^[a-zA-Z0-9_-]{1,64}$).
const (
	// MaxToolName is the longest name a tool gets (the specification's limit).
	MaxToolName = 128
	// maxDefaultName is the longest name DefaultToolName returns.
	maxDefaultName = 64
)

// DefaultToolName is the default Options.ToolName: the operation id with
// its dots replaced by '_' ("petstore.listPets" -> "petstore_listPets"),
// and an id longer than 64 characters cut to 55 and ended with '_' and 8
// hex digits of its SHA-256, so that long ids that share a prefix stay
// distinct.
func DefaultToolName(spec runtime.OperationSpec) string {
	return shorten(strings.ReplaceAll(spec.ID, ".", "_"), spec.ID, maxDefaultName)
}

// shorten cuts name to max characters, ending it with a hash of key when it
// was longer.
func shorten(name, key string, max int) string {
	if len(name) <= max {
		return name
	}
	sum := sha256.Sum256([]byte(key))
	return name[:max-9] + "_" + hex.EncodeToString(sum[:4])
}

// validName makes name a valid MCP tool name: characters outside the
// specification's set become '_', an empty name becomes "tool", and a name
// over MaxToolName characters is shortened.
func validName(name, key string) string {
	clean := strings.Map(func(r rune) rune {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return r
		}
		return '_'
	}, name)
	if clean == "" {
		clean = "tool"
	}
	return shorten(clean, key, MaxToolName)
}

// toolNames names the tools of specs (sorted by id, as
// Registry.Operations returns them): name(spec), made valid, and made
// unique by suffixes "_2", "_3", ... given in id order, so that the names
// depend only on the set of operations served.
func toolNames(specs []runtime.OperationSpec, name func(runtime.OperationSpec) string) []string {
	if name == nil {
		name = DefaultToolName
	}
	order := make([]int, len(specs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(specs[a].ID, specs[b].ID) })
	names := make([]string, len(specs))
	wanted := make([]string, len(specs))
	taken := map[string]bool{}
	for _, i := range order {
		wanted[i] = validName(name(specs[i]), specs[i].ID)
	}
	// First come, first served among equal names; names no operation
	// wanted are the ones suffixes may use, so a suffixed name never
	// takes another operation's own name.
	own := map[string]bool{}
	for _, n := range wanted {
		own[n] = true
	}
	for _, i := range order {
		n := wanted[i]
		if !taken[n] {
			taken[n] = true
			names[i] = n
			continue
		}
		for k := 2; ; k++ {
			suffix := "_" + strconv.Itoa(k)
			c := n
			if len(c)+len(suffix) > MaxToolName {
				c = c[:MaxToolName-len(suffix)]
			}
			c += suffix
			if !taken[c] && !own[c] {
				taken[c] = true
				names[i] = c
				break
			}
		}
	}
	return names
}
