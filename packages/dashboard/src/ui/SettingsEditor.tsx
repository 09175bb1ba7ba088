import { useState } from "preact/hooks"

/**
 * A connector profile's account settings (`base_url` and the like), edited as name/value
 * fields, which suit the usual text settings, or as a JSON object, for values of other types.
 * The parent keeps the draft and reads it with `settingsOf` when the form is sent.
 */

export interface SettingRow {
  readonly name: string
  readonly value: string
}

export interface SettingsDraft {
  readonly mode: "fields" | "json"
  readonly rows: ReadonlyArray<SettingRow>
  readonly json: string
}

type Settings = Record<string, unknown>

const isTextOnly = (settings: Settings) => Object.values(settings).every((value) => typeof value === "string")

/**
 * The draft for stored settings: fields when every value is text, else JSON (a number would
 * turn into text). By name: the database keeps no order of its own (Postgres's jsonb sorts keys
 * by length), so the same settings always read the same.
 */
export const draftOf = (stored: Readonly<Settings>): SettingsDraft => {
  const settings = Object.fromEntries(Object.entries(stored).sort(([a], [b]) => a.localeCompare(b)))
  return {
    mode: isTextOnly(settings) ? "fields" : "json",
    rows: isTextOnly(settings) ? Object.entries(settings).map(([name, value]) => ({ name, value: value as string })) : [],
    json: JSON.stringify(settings, null, 2)
  }
}

export const emptyDraft: SettingsDraft = { mode: "fields", rows: [], json: "{}" }

const fromRows = (rows: ReadonlyArray<SettingRow>): { settings: Settings } | { error: string } => {
  const settings: Settings = {}
  for (const [index, row] of rows.entries()) {
    const name = row.name.trim()
    if (name === "") {
      if (row.value === "") continue
      return { error: `Setting ${index + 1} has a value but no name.` }
    }
    if (Object.hasOwn(settings, name)) return { error: `The setting “${name}” is given twice; keep one.` }
    settings[name] = row.value
  }
  return { settings }
}

const fromJson = (json: string): { settings: Settings } | { error: string } => {
  if (json.trim() === "") return { settings: {} }
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch (error) {
    return { error: `The settings are not valid JSON: ${error instanceof Error ? error.message : String(error)}.` }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { error: "The settings must be a JSON object, such as {\"base_url\": \"https://api.example.com\"}." }
  }
  return { settings: value as Settings }
}

/** The settings the draft holds, or what is wrong with it in words. */
export const settingsOf = (draft: SettingsDraft) => draft.mode === "fields" ? fromRows(draft.rows) : fromJson(draft.json)

export const SettingsEditor = (
  { id, draft, onChange, error }: { id: string; draft: SettingsDraft; onChange: (draft: SettingsDraft) => void; error?: string | undefined }
) => {
  const [switchError, setSwitchError] = useState<string | undefined>(undefined)
  const shownError = switchError ?? error
  const change = (next: SettingsDraft) => {
    setSwitchError(undefined)
    onChange(next)
  }
  const switchTo = (mode: "fields" | "json") => {
    setSwitchError(undefined)
    if (mode === draft.mode) return
    const current = settingsOf(draft)
    if ("error" in current) {
      setSwitchError(current.error)
      return
    }
    if (mode === "fields" && !isTextOnly(current.settings)) {
      setSwitchError("Some values are not text (numbers, true/false, lists or objects): keep editing them as JSON.")
      return
    }
    onChange(mode === "json"
      ? { ...draft, mode, json: JSON.stringify(current.settings, null, 2) }
      : { ...draft, mode, rows: draftOf(current.settings).rows })
  }
  const setRow = (index: number, edit: Partial<SettingRow>) =>
    change({ ...draft, rows: draft.rows.map((row, at) => at === index ? { ...row, ...edit } : row) })
  return (
    <fieldset class="settings-editor" aria-describedby={`${id}-help${shownError === undefined ? "" : ` ${id}-error`}`}>
      <legend>Account settings</legend>
      <p id={`${id}-help`} class="muted">
        Every account linked through this profile receives them, such as <code>base_url</code> for a provider's own address.
      </p>
      <div class="segmented" role="radiogroup" aria-label="Edit the settings as">
        {(["fields", "json"] as const).map((mode) => (
          <label key={mode} class="radio">
            <input type="radio" name={`${id}-mode`} value={mode} checked={draft.mode === mode} onChange={() => switchTo(mode)} />
            {mode === "fields" ? "Name and value fields" : "JSON"}
          </label>
        ))}
      </div>
      {draft.mode === "json"
        ? (
          <div class="field">
            <label for={`${id}-json`}>Settings as a JSON object</label>
            <textarea id={`${id}-json`} rows={6} spellcheck={false} value={draft.json}
              aria-invalid={shownError === undefined ? undefined : "true"}
              onInput={(event) => change({ ...draft, json: event.currentTarget.value })} />
          </div>
        )
        : (
          <>
            {draft.rows.length === 0
              ? <p class="muted">No settings. Add one if the connector's accounts need it.</p>
              : (
                <ol class="setting-rows">
                  {draft.rows.map((row, index) => (
                    <li key={index} class="setting-row">
                      <div>
                        <label for={`${id}-name-${index}`}>Name of setting {index + 1}</label>
                        <input id={`${id}-name-${index}`} value={row.name} spellcheck={false} placeholder="base_url"
                          onInput={(event) => setRow(index, { name: event.currentTarget.value })} />
                      </div>
                      <div>
                        <label for={`${id}-value-${index}`}>Value of setting {index + 1}</label>
                        <input id={`${id}-value-${index}`} value={row.value} spellcheck={false}
                          onInput={(event) => setRow(index, { value: event.currentTarget.value })} />
                      </div>
                      <button type="button" class="danger" aria-label={`Remove setting ${index + 1}${row.name === "" ? "" : ` (${row.name})`}`}
                        onClick={() => change({ ...draft, rows: draft.rows.filter((_, at) => at !== index) })}>
                        Remove
                      </button>
                    </li>
                  ))}
                </ol>
              )}
            <button type="button" onClick={() => change({ ...draft, rows: [...draft.rows, { name: "", value: "" }] })}>
              Add a setting
            </button>
          </>
        )}
      {shownError === undefined ? null : <p id={`${id}-error`} class="error-note" role="alert">{shownError}</p>}
    </fieldset>
  )
}
