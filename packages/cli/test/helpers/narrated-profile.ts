/**
 * The service the narrated example needs, described once as for a real account: its models
 * with their prices. A simulator serves and charges exactly these; the CLI reads them from
 * reelsmith.config.yaml (the narrated e2e tests, local and on workers).
 */
export const NARRATED_PROFILE = `service: { dialect: reference, idempotency_keys: true }
video_models:
  reel-video-2-lite:
    { seconds: { min: 1, max: 8 }, sizes: [854x480, 480x854], image: true, price: { per_second: 5 } }
chat_models:
  reel-chat-1: { json: true, images: true, tools: true }
image_models:
  reel-image-1:
    { sizes: [1536x1024, 1024x1024], max_references: 4, max_images: 4, price: { per_image: 4 } }
speech_models:
  reel-voice-1: { voices: [ava], formats: [wav, mp3], price: { per_1000_characters: 15 } }
transcription_models:
  reel-transcribe-1: { word_timestamps: true, price: { per_minute: 6 } }
`;
