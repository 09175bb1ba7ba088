import type { Stream } from "effect"
import type { ProviderTransportError } from "./ProviderTransport.js"

/**
 * What a `download_file` step yields when the run streams downloads: the provider's bytes,
 * not read yet, with what is known about them. Whoever answers the caller runs `stream`
 * once (that reads the provider socket); the engine never holds the bytes.
 */
export class FileDownload {
  readonly _tag = "FileDownload"
  constructor(
    readonly stream: Stream.Stream<Uint8Array, ProviderTransportError>,
    readonly contentType: string,
    readonly fileName: string | undefined,
    /** Bytes the provider announced (Content-Length), when it did. */
    readonly contentLength: number | undefined
  ) {}
  toJSON(): string {
    return this.contentLength === undefined ? "<stream>" : `<stream of ${this.contentLength} bytes>`
  }
}
