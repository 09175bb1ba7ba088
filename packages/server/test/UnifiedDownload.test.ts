import { describe, expect, it, layer } from "@effect/vitest"
import type { LargeDocument } from "@switchyard/sandbox"
import { StreamedBody } from "@switchyard/engine"
import { Effect, Layer, Ref, Stream } from "effect"
import { createHash } from "node:crypto"
import * as v8 from "node:v8"
import { runInNewContext } from "node:vm"
import { ProviderCaller, ProviderHttp, redactCall } from "../src/platform/outboundHttp/ProviderHttp.js"
import { base64Stream } from "../src/edge/http/documentResponse.js"
import { greenhouseOverFetch } from "./support/FetchAccount.js"
import { SandboxLive, sandboxBambooAccount } from "./support/SandboxLayer.js"
import { TestServer } from "./support/TestServer.js"

/*
 * Unified document downloads stream the provider's bytes: plain fetch against the server's
 * real port, reading the body as a stream the way a client saving a large file would.
 */

const MiB = 1024 * 1024

/**
 * A full collection before each memory sample, so a sample counts what is held, not garbage
 * not collected yet (V8 lets tens of MiB of dead buffers wait for the next collection).
 */
const collectGarbage: () => void = (() => {
  v8.setFlagsFromString("--expose-gc")
  return runInNewContext("gc") as () => void
})()

/** A Greenhouse account on the sandbox, and how to ask the server for one of its documents. */
const setup = Effect.gen(function*() {
  const { headers, origin, sandbox } = yield* greenhouseOverFetch
  const download = (applicationId: number | string, filename: string, query = "") =>
    Effect.promise(() =>
      fetch(
        `${origin}/unified/ats/applications/${applicationId}/documents/${encodeURIComponent(filename)}/download${query}`,
        { headers }
      )
    )
  sandbox.faults.clear()
  return { sandbox, download }
})

const bytesOf = (response: Response) => Effect.promise(async () => Buffer.from(await response.arrayBuffer()))

/** The sandbox's own answer for a document, read directly. */
const direct = (url: string) => Effect.promise(() => fetch(url).then(async (r) => Buffer.from(await r.arrayBuffer())))

/** The same, for a provider that wants credentials (BambooHR's files). */
const directWith = (url: string, headers: Record<string, string>) =>
  Effect.promise(() => fetch(url, { headers }).then(async (r) => Buffer.from(await r.arrayBuffer())))

/** Waits until the sandbox has stopped sending `document` (the server let go of the provider connection). */
const released = (document: LargeDocument) =>
  Effect.gen(function*() {
    for (let attempt = 0; attempt < 1_200 && document.openDownloads() > 0; attempt++) yield* Effect.sleep("50 millis")
    return document.openDownloads()
  })

/** Reads a body to its end (or failure) chunk by chunk: never more than one chunk held. */
const consume = (response: Response, onChunk: (chunk: Uint8Array) => void) =>
  Effect.promise(async () => {
    const reader = response.body!.getReader()
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return { ok: true as const }
        onChunk(value)
      }
    } catch (error) {
      return { ok: false as const, error: String(error) }
    }
  })

describe("base64Stream", () => {
  it.effect("encodes any chunking exactly as the base64 of the whole", () =>
    Effect.gen(function*() {
      const whole = createHash("sha512").update("chunks").digest()
      for (const sizes of [[1], [1, 1, 1, 1], [2, 2, 2], [3, 1], [4, 5, 7, 11], [64], [0, 1, 0, 63]]) {
        const chunks: Array<Uint8Array> = []
        let at = 0
        for (const size of sizes) {
          chunks.push(whole.subarray(at, at + size))
          at += size
        }
        const encoded = yield* Stream.runCollect(base64Stream(Stream.fromIterable(chunks)))
        const expected = whole.subarray(0, at).toString("base64")
        expect({ sizes, text: Buffer.concat([...encoded]).toString("latin1") }).toEqual({ sizes, text: expected })
      }
    }))
})

const Server = Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive(13))

