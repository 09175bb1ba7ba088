import { HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { LOOK_ALIKES } from "@switchyard/sandbox"
import { Effect, Layer } from "effect"
import { type ListedRecords, pathFromLists } from "../src/app/contractCheck/pathFromLists.js"
import { accountBody, freshProject } from "./support/Fixtures.js"
import { newestBuiltinActions } from "./support/newestBuiltinActions.js"
import { SandboxLive, SandboxProviders } from "./support/SandboxLayer.js"
import { sdkIssuesBeyondSpec, stackOneSdkClient } from "./support/StackOneSdkClient.js"
import { TestServer } from "./support/TestServer.js"
import { readRank, unifiedReads } from "./support/unifiedReads.js"

/*
 * Every unified read of each look-alike's connector (Ashby, Workable, SmartRecruiters, ...: the
 * newest built-in version named like the look-alike), made through the real StackOne SDK with its
 * response validation on, against the look-alike's seeded records: lists first, then the lists
 * under a record and the gets, each taking its ids from the records listed before it, as a
 * user's code finds them. Each connector's own test file checks the records' values and its
 * writes; this one checks that every answer is one StackOne's clients accept.
 */

const Server = Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive(31))


layer(Server, { excludeTestServices: true })("look-alike connectors through the StackOne SDK", (it) => {
  for (const lookAlike of LOOK_ALIKES) {
    const reads = unifiedReads.filter((read) => newestBuiltinActions(lookAlike.provider).has(read.actionId))
      .sort((a, b) => readRank(a) - readRank(b))

    it.effect(`${lookAlike.provider}: every unified read (${reads.length}) answers what the SDK accepts`, () =>
      Effect.gen(function*() {
        const sandbox = yield* SandboxProviders
        const info = sandbox.lookAlikes[lookAlike.provider]!
        const { client, key } = yield* freshProject
        const account = yield* client.accounts.create_account({
          payload: accountBody({ connector_key: lookAlike.provider, credentials: { ...info.credentials }, settings: { base_url: info.baseUrl } })
        })
        const server = yield* HttpServer.HttpServer
        const sdk = stackOneSdkClient(`http://127.0.0.1:${(server.address as { readonly port: number }).port}`, key)
        expect(reads.length).toBeGreaterThanOrEqual(4)

        const listed = new Map<string, ListedRecords>()
        const answered: Array<string> = []
        for (const read of reads) {
          const params = pathFromLists(read.endpoint.path, (list) => listed.get(list))?.params
          expect(params, `${lookAlike.provider} ${read.actionId}: no listed record to address`).toBeDefined()
          const answer = yield* sdk.call({
            operationId: read.actionId,
            method: "GET",
            path: "",
            pathParams: params!,
            query: read.kind === "list" ? { page_size: "100" } : {},
            body: undefined,
            accountId: account.id
          })
          expect(
            { status: answer.status, issues: sdkIssuesBeyondSpec(read.actionId, answer.clientIssues) },
            `${lookAlike.provider} ${read.actionId} through the StackOne SDK: ${JSON.stringify(answer.body).slice(0, 400)}`
          ).toEqual({ status: 200, issues: [] })
          const data = (answer.body as { readonly data: unknown }).data
          if (read.kind === "list") {
            const records = data as ReadonlyArray<Record<string, unknown>>
            listed.set(read.actionId, { params: params!, ids: records.map((record) => String(record.id)) })
            // a top-level list of seeded records is never empty
            if (!read.endpoint.path.includes("/:")) expect(records.length, `${lookAlike.provider} ${read.actionId}`).toBeGreaterThan(0)
          } else {
            expect((data as Record<string, unknown>).id, `${lookAlike.provider} ${read.actionId}`).toBe(params!.subResourceId ?? params!.id)
          }
          answered.push(read.actionId)
        }
        expect(answered).toHaveLength(reads.length)
      }))
  }
})
