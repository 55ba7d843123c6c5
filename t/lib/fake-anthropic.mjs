// fake-anthropic.mjs: a local stand-in for the Anthropic Messages API, for
// tests of real agents (claude-code-acp) that need a model but no network.
//
//   node fake-anthropic.mjs SCRIPT PORTFILE LOG
//
// Listens on 127.0.0.1 (a free port, written to PORTFILE once listening)
// and answers POST /v1/messages as the real API does, streaming
// server-sent events (message_start, content_block_start/delta/stop,
// message_delta, message_stop) when the request asks for "stream": true.
// Every request's method, path and body is appended to LOG, one JSON line.
//
// SCRIPT is a JSON array of the main conversation's replies, in order:
//   {"text": "..."}                              a text reply (end_turn)
//   {"tool": "NAME", "input": {...}, "text": "..."}  a tool call (text first,
//                                                 optional), stop_reason tool_use
// The reply to a request is chosen by how many assistant messages its
// history holds, so a retried request gets the same reply.  Requests that
// offer no tools (the agent's own side requests: titles, summaries) get a
// short text.  /v1/messages/count_tokens answers a fixed count.  The server
// ends itself after 300 seconds whatever happens.
import { createServer } from "node:http";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";

const [script, portFile, log] = process.argv.slice(2);
if (!script || !portFile || !log) {
	process.stderr.write("usage: fake-anthropic.mjs SCRIPT PORTFILE LOG\n");
	process.exit(2);
}
const steps = JSON.parse(readFileSync(script, "utf8"));
let nextId = 1;

function sse(res, event, data) {
	res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function replyFor(body) {
	const tools = Array.isArray(body.tools) ? body.tools : [];
	if (!tools.length)
		return { text: "ok" };
	const turns = (body.messages || []).filter((m) => m.role === "assistant").length;
	return steps[turns] || { text: "Done." };
}

function blocks(step) {
	const out = [];
	if (step.text)
		out.push({ type: "text", text: step.text });
	if (step.tool)
		out.push({ type: "tool_use", id: `toolu_fake_${nextId++}`, name: step.tool,
			   input: step.input || {} });
	return out;
}

function message(body, content, stop) {
	return {
		id: `msg_fake_${nextId++}`, type: "message", role: "assistant",
		model: body.model || "claude-fake", content, stop_reason: stop,
		stop_sequence: null,
		usage: { input_tokens: 10, output_tokens: 10, cache_creation_input_tokens: 0,
			 cache_read_input_tokens: 0 },
	};
}

// Stream CONTENT as the real API does: each block started empty, then its
// text or its JSON input in two deltas, then stopped.
function stream(res, body, content, stop) {
	res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
	const start = message(body, [], null);
	start.usage.output_tokens = 1;
	sse(res, "message_start", { type: "message_start", message: start });
	content.forEach((b, index) => {
		if (b.type === "text") {
			sse(res, "content_block_start", { type: "content_block_start", index,
				content_block: { type: "text", text: "" } });
			const half = Math.ceil(b.text.length / 2);
			for (const part of [b.text.slice(0, half), b.text.slice(half)])
				if (part)
					sse(res, "content_block_delta", { type: "content_block_delta", index,
						delta: { type: "text_delta", text: part } });
		} else {
			sse(res, "content_block_start", { type: "content_block_start", index,
				content_block: { type: "tool_use", id: b.id, name: b.name, input: {} } });
			const json = JSON.stringify(b.input);
			const half = Math.ceil(json.length / 2);
			for (const part of [json.slice(0, half), json.slice(half)])
				sse(res, "content_block_delta", { type: "content_block_delta", index,
					delta: { type: "input_json_delta", partial_json: part } });
		}
		sse(res, "content_block_stop", { type: "content_block_stop", index });
	});
	sse(res, "message_delta", { type: "message_delta",
		delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 10 } });
	sse(res, "message_stop", { type: "message_stop" });
	res.end();
}

const server = createServer((req, res) => {
	let raw = "";
	req.setEncoding("utf8");
	req.on("data", (c) => { raw += c; });
	req.on("end", () => {
		let body = {};
		try { body = raw ? JSON.parse(raw) : {}; } catch { /* logged as it came */ }
		appendFileSync(log, JSON.stringify({ method: req.method, url: req.url, body }) + "\n");
		const path = (req.url || "").split("?")[0];
		if (req.method === "POST" && path === "/v1/messages/count_tokens") {
			res.writeHead(200, { "content-type": "application/json" });
			res.end(JSON.stringify({ input_tokens: 10 }));
			return;
		}
		if (req.method !== "POST" || path !== "/v1/messages") {
			res.writeHead(404, { "content-type": "application/json" });
			res.end(JSON.stringify({ type: "error", error: { type: "not_found_error",
				message: "not here" } }));
			return;
		}
		const step = replyFor(body);
		const content = blocks(step);
		const stop = step.tool ? "tool_use" : "end_turn";
		if (body.stream) {
			stream(res, body, content, stop);
		} else {
			res.writeHead(200, { "content-type": "application/json" });
			res.end(JSON.stringify(message(body, content, stop)));
		}
	});
});
server.listen(0, "127.0.0.1", () => {
	writeFileSync(portFile, String(server.address().port));
});
setTimeout(() => process.exit(0), 300000).unref();
