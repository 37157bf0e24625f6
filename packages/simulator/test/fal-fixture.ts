/** The endpoint id of the fal model the tests use, as a fal user types it. */
export const klingEndpoint = "fal-ai/kling-video/v2.1/standard/text-to-video";

/** A provider profile as YAML parses it: fal's queue, one video endpoint priced per second. */
export function falProfile(): Record<string, unknown> {
  return {
    service: { dialect: "fal", base_url: "https://queue.fal.run", api_key_env: ["FAL_KEY"] },
    video_models: {
      [klingEndpoint]: {
        seconds: [5, 10],
        sizes: ["1280x720", "720x1280", "720x720"],
        image: false,
        params: { negative_prompt: "string", cfg_scale: "number" },
        price: { per_second: 7 },
      },
    },
  };
}

/** The fal image endpoint the tests use (FLUX.1 [dev]). */
export const fluxEndpoint = "fal-ai/flux/dev";

/** {@link falProfile} with an image endpoint priced per image. */
export function falImageProfile(): Record<string, unknown> {
  return {
    ...falProfile(),
    image_models: {
      [fluxEndpoint]: {
        sizes: ["1024x768", "1024x1024", "512x512"],
        max_images: 4,
        price: { per_image: 3 },
      },
    },
  };
}

export const kokoroEndpoint = "fal-ai/kokoro/american-english";
export const falElevenlabsEndpoint = "fal-ai/elevenlabs/tts/multilingual-v2";

/** A fal profile listing two of fal's speech endpoints, priced per 1,000 characters. */
export function falSpeechProfile(): Record<string, unknown> {
  return {
    ...falProfile(),
    speech_models: {
      [kokoroEndpoint]: {
        voices: ["af_heart", "am_adam"],
        formats: ["mp3"],
        price: { per_1000_characters: 1000 },
      },
      [falElevenlabsEndpoint]: {
        voices: ["Rachel", "George"],
        formats: ["mp3"],
        price: { per_1000_characters: 2000 },
      },
    },
  };
}
