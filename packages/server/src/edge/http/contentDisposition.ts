/*
 * `Content-Disposition` for a provider's file name (RFC 6266): Node refuses a header that is
 * not Latin-1 or holds CR/LF, so the name goes out as an ASCII fallback in `filename` and
 * in full, UTF-8 percent-encoded, in `filename*` (RFC 5987), which clients prefer.
 */

/** RFC 5987 attr-char: what `filename*` may carry unencoded. */
const ATTR_CHAR = /^[A-Za-z0-9!#$&+\-.^_`|~]$/

const percentEncoded = (value: string) =>
  Array.from(Buffer.from(value, "utf8"), (byte) => {
    const char = String.fromCharCode(byte)
    return ATTR_CHAR.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`
  }).join("")

/** The header for an attachment named `fileName`, or undefined when nothing of the name is left. */
export const contentDisposition = (fileName: string): string | undefined => {
  const name = fileName.replace(/[\u0000-\u001f\u007f-\u009f]/g, "").trim()
  if (name === "") return undefined
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, "_")
  return `attachment; filename="${fallback}"; filename*=UTF-8''${percentEncoded(name)}`
}
