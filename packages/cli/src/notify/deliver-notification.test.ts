import { createHmac } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startWebhookReceiver, type WebhookReceiver } from "./__fixtures__/webhook-receiver.js";
import { deliverNotification } from "./deliver-notification.js";
import { verifyNotificationSignature } from "./sign-notification.js";

const receivers: WebhookReceiver[] = [];
async function receiver(...args: Parameters<typeof startWebhookReceiver>) {
  const started = await startWebhookReceiver(...args);
  receivers.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

const body = JSON.stringify({ schema: 1, status: "succeeded", text: "héllo ✓" });
const fast = { firstDelayMs: 5, maxDelayMs: 20 };

describe("deliverNotification", () => {
  it("signs the exact body bytes with the timestamp, so the receiver can verify them", async () => {
    const hook = await receiver();
    const [outcome] = await deliverNotification({ urls: [hook.url], body, secret: "whsec-test" });
    expect(outcome).toMatchObject({ delivered: true, attempts: 1, status: 200 });
    const [request] = hook.requests;
    expect(request?.method).toBe("POST");
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.body.toString("utf8")).toBe(body);
    const header = String(request?.headers["x-reelsmith-signature"]);
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
    expect(match).not.toBeNull();
    // Recomputed here from the raw bytes received, as a receiver does.
    const expected = createHmac("sha256", "whsec-test")
      .update(`${match?.[1]}.`)
      .update(request?.body ?? Buffer.alloc(0))
      .digest("hex");
    expect(match?.[2]).toBe(expected);
    expect(
      verifyNotificationSignature({ body: request?.body ?? "", header, secret: "whsec-test" }),
    ).toBe(true);
    expect(verifyNotificationSignature({ body: `${body} `, header, secret: "whsec-test" })).toBe(
      false,
    );
    expect(verifyNotificationSignature({ body, header, secret: "another" })).toBe(false);
  });

  it("sends unsigned when there is no secret", async () => {
    const hook = await receiver();
    const [outcome] = await deliverNotification({ urls: [hook.url], body });
    expect(outcome?.delivered).toBe(true);
    expect(hook.requests[0]?.headers["x-reelsmith-signature"]).toBeUndefined();
    expect(hook.requests[0]?.headers["x-reelsmith-delivery"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("delivers on the third attempt to a receiver that answers 500 twice, the same body and delivery id each time", async () => {
    const hook = await receiver((n) => ({ status: n < 2 ? 500 : 204 }));
    const [outcome] = await deliverNotification({ urls: [hook.url], body, secret: "s", ...fast });
    expect(outcome).toMatchObject({ delivered: true, attempts: 3, status: 204 });
    expect(hook.requests).toHaveLength(3);
    expect(new Set(hook.requests.map((r) => r.body.toString()))).toEqual(new Set([body]));
    expect(new Set(hook.requests.map((r) => r.headers["x-reelsmith-delivery"])).size).toBe(1);
    for (const request of hook.requests) {
      const header = String(request.headers["x-reelsmith-signature"]);
      expect(verifyNotificationSignature({ body: request.body, header, secret: "s" })).toBe(true);
    }
  });

  it("makes exactly one attempt at a receiver that answers 404, and does not follow redirects", async () => {
    const missing = await receiver(() => ({ status: 404 }));
    const target = await receiver();
    const moved = await receiver(() => ({ status: 302, headers: { location: target.url } }));
    const [notFound, redirected] = await deliverNotification({
      urls: [missing.url, moved.url],
      body,
      ...fast,
    });
    expect(notFound).toMatchObject({
      delivered: false,
      attempts: 1,
      status: 404,
      reason: "rejected",
    });
    expect(redirected).toMatchObject({ delivered: false, attempts: 1, status: 302 });
    expect(missing.requests).toHaveLength(1);
    expect(moved.requests).toHaveLength(1);
    expect(target.requests).toHaveLength(0);
  });

  it("gives up on a receiver that never answers once the whole delivery's limit passes", async () => {
    const silent = await receiver(() => "never");
    const [outcome] = await deliverNotification({
      urls: [silent.url],
      body,
      deadlineMs: 300,
      attemptTimeoutMs: 5_000,
    });
    expect(outcome).toMatchObject({ delivered: false, attempts: 1, reason: "deadline" });
    await vi.waitFor(() => expect(silent.requests).toHaveLength(1));
  });

  it("retries an attempt that times out, within the limit", async () => {
    const slow = await receiver((n) => (n === 0 ? "never" : { status: 200 }));
    const [outcome] = await deliverNotification({
      urls: [slow.url],
      body,
      attemptTimeoutMs: 200,
      deadlineMs: 10_000,
      ...fast,
    });
    expect(outcome).toMatchObject({ delivered: true, attempts: 2 });
  });

  it("honours Retry-After on 429 when it fits in the limit, and gives up when it does not", async () => {
    const limited = await receiver((n) =>
      n === 0 ? { status: 429, headers: { "retry-after": "0" } } : { status: 200 },
    );
    const [fits] = await deliverNotification({ urls: [limited.url], body, ...fast });
    expect(fits).toMatchObject({ delivered: true, attempts: 2 });

    const later = await receiver(() => ({ status: 503, headers: { "retry-after": "120" } }));
    const [tooLong] = await deliverNotification({
      urls: [later.url],
      body,
      deadlineMs: 2_000,
      ...fast,
    });
    expect(tooLong).toMatchObject({
      delivered: false,
      attempts: 1,
      status: 503,
      reason: "retry_after_too_long",
    });
    expect(later.requests).toHaveLength(1);
  });

  it("retries network errors and says which one when every attempt failed", async () => {
    const gone = await receiver();
    const url = gone.url;
    await gone.close();
    const [outcome] = await deliverNotification({ urls: [url], body, maxAttempts: 3, ...fast });
    expect(outcome).toMatchObject({
      delivered: false,
      attempts: 3,
      reason: "attempts_exhausted",
      detail: "ECONNREFUSED",
    });
  });

  it("does not retry a URL fetch refuses to send to", async () => {
    const [outcome] = await deliverNotification({
      urls: ["http://127.0.0.1:9/discard"],
      body,
      ...fast,
    });
    expect(outcome).toMatchObject({
      delivered: false,
      attempts: 1,
      reason: "not_sendable",
      detail: "bad port",
    });
  });

  it("delivers to every URL independently", async () => {
    const ok = await receiver();
    const flaky = await receiver((n) => ({ status: n === 0 ? 502 : 200 }));
    const refused = await receiver(() => ({ status: 401 }));
    const outcomes = await deliverNotification({
      urls: [ok.url, flaky.url, refused.url],
      body,
      ...fast,
    });
    expect(outcomes.map((o) => [o.url, o.delivered, o.attempts])).toEqual([
      [ok.url, true, 1],
      [flaky.url, true, 2],
      [refused.url, false, 1],
    ]);
  });
});
