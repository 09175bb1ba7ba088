/*
 * Unified HRIS: every operation of the reference (StackOne's hris.json). The records, bodies,
 * queries and the group are generated (`scripts/generateUnified.mjs`) into hris/*.generated.ts;
 * what the spec defines itself is hand-written in hris/spec.ts and used by the generated modules.
 */

export * from "./hris/group.generated.js"
export * from "./hris/records.generated.js"
export * from "./hris/spec.js"
