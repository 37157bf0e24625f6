/** A voice ElevenLabs ships (George) and one of its models. */
export const georgeVoice = "JBFqnCBsd6RMkjVDRZzb";
export const rachelVoice = "21m00Tcm4TlvDq8ikWAM";

/**
 * A speech-only provider profile as YAML parses it: ElevenLabs, two models priced per
 * character (1,000 credits per 1,000 characters: a credit a character), two voices.
 */
export function elevenlabsProfile(): Record<string, unknown> {
  return {
    service: {
      dialect: "elevenlabs",
      base_url: "https://api.elevenlabs.io",
      api_key_env: ["ELEVENLABS_API_KEY"],
    },
    speech_models: {
      eleven_multilingual_v2: {
        voices: [georgeVoice, rachelVoice],
        formats: ["mp3"],
        price: { per_1000_characters: 1000 },
      },
      eleven_flash_v2_5: {
        voices: [georgeVoice, rachelVoice],
        formats: ["mp3"],
        price: { per_1000_characters: 500 },
      },
    },
  };
}
