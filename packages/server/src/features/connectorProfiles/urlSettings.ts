import { Data, Effect } from "effect"

/** A URL setting that is not an absolute http or https URL. */
export class InvalidAccountSetting extends Data.TaggedError("InvalidAccountSetting")<{ readonly setting: string }> {
  override get message() {
    return `settings.${this.setting} must be an absolute http or https URL`
  }
}

/** Settings that hold a provider address: `base_url` (the account's provider base URL) and any `*_url` or `*Url`. */
const isUrlSetting = (key: string) => key === "base_url" || key.endsWith("_url") || /[a-z0-9]Url$/.test(key)

const isWebUrl = (value: unknown) => {
  if (typeof value !== "string") return false
  try {
    const url = new URL(value)
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== ""
  } catch {
    return false
  }
}

/**
 * Refuses a link whose URL settings are not absolute http or https URLs, so that
 * `file:///etc/passwd` is refused naming the field now rather than a failing call later.
 * Whether the address may be called is decided per call, by the outbound guard.
 */
export const checkUrlSettings = (
  settings: Readonly<Record<string, unknown>> | undefined
): Effect.Effect<void, InvalidAccountSetting> => {
  const invalid = Object.entries(settings ?? {}).find(([key, value]) => isUrlSetting(key) && !isWebUrl(value))
  return invalid === undefined
    ? Effect.void
    : Effect.fail(new InvalidAccountSetting({ setting: invalid[0] }))
}
