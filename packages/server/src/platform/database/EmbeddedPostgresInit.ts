import { PGlite } from "@electric-sql/pglite"
import { initDbStartParams, startParams, stderrTail } from "./EmbeddedPostgresSettings.js"

/*
 * Creates the embedded database, in a child process of its own (started by
 * EmbeddedPostgres.ts): initdb compiles and allocates well over 100 MB that a thread would
 * keep in the server's process for good, while a process gives it all back when it exits.
 * Given a data directory, the database is left there; in memory, the new data directory
 * is sent to the parent as a tar archive, which the serving thread then loads.
 */

export type EmbeddedInitRequest = { readonly dataDir: string | undefined }

export type EmbeddedInitReply =
  | { readonly _tag: "Initialized"; readonly archive: ArrayBuffer | undefined }
  | { readonly _tag: "Failed"; readonly message: string }

const send = (reply: EmbeddedInitReply) =>
  new Promise<void>((resolve, reject) => process.send!(reply, (error: Error | null) => error ? reject(error) : resolve()))

const { onStderr, messageOf } = stderrTail()

const init = async ({ dataDir }: EmbeddedInitRequest) => {
  const inMemory = dataDir === undefined
  const db = await PGlite.create(dataDir ?? "memory://", {
    initDbStartParams: initDbStartParams(inMemory),
    startParams: startParams(inMemory),
    onStderr
  })
  let archive: ArrayBuffer | undefined
  try {
    if (inMemory) archive = await (await db.dumpDataDir("none")).arrayBuffer()
  } finally {
    await db.close()
  }
  return archive
}

process.once("message", (request: EmbeddedInitRequest) => {
  init(request)
    .then((archive) => send({ _tag: "Initialized", archive }), (error) => send({ _tag: "Failed", message: messageOf(error) }))
    .finally(() => process.disconnect())
})
