import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { workspaceRoot } from "./published-packages.js";
import { describeResult, runCommand } from "./run-command.js";

/**
 * The environment for npm and the programs of an installed project: this process's, without
 * the `npm_*` settings pnpm passes to the scripts it runs (they would steer npm) and without
 * service settings that would point the programs away from the server a test gives them.
 *
 * @example
 * await runCommand("npm", ["ls"], { cwd: project, env: cleanEnvironment() });
 */
export function cleanEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|pnpm_|REELSMITH_|OPENAI_)/i.test(key)) continue;
    env[key] = value;
  }
  return { ...env, NO_COLOR: "1", ...extra };
}

/** An empty npm project outside the workspace with the given tarballs installed. */
export interface InstalledProject {
  dir: string;
  remove(): Promise<void>;
}

/**
 * Makes an empty project in the system's temp directory (outside the workspace, so nothing
 * resolves to the workspace's packages) and installs `specs` into it with npm: tarball paths,
 * and registry packages for the rest.
 *
 * @example
 * const project = await installIntoEmptyProject([tarballs["@reelsmith/core"]]);
 * await project.remove();
 */
export async function installIntoEmptyProject(specs: string[]): Promise<InstalledProject> {
  const dir = await mkdtemp(path.join(tmpdir(), "reelsmith-consumer-"));
  const remove = () => rm(dir, { recursive: true, force: true });
  if (!path.relative(workspaceRoot, dir).startsWith("..")) {
    await remove();
    throw new Error(`the temp directory ${dir} is inside the workspace; set TMPDIR elsewhere`);
  }
  await writeFile(
    path.join(dir, "package.json"),
    `${JSON.stringify({ name: "reelsmith-consumer", version: "1.0.0", private: true }, null, 2)}\n`,
  );
  const result = await runCommand(
    "npm",
    ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", ...specs],
    { cwd: dir, env: cleanEnvironment() },
  );
  if (result.code !== 0) {
    await remove();
    throw new Error(`npm install ${specs.join(" ")} failed\n${describeResult(result)}`);
  }
  return { dir, remove };
}
