import { createHash } from "node:crypto"
import { crc32 as zlibCrc32, inflateSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startSandbox, type Sandbox } from "../src/index.js"
import { basic, json } from "./support.js"

let a: Sandbox
let b: Sandbox

beforeAll(async () => {
  ;[a, b] = await Promise.all([startSandbox({ seed: 99 }), startSandbox({ seed: 99 })])
})
afterAll(async () => {
  await Promise.all([a.close(), b.close()])
})

interface Attachment {
  filename: string
  url: string
  type: string
}

const allAttachments = async (sb: Sandbox): Promise<Array<Attachment>> => {
  const cands = await json<Array<{ attachments: Array<Attachment> }>>(await fetch(`${sb.ats.baseUrl}/candidates?per_page=500`, { headers: { authorization: basic(sb.ats.apiKey) } }))
  return cands.flatMap((c) => c.attachments)
}

const download = async (url: string): Promise<{ type: string; bytes: Buffer; disposition: string }> => {
  const res = await fetch(url)
  expect(res.status).toBe(200)
  const bytes = Buffer.from(await res.arrayBuffer())
  expect(Number(res.headers.get("content-length"))).toBe(bytes.length)
  return { type: res.headers.get("content-type") ?? "", bytes, disposition: res.headers.get("content-disposition") ?? "" }
}

