import { Either } from "effect"
import { XMLParser, XMLValidator } from "fast-xml-parser"
import type { HttpPlan, StepPlan, XmlReading } from "../../actionPlan.js"
import { ProviderTransportError, type ProviderResponse } from "../../ProviderTransport.js"
import type { RunState } from "../RunState.js"
import type { BuiltRequest } from "./BuiltRequest.js"

/*
 * A provider's XML answer (`response.format: xml`) as the tree a connector reads, the same way
 * it reads JSON: each element a key, its text the value (kept as text: `0042` is an id, not a
 * number), attributes as `@_name`, the text beside child elements as `#text`. CDATA is text.
 * An element is a list only when it repeats, unless the step names it in `response.arrays`: a
 * feed with one `<position>` must not turn `positions` into an object.
 *
 * The answer comes from the provider, so it is bounded: nesting by `maxNestedTags`, entities by
 * the parser's expansion limits (no external entities are ever read); its size was bounded by
 * `maxResponseBytes` when it arrived.
 */

/** Deeper than any feed a connector maps; a deeper answer is refused rather than walked. */
export const MAX_XML_DEPTH = 64

const ENTITY_LIMITS = {
  enabled: true,
  maxEntitySize: 1_000,
  maxEntityCount: 50,
  maxTotalExpansions: 1_000,
  maxExpandedLength: 100_000
}

/** One parser per reading (its options hold the step's array names), made on first use. */
const parsers = new WeakMap<XmlReading, XMLParser>()

const parserFor = (reading: XmlReading): XMLParser => {
  let parser = parsers.get(reading)
  if (parser === undefined) {
    parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "@_",
      parseTagValue: false,
      parseAttributeValue: false,
      trimValues: true,
      ignoreDeclaration: true,
      ignorePiTags: true,
      processEntities: ENTITY_LIMITS,
      maxNestedTags: MAX_XML_DEPTH,
      isArray: (name, _path, _leaf, isAttribute) => !isAttribute && reading.arrays.has(name)
    })
    parsers.set(reading, parser)
  }
  return parser
}

const asText = (body: unknown): string | undefined =>
  typeof body === "string" ? body : body instanceof Uint8Array ? new TextDecoder().decode(body) : undefined

/**
 * The answer with its body read as XML. An empty body stays empty; a 2xx body that is not XML
 * (or is JSON: the provider answered another format than the connector reads) is the
 * provider's fault (502). A non-2xx body that is not XML is left as it came, for the error.
 */
export const readXmlAnswer = (
  run: RunState,
  step: StepPlan,
  reading: XmlReading,
  built: BuiltRequest,
  response: ProviderResponse
): Either.Either<ProviderResponse, ProviderTransportError> => {
  const body = response.body
  if (body === null || body === undefined || body === "") return Either.right(response)
  const success = response.status >= 200 && response.status < 300
  const refuse = (why: string) =>
    success
      ? Either.left(
        new ProviderTransportError({
          reason: "invalid_response",
          message: `${run.parsed.definition.info.key} answered ${response.status} with ${why} (step "${step.stepId}" reads XML)`,
          url: run.secrets.redact(built.url.origin + built.url.pathname)
        })
      )
      : Either.right(response)
  const text = asText(body)
  if (text === undefined) return refuse("JSON, not XML")
  const valid = XMLValidator.validate(text)
  if (valid !== true) return refuse(`XML that is not well-formed: ${valid.err.msg} (line ${valid.err.line})`)
  try {
    return Either.right({ ...response, body: parserFor(reading).parse(text) as unknown })
  } catch (error) {
    return refuse(`XML that could not be read: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/** The answer as the step reads it: as it came, or read as XML when the step says so. */
export const stepAnswer = (
  run: RunState,
  step: StepPlan,
  http: HttpPlan,
  built: BuiltRequest,
  response: ProviderResponse
): Either.Either<ProviderResponse, ProviderTransportError> =>
  http.xml === undefined ? Either.right(response) : readXmlAnswer(run, step, http.xml, built, response)
