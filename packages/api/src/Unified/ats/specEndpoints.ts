import { AtsApplicationChangesList, AtsListApplicationChangesParams } from "./applicationChanges.js"
import {
  AtsApplicationResult,
  AtsApplicationsList,
  AtsCreateApplicationRequest,
  AtsGetApplicationParams,
  AtsListApplicationsParams,
  AtsMoveApplicationRequest,
  AtsRejectApplicationRequest,
  AtsUpdateApplicationRequest
} from "./applications.js"
import { AtsUpdateAssessmentResultRequest } from "./assessments.js"
import {
  AtsCandidateResult,
  AtsCandidatesList,
  AtsCreateCandidateRequest,
  AtsGetCandidateParams,
  AtsListCandidatesParams
} from "./candidates.js"
import {
  AtsDownloadDocumentParams,
  DocumentDownload,
  documentDownloadMediaTypes
} from "./documentDownload.js"
import {
  AtsDocumentResult,
  AtsDocumentsList,
  AtsGetDocumentParams,
  AtsListDocumentsParams,
  AtsUploadDocumentRequest
} from "./documents.js"
import { AtsGetNoteParams, AtsNoteResult, AtsUpdateNoteRequest } from "./notes.js"
import { AtsGetOfferParams, AtsListOffersParams, AtsOfferResult, AtsOffersList } from "./offers.js"
import {
  AtsGetScheduledInterviewParams,
  AtsListScheduledInterviewsParams,
  AtsScheduledInterviewResult,
  AtsScheduledInterviewsList
} from "./scheduledInterviews.js"
import {
  AtsGetScorecardParams,
  AtsListScorecardsParams,
  AtsScorecardResult,
  AtsScorecardsList
} from "./scorecards.js"
import { documentUnifiedQuery } from "../common/openApiTransforms.js"
import { unifiedEndpoint } from "../unifiedEndpoint.js"

/*
 * The unified ATS operations the spec defines itself (its record tables, bodies and queries, in
 * this folder's hand-written modules), as endpoints. The generated group
 * (`group.generated.ts`, from `scripts/generateUnified.mjs`) takes these in place of the
 * reference's, at their place in the reference's order.
 */

const listDoc = (extraDeprecated: ReadonlyArray<string> = []) =>
  documentUnifiedQuery({ proxy: "deepObject", deprecated: ["page", "updated_after", "sync_token", ...extraDeprecated] })
const getDoc = documentUnifiedQuery({ proxy: "deepObject" })

export const atsListApplications = unifiedEndpoint({
  kind: "list", id: "ats_list_applications", path: "/unified/ats/applications", query: AtsListApplicationsParams,
  success: AtsApplicationsList, summary: "List applications", openApi: listDoc(["job_id"])
})

export const atsCreateApplication = unifiedEndpoint({
  kind: "create", id: "ats_create_application", path: "/unified/ats/applications", body: AtsCreateApplicationRequest,
  summary: "Create an application"
})

export const atsGetApplication = unifiedEndpoint({
  kind: "get", id: "ats_get_application", path: "/unified/ats/applications/:id", query: AtsGetApplicationParams,
  success: AtsApplicationResult, summary: "Get an application", openApi: getDoc
})

export const atsUpdateApplication = unifiedEndpoint({
  kind: "update", id: "ats_update_application", path: "/unified/ats/applications/:id",
  body: AtsUpdateApplicationRequest, summary: "Update an application"
})

export const atsListApplicationsOffers = unifiedEndpoint({
  kind: "list", id: "ats_list_applications_offers", path: "/unified/ats/applications/:id/offers",
  query: AtsListOffersParams, success: AtsOffersList, summary: "List the offers of an application",
  openApi: listDoc()
})

export const atsGetApplicationOffer = unifiedEndpoint({
  kind: "get", id: "ats_get_application_offer", path: "/unified/ats/applications/:id/offers/:subResourceId",
  query: AtsGetOfferParams, success: AtsOfferResult, summary: "Get an offer of an application", openApi: getDoc
})

export const atsMoveApplication = unifiedEndpoint({
  kind: "move", id: "ats_move_application", path: "/unified/ats/applications/:id/move",
  body: AtsMoveApplicationRequest, summary: "Move an application to another stage"
})

export const atsRejectApplication = unifiedEndpoint({
  kind: "reject", id: "ats_reject_application", path: "/unified/ats/applications/:id/reject",
  body: AtsRejectApplicationRequest, summary: "Reject an application"
})

