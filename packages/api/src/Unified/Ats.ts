import { HttpApiGroup, OpenApi } from "@effect/platform"
import { Authentication } from "../Authentication.js"
import { PreconditionFailedBody } from "../Errors.js"
import { AtsApplicationChangesList, AtsListApplicationChangesParams } from "./ats/applicationChanges.js"
import {
  AtsApplicationResult,
  AtsApplicationsList,
  AtsCreateApplicationRequest,
  AtsGetApplicationParams,
  AtsListApplicationsParams,
  AtsMoveApplicationRequest,
  AtsRejectApplicationRequest,
  AtsUpdateApplicationRequest
} from "./ats/applications.js"
import { AtsUpdateAssessmentResultRequest } from "./ats/assessments.js"
import {
  AtsCandidateResult,
  AtsCandidatesList,
  AtsCreateCandidateRequest,
  AtsGetCandidateParams,
  AtsListCandidatesParams
} from "./ats/candidates.js"
import {
  AtsDownloadDocumentParams,
  DocumentDownload,
  documentDownloadMediaTypes
} from "./ats/documentDownload.js"
import {
  AtsDocumentResult,
  AtsDocumentsList,
  AtsGetDocumentParams,
  AtsListDocumentsParams,
  AtsUploadDocumentRequest
} from "./ats/documents.js"
import { AtsGetNoteParams, AtsNoteResult, AtsUpdateNoteRequest } from "./ats/notes.js"
import { AtsGetOfferParams, AtsListOffersParams, AtsOfferResult, AtsOffersList } from "./ats/offers.js"
import {
  AtsGetScheduledInterviewParams,
  AtsListScheduledInterviewsParams,
  AtsScheduledInterviewResult,
  AtsScheduledInterviewsList
} from "./ats/scheduledInterviews.js"
import {
  AtsGetScorecardParams,
  AtsListScorecardsParams,
  AtsScorecardResult,
  AtsScorecardsList
} from "./ats/scorecards.js"
import { documentUnifiedQuery } from "./common/openApiTransforms.js"
import { unifiedEndpoint } from "./unifiedEndpoint.js"

/*
 * Unified ATS: applications (and their offers, scorecards, changes, notes, scheduled
 * interviews, documents), candidates and assessment results. Record field names follow the
 * spec's tables; types and enumerations follow the reference StackOne documents.
 *
 * The records, envelopes, queries and bodies live in ats/, one module per resource, and are
 * re-exported here; this module assembles the group (its endpoint order is the OpenAPI order).
 */

export * from "./ats/applicationChanges.js"
export * from "./ats/applications.js"
export * from "./ats/assessments.js"
export * from "./ats/candidateContacts.js"
export * from "./ats/candidates.js"
export * from "./ats/documentDownload.js"
export * from "./ats/documents.js"
export * from "./ats/notes.js"
export * from "./ats/offers.js"
export * from "./ats/scheduledInterviews.js"
export * from "./ats/scorecards.js"

// ---------------------------------------------------------------------------
// OpenAPI transforms of the group's operations
// ---------------------------------------------------------------------------


const listDoc = (extraDeprecated: ReadonlyArray<string> = []) =>
  documentUnifiedQuery({ proxy: "deepObject", deprecated: ["page", "updated_after", "sync_token", ...extraDeprecated] })
const getDoc = documentUnifiedQuery({ proxy: "deepObject" })

// ---------------------------------------------------------------------------
// Group
// ---------------------------------------------------------------------------

