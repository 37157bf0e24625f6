import { readFile, stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { ProviderProfile } from "@reelsmith/core/profile";
import { isMap, LineCounter, parseAllDocuments } from "yaml";
import type { Diagnostic } from "../pipeline/diagnostic.js";
import { SourceMap } from "../pipeline/source-map.js";
import { type LoadedProfile, MAX_PROFILE_BYTES, type ProfileSource } from "./loaded-profile.js";
import { pointerPath, profileDiagnostics } from "./profile-diagnostics.js";
import { ProfileError } from "./profile-error.js";
import { createSecretMask, type SecretTests } from "./secret-mask.js";

/** Most YAML aliases expanded (guards against alias bombs). */
const MAX_ALIAS_COUNT = 100;

function fileDiagnostic(
  file: string,
  code: string,
  message: string,
  at: { line: number; column: number; sourceLine?: string } = { line: 1, column: 1 },
  hint?: string,
): Diagnostic {
  return { severity: "error", code, message, file, ...at, ...(hint ? { hint } : {}) };
}

async function readProfileText(path: string, file: string): Promise<string> {
  let bytes: Buffer;
  try {
    const info = await stat(resolve(path));
    if (!info.isFile())
      throw Object.assign(new Error(`it is ${kindOfFile(info)}, not a file`), { code: "ENOTFILE" });
    if (info.size > MAX_PROFILE_BYTES) {
      throw new ProfileError(file, [
        fileDiagnostic(
          file,
          "PROFILE_TOO_LARGE",
          `the profile is ${info.size} bytes; the limit is ${MAX_PROFILE_BYTES} bytes`,
        ),
      ]);
    }
    bytes = await readFile(resolve(path));
  } catch (error) {
    if (ProfileError.isInstance(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT"
        ? `no such file (${resolve(path)})`
        : code === "EISDIR"
          ? "it is a directory, not a file"
          : (error as Error).message;
    throw new ProfileError(file, [
      fileDiagnostic(
        file,
        "PROFILE_UNREADABLE",
        `cannot read the provider profile: ${reason}`,
        undefined,
        "check the path given with --config or REELSMITH_CONFIG (`reelsmith models --write-config` writes a starting profile)",
      ),
    ]);
  }
  if (bytes.includes(0)) {
    throw new ProfileError(file, [
      fileDiagnostic(
        file,
        "PROFILE_NOT_TEXT",
        "not a YAML profile: the file holds binary data",
        undefined,
        "a provider profile is a UTF-8 YAML text file",
      ),
    ]);
  }
  const invalid = firstInvalidUtf8(bytes);
  if (invalid !== undefined) {
    const before = bytes.subarray(0, invalid.offset).toString("utf8");
    const line = before.split("\n").length;
    const column = before.length - before.lastIndexOf("\n");
    throw new ProfileError(file, [
      fileDiagnostic(
        file,
        "PROFILE_NOT_UTF8",
        `not UTF-8 text: byte ${invalid.offset} (0x${invalid.byte.toString(16).padStart(2, "0")}) is not valid UTF-8`,
        { line, column },
        "save the profile as UTF-8 (a provider profile is a UTF-8 YAML text file)",
      ),
    ]);
  }
  return bytes.toString("utf8").replace(/^\uFEFF/, "");
}

/** What a path that is not a regular file is, in words. */
function kindOfFile(info: Awaited<ReturnType<typeof stat>>): string {
  if (info.isDirectory()) return "a directory";
  if (info.isFIFO()) return "a named pipe (FIFO)";
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  if (info.isSocket()) return "a socket";
  return "a special file";
}

/** The offset and value of the first byte that breaks UTF-8, or undefined for valid text. */
function firstInvalidUtf8(bytes: Buffer): { offset: number; byte: number } | undefined {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return undefined;
  } catch {
    // Decoding again up to each offset is slow; walk the sequences instead (on failure only).
  }
  for (let at = 0; at < bytes.length; ) {
    const byte = bytes[at] ?? 0;
    const length =
      byte < 0x80
        ? 1
        : byte >= 0xc2 && byte < 0xe0
          ? 2
          : byte >= 0xe0 && byte < 0xf0
            ? 3
            : byte >= 0xf0 && byte < 0xf5
              ? 4
              : 0;
    if (length === 0) return { offset: at, byte };
    for (let next = 1; next < length; next++) {
      const continuation = bytes[at + next];
      if (continuation === undefined || (continuation & 0xc0) !== 0x80) return { offset: at, byte };
    }
    if (length > 1) {
      try {
        new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(at, at + length));
      } catch {
        return { offset: at, byte };
      }
    }
    at += length;
  }
  return undefined;
}

/** The YAML document of a profile, or a ProfileError with every syntax problem at its place. */
function parseProfileYaml(file: string, source: string, tests: SecretTests) {
  const lines = new LineCounter();
  let sourceLine: (line: number) => string = () => "";
  const at = (offset: number) => {
    const { line, col } = lines.linePos(offset);
    return { line, column: col, sourceLine: sourceLine(line) };
  };
  let documents: ReturnType<typeof parseAllDocuments>;
  try {
    documents = parseAllDocuments(source, {
      lineCounter: lines,
      prettyErrors: false,
      uniqueKeys: true,
    });
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new ProfileError(file, [
      fileDiagnostic(file, "YAML_SYNTAX", "YAML: the document is nested too deeply"),
    ]);
  }
  const list = Array.isArray(documents) ? documents : [];
  sourceLine = createSecretMask(source, list, lines, tests);
  const syntax = list.flatMap((document) =>
    document.errors.map((error) =>
      fileDiagnostic(
        file,
        "YAML_SYNTAX",
        `YAML: ${tests.maskText(error.message.split("\n")[0]?.replace(/ at line \d+, column \d+:?$/, "") ?? "")}`,
        at(error.pos[0]),
        "fix the YAML syntax at this place (indentation, a missing `:` or quote)",
      ),
    ),
  );
  if (syntax.length > 0) throw new ProfileError(file, syntax);
  if (list.length > 1) {
    throw new ProfileError(file, [
      fileDiagnostic(
        file,
        "YAML_MULTIPLE_DOCUMENTS",
        "a profile holds one YAML document, found several",
        at(list[1]?.range?.[0] ?? 0),
        "remove the `---` line and keep one document",
      ),
    ]);
  }
  const document = list[0];
  if (!document || !isMap(document.contents)) {
    const empty = !document || document.contents === null;
    throw new ProfileError(file, [
      fileDiagnostic(
        file,
        "PROFILE_NOT_MAPPING",
        `the top level of a profile must be a mapping (service:, video_models:, chat_models:), found ${empty ? "an empty document" : "a single value or a list"}`,
        at(document?.contents?.range?.[0] ?? 0),
        "`reelsmith models --write-config` writes a starting profile from the service's model list",
      ),
    ]);
  }
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    throw new ProfileError(file, [
      fileDiagnostic(file, "YAML_ALIASES", `YAML: ${(error as Error).message}`),
    ]);
  }
  return { data, sourceMap: new SourceMap(document, lines, source), lineText: sourceLine };
}

