import { createCipheriv, createHash } from "node:crypto"
import { deflateSync } from "node:zlib"
import type { Rng } from "./prng.js"

/** Small, valid, deterministic documents of several media types (same input → same bytes). */

export const MEDIA = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  png: "image/png",
  txt: "text/plain; charset=utf-8"
} as const

const CRC_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

export const crc32 = (bytes: Uint8Array): number => {
  let c = 0xffffffff
  for (let i = 0; i < bytes.length; i++) c = (CRC_TABLE[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

const pdfEscape = (text: string): string => text.replace(/[^\x20-\x7e]/g, "?").replace(/([\\()])/g, "\\$1")

/** A one-page PDF 1.4 with the given lines in Helvetica, with a correct xref table. */
export const makePdf = (title: string, lines: ReadonlyArray<string>): Buffer => {
  const content = [
    "BT",
    "/F1 18 Tf",
    "72 720 Td",
    `(${pdfEscape(title)}) Tj`,
    "/F1 11 Tf",
    ...lines.flatMap((line) => ["0 -20 Td", `(${pdfEscape(line)}) Tj`]),
    "ET"
  ].join("\n")
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< /Title (${pdfEscape(title)}) /Producer (Switchyard sandbox) /CreationDate (D:20240101000000Z) >>`
  ]
  let out = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"
  const offsets: Array<number> = []
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"))
    out += `${i + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = Buffer.byteLength(out, "latin1")
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(out, "latin1")
}

const pngChunk = (type: string, data: Buffer): Buffer => {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, "latin1")
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}

/** An 8-bit RGB PNG with a seeded pattern of blocks. */
export const makePng = (rng: Rng, width = 48, height = 48): Buffer => {
  const palette = Array.from({ length: 4 }, () => [rng.int(0, 255), rng.int(0, 255), rng.int(0, 255)] as const)
  const cells = Array.from({ length: 36 }, () => rng.int(0, palette.length - 1))
  const raw = Buffer.alloc((width * 3 + 1) * height)
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1)
    raw[row] = 0
    for (let x = 0; x < width; x++) {
      const cell = cells[Math.floor((y * 6) / height) * 6 + Math.floor((x * 6) / width)] as number
      const [r, g, b] = palette[cell] as readonly [number, number, number]
      raw[row + 1 + x * 3] = r
      raw[row + 2 + x * 3] = g
      raw[row + 3 + x * 3] = b
    }
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8
  ihdr[9] = 2
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", deflateSync(raw, { level: 9 })),
    pngChunk("IEND", Buffer.alloc(0))
  ])
}

/** A zip archive of stored (uncompressed) entries with a fixed timestamp (2024-01-01 00:00). */
export const makeZip = (entries: ReadonlyArray<{ readonly name: string; readonly data: Buffer }>): Buffer => {
  const dosDate = ((2024 - 1980) << 9) | (1 << 5) | 1
  const locals: Array<Buffer> = []
  const centrals: Array<Buffer> = []
  let offset = 0
  for (const { name, data } of entries) {
    const nameBytes = Buffer.from(name, "utf8")
    const crc = crc32(data)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(0, 6)
    local.writeUInt16LE(0, 8)
    local.writeUInt16LE(0, 10)
    local.writeUInt16LE(dosDate, 12)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(data.length, 18)
    local.writeUInt32LE(data.length, 22)
    local.writeUInt16LE(nameBytes.length, 26)
    local.writeUInt16LE(0, 28)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(0, 8)
    central.writeUInt16LE(0, 10)
    central.writeUInt16LE(0, 12)
    central.writeUInt16LE(dosDate, 14)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(data.length, 20)
    central.writeUInt32LE(data.length, 24)
    central.writeUInt16LE(nameBytes.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, nameBytes, data)
    centrals.push(central, nameBytes)
    offset += local.length + nameBytes.length + data.length
  }
  const cd = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(cd.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, cd, end])
}

const xmlEscape = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

/** A minimal valid Word document (.docx): content types, package rels and one body part. */
export const makeDocx = (paragraphs: ReadonlyArray<string>): Buffer => {
  const header = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
  const contentTypes = `${header}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`
  const rels = `${header}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`
  const body = paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${xmlEscape(p)}</w:t></w:r></w:p>`).join("")
  const document = `${header}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`
  return makeZip([
    { name: "[Content_Types].xml", data: Buffer.from(contentTypes, "utf8") },
    { name: "_rels/.rels", data: Buffer.from(rels, "utf8") },
    { name: "word/document.xml", data: Buffer.from(document, "utf8") }
  ])
}

export const makeText = (lines: ReadonlyArray<string>): Buffer => Buffer.from(lines.join("\n") + "\n", "utf8")

const GENERATED_CHUNK = 256 * 1024

/**
 * `size` deterministic, incompressible bytes for `label` (the AES-256-CTR keystream of its
 * hash), made chunk by chunk: any size, never held whole.
 */
export function* generatedChunks(label: string, size: number): Generator<Buffer> {
  const cipher = createCipheriv("aes-256-ctr", createHash("sha256").update(label).digest(), Buffer.alloc(16))
  const zeros = Buffer.alloc(GENERATED_CHUNK)
  for (let left = size; left > 0; left -= GENERATED_CHUNK) yield cipher.update(zeros.subarray(0, Math.min(left, GENERATED_CHUNK)))
}

/** A large file whose bytes are generated on each download (see `generatedChunks`). */
export interface GeneratedFile {
  readonly id: number
  readonly filename: string
  readonly contentType: string
  readonly size: number
  /** Send Content-Length (default); without it the download is chunked, its size unknown up front. */
  readonly contentLength: boolean
  readonly chunks: () => Iterable<Buffer>
  /** Downloads being sent now: a client that went away no longer counts. */
  readonly downloads: { open: number }
}

export interface StoredFile {
  readonly id: number
  readonly filename: string
  readonly contentType: string
  /** Built on first download and then kept. */
  readonly build: () => Buffer
}

/** The sandbox's file store, shared by the ATS (`GET /files/{id}`) and the HRIS employee files. */
export class FileStore {
  private readonly files = new Map<number, StoredFile>()
  private readonly cache = new Map<number, Buffer>()
  private readonly large = new Map<number, GeneratedFile>()
  add(file: StoredFile): StoredFile {
    this.files.set(file.id, file)
    return file
  }
  addBytes(id: number, filename: string, contentType: string, bytes: Buffer): StoredFile {
    this.cache.set(id, bytes)
    return this.add({ id, filename, contentType, build: () => bytes })
  }
  addGenerated(file: GeneratedFile): GeneratedFile {
    this.large.set(file.id, file)
    return file
  }
  generated(id: number): GeneratedFile | undefined {
    return this.large.get(id)
  }
  get(id: number): StoredFile | undefined {
    return this.files.get(id)
  }
  bytes(id: number): Buffer | undefined {
    const file = this.files.get(id)
    if (file === undefined) return undefined
    let bytes = this.cache.get(id)
    if (bytes === undefined) {
      bytes = file.build()
      this.cache.set(id, bytes)
    }
    return bytes
  }
}
