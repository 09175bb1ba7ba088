/**
 * How ATS records are written as text: people's names, e-mail slugs and the dates in activity
 * bodies. Shared by the generators and the route modules, so generated and API-made records read alike.
 */

/** Lower case letters and digits only: the local part of a generated e-mail address or URL. */
export const slug = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]+/g, "")

/** "MM/DD/YYYY", as Greenhouse writes dates in activity bodies. */
export const usDate = (ms: number): string => {
  const date = new Date(ms)
  return `${String(date.getUTCMonth() + 1).padStart(2, "0")}/${String(date.getUTCDate()).padStart(2, "0")}/${date.getUTCFullYear()}`
}

export const fullName = (person: { first_name: string; last_name: string }): string => `${person.first_name} ${person.last_name}`
