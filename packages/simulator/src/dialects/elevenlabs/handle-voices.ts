import type { RouteHandler } from "../../server/context.js";
import { servedModels, servedVoices } from "./elevenlabs-catalog.js";

const voiceJson = (voice: { voice_id: string; name: string }) => ({
  voice_id: voice.voice_id,
  name: voice.name,
  category: "premade",
  labels: {},
  available_for_tiers: [],
});

/** `GET /v1/voices`: every voice served, with its id and name. */
export const handleVoices: RouteHandler = async (context, simulator) => {
  await context.send(200, { voices: servedVoices(simulator).map(voiceJson) });
};

/** `GET /v2/voices` (search): the voices whose name or id holds `search`, one page. */
export const handleSearchVoices: RouteHandler = async (context, simulator) => {
  const query = new URL(context.request.url ?? "/", "http://localhost").searchParams;
  const search = (query.get("search") ?? "").toLowerCase();
  const voices = servedVoices(simulator).filter(
    (voice) =>
      search === "" ||
      voice.name.toLowerCase().includes(search) ||
      voice.voice_id.toLowerCase().includes(search),
  );
  await context.send(200, {
    voices: voices.map(voiceJson),
    has_more: false,
    total_count: voices.length,
    next_page_token: null,
  });
};

/** `GET /v1/models`: ElevenLabs' models as it lists them (an array). */
export const handleModels: RouteHandler = async (context, simulator) => {
  await context.send(
    200,
    servedModels(simulator).map((model) => ({
      model_id: model.model_id,
      name: model.name,
      can_do_text_to_speech: true,
      can_do_voice_conversion: false,
      token_cost_factor: model.creditsPerCharacter,
      maximum_text_length_per_request: model.maxCharacters,
      languages: [],
    })),
  );
};
