import type { ApiModel } from "./ApiModel.js"
import { camelName, labelOf } from "./camelName.js"

/*
 * The connector's base URL from the document's first server: OpenAPI server variables
 * (`https://{companyDomain}.example.com`) and the `<tenantHostname>` placeholders some
 * documents write instead become configuration fields read from the linked account's
 * credentials; a relative or missing server becomes a base URL field of its own.
 */

export type ConfigField = Readonly<Record<string, unknown>>

export interface DraftedBaseUrl {
  readonly baseUrl: string
  readonly configFields: ReadonlyArray<ConfigField>
  /** Comment lines about the servers not used. */
  readonly comments: ReadonlyArray<string>
  readonly review: ReadonlyArray<string>
  /**
   * Turns a URL of the document (an OAuth endpoint, maybe relative) into the connector's form;
   * `fields` are the configuration fields its own variables need beyond the base URL's.
   */
  readonly absolute: (url: string) => { readonly url: string; readonly relative: boolean; readonly fields: ReadonlyArray<ConfigField> }
}

const VARIABLE = /\{([^}]+)\}|<([A-Za-z][A-Za-z0-9_-]*)>/g

export const draftBaseUrl = (model: ApiModel): DraftedBaseUrl => {
  const [first, ...others] = model.servers
  const comments = others.map((server) => `another server in the document: ${server.url}${server.description === undefined ? "" : ` (${server.description})`}`)
  const review: Array<string> = []
  const fields = new Map<string, ConfigField>()

  const interpolate = (url: string, fields: Map<string, ConfigField>) =>
    url.replace(VARIABLE, (_, braced: string | undefined, angled: string | undefined) => {
      const name = braced ?? angled!
      const key = camelName(name, "server")
      if (!fields.has(key)) {
        const variable = first?.variables.find((entry) => entry.name === name)
        const description = [
          variable?.description,
          variable !== undefined && variable.values.length > 0 ? `one of ${variable.values.join(", ")}` : undefined,
          `part of the provider's URL (${name})`
        ].filter((part) => part !== undefined).join("; ")
        fields.set(key, {
          key,
          label: labelOf(name),
          type: "text",
          required: true,
          secret: false,
          ...(variable?.defaultValue === undefined || variable.defaultValue === "" ? {} : { placeholder: variable.defaultValue }),
          description
        })
      }
      return `\${credentials.${key}}`
    })

  let baseUrl: string
  let origin: string | undefined
  if (first === undefined || !/^[a-z][a-z0-9+.-]*:\/\//i.test(first.url)) {
    const path = first === undefined ? "" : first.url.replace(/^\/*/, "/").replace(/\/+$/, "")
    fields.set("baseUrl", {
      key: "baseUrl",
      label: "Base URL",
      type: "text",
      required: true,
      secret: false,
      placeholder: "https://api.example.com",
      description: "The provider's API address (scheme and host); the document does not give it"
    })
    baseUrl = `\${credentials.baseUrl}${interpolate(path === "/" ? "" : path, fields)}`
    review.push(
      first === undefined
        ? "the document names no server: the base URL is a configuration field (baseUrl); put the provider's address here if it is always the same"
        : `the document's server is relative (${first.url}): the base URL starts with a configuration field (baseUrl)`
    )
    origin = "${credentials.baseUrl}"
  } else {
    baseUrl = interpolate(first.url.replace(/\/+$/, ""), fields)
    origin = baseUrl.match(/^[a-z][a-z0-9+.-]*:\/\/[^/]+/i)?.[0]
  }
  if (fields.size > 0 && first !== undefined && /<[A-Za-z]/.test(first.url)) {
    review.push(`the server ${first.url} has <placeholders>, read as configuration fields`)
  }

  return {
    baseUrl,
    configFields: [...fields.values()],
    comments,
    review,
    absolute: (url) => {
      // an OAuth URL's own variables (Rippling's {appName}) belong to its method, not to every method
      const own = new Map<string, ConfigField>()
      const extra = () => [...own.values()].filter((field) => !fields.has(field.key as string))
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
        const absolute = interpolate(url, own)
        return { url: absolute, relative: false, fields: extra() }
      }
      const relative = `${origin ?? "${credentials.baseUrl}"}${url.startsWith("/") ? "" : "/"}${interpolate(url, own)}`
      return { url: relative, relative: true, fields: extra() }
    }
  }
}
