import type { ProviderProfile } from "../profile/profile-types.js";

/** The profile of the README, as YAML parses it. */
export function exampleProfile(): ProviderProfile {
  return {
    service: {
      base_url: "https://api.example.com/v1",
      api_key_env: ["EXAMPLE_API_KEY", "OPENAI_API_KEY"],
      dialect: "openai",
      idempotency_keys: true,
      lists_jobs: false,
      poll_interval: "2s",
    },
    video_models: {
      "veo-3-fast": {
        seconds: { min: 1, max: 8 },
        sizes: ["1280x720", "720x1280"],
        image: true,
        params: {
          seed: "integer",
          negative_prompt: "string",
          aspect_ratio: ["16:9", "9:16"],
          generate_audio: "boolean",
          last_frame: "image",
          guidance: {
            type: "number",
            minimum: 0,
            maximum: 20,
            description: "How closely to follow the prompt",
          },
        },
        price: { per_clip: 10, per_second: 2 },
      },
      "sora-2": {
        seconds: [4, 8, 12],
        sizes: { width: { min: 480, max: 1920 }, height: { min: 480, max: 1920 } },
      },
      "new-model": null,
    },
    chat_models: {
      "gpt-4o-mini": { images: true, json: true, tools: true },
      "text-only": { images: false },
    },
  };
}