export class UnifiedAtsGroup extends HttpApiGroup.make("unified_ats")
  .add(unifiedEndpoint({
    kind: "list", id: "ats_list_applications", path: "/unified/ats/applications", query: AtsListApplicationsParams,
    success: AtsApplicationsList, summary: "List applications", openApi: listDoc(["job_id"])
  }))
  .add(unifiedEndpoint({
    kind: "create", id: "ats_create_application", path: "/unified/ats/applications", body: AtsCreateApplicationRequest,
    summary: "Create an application"
  }))
  .add(unifiedEndpoint({
    kind: "get", id: "ats_get_application", path: "/unified/ats/applications/:id", query: AtsGetApplicationParams,
    success: AtsApplicationResult, summary: "Get an application", openApi: getDoc
  }))
  .add(unifiedEndpoint({
    kind: "update", id: "ats_update_application", path: "/unified/ats/applications/:id",
    body: AtsUpdateApplicationRequest, summary: "Update an application"
  }))
  .add(unifiedEndpoint({
    kind: "list", id: "ats_list_applications_offers", path: "/unified/ats/applications/:id/offers",
    query: AtsListOffersParams, success: AtsOffersList, summary: "List the offers of an application",
    openApi: listDoc()
  }))
  .add(unifiedEndpoint({
    kind: "get", id: "ats_get_application_offer", path: "/unified/ats/applications/:id/offers/:subResourceId",
    query: AtsGetOfferParams, success: AtsOfferResult, summary: "Get an offer of an application", openApi: getDoc
  }))
  .add(unifiedEndpoint({
    kind: "move", id: "ats_move_application", path: "/unified/ats/applications/:id/move",
    body: AtsMoveApplicationRequest, summary: "Move an application to another stage"
  }))
  .add(unifiedEndpoint({
    kind: "reject", id: "ats_reject_application", path: "/unified/ats/applications/:id/reject",
    body: AtsRejectApplicationRequest, summary: "Reject an application"
  }))
  .add(unifiedEndpoint({
    kind: "list", id: "ats_list_application_scorecards", path: "/unified/ats/applications/:id/scorecards",
    query: AtsListScorecardsParams, success: AtsScorecardsList, summary: "List the scorecards of an application",
    openApi: listDoc()
  }))
  .add(unifiedEndpoint({
    kind: "get", id: "ats_get_application_scorecard", path: "/unified/ats/applications/:id/scorecards/:subResourceId",
    query: AtsGetScorecardParams, success: AtsScorecardResult, summary: "Get a scorecard of an application",
    openApi: getDoc
  }))
  .add(unifiedEndpoint({
    kind: "list", id: "ats_list_application_changes", path: "/unified/ats/applications/:id/changes",
    query: AtsListApplicationChangesParams, success: AtsApplicationChangesList,
    summary: "List the changes of an application", openApi: getDoc
  }))
  .add(unifiedEndpoint({
    kind: "get", id: "ats_get_application_note", path: "/unified/ats/applications/:id/notes/:subResourceId",
    query: AtsGetNoteParams, success: AtsNoteResult, summary: "Get a note of an application", openApi: getDoc
  }))
  .add(unifiedEndpoint({
    kind: "update", id: "ats_update_application_note", path: "/unified/ats/applications/:id/notes/:subResourceId",
    body: AtsUpdateNoteRequest, summary: "Update a note of an application"
  }))
  .add(unifiedEndpoint({
    kind: "list", id: "ats_list_applications_scheduled_interviews",
    path: "/unified/ats/applications/:id/scheduled_interviews", query: AtsListScheduledInterviewsParams,
    success: AtsScheduledInterviewsList, summary: "List the scheduled interviews of an application",
    openApi: listDoc()
  }))
  .add(unifiedEndpoint({
    kind: "get", id: "ats_get_application_scheduled_interview",
    path: "/unified/ats/applications/:id/scheduled_interviews/:subResourceId", query: AtsGetScheduledInterviewParams,
    success: AtsScheduledInterviewResult, summary: "Get a scheduled interview of an application", openApi: getDoc
  }))
  .add(unifiedEndpoint({
    kind: "upload", id: "ats_upload_application_document", path: "/unified/ats/applications/:id/documents/upload",
    body: AtsUploadDocumentRequest, summary: "Upload a document to an application"
  }))
  .add(unifiedEndpoint({
    kind: "download", id: "ats_download_application_document",
    path: "/unified/ats/applications/:id/documents/:subResourceId/download", query: AtsDownloadDocumentParams,
    success: DocumentDownload, summary: "Download a document of an application",
    description: "Answers with the document's bytes; the content type is the document's own media type (one of the listed types), not application/octet-stream unless the document is untyped.",
    openApi: documentDownloadMediaTypes
  }))
  .add(unifiedEndpoint({
    kind: "list", id: "ats_list_application_documents", path: "/unified/ats/applications/:id/documents",
    query: AtsListDocumentsParams, success: AtsDocumentsList, summary: "List the documents of an application",
    openApi: listDoc()
  }))
  .add(unifiedEndpoint({
    kind: "get", id: "ats_get_application_document", path: "/unified/ats/applications/:id/documents/:subResourceId",
    query: AtsGetDocumentParams, success: AtsDocumentResult, summary: "Get a document of an application",
    openApi: getDoc
  }))
  .add(unifiedEndpoint({
    kind: "list", id: "ats_list_candidates", path: "/unified/ats/candidates", query: AtsListCandidatesParams,
    success: AtsCandidatesList, summary: "List candidates", openApi: listDoc()
  }))
  .add(unifiedEndpoint({
    kind: "create", id: "ats_create_candidate", path: "/unified/ats/candidates", body: AtsCreateCandidateRequest,
    summary: "Create a candidate"
  }))
  .add(unifiedEndpoint({
    kind: "get", id: "ats_get_candidate", path: "/unified/ats/candidates/:id", query: AtsGetCandidateParams,
    success: AtsCandidateResult, summary: "Get a candidate", openApi: getDoc
  }))
  .add(unifiedEndpoint({
    kind: "update", id: "ats_update_assessments_result", path: "/unified/ats/assessments/orders/:id/result",
    body: AtsUpdateAssessmentResultRequest, summary: "Update the result of an assessment order"
  }))
  .addError(PreconditionFailedBody)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Unified ATS: provider data in one normalized shape")
{}
