/*
 * `tsx --conditions=switchyard-source bench/wire/encode.ts`: CPU time of encoding one
 * 100-record unified page (Greenhouse applications, mapped by the newest shipped connector
 * against the sandbox) into its JSON body: the HttpApi path (`Schema.encode` of the success
 * schema, then JSON.stringify) against JSON.stringify alone, `Schema.is`, `ParseResult.validate` and the compiled encoder
 * (src/edge/wire); then the same for the `POST /actions/rpc` answer schema. Medians of 7 rounds.
 */
import { ActionRpcResponse, AtsApplicationsList } from "@switchyard/api"
import { Effect, Either, ParseResult, Schema } from "effect"
import { isDeepStrictEqual } from "node:util"
import { compileEncoder, Mismatch } from "../../src/edge/wire/compileEncoder.js"
import { realPages } from "./realPages.js"

const timePerRun = (label: string, run: () => unknown, baseline?: number) => {
  for (let i = 0; i < 300; i++) run()
  const samples: Array<number> = []
  for (let round = 0; round < 7; round++) {
    let runs = 0
    const started = process.cpuUsage()
    const wall = performance.now()
    while (performance.now() - wall < 300) {
      run()
      runs++
    }
    const used = process.cpuUsage(started)
    samples.push((used.user + used.system) / 1000 / runs)
  }
  samples.sort((a, b) => a - b)
  const median = samples[3]!
  console.log(`${label.padEnd(58)} ${(median * 1000).toFixed(1).padStart(8)} µs${baseline === undefined ? "" : `  (${(baseline / median).toFixed(1)}x)`}`)
  return median
}

const main = async () => {
  const pages = await realPages(["ats_list_applications"])
  const records = pages.records.ats_list_applications!
  await pages.close()
  const page = { data: records, next: "cursor", raw: null }
  console.log(`page: ${records.length} records, ${JSON.stringify(page).length} bytes of JSON\n`)

  const encodeEffect = Schema.encodeUnknown(AtsApplicationsList)
  const encodeSync = Schema.encodeUnknownSync(AtsApplicationsList)
  const is = Schema.is(AtsApplicationsList)
  const validate = ParseResult.validateSync(AtsApplicationsList)
  const compiled = Either.getOrThrow(compileEncoder(AtsApplicationsList))

  const today = timePerRun("before: Schema.encode (Effect, as HttpApi) + JSON.stringify", () =>
    Effect.runSync(Effect.map(encodeEffect(page), (encoded) => JSON.stringify(encoded))))
  timePerRun("Schema.encodeUnknownSync + JSON.stringify", () => JSON.stringify(encodeSync(page)), today)
  timePerRun("JSON.stringify alone (no check)", () => JSON.stringify(page), today)
  timePerRun("Schema.is + JSON.stringify (keeps excess keys)", () => is(page) && JSON.stringify(page), today)
  timePerRun("ParseResult.validateSync + JSON.stringify", () => JSON.stringify(validate(page)), today)
  timePerRun("compiled encoder alone", () => compiled(page), today)
  timePerRun("after: compiled encoder + JSON.stringify", () => {
    const encoded = compiled(page)
    return encoded === Mismatch ? undefined : JSON.stringify(encoded)
  }, today)
  const same = isDeepStrictEqual(JSON.parse(JSON.stringify(compiled(page))), JSON.parse(JSON.stringify(encodeSync(page))))
  console.log(`compiled JSON equals Schema.encode's (key order aside): ${same}\n`)

  const rpc = { data: records, next: "cursor" }
  const encodeRpc = Schema.encodeUnknown(ActionRpcResponse)
  const rpcToday = timePerRun("POST /actions/rpc: Schema.encode + JSON.stringify", () =>
    Effect.runSync(Effect.map(encodeRpc(rpc), (encoded) => JSON.stringify(encoded))))
  timePerRun("POST /actions/rpc: JSON.stringify alone", () => JSON.stringify(rpc), rpcToday)
  process.exit(0)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
