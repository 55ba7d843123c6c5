// bad-mcp.mjs: a hostile MCP server (plain node, no SDK) for sc-mcp's
// bad-input tests.  It answers initialize and tools/list as MODE says:
//
//   nonjson      prints a line that is not JSON after initialize
//   unknown-id   answers tools/list with an id never asked
//   huge         sends one 50 MiB message
//   badname      a tool named "../etc/passwd\u001b[2J"
//   badschema    a tool whose inputSchema is a string
//   exit         exits during initialize
//   good         behaves, with a tool "ok"; sleeps forever after tools/list
//                when asked to call (a hang)
//   orphan       starts a detached child (argv MARKER) that lives on
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const [mode, marker] = process.argv.slice(2);
const send = (o) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...o }) + "\n");
const tool = (name, inputSchema) => ({ name, description: "d", inputSchema });
if (mode === "orphan") {
	spawn("sleep", ["300", marker || "x"], { detached: true, stdio: "ignore" }).unref();
}
createInterface({ input: process.stdin }).on("line", (line) => {
	const m = JSON.parse(line);
	if (m.method === "initialize") {
		if (mode === "exit") process.exit(3);
		send({ id: m.id, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} },
			serverInfo: { name: "bad", version: "0" } } });
		if (mode === "nonjson") process.stdout.write("this is not JSON\n");
	} else if (m.method === "tools/list") {
		if (mode === "unknown-id") return send({ id: 999, result: { tools: [] } });
		if (mode === "huge") return send({ id: m.id, result: { tools: [], pad: "x".repeat(50 << 20) } });
		if (mode === "badname") return send({ id: m.id, result: { tools: [tool("../etc/passwd\u001b[2J", { type: "object" })] } });
		if (mode === "badschema") return send({ id: m.id, result: { tools: [tool("t", "object")] } });
		send({ id: m.id, result: { tools: [tool("ok", { type: "object" })] } });
	} else if (m.method === "tools/call") {
		// hang: never answer
	}
});
