import { createParser, type EventSourceMessage } from "eventsource-parser";

/**
 * Decodes a byte stream as Server-Sent Events: UTF-8 split across chunks, CRLF/CR/LF line
 * endings, comment (keep-alive) lines and multi-line `data:` fields are handled by
 * eventsource-parser; this adapts it to an async generator of events.
 */
export async function* parseServerSentEvents(
  chunks: AsyncIterable<Uint8Array>,
): AsyncGenerator<EventSourceMessage> {
  const decoder = new TextDecoder("utf-8");
  const pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => pending.push(event) });
  for await (const chunk of chunks) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    while (pending.length > 0) yield pending.shift()!;
  }
  const rest = decoder.decode();
  if (rest !== "") parser.feed(rest);
  // A last event not followed by a blank line is still delivered (lenient servers);
  // extra blank lines after a complete event dispatch nothing.
  parser.feed("\n\n");
  while (pending.length > 0) yield pending.shift()!;
}
