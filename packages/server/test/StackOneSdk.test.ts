import { expect, layer } from "@effect/vitest"
import { StackOne } from "@stackone/stackone-client-ts"
import { Effect, Layer } from "effect"
import { greenhouseOverFetch } from "./support/FetchAccount.js"
import { direct, type Json, SandboxLive, sandboxBambooAccount, sandboxTalentLmsAccount } from "./support/SandboxLayer.js"
import { sdkIssuesBeyondSpec, stackOneSdkClient } from "./support/StackOneSdkClient.js"
import { TestServer } from "./support/TestServer.js"

/*
 * An outside client of this API family: the StackOne TypeScript SDK validates every answer
 * against its own schemas, so a call that resolves is an answer it accepts. (Every unified
 * operation a contract-level connector serves is also called through the SDK by
 * ProviderContracts.test.ts, and every sandbox read by UnifiedWireShape.test.ts.)
 */

const Server = Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive(17))

layer(Server, { excludeTestServices: true })("the StackOne SDK against Switchyard", (it) => {
  it.effect("moveApplication and rejectApplication resolve with the application's ids", () =>
    Effect.gen(function*() {
      const { account, origin, project, sandbox } = yield* greenhouseOverFetch
      const stackOne = new StackOne({
        serverURL: origin,
        security: { username: project.key, password: "" },
        retryConfig: { strategy: "none" }
      })
      const applications = (yield* direct(sandbox, "ats", "/applications?per_page=500&status=active")) as Array<Json>
      const [moving, rejecting] = applications.filter((candidate) => candidate.current_stage !== null && !candidate.prospect)
      const stages = (yield* direct(sandbox, "ats", `/jobs/${moving!.jobs[0].id}/stages`)) as Array<Json>
      const target = String(stages.find((stage) => stage.id !== moving!.current_stage.id)!.id)

      const moved = yield* Effect.promise(() =>
        stackOne.ats.moveApplication({
          xAccountId: account.id,
          id: String(moving!.id),
          atsMoveApplicationRequestDto: { interviewStageId: target }
        })
      )
      expect(moved.statusCode).toBe(200)
      expect(moved.moveApplicationResult?.data).toEqual({ id: String(moving!.id), remoteId: String(moving!.id) })
      expect((yield* direct(sandbox, "ats", `/applications/${moving!.id}`)).current_stage.id).toBe(Number(target))

      const rejected = yield* Effect.promise(() =>
        stackOne.ats.rejectApplication({
          xAccountId: account.id,
          id: String(rejecting!.id),
          atsRejectApplicationRequestDto: { rejectedReasonId: "106" }
        })
      )
      expect(rejected.statusCode).toBe(200)
      expect(rejected.rejectApplicationResult?.data).toEqual({ id: String(rejecting!.id), remoteId: String(rejecting!.id) })
      expect((yield* direct(sandbox, "ats", `/applications/${rejecting!.id}`)).status).toBe("rejected")
    }))

  it.effect("the HRIS and LMS writes of BambooHR and TalentLMS: updateEmployee and createUserAssignment change the provider's records", () =>
    Effect.gen(function*() {
      const { origin, project, sandbox } = yield* greenhouseOverFetch
      const stackOne = new StackOne({
        serverURL: origin,
        security: { username: project.key, password: "" },
        retryConfig: { strategy: "none" }
      })
      const bamboo = yield* project.client.accounts.create_account({ payload: sandboxBambooAccount(sandbox) })
      const talent = yield* project.client.accounts.create_account({ payload: sandboxTalentLmsAccount(sandbox) })

      const employee = ((yield* direct(sandbox, "hris", "/employees/directory")).employees as Array<Json>)[0]!
      const updated = yield* Effect.promise(() =>
        stackOne.hris.updateEmployee({
          xAccountId: bamboo.id,
          id: String(employee.id),
          hrisUpdateEmployeeRequestDto: { firstName: "Ada", workEmail: "ada.sdk@example.com" }
        })
      )
      expect(updated.statusCode).toBe(200)
      const stored = (yield* direct(sandbox, "hris", `/employees/${employee.id}?fields=firstName,workEmail`)) as Json
      expect({ firstName: stored.firstName, workEmail: stored.workEmail }).toEqual({ firstName: "Ada", workEmail: "ada.sdk@example.com" })

      const learners = (yield* direct(sandbox, "lms", "/users")) as Array<Json>
      const learner = (yield* direct(sandbox, "lms", `/users/id:${learners[0]!.id}`)) as Json
      const enrolled = new Set((learner.courses as Array<Json>).map((course) => String(course.id)))
      const course = ((yield* direct(sandbox, "lms", "/courses")) as Array<Json>).find((candidate) => !enrolled.has(String(candidate.id)))!
      const assigned = yield* Effect.promise(() =>
        stackOne.lms.createUserAssignment({
          xAccountId: talent.id,
          id: String(learner.id),
          lmsCreateAssignmentRequestDto: {
            learningObjectId: String(course.id),
            learningObjectExternalReference: String(course.code)
          }
        })
      )
      expect(assigned.statusCode).toBe(201)
      expect(assigned.createResult?.data?.id).toBeTruthy()
      const after = (yield* direct(sandbox, "lms", `/users/id:${learner.id}`)) as Json
      expect((after.courses as Array<Json>).map((entry) => String(entry.id))).toContain(String(course.id))

      // and the reads of the same records through the SDK, validated by it
      const listed = yield* Effect.promise(() => stackOne.hris.listEmployees({ xAccountId: bamboo.id, pageSize: "5" }))
      expect(listed.employeesPaginated?.data.length).toBeGreaterThan(0)
      // the spec gives a user's assignments `progress` as text, the reference as a number: the SDK
      // refuses exactly that field, nothing else
      const sdk = stackOneSdkClient(origin, project.key)
      const assignments = yield* sdk.call({
        operationId: "lms_list_user_assignments",
        method: "GET",
        path: "",
        pathParams: { id: String(learner.id) },
        query: {},
        body: undefined,
        accountId: talent.id
      })
      expect(assignments.status).toBe(200)
      expect((assignments.body as { data: Array<Json> }).data.map((assignment) => assignment.learning_object_id)).toContain(String(course.id))
      expect(assignments.clientIssues?.length).toBeGreaterThan(0)
      expect(sdkIssuesBeyondSpec("lms_list_user_assignments", assignments.clientIssues)).toEqual([])
    }))
})
