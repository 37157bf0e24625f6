/**
 * Flags of `reelsmith models` (and of its `--write-config` mode): their own module, so the
 * listing and the writing each import them without importing each other.
 *
 * @example
 * const flags: ModelsFlags = { writeConfig: "acme.yaml", videoModel: ["veo-3-fast"] };
 */
export interface ModelsFlags {
  baseUrl?: string;
  apiKey?: string;
  json?: boolean;
  /** `--write-config [file]`: true without a file name. */
  writeConfig?: string | boolean;
  videoModel?: string[];
  /** `--provider NAME`: a provider of core's registry (its dialect). */
  provider?: string;
  /** `--model ID` (repeatable): models to declare for a provider that lists none. */
  model?: string[];
  force?: boolean;
}
