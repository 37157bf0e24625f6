// A loopback server for the benchmarks, run in a child process so that its memory and CPU
// are not counted with the client's. Usage (internal): node loopback-server.mjs <mode> <arg>
//   download <bytes>   GET /v1/videos/:id/content → <bytes> of video-like data
//   sse <chunks>       POST /v1/chat/completions → an SSE stream of <chunks> chunk events
import { createServer } from "node:http";

const [mode, arg] = process.argv.slice(2);
const count = Number(arg);

function writeAll(response, next) {
  // Writes the pieces returned by next() with back-pressure until it returns null.
  const pump = () => {
    for (;;) {
      const piece = next();
      if (piece === null) return response.end();
      if (!response.write(piece)) return response.once("drain", pump);
    }
  };
  pump();
}

const block = Buffer.alloc(256 * 1024, 0x5a);

function sseBody() {
  const parts = [
    `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", choices: [{ index: 0, delta: { role: "assistant" } }] })}\n\n`,
  ];
  for (let index = 0; index < count; index++) {
    parts.push(
      `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "reel-chat-1", choices: [{ index: 0, delta: { content: `token ${index} é ` }, finish_reason: null }] })}\n\n`,
    );
  }
  parts.push(
    `data: ${JSON.stringify({ id: "c", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\ndata: [DONE]\n\n`,
  );
  return Buffer.from(parts.join(""));
}

const sse = mode === "sse" ? sseBody() : undefined;

const server = createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    if (mode === "download") {
      response.writeHead(200, { "content-type": "video/mp4", "content-length": count });
      let left = count;
      writeAll(response, () => {
        if (left <= 0) return null;
        const piece = left >= block.length ? block : block.subarray(0, left);
        left -= piece.length;
        return piece;
      });
    } else {
      response.writeHead(200, { "content-type": "text/event-stream" });
      let offset = 0;
      writeAll(response, () => {
        if (offset >= sse.length) return null;
        const piece = sse.subarray(offset, offset + 64 * 1024);
        offset += piece.length;
        return piece;
      });
    }
  });
});
server.listen(0, "127.0.0.1", () => {
  process.send?.({ port: server.address().port, bytes: sse?.length });
});
process.on("disconnect", () => process.exit(0));
