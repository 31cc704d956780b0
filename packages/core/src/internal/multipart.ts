/**
 * `multipart/form-data` bodies as one lazy Blob: the parts' headers are small strings, each
 * file is its own Blob (file-backed ones are read only when sent), so the body has a known
 * size (a `Content-Length`) and is streamed, and read again from the start for a retry.
 */
import { randomBytes } from "node:crypto"
import type * as ProviderRequest from "../ProviderRequest.js"

/** @internal An encoded body: its content type (with the boundary) and its bytes. */
export interface Encoded {
  readonly contentType: string
  readonly blob: Blob
}

// As the HTML standard encodes names in multipart/form-data: quotes and line breaks escaped.
const escapeName = (name: string) => name.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A")

/** @internal Encodes the fields, then the files; the boundary is random unless given (tests). */
export const encode = (
  fields: Readonly<Record<string, ProviderRequest.QueryValue>>,
  files: Readonly<Record<string, ProviderRequest.FilePart>>,
  boundary = `----x-connectors-${randomBytes(16).toString("hex")}`
): Encoded => {
  const parts: Array<string | Blob> = []
  const field = (name: string, value: string) =>
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(name)}"\r\n\r\n${value}\r\n`)
  for (const name in fields) {
    const value = fields[name]
    if (value === undefined || value === null) continue
    if (Array.isArray(value)) for (const item of value) field(name, String(item))
    else field(name, String(value))
  }
  for (const name in files) {
    const file = files[name]!
    parts.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(name)}"; filename="${escapeName(file.name)}"\r\n` +
        `Content-Type: ${file.contentType.replace(/[\r\n]/g, "")}\r\n\r\n`,
      file.blob,
      "\r\n"
    )
  }
  parts.push(`--${boundary}--\r\n`)
  const contentType = `multipart/form-data; boundary=${boundary}`
  return { contentType, blob: new Blob(parts, { type: contentType }) }
}
