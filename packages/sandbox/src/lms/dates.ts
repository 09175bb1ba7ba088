/** How TalentLMS writes times and durations. */

/** "DD/MM/YYYY, HH:MM:SS" (UTC here). */
export const tlmsDate = (ms: number): string => {
  const date = new Date(ms)
  const pad = (value: number): string => String(value).padStart(2, "0")
  return `${pad(date.getUTCDate())}/${pad(date.getUTCMonth() + 1)}/${date.getUTCFullYear()}, ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`
}

/** Unix seconds, as a string (the `*_timestamp` fields). */
export const unixSeconds = (ms: number): string => String(Math.floor(ms / 1000))

/** "1h 5m", "5m 3s" or "3s". */
export const durationText = (seconds: number): string => {
  const hours = Math.floor(seconds / 3600)
  const minutes = Math.floor((seconds % 3600) / 60)
  const rest = seconds % 60
  return hours > 0 ? `${hours}h ${minutes}m` : minutes > 0 ? `${minutes}m ${rest}s` : `${rest}s`
}
