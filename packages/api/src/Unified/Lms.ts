/*
 * Unified LMS: every operation of the reference (StackOne's lms.json). The records, bodies,
 * queries and the group are generated (`scripts/generateUnified.mjs`) into lms/*.generated.ts;
 * what the spec defines itself is hand-written in lms/spec.ts and used by the generated modules.
 */

export * from "./lms/group.generated.js"
export * from "./lms/records.generated.js"
export * from "./lms/spec.js"