layer(Server, { excludeTestServices: true })("unified document download", (it) => {
  it.effect("answers a document byte for byte with its own media type and file name", () =>
    Effect.gen(function*() {
      const { download, sandbox } = yield* setup
      const auth = { authorization: `Basic ${Buffer.from(`${sandbox.ats.apiKey}:`).toString("base64")}` }
      const apps = yield* Effect.promise(() =>
        fetch(`${sandbox.ats.baseUrl}/applications?per_page=500`, { headers: auth }).then((r) =>
          r.json() as Promise<Array<{ id: number; attachments: Array<{ filename: string; url: string }> }>>
        )
      )
      const app = apps.find((candidate) => candidate.attachments.some((a) => a.filename.endsWith(".pdf")))!
      const attachment = app.attachments.find((a) => a.filename.endsWith(".pdf"))!
      const expected = yield* direct(attachment.url)

      const response = yield* download(app.id, attachment.filename)
      expect(response.status).toBe(200)
      expect(response.headers.get("content-type")).toBe("application/pdf")
      expect(response.headers.get("content-disposition")).toBe(
        `attachment; filename="${attachment.filename}"; filename*=UTF-8''${encodeURIComponent(attachment.filename)}`
      )
      expect(response.headers.get("content-length")).toBe(String(expected.length))
      expect((yield* bytesOf(response)).equals(expected)).toBe(true)

      const exported = yield* download(app.id, attachment.filename, "?export_format=application%2Fx-custom")
      expect(exported.headers.get("content-type")).toBe("application/x-custom")
      expect((yield* bytesOf(exported)).equals(expected)).toBe(true)
    }))

  it.effect("any provider file name goes out as an ASCII fallback and UTF-8 filename*, control characters stripped", () =>
    Effect.gen(function*() {
      const { download, sandbox } = yield* setup
      const named = (filename: string) =>
        Effect.gen(function*() {
          const document = sandbox.addLargeDocument({ size: 70_000, filename, contentType: "application/pdf" })
          const response = yield* download(document.applicationId, document.filename)
          expect(response.status).toBe(200)
          const disposition = response.headers.get("content-disposition")!
          const fallback = /^attachment; filename="([\x20-\x7e]*)"; filename\*=UTF-8''([A-Za-z0-9!#$&+\-.^_`|~%]+)$/.exec(disposition)
          expect(fallback).not.toBeNull()
          const bytes = yield* bytesOf(response)
          expect(createHash("sha256").update(bytes).digest("hex")).toBe(document.sha256())
          return { fallback: fallback![1], name: decodeURIComponent(fallback![2]!) }
        })
      expect(yield* named("简历 \"final\".pdf")).toEqual({ fallback: "__ _final_.pdf", name: "简历 \"final\".pdf" })
      expect(yield* named("two\r\nlines\t.pdf")).toEqual({ fallback: "twolines.pdf", name: "twolines.pdf" })
    }))

  it.effect("format=base64 of a multi-chunk document is exactly the base64 of the whole, with or without Content-Length", () =>
    Effect.gen(function*() {
      const { download, sandbox } = yield* setup
      for (const contentLength of [true, false]) {
        // not a multiple of 3, many provider chunks: the carried bytes must land right
        const document = sandbox.addLargeDocument({ size: 5 * MiB + 1, filename: `notes-${contentLength}.bin`, contentLength })
        const whole = yield* direct(document.url)
        const response = yield* download(document.applicationId, document.filename, "?format=base64")
        expect(response.status).toBe(200)
        expect(response.headers.get("content-type")).toMatch(/^text\/plain/)
        const text = (yield* bytesOf(response)).toString("latin1")
        expect(text.length).toBe(whole.toString("base64").length)
        expect(text === whole.toString("base64")).toBe(true)
        if (contentLength) expect(response.headers.get("content-length")).toBe(String(text.length))
      }
    }))

  it.effect("a 256 MiB document streams through with memory flat: hashed chunk by chunk, equal to the sandbox's", () =>
    Effect.gen(function*() {
      const { download, sandbox } = yield* setup
      const size = 256 * MiB
      const document = sandbox.addLargeDocument({ size, filename: "archive.bin", contentType: "application/zip" })
      const expected = document.sha256()
      collectGarbage()
      const before = process.memoryUsage()
      const peak = { rss: before.rss, arrayBuffers: before.arrayBuffers }
      const hash = createHash("sha256")
      let received = 0
      let chunks = 0
      const response = yield* download(document.applicationId, document.filename)
      expect(response.status).toBe(200)
      expect(response.headers.get("content-type")).toBe("application/zip")
      expect(response.headers.get("content-length")).toBe(String(size))
      const outcome = yield* consume(response, (chunk) => {
        hash.update(chunk)
        received += chunk.length
        if (++chunks % 256 === 0) {
          collectGarbage()
          const now = process.memoryUsage()
          peak.rss = Math.max(peak.rss, now.rss)
          peak.arrayBuffers = Math.max(peak.arrayBuffers, now.arrayBuffers)
        }
      })
      expect(outcome).toEqual({ ok: true })
      expect(received).toBe(size)
      expect(hash.digest("hex")).toBe(expected)
      expect(chunks).toBeGreaterThan(100)
      // buffering anywhere (server, transport, sandbox) would hold the whole 256 MiB at once
      const growth = { rss: peak.rss - before.rss, arrayBuffers: peak.arrayBuffers - before.arrayBuffers }
      expect(growth.rss).toBeLessThan(64 * MiB)
      expect(growth.arrayBuffers).toBeLessThan(64 * MiB)
    }))

  it.effect("a client that goes away mid-download releases the provider connection; the server keeps serving", () =>
    Effect.gen(function*() {
      const { download, sandbox } = yield* setup
      const document = sandbox.addLargeDocument({ size: 128 * MiB, filename: "abandoned.bin" })
      const response = yield* download(document.applicationId, document.filename)
      expect(response.status).toBe(200)
      const reader = response.body!.getReader()
      yield* Effect.promise(() => reader.read())
      expect(document.openDownloads()).toBe(1)
      yield* Effect.promise(() => reader.cancel())
      expect(yield* released(document)).toBe(0)

      const small = sandbox.addLargeDocument({ size: 1000, filename: "after.bin" })
      const again = yield* download(small.applicationId, small.filename)
      expect(again.status).toBe(200)
      expect(createHash("sha256").update(yield* bytesOf(again)).digest("hex")).toBe(small.sha256())
    }))

  it.effect("the transport answers a 2xx stream unread (calls show a summary), other statuses parsed", () =>
    Effect.gen(function*() {
      const { sandbox } = yield* setup
      const document = sandbox.addLargeDocument({ size: 3 * MiB, filename: "transport.bin" })
      const providerHttp = yield* ProviderHttp
      const recorder = yield* providerHttp.recorder
      const transport = providerHttp.transport({ caller: ProviderCaller.Account({ accountId: "transport-test" }) }, recorder)
      const get = (url: string) =>
        transport.send({ method: "GET", url, headers: {}, responseType: "stream", secrets: [] })
      const response = yield* get(document.url)
      expect(response.status).toBe(200)
      const body = response.body as StreamedBody
      expect(body).toBeInstanceOf(StreamedBody)
      expect(body.contentLength).toBe(3 * MiB)
      const [call] = yield* Ref.get(recorder.calls)
      expect(redactCall(call!).response?.body).toBe(`<stream of ${3 * MiB} bytes>`)
      const hash = createHash("sha256")
      yield* Stream.runForEach(body.stream, (chunk) => Effect.sync(() => hash.update(chunk)))
      expect(hash.digest("hex")).toBe(document.sha256())

      const missing = yield* get(`${sandbox.ats.url}/files/1`)
      expect(missing.status).toBe(404)
      expect(missing.body).not.toBeInstanceOf(StreamedBody)
    }).pipe(Effect.provide(ProviderHttp.Default)))

  it.effect("errors before the first byte are the documented JSON errors", () =>
    Effect.gen(function*() {
      const { download, sandbox } = yield* setup
      const document = sandbox.addLargeDocument({ size: 4096, filename: "report.bin" })
      const expectError = (response: Response, status: number) =>
        Effect.promise(async () => {
          expect(response.status).toBe(status)
          expect(response.headers.get("content-type")).toMatch(/^application\/json/)
          const body = await response.json() as Record<string, unknown>
          expect(Object.keys(body).sort()).toEqual(["message", "statusCode", "timestamp"])
          expect(body.statusCode).toBe(status)
          return body
        })
      yield* expectError(yield* download(document.applicationId, "missing.pdf"), 404)
      yield* expectError(yield* download(999_999_999, document.filename), 404)
      sandbox.faults.add({ match: { provider: "ats", path: "/files/*" }, fault: "status", status: 500 })
      yield* expectError(yield* download(document.applicationId, document.filename), 502)
      sandbox.faults.clear()
      const fine = yield* download(document.applicationId, document.filename)
      expect(fine.status).toBe(200)
      expect((yield* bytesOf(fine)).length).toBe(4096)
    }))

  it.effect("BambooHR (the newest bamboohr): an employee's files are listed, read and downloaded byte for byte", () =>
    Effect.gen(function*() {
      const { headers, origin, project, sandbox } = yield* greenhouseOverFetch
      const bamboo = yield* project.client.accounts.create_account({ payload: sandboxBambooAccount(sandbox) })
      const hris = { ...headers, "x-account-id": bamboo.id }
      const get = (path: string) => Effect.promise(() => fetch(`${origin}${path}`, { headers: hris }))
      const getJson = (path: string) => Effect.flatMap(get(path), (response) => Effect.promise(() => response.json() as Promise<any>))
      const auth = { authorization: `Basic ${Buffer.from(`${sandbox.hris.apiKey}:x`).toString("base64")}`, accept: "application/json" }
      const view = yield* Effect.promise(() =>
        fetch(`${sandbox.hris.baseUrl}/employees/103/files/view`, { headers: auth }).then((r) =>
          r.json() as Promise<{ categories: Array<{ id: number; name: string; files: Array<{ id: number; name: string; originalFileName: string }> }> }>
        )
      )
      const files = view.categories.flatMap((category) => category.files.map((file) => ({ ...file, category })))
      expect(files.length).toBeGreaterThan(0)

      const listed: { data: Array<Record<string, any>> } = yield* getJson("/unified/hris/employees/103/documents")
      expect(listed.data.map((document) => [document.id, document.name, document.category_id, document.category?.source_value])).toEqual(
        files.map((file) => [String(file.id), file.name, String(file.category.id), file.category.name])
      )
      const file = files.find((candidate) => candidate.originalFileName.endsWith(".pdf"))!
      expect(listed.data.find((document) => document.id === String(file.id))!.file_format).toEqual({ value: "pdf", source_value: "pdf" })
      const one: { data: Record<string, unknown> } = yield* getJson(`/unified/hris/employees/103/documents/${file.id}`)
      expect(one.data).toMatchObject({ id: String(file.id), name: file.name, category_id: String(file.category.id) })
      expect((yield* get("/unified/hris/employees/103/documents/424242")).status).toBe(404)

      const expected = yield* directWith(`${sandbox.hris.baseUrl}/employees/103/files/${file.id}`, auth)
      const response = yield* get(`/unified/hris/employees/103/documents/${file.id}/download`)
      expect(response.status).toBe(200)
      expect(response.headers.get("content-type")).toBe("application/pdf")
      expect(response.headers.get("content-disposition")).toContain(`filename="${file.originalFileName}"`)
      expect((yield* bytesOf(response)).equals(expected)).toBe(true)
      expect((yield* get("/unified/hris/employees/103/documents/424242/download")).status).toBe(404)
    }))
})

const BOUND = 2 * MiB

const Bounded = Layer.merge(
  TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1", SWITCHYARD_MAX_DOWNLOAD_BYTES: String(BOUND) }),
  SandboxLive(13)
)

layer(Bounded, { excludeTestServices: true })("unified document download over the size bound", (it) => {
  it.effect("a document announced larger than the bound is a 502 before any byte", () =>
    Effect.gen(function*() {
      const { download, sandbox } = yield* setup
      const document = sandbox.addLargeDocument({ size: BOUND + 1, filename: "too-big.bin" })
      const response = yield* download(document.applicationId, document.filename)
      expect(response.status).toBe(502)
      const body = yield* Effect.promise(() => response.json() as Promise<{ statusCode: number; message: string }>)
      expect(body.statusCode).toBe(502)
      expect(body.message).toContain(`exceeds ${BOUND} bytes`)
      expect(yield* released(document)).toBe(0)

      const fits = sandbox.addLargeDocument({ size: BOUND, filename: "fits.bin" })
      const ok = yield* download(fits.applicationId, fits.filename)
      expect(ok.status).toBe(200)
      expect(createHash("sha256").update(yield* bytesOf(ok)).digest("hex")).toBe(fits.sha256())
    }))

  it.effect("a document without Content-Length that outgrows the bound is cut off, not passed off as whole", () =>
    Effect.gen(function*() {
      const { download, sandbox } = yield* setup
      const document = sandbox.addLargeDocument({ size: 4 * BOUND, filename: "unannounced.bin", contentLength: false })
      const response = yield* download(document.applicationId, document.filename)
      expect(response.status).toBe(200)
      let received = 0
      const outcome = yield* consume(response, (chunk) => {
        received += chunk.length
      })
      expect(outcome.ok).toBe(false)
      expect(received).toBeLessThanOrEqual(BOUND)
      expect(yield* released(document)).toBe(0)

      const small = sandbox.addLargeDocument({ size: 1000, filename: "small.bin", contentLength: false })
      const again = yield* download(small.applicationId, small.filename)
      expect(again.status).toBe(200)
      expect(createHash("sha256").update(yield* bytesOf(again)).digest("hex")).toBe(small.sha256())
    }))
})
