// sdk-agent.mjs: an ACP agent built on the official ACP SDK
// (@agentclientprotocol/sdk, pinned in t/npm), for tests of sc-acp and
// git speccoder run with a real SDK peer.
//
//   node sdk-agent.mjs PLAN LOG
//
// On each session/prompt it carries out the steps of PLAN (a JSON array)
// through the SDK's client methods, in order, and appends what each got to
// LOG (one JSON line: {step, ok, result} or {step, ok: false, error}).
// Paths in steps are relative to the session's cwd unless absolute.
//   {"read": PATH}                          fs/read_text_file
//   {"write": PATH, "content": TEXT}        fs/write_text_file
//   {"ask": PATH, "content": TEXT}          announce an edit (tool_call), ask
//                                           (session/request_permission with
//                                           only toolCallId, rawInput, title,
//                                           as claude-code-acp does), then
//                                           write it when allowed
//   {"permission": TOOLCALL, "options": [...]}  a raw permission request
//   {"terminal": COMMAND, "args": [...]}    terminal/create, output,
//                                           wait_for_exit, release
//   {"kill": COMMAND}                       terminal/create, kill at once,
//                                           wait_for_exit, output, release
//   {"own-read": ABSOLUTE-PATH}             read a file in the agent's own
//                                           process (what the sandbox lets it)
//   {"mode": ID}                            report current_mode_update
//   {"say": TEXT}                           agent_message_chunk
//   {"mcp": SERVER, "list": true}           tools/list of the MCP server
//                                           session/new named SERVER (an
//                                           SDK client over stdio, started
//                                           as the client gave it)
//   {"mcp": SERVER, "call": TOOL, "arguments": {...}}  tools/call
//   {"sleep": MS}                           wait
//   {"raw-mcp": SERVER, "lines": [...]}     connect to the socket the
//                                           server's relay names, in the
//                                           agent's own process, send the
//                                           lines; what came back (parsed
//                                           lines) and whether it closed
// Each session/new is logged too: {"new": {"mcpServers": [...]}}.
// Session modes: "default" (asks first) and "bypassPermissions".
import { createRequire } from "node:module";
import { appendFileSync, readFileSync } from "node:fs";
import { createConnection } from "node:net";
import { isAbsolute, join } from "node:path";
import { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";

const [planFile, log] = process.argv.slice(2);
if (!planFile || !log) {
	process.stderr.write("usage: sdk-agent.mjs PLAN LOG\n");
	process.exit(2);
}
// The SDK is installed under t/npm (make deps), beside this directory.
const require = createRequire(new URL("../npm/package.json", import.meta.url));
const acp = await import(pathToFileURL(require.resolve("@agentclientprotocol/sdk")).href);

const plan = JSON.parse(readFileSync(planFile, "utf8"));
const mcpClients = new Map();

// The MCP client of server NAME, started once from the session's list.
async function mcpClient(s, name) {
	if (mcpClients.has(name))
		return mcpClients.get(name);
	const conf = (s.mcpServers ?? []).find((m) => m.name === name);
	if (!conf)
		throw new Error(`no MCP server ${name} in session/new`);
	const load = (p) => import(pathToFileURL(require.resolve(p)).href);
	const { Client } = await load("@modelcontextprotocol/sdk/client/index.js");
	const { StdioClientTransport } = await load("@modelcontextprotocol/sdk/client/stdio.js");
	const env = Object.fromEntries((conf.env ?? []).map((e) => [e.name, e.value]));
	const client = new Client({ name: "speccoder-sdk-agent", version: "1.0.0" });
	await client.connect(new StdioClientTransport({ command: conf.command,
		args: conf.args ?? [], env: { PATH: process.env.PATH ?? "", ...env } }));
	mcpClients.set(name, client);
	return client;
}
const sessions = new Map();
let nextCall = 1;

function note(step, ok, what) {
	const entry = ok ? { step, ok, result: what }
		: { step, ok, error: { code: what?.code ?? null, message: String(what?.message ?? what) } };
	appendFileSync(log, JSON.stringify(entry) + "\n");
}

async function update(client, sessionId, u) {
	await client.notify(acp.methods.client.session.update, { sessionId, update: u });
}

async function runStep(client, sessionId, cwd, step) {
	const abs = (p) => (isAbsolute(p) ? p : join(cwd, p));
	if (step.say !== undefined)
		return update(client, sessionId, { sessionUpdate: "agent_message_chunk",
			content: { type: "text", text: step.say } });
	if (step.mode !== undefined)
		return update(client, sessionId, { sessionUpdate: "current_mode_update",
			currentModeId: step.mode });
	if (step.read !== undefined)
		return client.request(acp.methods.client.fs.readTextFile,
			{ sessionId, path: step.read.startsWith("rel:") ? step.read.slice(4) : abs(step.read) });
	if (step.write !== undefined)
		return client.request(acp.methods.client.fs.writeTextFile,
			{ sessionId, path: abs(step.write), content: step.content });
	if (step.ask !== undefined) {
		const toolCallId = `call-${nextCall++}`;
		const path = abs(step.ask);
		await update(client, sessionId, { sessionUpdate: "tool_call", toolCallId,
			title: `Write ${step.ask}`, kind: "edit", status: "pending",
			locations: [{ path }],
			content: [{ type: "diff", path, oldText: null, newText: step.content }],
			rawInput: { file_path: path, content: step.content } });
		const answer = await client.request(acp.methods.client.session.requestPermission, {
			sessionId,
			toolCall: { toolCallId, title: `Write ${step.ask}`,
				rawInput: { file_path: path, content: step.content } },
			options: [
				{ optionId: "allow_always", name: "Always Allow", kind: "allow_always" },
				{ optionId: "allow", name: "Allow", kind: "allow_once" },
				{ optionId: "reject", name: "Reject", kind: "reject_once" },
			],
		});
		if (answer.outcome.outcome !== "selected" || answer.outcome.optionId !== "allow") {
			await update(client, sessionId, { sessionUpdate: "tool_call_update",
				toolCallId, status: "failed" });
			return { permission: answer.outcome };
		}
		await client.request(acp.methods.client.fs.writeTextFile,
			{ sessionId, path, content: step.content });
		await update(client, sessionId, { sessionUpdate: "tool_call_update",
			toolCallId, status: "completed" });
		return { permission: answer.outcome, written: true };
	}
	if (step.permission !== undefined)
		return client.request(acp.methods.client.session.requestPermission,
			{ sessionId, toolCall: step.permission, options: step.options });
	if (step.terminal !== undefined || step.kill !== undefined) {
		const t = await client.createTerminal({ sessionId,
			command: step.terminal ?? step.kill, args: step.args ?? [], cwd,
			outputByteLimit: step.limit ?? 65536 });
		const running = await t.currentOutput();
		if (step.kill !== undefined)
			await t.kill();
		const exit = await t.waitForExit();
		const output = await t.currentOutput();
		await t.release();
		return { id: t.id, running, exit, output };
	}
	if (step.sleep !== undefined)
		return new Promise((r) => setTimeout(() => r({ slept: step.sleep }), step.sleep));
	if (step["raw-mcp"] !== undefined) {
		const conf = (sessions.get(sessionId).mcpServers ?? []).find((m) => m.name === step["raw-mcp"]);
		return new Promise((resolve) => {
			const sock = createConnection(conf.args[1]);
			let data = "", done = false;
			const finish = (closed) => {
				if (done) return;
				done = true;
				sock.destroy();
				resolve({ closed, responses: data.split("\n").filter((l) => l)
					.map((l) => { try { return JSON.parse(l); } catch { return l; } }) });
			};
			sock.on("data", (d) => { data += d; });
			sock.on("close", () => finish(true));
			sock.on("error", () => finish(true));
			sock.on("connect", () => sock.write(step.lines.join("\n") + "\n"));
			setTimeout(() => finish(false), 3000);
		});
	}
	if (step.mcp !== undefined) {
		const c = await mcpClient(sessions.get(sessionId), step.mcp);
		if (step.list)
			return { tools: (await c.listTools()).tools.map((t) => t.name) };
		return c.callTool({ name: step.call, arguments: step.arguments ?? {} });
	}
	if (step["own-read"] !== undefined)
		return { text: readFileSync(step["own-read"], "utf8") };
	throw new Error(`unknown step ${JSON.stringify(step)}`);
}

const app = acp.agent({ name: "speccoder-sdk-agent" })
	.onRequest(acp.methods.agent.initialize, async () => ({
		protocolVersion: acp.PROTOCOL_VERSION,
		agentCapabilities: { loadSession: false },
		agentInfo: { name: "speccoder-sdk-agent", version: "1.0.0" },
		authMethods: [],
	}))
	.onRequest(acp.methods.agent.session.new, async ({ params }) => {
		const sessionId = `sdk-${sessions.size + 1}`;
		sessions.set(sessionId, { cwd: params.cwd, mode: "default",
			mcpServers: params.mcpServers });
		appendFileSync(log, JSON.stringify({ new: { mcpServers: params.mcpServers } }) + "\n");
		return { sessionId, modes: { currentModeId: "default", availableModes: [
			{ id: "default", name: "Default" },
			{ id: "bypassPermissions", name: "Bypass Permissions" },
		] } };
	})
	.onRequest(acp.methods.agent.session.setMode, async ({ params }) => {
		sessions.get(params.sessionId).mode = params.modeId;
		return {};
	})
	.onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
		const s = sessions.get(params.sessionId);
		s.cancelled = false;
		for (let i = 0; i < plan.length; i++) {
			if (s.cancelled)
				return { stopReason: "cancelled" };
			try {
				note(i, true, await runStep(client, params.sessionId, s.cwd, plan[i]) ?? null);
			} catch (e) {
				note(i, false, e);
			}
		}
		return { stopReason: s.cancelled ? "cancelled" : "end_turn" };
	})
	.onNotification(acp.methods.agent.session.cancel, async ({ params }) => {
		const s = sessions.get(params.sessionId);
		if (s)
			s.cancelled = true;
	});

const stream = acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin));
await app.connect(stream).closed;
