import { parseConnector } from "@switchyard/engine"
import { Either } from "effect"
import { parentPort, threadId } from "node:worker_threads"
import type { ParseReply, ParseRequest } from "./ConnectorParser.js"

/*
 * The worker thread behind `ConnectorParser`: reads uploaded connector YAML one document
 * at a time, so the server's event loop never runs the YAML reader on untrusted text.
 */

const port = parentPort!

port.on("message", ({ id, yaml }: ParseRequest) => {
  let reply: ParseReply
  try {
    const result = parseConnector(yaml)
    reply = Either.isLeft(result)
      ? { id, threadId, refused: result.left.issues }
      : { id, threadId, canonical: result.right.canonical }
  } catch (error) {
    reply = { id, threadId, crashed: error instanceof Error ? error.stack ?? error.message : String(error) }
  }
  port.postMessage(reply)
})
