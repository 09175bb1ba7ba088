/*
 * Pieces shared by the unified API groups (ATS, HRIS, LMS), one module each under common/:
 * record building blocks, response envelopes, headers and path parameters, query parameters,
 * the query schema builder and the OpenAPI transforms. Re-exported here so that
 * `Unified/Common.js` keeps exporting every name it did.
 */

export * from "./common/headers.js"
export * from "./common/openApiTransforms.js"
export * from "./common/queryParams.js"
export * from "./common/recordFields.js"
export * from "./common/responses.js"
export * from "./common/unifiedQuery.js"
