// Loopback SSE server of the P1 benchmark, in its own process so its CPU is not the
// client's: POST /v1/chat/completions → role chunk, N content chunks, stop chunk, usage
// chunk, [DONE] (spec 4.4), sent as one pre-built body in 64 KiB writes.
import { createServer } from "node:http";

const count = Number(process.argv[2] ?? 100_000);
const line = (value) => `data: ${JSON.stringify(value)}\n\n`;
const base = {
  id: "chatcmpl-bench",
  object: "chat.completion.chunk",
  created: 1,
  model: "reel-chat-1",
};
const parts = [
  line({ ...base, choices: [{ index: 0, delta: { role: "assistant" }, finish_reason: null }] }),
];
for (let index = 0; index < count; index++) {
  parts.push(
    line({
      ...base,
      choices: [{ index: 0, delta: { content: `token ${index} é ` }, finish_reason: null }],
    }),
  );
}
parts.push(line({ ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }));
parts.push(
  line({
    ...base,
    choices: [],
    usage: { prompt_tokens: 1, completion_tokens: count, total_tokens: count + 1 },
  }),
);
parts.push("data: [DONE]\n\n");
const body = Buffer.from(parts.join(""));

const server = createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    let offset = 0;
    const pump = () => {
      while (offset < body.length) {
        const piece = body.subarray(offset, offset + 64 * 1024);
        offset += piece.length;
        if (!response.write(piece)) return response.once("drain", pump);
      }
      response.end();
    };
    pump();
  });
});
server.listen(0, "127.0.0.1", () => {
  process.send?.({ port: server.address().port, bytes: body.length, events: parts.length });
});
process.on("disconnect", () => server.close(() => process.exit(0)));
