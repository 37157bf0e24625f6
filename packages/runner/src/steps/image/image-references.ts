import { isAbsolute, resolve } from "node:path";
import { InvalidImageError } from "../../errors/invalid-image-error.js";
import { dataUriImageProblem, imageFileProblem, MAX_IMAGE_BYTES } from "../../files/image-file.js";

/**
 * The reference images of a step as sent (`image[]`): each a local file (relative to the
 * pipeline's folder, or an earlier step's file in the run directory), an http(s) URL (its
 * bytes fetched first) or a data URI; an expression's list is flattened, null and "" left
 * out. Each is checked as an image before anything is paid (InvalidImageError).
 * @example const references = await referencesOf(["sheet.png", steps.chars.files], dir, signal);
 */
export async function referencesOf(
  value: unknown,
  pipelineDir: string,
  signal: AbortSignal,
  options: { fetchRemote?: boolean } = {},
): Promise<(string | Uint8Array)[]> {
  const listed = (Array.isArray(value) ? value : [value]).flat(2);
  const references: (string | Uint8Array)[] = [];
  for (const entry of listed) {
    if (entry === undefined || entry === null || entry === "") continue;
    const reference = String(entry);
    if (/^data:/i.test(reference)) {
      const problem = dataUriImageProblem(reference);
      if (problem) throw new InvalidImageError(`${reference.slice(0, 32)}…`, problem);
      references.push(Buffer.from(reference.slice(reference.indexOf(",") + 1), "base64"));
    } else if (/^https?:/i.test(reference)) {
      // A check counts it without fetching it; the run fetches its bytes.
      references.push(
        options.fetchRemote === false ? new Uint8Array() : await download(reference, signal),
      );
    } else {
      const file = isAbsolute(reference) ? reference : resolve(pipelineDir, reference);
      const problem = imageFileProblem(file);
      if (problem) throw new InvalidImageError(reference, problem);
      references.push(file);
    }
  }
  return references;
}

async function download(url: string, signal: AbortSignal): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(url, { signal });
  } catch (error) {
    throw new InvalidImageError(url, `it cannot be fetched (${(error as Error).message})`);
  }
  if (!response.ok) throw new InvalidImageError(url, `its server answered ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.length > MAX_IMAGE_BYTES)
    throw new InvalidImageError(url, `it is ${bytes.length} bytes; the limit is 10 MiB`);
  return bytes;
}
