// tsclient.mjs: the official TypeScript MCP SDK client (npm
// @modelcontextprotocol/sdk, installed by scripts/mcp-ts-client.sh) against
// a server, for runtime/mcpserver's TestTypeScriptClient. It connects over
// stdio or streamable HTTP, lists the tools (the SDK compiles their output
// schemas), calls each call given with its arguments through callTool (which
// checks structuredContent against the tool's output schema) and prints one
// JSON object: {"protocolVersion", "tools", "results": [{"name", "result"} or
// {"name", "error": {"code", "message"}}]}.
//
//	NODE_PATH=.work/mcp-ts-client/node_modules node tsclient.mjs '<job JSON>'
//
// The job: {"stdio": {"command", "args", "env"}} or {"url": "http://..."},
// and "calls": [{"name", "arguments", "abortAfterMs"}]: a call with
// abortAfterMs is aborted (AbortSignal) after that many milliseconds;
// "lingerMs" waits that long before closing the session.
import { createRequire } from "node:module";
import path from "node:path";

// NODE_PATH does not apply to ES module imports: resolve the SDK from it.
const require = createRequire(path.join(process.env.NODE_PATH ?? ".", "x.js"));
const sdk = (p) => import(require.resolve("@modelcontextprotocol/sdk/" + p));
const { Client } = await sdk("client/index.js");

const job = JSON.parse(process.argv[2]);
let transport;
if (job.stdio) {
	const { StdioClientTransport } = await sdk("client/stdio.js");
	transport = new StdioClientTransport({ ...job.stdio, env: { ...process.env, ...job.stdio.env }, stderr: "inherit" });
} else {
	const { StreamableHTTPClientTransport } = await sdk("client/streamableHttp.js");
	transport = new StreamableHTTPClientTransport(new URL(job.url));
}
const client = new Client({ name: "opsgen-tsclient", version: "1.0.0" });
await client.connect(transport);
const out = { protocolVersion: transport.protocolVersion ?? null, tools: (await client.listTools()).tools, results: [] };
for (const c of job.calls) {
	try {
		let options;
		if (c.abortAfterMs) {
			// The time of the abort goes to stderr, for the caller to measure
			// how long the server takes to see it.
			const signal = AbortSignal.timeout(c.abortAfterMs);
			signal.addEventListener("abort", () => process.stderr.write(`aborted ${c.name} at ${Date.now()}\n`));
			options = { signal };
		}
		out.results.push({ name: c.name, result: await client.callTool({ name: c.name, arguments: c.arguments ?? {} }, undefined, options) });
	} catch (e) {
		out.results.push({ name: c.name, error: { code: e.code ?? null, message: String(e.message ?? e) } });
	}
}
// lingerMs keeps the session open after the calls, so that the
// notifications/cancelled of an aborted call is delivered before close()
// aborts the requests in flight.
if (job.lingerMs) await new Promise((r) => setTimeout(r, job.lingerMs));
await client.close();
process.stdout.write(JSON.stringify(out) + "\n");
