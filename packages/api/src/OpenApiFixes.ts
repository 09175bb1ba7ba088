type Json = Record<string, unknown>

const DECODE_ERROR_REF = "#/components/schemas/HttpApiDecodeError"

const withoutDecodeError = (schema: Json): Json => {
  const anyOf = schema.anyOf as Array<Json> | undefined
  if (anyOf === undefined) return schema
  const kept = anyOf.filter((member) => member.$ref !== DECODE_ERROR_REF)
  return kept.length === 1 ? kept[0]! : { ...schema, anyOf: kept }
}

/**
 * `HttpApi.make` documents decode failures with the platform's own error shape; the server
 * answers them as our `BadRequest` body instead, so the document drops the other shape.
 */
export const documentDecodeErrorsAsBadRequest = (spec: Record<string, any>): Record<string, any> => {
  const document = structuredClone(spec) as Json
  for (const path of Object.values(document.paths as Record<string, Json>)) {
    for (const operation of Object.values(path as Record<string, Json>)) {
      const badRequest = (operation.responses as Record<string, Json> | undefined)?.["400"]
      const content = badRequest?.content as Record<string, Json> | undefined
      for (const media of Object.values(content ?? {})) {
        media.schema = withoutDecodeError(media.schema as Json)
      }
    }
  }
  const schemas = (document.components as Json | undefined)?.schemas as Json | undefined
  if (schemas !== undefined) delete schemas.HttpApiDecodeError
  return document
}
