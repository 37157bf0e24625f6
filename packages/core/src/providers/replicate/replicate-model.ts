import { InvalidRequestError } from "../../errors/invalid-request-error.js";

const segment = /^[A-Za-z0-9][\w.-]*$/;
const versionId = /^[0-9a-f]{16,}$/;

/** A Replicate model reference: `owner/name`, or `owner/name:version` for one version. */
export interface ReplicateModelRef {
  owner: string;
  name: string;
  /** The version id, when the model id pins one (sent through `POST /v1/predictions`). */
  version?: string;
}

/**
 * Checks a Replicate model id as users type it (`kwaivgi/kling-v2.1`, or
 * `owner/name:<version id>` to pin a version) and splits it.
 *
 * @example
 * ```ts
 * replicateModel("google/veo-3-fast"); // { owner: "google", name: "veo-3-fast" }
 * ```
 */
export function replicateModel(model: string): ReplicateModelRef {
  const [path = "", version, ...rest] = model.split(":");
  const [owner = "", name = "", ...more] = path.split("/");
  const valid =
    rest.length === 0 &&
    more.length === 0 &&
    segment.test(owner) &&
    segment.test(name) &&
    (version === undefined || versionId.test(version));
  if (!valid) {
    throw new InvalidRequestError(
      "model",
      `\`model: ${JSON.stringify(model)}\` is not a Replicate model id: write it as Replicate shows it, owner/name (e.g. kwaivgi/kling-v2.1), or owner/name:<version id> to pin a version`,
    );
  }
  return version === undefined ? { owner, name } : { owner, name, version };
}
