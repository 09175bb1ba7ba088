/**
 * The request target as the platform's router (find-my-way) reads it: an absolute-form target
 * loses its scheme and host, and the path ends at the first `?`, `;` or `#` (the rest is the
 * query). Dot segments and percent-escapes stay as sent.
 */
export const routerTarget = (url: string) => {
  const target = url.charCodeAt(0) === 47 ? url : url.replace(/^https?:\/\/.*?\//, "/")
  const end = target.slice(1).search(/[?;#]/)
  return end < 0
    ? { path: target, query: "" }
    : { path: target.slice(0, end + 1), query: target.slice(end + 2) }
}