export const atsListApplicationScorecards = unifiedEndpoint({
  kind: "list", id: "ats_list_application_scorecards", path: "/unified/ats/applications/:id/scorecards",
  query: AtsListScorecardsParams, success: AtsScorecardsList, summary: "List the scorecards of an application",
  openApi: listDoc()
})

export const atsGetApplicationScorecard = unifiedEndpoint({
  kind: "get", id: "ats_get_application_scorecard", path: "/unified/ats/applications/:id/scorecards/:subResourceId",
  query: AtsGetScorecardParams, success: AtsScorecardResult, summary: "Get a scorecard of an application",
  openApi: getDoc
})

export const atsListApplicationChanges = unifiedEndpoint({
  kind: "list", id: "ats_list_application_changes", path: "/unified/ats/applications/:id/changes",
  query: AtsListApplicationChangesParams, success: AtsApplicationChangesList,
  summary: "List the changes of an application", openApi: getDoc
})

export const atsGetApplicationNote = unifiedEndpoint({
  kind: "get", id: "ats_get_application_note", path: "/unified/ats/applications/:id/notes/:subResourceId",
  query: AtsGetNoteParams, success: AtsNoteResult, summary: "Get a note of an application", openApi: getDoc
})

export const atsUpdateApplicationNote = unifiedEndpoint({
  kind: "update", id: "ats_update_application_note", path: "/unified/ats/applications/:id/notes/:subResourceId",
  body: AtsUpdateNoteRequest, summary: "Update a note of an application"
})

export const atsListApplicationsScheduledInterviews = unifiedEndpoint({
  kind: "list", id: "ats_list_applications_scheduled_interviews",
  path: "/unified/ats/applications/:id/scheduled_interviews", query: AtsListScheduledInterviewsParams,
  success: AtsScheduledInterviewsList, summary: "List the scheduled interviews of an application",
  openApi: listDoc()
})

export const atsGetApplicationScheduledInterview = unifiedEndpoint({
  kind: "get", id: "ats_get_application_scheduled_interview",
  path: "/unified/ats/applications/:id/scheduled_interviews/:subResourceId", query: AtsGetScheduledInterviewParams,
  success: AtsScheduledInterviewResult, summary: "Get a scheduled interview of an application", openApi: getDoc
})

export const atsUploadApplicationDocument = unifiedEndpoint({
  kind: "upload", id: "ats_upload_application_document", path: "/unified/ats/applications/:id/documents/upload",
  body: AtsUploadDocumentRequest, summary: "Upload a document to an application"
})

export const atsDownloadApplicationDocument = unifiedEndpoint({
  kind: "download", id: "ats_download_application_document",
  path: "/unified/ats/applications/:id/documents/:subResourceId/download", query: AtsDownloadDocumentParams,
  success: DocumentDownload, summary: "Download a document of an application",
  description: "Answers with the document's bytes; the content type is the document's own media type (one of the listed types), not application/octet-stream unless the document is untyped.",
  openApi: documentDownloadMediaTypes
})

export const atsListApplicationDocuments = unifiedEndpoint({
  kind: "list", id: "ats_list_application_documents", path: "/unified/ats/applications/:id/documents",
  query: AtsListDocumentsParams, success: AtsDocumentsList, summary: "List the documents of an application",
  openApi: listDoc()
})

export const atsGetApplicationDocument = unifiedEndpoint({
  kind: "get", id: "ats_get_application_document", path: "/unified/ats/applications/:id/documents/:subResourceId",
  query: AtsGetDocumentParams, success: AtsDocumentResult, summary: "Get a document of an application",
  openApi: getDoc
})

export const atsListCandidates = unifiedEndpoint({
  kind: "list", id: "ats_list_candidates", path: "/unified/ats/candidates", query: AtsListCandidatesParams,
  success: AtsCandidatesList, summary: "List candidates", openApi: listDoc()
})

export const atsCreateCandidate = unifiedEndpoint({
  kind: "create", id: "ats_create_candidate", path: "/unified/ats/candidates", body: AtsCreateCandidateRequest,
  summary: "Create a candidate"
})

export const atsGetCandidate = unifiedEndpoint({
  kind: "get", id: "ats_get_candidate", path: "/unified/ats/candidates/:id", query: AtsGetCandidateParams,
  success: AtsCandidateResult, summary: "Get a candidate", openApi: getDoc
})

export const atsUpdateAssessmentsResult = unifiedEndpoint({
  kind: "update", id: "ats_update_assessments_result", path: "/unified/ats/assessments/orders/:id/result",
  body: AtsUpdateAssessmentResultRequest, summary: "Update the result of an assessment order"
})
