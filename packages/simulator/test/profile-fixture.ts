/** A provider profile as YAML parses it: two video models in openai's dialect, one chat model. */
export function openaiProfile(): Record<string, unknown> {
  return {
    service: { dialect: "openai", api_key_env: ["EXAMPLE_API_KEY"], idempotency_keys: true },
    video_models: {
      "sora-2": {
        seconds: [4, 8, 12],
        sizes: ["1280x720", "720x1280", "640x360"],
        image: true,
        params: {
          seed: "integer",
          style: ["noir", "pastel"],
          generate_audio: "boolean",
          last_frame: "image",
        },
        price: { per_clip: 10, per_second: 2 },
      },
      "veo-3-fast": {
        seconds: { min: 1, max: 8 },
        sizes: { width: { min: 320, max: 1280 }, height: { min: 240, max: 1280 } },
        image: false,
        price: { per_second: 5 },
      },
    },
    chat_models: { "gpt-4o-mini": { images: false, json: true, tools: true } },
  };
}
