import { createParser, type EventSourceMessage } from "eventsource-parser";

/** TextDecoder options of every chunk but the last (one object, not one per chunk). */
const STREAM = { stream: true } as const;

/**
 * Decodes a byte stream as Server-Sent Events: UTF-8 split across chunks, CRLF/CR/LF line
 * endings, comment (keep-alive) lines and multi-line `data:` fields are handled by
 * eventsource-parser; this adapts it to an async generator of event batches (the events
 * completed by one network chunk), which saves an async hop per event.
 */
export async function* parseServerSentEventBatches(
  chunks: AsyncIterable<Uint8Array>,
): AsyncGenerator<EventSourceMessage[]> {
  const decoder = new TextDecoder("utf-8");
  let pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => pending.push(event) });
  for await (const chunk of chunks) {
    parser.feed(decoder.decode(chunk, STREAM));
    if (pending.length > 0) {
      const batch = pending;
      pending = [];
      yield batch;
    }
  }
  const rest = decoder.decode();
  if (rest !== "") parser.feed(rest);
  // A last event not followed by a blank line is still delivered (lenient servers);
  // extra blank lines after a complete event dispatch nothing.
  parser.feed("\n\n");
  if (pending.length > 0) yield pending;
}

/** The events of `parseServerSentEventBatches`, one by one. */
export async function* parseServerSentEvents(
  chunks: AsyncIterable<Uint8Array>,
): AsyncGenerator<EventSourceMessage> {
  for await (const batch of parseServerSentEventBatches(chunks)) yield* batch;
}
