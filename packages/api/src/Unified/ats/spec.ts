/*
 * What the spec defines of the unified ATS itself: its records, bodies, queries and the
 * endpoints of the operations it lists, one module per resource. The generated modules use
 * these where the reference has its own.
 */

export * from "./applicationChanges.js"
export * from "./applications.js"
export * from "./assessments.js"
export * from "./candidateContacts.js"
export * from "./candidates.js"
export * from "./documentDownload.js"
export * from "./documents.js"
export * from "./notes.js"
export * from "./offers.js"
export * from "./scheduledInterviews.js"
export * from "./scorecards.js"
export * from "./specEndpoints.js"
