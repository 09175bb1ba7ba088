import { expect, layer } from "@effect/vitest"
import { StackOne } from "@stackone/stackone-client-ts"
import { Effect, Layer } from "effect"
import { greenhouseOverFetch } from "./support/FetchAccount.js"
import { direct, type Json, SandboxLive } from "./support/SandboxLayer.js"
import { TestServer } from "./support/TestServer.js"

/*
 * An outside client of this API family: the StackOne TypeScript SDK validates every answer
 * against its own schemas, so a call that resolves is an answer it accepts.
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
})
