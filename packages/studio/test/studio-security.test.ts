import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import type { RunResult } from "@reelsmith/runner";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { example, type StudioFixture, startStudioFixture } from "./helpers/studio-fixture.js";

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request over loopback: the path is sent exactly as written (no `..` folding). */
function send(
  url: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { hostname, port, path, method: options.method ?? "GET", headers: options.headers ?? {} },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    outgoing.on("error", reject);
    outgoing.end(options.body);
  });
}

describe("the studio's locks: token, origin, and the runs directory's edge", () => {
  let fixture: StudioFixture;
  let waiting: RunResult;
  let name: string;
  let bearer: Record<string, string>;
  const outside = () => join(fixture.root, "secret.txt");

  beforeAll(async () => {
    fixture = await startStudioFixture();
    waiting = await fixture.run(example("storyboard", "approve.yaml"), { inputs: { scenes: 2 } });
    expect(waiting.status).toBe("waiting");
    name = waiting.runDir.split("/").at(-1) ?? "";
    bearer = { authorization: `Bearer ${fixture.studio.token}` };
    // A file beside the runs directory, and links from inside pointing at it.
    writeFileSync(outside(), "not for the studio");
    symlinkSync(outside(), join(waiting.runDir, "link-out.txt"));
    mkdirSync(join(fixture.root, "elsewhere"), { recursive: true });
    writeFileSync(join(fixture.root, "elsewhere", "run.json"), "{}");
    symlinkSync(join(fixture.root, "elsewhere"), join(fixture.runsDir, "linked-run"));
    writeFileSync(join(waiting.runDir, "inside.txt"), "a file of the run");
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it("answers 401 without the token, and serves with it (header or the login's cookie)", async () => {
    const url = fixture.studio.url;
    expect((await send(url, "/")).status).toBe(401);
    expect((await send(url, `/runs/${name}/inside.txt`)).status).toBe(401);
    expect((await send(url, "/", { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    expect((await send(url, "/?token=wrong")).status).toBe(401);
    expect((await send(url, "/", { headers: bearer })).status).toBe(200);
    expect(
      (await send(url, "/", { headers: { "x-reelsmith-token": fixture.studio.token } })).status,
    ).toBe(200);
    const login = await send(url, `/?token=${fixture.studio.token}`);
    expect(login.status).toBe(303);
    expect(login.headers.location).toBe("/");
    const cookie = String(login.headers["set-cookie"]);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Strict");
    const withCookie = await send(url, "/", { headers: { cookie: cookie.split(";")[0] ?? "" } });
    expect(withCookie.status).toBe(200);
    expect(withCookie.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(withCookie.headers["content-security-policy"]).toContain("script-src 'self'");
    const page = await send(url, `/runs/${name}/`, { headers: bearer });
    expect(page.status).toBe(200);
    expect(page.body).not.toContain(fixture.simulator.apiKey);
    expect(page.body).not.toContain(fixture.studio.token);
    expect(page.body).not.toMatch(/<script>/);
  });

  it("refuses a cross-origin POST (403) and a POST with no origin that only has the cookie", async () => {
    const url = fixture.studio.url;
    const login = await send(url, `/?token=${fixture.studio.token}`);
    const cookie = String(login.headers["set-cookie"]).split(";")[0] ?? "";
    const journal = readFileSync(join(waiting.runDir, "journal.jsonl"), "utf8");
    const approve = (headers: Record<string, string>) =>
      send(url, `/api/runs/${name}/approve`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ step: "review", note: "from elsewhere" }),
      });
    expect((await approve({ cookie, origin: "http://evil.example" })).status).toBe(403);
    expect((await approve({ ...bearer, origin: "http://127.0.0.1:1" })).status).toBe(403);
    expect((await approve({ cookie })).status).toBe(403);
    // Nothing was decided: the journal is as it was.
    expect(readFileSync(join(waiting.runDir, "journal.jsonl"), "utf8")).toBe(journal);
    // The same origin goes through (refused by the runner here: a bad step; 409, not 403).
    const own = await send(url, `/api/runs/${name}/approve`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, origin: url },
      body: JSON.stringify({ step: "no-such-gate" }),
    });
    expect(own.status).toBe(409);
    expect(JSON.parse(own.body).error).toContain("no-such-gate");
    // A cancel of a run this studio drives no session of: refused, nothing stops.
    const cancel = await send(url, `/api/runs/${name}/cancel`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, origin: url },
      body: "{}",
    });
    expect(cancel.status).toBe(409);
  });

  it("refuses a Host that is not the studio's (a name pointed at 127.0.0.1 by another site)", async () => {
    const url = fixture.studio.url;
    const port = new URL(url).port;
    const rebound = await send(url, "/", { headers: { ...bearer, host: `evil.example:${port}` } });
    expect(rebound.status).toBe(421);
    expect(
      (await send(url, "/", { headers: { ...bearer, host: `localhost:${port}` } })).status,
    ).toBe(200);
  });

  it("serves the run's own files, and 404 for any path that leaves the runs directory", async () => {
    const url = fixture.studio.url;
    const inside = await send(url, `/runs/${name}/inside.txt`, { headers: bearer });
    expect(inside.status).toBe(200);
    expect(inside.body).toBe("a file of the run");
    expect(existsSync(outside())).toBe(true);
    const attempts = [
      `/runs/${name}/../../secret.txt`,
      `/runs/${name}/%2e%2e/%2e%2e/secret.txt`,
      `/runs/${name}/%2E%2E%2F%2E%2E%2Fsecret.txt`,
      `/runs/${name}/..%2f..%2fsecret.txt`,
      `/runs/%2e%2e/secret.txt`,
      `/runs/../secret.txt`,
      `/runs/${name}/${encodeURIComponent(outside())}`,
      `/runs/${name}//${outside().slice(1)}`,
      `/${outside()}`,
      `/runs/${name}/link-out.txt`,
      "/runs/linked-run/run.json",
      `/runs/${name}/inside.txt%00.mp4`,
    ];
    for (const path of attempts) {
      const answer = await send(url, path, { headers: bearer });
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
      expect(answer.body).not.toContain("not for the studio");
    }
  });
});