/** Checks a PDF's xref offsets point at "N 0 obj". */
const checkPdf = (bytes: Buffer): void => {
  const text = bytes.toString("latin1")
  expect(text.startsWith("%PDF-1.4")).toBe(true)
  expect(text.trimEnd().endsWith("%%EOF")).toBe(true)
  const startxref = Number(/startxref\n(\d+)\n%%EOF/.exec(text)?.[1])
  expect(text.slice(startxref, startxref + 4)).toBe("xref")
  const entries = [...text.slice(startxref).matchAll(/(\d{10}) 00000 n /g)].map((m) => Number(m[1]))
  expect(entries.length).toBeGreaterThan(3)
  entries.forEach((offset, i) => expect(text.slice(offset, offset + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`))
}

/** Walks PNG chunks, checking CRCs (with zlib's crc32) and that IDAT inflates to the image size. */
const checkPng = (bytes: Buffer): void => {
  expect(bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true)
  let at = 8
  let width = 0
  let height = 0
  const idat: Array<Buffer> = []
  const types: Array<string> = []
  while (at < bytes.length) {
    const len = bytes.readUInt32BE(at)
    const type = bytes.toString("latin1", at + 4, at + 8)
    const data = bytes.subarray(at + 8, at + 8 + len)
    expect(bytes.readUInt32BE(at + 8 + len)).toBe(zlibCrc32(bytes.subarray(at + 4, at + 8 + len)))
    if (type === "IHDR") {
      width = data.readUInt32BE(0)
      height = data.readUInt32BE(4)
    }
    if (type === "IDAT") idat.push(data)
    types.push(type)
    at += 12 + len
  }
  expect(types[0]).toBe("IHDR")
  expect(types[types.length - 1]).toBe("IEND")
  expect(inflateSync(Buffer.concat(idat)).length).toBe((width * 3 + 1) * height)
}

/** Reads a zip's central directory; checks each stored entry's CRC; returns name → content. */
const readZip = (bytes: Buffer): Map<string, Buffer> => {
  const eocd = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  expect(eocd).toBeGreaterThan(0)
  const count = bytes.readUInt16LE(eocd + 10)
  let at = bytes.readUInt32LE(eocd + 16)
  const out = new Map<string, Buffer>()
  for (let i = 0; i < count; i++) {
    expect(bytes.readUInt32LE(at)).toBe(0x02014b50)
    const crc = bytes.readUInt32LE(at + 16)
    const size = bytes.readUInt32LE(at + 24)
    const nameLen = bytes.readUInt16LE(at + 28)
    const local = bytes.readUInt32LE(at + 42)
    const name = bytes.toString("utf8", at + 46, at + 46 + nameLen)
    expect(bytes.readUInt32LE(local)).toBe(0x04034b50)
    const dataStart = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28)
    const data = bytes.subarray(dataStart, dataStart + size)
    expect(zlibCrc32(data)).toBe(crc)
    out.set(name, data)
    at += 46 + nameLen + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32)
  }
  return out
}

describe("binary attachments", () => {
  it("serves PDF, DOCX, PNG and plain text with the right content types and valid structure", async () => {
    const atts = await allAttachments(a)
    const byExt = (ext: string): Attachment => {
      const found = atts.find((x) => x.filename.endsWith(ext))
      if (found === undefined) throw new Error(`no ${ext} attachment`)
      return found
    }
    const pdf = await download(byExt(".pdf").url)
    expect(pdf.type).toBe("application/pdf")
    expect(pdf.disposition).toContain(".pdf")
    checkPdf(pdf.bytes)
    expect(pdf.bytes.toString("latin1")).toContain("Resume")

    const docx = await download(byExt(".docx").url)
    expect(docx.type).toBe("application/vnd.openxmlformats-officedocument.wordprocessingml.document")
    const entries = readZip(docx.bytes)
    expect([...entries.keys()]).toEqual(["[Content_Types].xml", "_rels/.rels", "word/document.xml"])
    expect(entries.get("word/document.xml")?.toString("utf8")).toContain("Resume")

    const png = await download(byExt(".png").url)
    expect(png.type).toBe("image/png")
    checkPng(png.bytes)

    const txt = await download(byExt(".txt").url)
    expect(txt.type).toBe("text/plain; charset=utf-8")
    expect(txt.bytes.toString("utf8")).toContain("Dear Hiring Team")
  })

  it("gives byte-identical files for the same seed (and HEAD answers the same headers)", async () => {
    const [atsA, atsB] = await Promise.all([allAttachments(a), allAttachments(b)])
    expect(atsA.map((x) => x.filename)).toEqual(atsB.map((x) => x.filename))
    for (const i of [0, 1, 2, 5, 8, 13, 21, 34]) {
      const x = atsA[i] as Attachment
      const y = atsB[i] as Attachment
      const [dx, dy] = await Promise.all([download(x.url), download(y.url)])
      expect(dx.type).toBe(dy.type)
      expect(dx.bytes.equals(dy.bytes)).toBe(true)
      const again = await download(x.url)
      expect(again.bytes.equals(dx.bytes)).toBe(true)
    }
    const first = await download((atsA[0] as Attachment).url)
    const head = await fetch((atsA[0] as Attachment).url, { method: "HEAD" })
    expect(head.status).toBe(200)
    expect(head.headers.get("content-type")).toBe(first.type)
    expect(Number(head.headers.get("content-length"))).toBe(first.bytes.length)
    expect((await head.arrayBuffer()).byteLength).toBe(0)
    expect((await fetch(`${a.ats.url}/files/1`)).status).toBe(404)
  })

  it("serves HRIS employee files byte-exact behind auth", async () => {
    const auth = { authorization: basic(a.hris.apiKey, "x"), accept: "application/json" }
    const view = await json<{ categories: Array<{ name: string; files: Array<{ id: number; originalFileName: string; size: number }> }> }>(await fetch(`${a.hris.baseUrl}/employees/101/files/view`, { headers: auth }))
    const files = view.categories.flatMap((c) => c.files)
    expect(files.length).toBeGreaterThan(0)
    for (const f of files) {
      const res = await fetch(`${a.hris.baseUrl}/employees/101/files/${f.id}`, { headers: auth })
      const bytes = Buffer.from(await res.arrayBuffer())
      expect(bytes.length).toBe(f.size)
      const other = Buffer.from(await (await fetch(`${b.hris.baseUrl}/employees/101/files/${f.id}`, { headers: { ...auth, authorization: basic(b.hris.apiKey, "x") } })).arrayBuffer())
      expect(bytes.equals(other)).toBe(true)
      const ext = f.originalFileName.split(".").pop()
      const expected = { pdf: "application/pdf", png: "image/png", txt: "text/plain; charset=utf-8" }[ext as "pdf" | "png" | "txt"]
      expect(res.headers.get("content-type")).toBe(expected)
      if (ext === "pdf") checkPdf(bytes)
      if (ext === "png") checkPng(bytes)
    }
    expect((await fetch(`${a.hris.baseUrl}/employees/101/files/${files[0]?.id}`)).status).toBe(401)
  })

  it("serves large generated documents chunk by chunk, deterministic, with or without Content-Length", async () => {
    const size = 3 * 256 * 1024 + 7
    const [one, same] = [a, b].map((sb) => sb.addLargeDocument({ size, filename: "big.bin" }))
    const chunked = a.addLargeDocument({ size, filename: "big.bin", contentLength: false })
    const other = a.addLargeDocument({ size, filename: "other.bin" })
    const fetched = async (url: string) => {
      const res = await fetch(url)
      expect(res.status).toBe(200)
      return { length: res.headers.get("content-length"), bytes: Buffer.from(await res.arrayBuffer()) }
    }
    const first = await fetched(one!.url)
    expect(first.length).toBe(String(size))
    expect(first.bytes.length).toBe(size)
    expect(createHash("sha256").update(first.bytes).digest("hex")).toBe(one!.sha256())
    expect(one!.sha256()).toBe(same!.sha256())
    expect((await fetched(same!.url)).bytes.equals(first.bytes)).toBe(true)
    const streamed = await fetched(chunked.url)
    expect(streamed.length).toBeNull()
    expect(streamed.bytes.equals(first.bytes)).toBe(true)
    expect(other.sha256()).not.toBe(one!.sha256())
    const attachments = await json<{ attachments: Array<Attachment> }>(
      await fetch(`${a.ats.baseUrl}/applications/${one!.applicationId}`, { headers: { authorization: basic(a.ats.apiKey) } })
    )
    expect(attachments.attachments.filter((x) => x.filename === "big.bin").map((x) => x.url)).toContain(one!.url)
  })
})
