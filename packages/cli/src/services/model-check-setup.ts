import type { ValidateOptions } from "@reelsmith/runner/validate";
import { resolveService } from "../config/cli-profile.js";
import type { CliContext } from "../context.js";
import { knownModelCatalogs, type ModelCatalogs } from "./known-model-catalogs.js";

/** How long a command waits for a service's model list. */
const LIST_TIMEOUT_MS = 10_000;

/** What a command checks a pipeline's models with: the catalogs, and the model check's options. */
export interface ModelCheckSetup {
  /** The catalogs known (profile, built-in simulator), with the listed video models' limits. */
  catalogs?: ModelCatalogs;
  /** The model check's options for `validatePipeline` (given inputs, the service's list, why not checked). */
  models: Exclude<ValidateOptions["models"], false | undefined>;
  /** Said once when the service's list was to be read and could not be. */
  note?: string;
}

/**
 * The one model check's set-up for a command: the catalogs known offline (the provider
 * profile's sections, else the built-in simulator's when it is the service), and with
 * `readService` the configured service's model list (one free `GET /v1/models`; its video
 * models' limits fill `video_models` when no profile declares them). A section known from
 * none of them is not checked, and `unchecked` says why (no profile section, and no list read
 * here, or the list could not be read). `inputs` are the given ones (`--input`): a model
 * field that is one input is checked with them, else with the input's default.
 *
 * @example
 * const setup = await modelCheckSetup({}, context, { readService: false }); // validate
 * await validatePipeline(file, { catalogs: setup.catalogs, models: setup.models });
 */
export async function modelCheckSetup(
  flags: { baseUrl?: string; apiKey?: string; builtIn?: boolean },
  context: CliContext,
  options: { readService: boolean; inputs?: Readonly<Record<string, unknown>>; where: string },
): Promise<ModelCheckSetup> {
  let catalogs = await knownModelCatalogs(flags, context);
  const { connection, profile } = await resolveService(flags, context);
  const baseURL = connection.baseURL;
  const builtIn = flags.builtIn === true || !baseURL;
  const models: ModelCheckSetup["models"] = options.inputs ? { inputs: options.inputs } : {};
  const noSection = profile
    ? `the provider profile ${profile.shown} declares no such section`
    : "there is no provider profile";
  if (builtIn) {
    if (profile) models.unchecked = `${noSection}, and the built-in simulator then serves its own`;
    return { ...(catalogs ? { catalogs } : {}), models };
  }
  if (!options.readService) {
    // The profile's sections are not all a real service may offer: what they do not hold is
    // for the service's list to say.
    models.partial = true;
    models.unchecked = `${profile ? `it is not declared in ${profile.shown}` : "there is no provider profile"}, and ${options.where} does not read the service's model list (\`reelsmith plan\` checks it against ${baseURL})`;
    return { ...(catalogs ? { catalogs } : {}), models };
  }
  const { openService } = await import("./open-service.js");
  const service = await openService(flags, context, () => undefined);
  try {
    const signal = AbortSignal.any([context.signal, AbortSignal.timeout(LIST_TIMEOUT_MS)]);
    const listed = (await service.client.models.list({ signal })) as {
      id: string;
      [key: string]: unknown;
    }[];
    const core = await import("@reelsmith/core/profile");
    if (listed.length > 0) models.listed = core.listedModels(listed);
    else models.unchecked = `${noSection}, and ${baseURL} lists no models`;
    const videoModels = catalogs?.video_models ? [] : core.videoModelsListed(listed);
    if (videoModels.length > 0) catalogs = { ...catalogs, video_models: videoModels };
    return { ...(catalogs ? { catalogs } : {}), models };
  } catch (error) {
    if (context.signal.aborted) throw error;
    const why = `the model list of ${baseURL} could not be read (${(error as Error).message})`;
    models.unchecked = `${noSection}, and ${why}`;
    return { ...(catalogs ? { catalogs } : {}), models, note: `prices unknown: ${why}` };
  } finally {
    await service.close();
  }
}