/**
 * Reads a provider profile (`reelsmith.config.yaml`), validates it with core's
 * `validateProfile`, and returns it with its video catalog, chat models, unknown fields and
 * positions (diagnostics name the file as `options.displayPath`, else as given). Throws
 * {@link ProfileError} with every problem at `file:line:column` (an
 * unreadable file, a YAML syntax error, a key written in the file, an unknown dialect or
 * field, …); quoted lines never show a secret's value.
 *
 * @example
 * ```ts
 * const { catalog, profile } = await loadProfile("reelsmith.config.yaml");
 * const result = await validatePipeline("pipeline.yaml", { catalogs: { video_models: catalog } });
 * ```
 */
/** What `loadProfile` does, loaded on its first use. */
export async function readProfile(
  input: ProfileSource,
  options: { displayPath?: string } = {},
): Promise<LoadedProfile> {
  const displayPath = options.displayPath ?? (typeof input === "string" ? input : input.path);
  // Loaded on use: core's profile checks compile a JSON Schema validator, which finding a
  // profile (the same entry point) never needs.
  const core = await import("@reelsmith/core/profile");
  const source =
    typeof input === "string" ? await readProfileText(input, displayPath) : input.source;
  const { data, sourceMap, lineText } = parseProfileYaml(displayPath, source, {
    isSecretKey: core.looksLikeSecretKey,
    isSecretValue: core.looksLikeSecretValue,
    maskText: core.maskSecretValues,
  });
  const problems = core.validateProfile(data);
  if (problems.length > 0) {
    throw new ProfileError(
      displayPath,
      profileDiagnostics(problems, displayPath, sourceMap, lineText),
    );
  }
  const profile = data as ProviderProfile;
  return {
    profile,
    path: typeof input === "string" ? resolve(input) : input.path,
    displayPath,
    source,
    catalog: core.videoCatalogFromProfile(profile),
    chatModels: core.chatModelsFromProfile(profile),
    unknowns: core.profileUnknowns(profile),
    clientOptions: core.clientOptionsFromProfile(profile),
    positionOf(at, options) {
      const path = typeof at === "string" ? pointerPath(at) : at;
      const { line, column } = sourceMap.position(path, options);
      return { line, column };
    },
    lineText,
  };
}
