package mcptest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// The reference MCP servers (npm @modelcontextprotocol/server-everything,
// server-memory and server-filesystem, pinned by scripts/mcp-servers.sh) are
// installed into the module's .work/mcp-servers, once per test binary.
var referenceInstall = sync.OnceValues(func() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", errors.New("mcptest: cannot locate the module")
	}
	root := filepath.Join(filepath.Dir(file), "..", "..")
	out, err := exec.Command("bash", filepath.Join(root, "scripts", "mcp-servers.sh")).CombinedOutput()
	if err != nil {
		return "", errors.New("scripts/mcp-servers.sh: " + err.Error() + "\n" + string(out))
	}
	return filepath.Join(root, ".work", "mcp-servers", "node_modules", ".bin"), nil
})

// ReferenceServer returns the executable of a reference MCP server
// ("everything", "memory" or "filesystem"; it speaks stdio), installing the
// servers first when needed. Without node or npm it skips the test with a
// message saying so, or fails it when CI is set: CI must run them.
func ReferenceServer(t testing.TB, name string) string {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not installed, and CI must run the reference MCP server tests", tool)
			}
			t.Skipf("SKIPPING the reference MCP server tests: %s is not installed (install Node.js 20+ to run them against @modelcontextprotocol/server-%s)", tool, name)
		}
	}
	bin, err := referenceInstall()
	if err != nil {
		t.Fatalf("installing the reference MCP servers: %v", err)
	}
	return filepath.Join(bin, "mcp-server-"+name)
}
