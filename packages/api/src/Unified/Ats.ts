/*
 * Unified ATS: every operation of the reference (StackOne's ats.json). The records, bodies,
 * queries and the group are generated (`scripts/generateUnified.mjs`) into ats/*.generated.ts;
 * what the spec defines itself (applications and what hangs off them, candidates, assessment
 * results: record field names from the spec's tables, types from the reference) is hand-written
 * in ats/ and used by the generated modules, its endpoints in ats/specEndpoints.ts.
 */

export * from "./ats/group.generated.js"
export * from "./ats/records.generated.js"
export * from "./ats/spec.js"
