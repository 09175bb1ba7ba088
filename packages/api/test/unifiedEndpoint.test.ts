import { describe, expect, it } from "@effect/vitest"
import { Option, SchemaAST } from "effect"
import { AtsUpdateNoteRequest, UnifiedAtsGroup } from "../src/Unified/Ats.js"
import { UnifiedHrisGroup } from "../src/Unified/Hris.js"
import { UnifiedLmsGroup } from "../src/Unified/Lms.js"
import { unifiedEndpoint, unifiedOperationOf } from "../src/Unified/unifiedEndpoint.js"

const endpoints = [UnifiedAtsGroup, UnifiedHrisGroup, UnifiedLmsGroup].flatMap((group) => Object.values(group.endpoints))

describe("unifiedEndpoint", () => {
  it("annotates every unified endpoint with its kind and the action named like it", () => {
    expect(endpoints).toHaveLength(76 + 74 + 23)
    for (const endpoint of endpoints) {
      const operation = unifiedOperationOf(endpoint)
      expect(Option.isSome(operation), endpoint.name).toBe(true)
      expect(Option.getOrThrow(operation).actionId).toBe(endpoint.name)
    }
  })

  it("derives the method from the kind", () => {
    const kindAndMethod = (endpoint: (typeof endpoints)[number]) => [
      Option.getOrThrow(unifiedOperationOf(endpoint)).kind,
      endpoint.method
    ]
    const ats = UnifiedAtsGroup.endpoints
    expect(kindAndMethod(ats.ats_list_applications)).toEqual(["list", "GET"])
    expect(kindAndMethod(ats.ats_get_application)).toEqual(["get", "GET"])
    expect(kindAndMethod(ats.ats_download_application_document)).toEqual(["download", "GET"])
    expect(kindAndMethod(ats.ats_create_application)).toEqual(["create", "POST"])
    expect(kindAndMethod(ats.ats_upload_application_document)).toEqual(["upload", "POST"])
    expect(kindAndMethod(ats.ats_move_application)).toEqual(["move", "POST"])
    expect(kindAndMethod(ats.ats_reject_application)).toEqual(["reject", "POST"])
    expect(kindAndMethod(ats.ats_update_application)).toEqual(["update", "PATCH"])
    expect(kindAndMethod(ats.ats_order_assessments_request)).toEqual(["order", "POST"])
    expect(kindAndMethod(ats.ats_delete_background_check_package)).toEqual(["delete", "DELETE"])
    const hris = UnifiedHrisGroup.endpoints
    expect(kindAndMethod(hris.hris_cancel_employee_time_off_request)).toEqual(["delete", "DELETE"])
    expect(kindAndMethod(hris.hris_invite_employee)).toEqual(["invite", "POST"])
    expect(kindAndMethod(hris.hris_batch_upload_employee_document)).toEqual(["batch", "POST"])
    expect(kindAndMethod(UnifiedLmsGroup.endpoints.lms_upsert_content)).toEqual(["upsert", "PUT"])
  })

  it("builds the path schema from the :name segments", () => {
    const endpoint = unifiedEndpoint({
      kind: "update",
      id: "ats_update_thing",
      path: "/unified/ats/things/:id/parts/:subResourceId",
      body: AtsUpdateNoteRequest,
      summary: "Update a part"
    })
    const names = SchemaAST.getPropertySignatures(Option.getOrThrow(endpoint.pathSchema).ast).map((p) => p.name)
    expect(endpoint.path).toBe("/unified/ats/things/:id/parts/:subResourceId")
    expect(names).toEqual(["id", "subResourceId"])
  })
})
