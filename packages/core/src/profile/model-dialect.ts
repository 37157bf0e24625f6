import type { ProviderProfile } from "./profile-types.js";

/**
 * The dialect of the account that serves a model of a (validated) profile: its `provider:`'s
 * under `providers:`, else the `service`'s (default `reference`).
 *
 * @example
 * modelDialect({ providers: { voice: { dialect: "elevenlabs" } } }, { provider: "voice" }); // "elevenlabs"
 */
export function modelDialect(
  profile: ProviderProfile,
  model: { provider?: string } | null | undefined,
): string {
  const provider = model?.provider;
  const account = provider === undefined ? undefined : profile.providers?.[provider];
  return account?.dialect ?? profile.service?.dialect ?? "reference";
}
