import type * as Http from "node:http"

/** Writing answers. HEAD requests get the same status and headers with no body. */

export const sendJson = (res: Http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  const text = body === undefined ? "" : JSON.stringify(body)
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": String(Buffer.byteLength(text)),
    ...headers
  })
  res.end(res.req?.method === "HEAD" ? undefined : text)
}

export const sendBytes = (res: Http.ServerResponse, status: number, bytes: Buffer, headers: Record<string, string>): void => {
  res.writeHead(status, { "content-length": String(bytes.length), ...headers })
  res.end(res.req?.method === "HEAD" ? undefined : bytes)
}

/** Writes `chunks` as they are made, waiting for the socket to drain; stops when the client goes away. */
export const sendChunks = (res: Http.ServerResponse, status: number, chunks: Iterable<Buffer>, headers: Record<string, string>): void => {
  res.writeHead(status, headers)
  if (res.req?.method === "HEAD") {
    res.end()
    return
  }
  const source = chunks[Symbol.iterator]()
  let closed = false
  res.on("close", () => {
    closed = true
  })
  const pump = (): void => {
    while (!closed) {
      const next = source.next()
      if (next.done === true) {
        res.end()
        return
      }
      if (!res.write(next.value)) {
        res.once("drain", pump)
        return
      }
    }
  }
  pump()
}
