import type { StoredAnswer } from "./answer-store.js";
import type { RequestContext } from "./context.js";

/** Send a stored answer (marked `idempotent-replayed: true` when it is a replay). */
export async function sendStored(
  context: RequestContext,
  answer: StoredAnswer,
  replayed: boolean,
): Promise<void> {
  if (!(await context.beforeRespond())) return;
  context.response.writeHead(200, {
    ...answer.headers,
    ...(replayed ? { "idempotent-replayed": "true" } : {}),
    "content-type": answer.contentType,
    "content-length": answer.body.length,
  });
  context.response.end(answer.body);
}
