import type { VideoModelCatalog } from "@reelsmith/core/catalog";
import type { CliContext } from "../context.js";
import { openService } from "./open-service.js";

/** How long `plan` waits for a service's model list. */
const LIST_TIMEOUT_MS = 10_000;

/**
 * The video models a configured service lists with their limits and prices (one free
 * `GET /v1/models`), for a plan's estimate; or why they are unknown (no service configured,
 * or it did not answer: the plan says so and goes on without prices).
 *
 * @example
 * const { videoModels, note } = await listedVideoModels(context);
 */
export async function listedVideoModels(
  context: CliContext,
  flags: { baseUrl?: string; apiKey?: string } = {},
): Promise<{ videoModels?: VideoModelCatalog; note?: string }> {
  const service = await openService(flags, context, () => undefined);
  try {
    if (service.builtIn) return {};
    const signal = AbortSignal.any([context.signal, AbortSignal.timeout(LIST_TIMEOUT_MS)]);
    const models = await service.client.models.list({ signal });
    const { videoModelsListed } = await import("@reelsmith/core/profile");
    const videoModels = videoModelsListed(models as { id: string; [key: string]: unknown }[]);
    return videoModels.length > 0 ? { videoModels } : {};
  } catch (error) {
    return {
      note: `prices unknown: the model list of ${service.baseURL} could not be read (${(error as Error).message})`,
    };
  } finally {
    await service.close();
  }
}
