import { ReelsmithError } from "./reelsmith-error.js";

/**
 * No base URL or API key was given and none was found in the environment
 * (`REELSMITH_BASE_URL`/`OPENAI_BASE_URL`, `REELSMITH_API_KEY`/`OPENAI_API_KEY`).
 *
 * @example
 * ```ts
 * catch (error) { if (MissingConfigurationError.isInstance(error)) console.error(`set ${error.setting}`); }
 * ```
 */
export class MissingConfigurationError extends ReelsmithError {
  static override readonly marker: symbol = Symbol.for("reelsmith.error.MissingConfigurationError");
  readonly setting: "baseURL" | "apiKey";
  constructor(setting: "baseURL" | "apiKey", message: string) {
    super(message, {
      code: "missing_configuration",
      isRetryable: false,
      hint: "pass --base-url and --api-key, or set REELSMITH_BASE_URL and REELSMITH_API_KEY",
    });
    this.setting = setting;
  }
}
