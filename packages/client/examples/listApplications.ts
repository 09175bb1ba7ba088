/**
 * Lists the applications of one linked account, following `next` page after page, and
 * explains a 412 (the account is suspended, expired or disabled, or its integration is off).
 *
 *   SWITCHYARD_BASE_URL=http://127.0.0.1:4000 SWITCHYARD_API_KEY=swy_... \
 *     npx --yes pnpm@9.15.9 --filter @switchyard/server exec tsx ../client/examples/listApplications.ts <account-id>
 */
import { paginate, SwitchyardClient } from "@switchyard/client"
import { Console, Effect, Stream } from "effect"

const listApplications = (accountId: string) =>
  Effect.gen(function*() {
    const client = yield* SwitchyardClient
    const count = yield* paginate((cursor) =>
      client.unified_ats.ats_list_applications({
        headers: { "x-account-id": accountId },
        urlParams: { page_size: 100, ...cursor }
      })
    ).pipe(
      Stream.tap((application) => Console.log(`${application.id}\t${application.status?.value ?? "-"}`)),
      Stream.runCount
    )
    yield* Console.log(`${count} applications`)
  }).pipe(
    Effect.catchTag("PreconditionFailed", (error) =>
      exitWith(1, `Cannot list applications now: ${error.message}`)),
    Effect.catchTag("NotFound", () => exitWith(1, `No account ${accountId} in this project`))
  )

const exitWith = (code: number, message: string) =>
  Effect.sync(() => {
    console.error(message)
    process.exitCode = code
  })

const accountId = process.argv[2]
if (accountId === undefined) {
  console.error("usage: listApplications.ts <account-id>")
  process.exit(2)
}

// Other failures (a wrong key, the server unreachable, ...) end the program with their message.
Effect.runPromise(listApplications(accountId).pipe(Effect.provide(SwitchyardClient.Default))).catch((error: Error) => {
  console.error(error.message)
  process.exitCode = 1
})
