/**
 * Opening a file input, in an action's run: a path is resolved by the file policy and stat'ed,
 * base64 decoded, a URL checked by the policy and read into a temporary file (0600 in a 0700
 * directory of the OS temp dir, removed with the scope) and counted as it arrives. Each is
 * checked against the size limit before any byte is sent to the provider, and becomes a Blob
 * that is read lazily, and again for a retry.
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { mkdtemp, rm, stat } from "node:fs/promises"
import { openAsBlob } from "node:fs"
import { tmpdir } from "node:os"
import { basename, join } from "node:path"
import * as Errors from "../ConnectorError.js"
import * as FilePolicy from "../FilePolicy.js"
import type * as ProviderClient from "../ProviderClient.js"
import type * as ProviderRequest from "../ProviderRequest.js"
import * as ResponseReader from "../ResponseReader.js"
import { toFile } from "./fileWriter.js"
import * as LocalFiles from "./localFiles.js"

/** @internal A file input, as the property decodes it. */
export type Source =
  | { readonly path: string; readonly name?: string | undefined; readonly contentType?: string | undefined }
  | { readonly url: string; readonly name?: string | undefined; readonly contentType?: string | undefined }
  | { readonly base64: string; readonly name: string; readonly contentType?: string | undefined }

/** @internal Where the error names the input, and its limit. */
export interface Limits {
  readonly field: string
  readonly maxBytes: number
  readonly timeout?: ProviderRequest.ProviderRequest["timeout"]
}

/** @internal "10 MiB (10485760 bytes)". */
export const formatBytes = (bytes: number): string => {
  const units = ["bytes", "KiB", "MiB", "GiB"]
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  const shown = unit === 0 ? `${bytes} bytes` : `${Number(value.toFixed(1))} ${units[unit]}`
  return unit === 0 ? shown : `${shown} (${bytes} bytes)`
}

/** @internal The error of a file over its limit (`size` undefined: counted past it as it arrived). */
export const tooLarge = (limits: Limits, size: number | undefined) => {
  const message = size === undefined
    ? `${limits.field} is larger than its limit of ${formatBytes(limits.maxBytes)}`
    : `${limits.field} is ${formatBytes(size)}, over its limit of ${formatBytes(limits.maxBytes)}`
  return new Errors.InvalidInput({ message, issues: [{ path: limits.field, message }] })
}

const invalid = (limits: Limits, problem: string) => {
  const message = `${limits.field}: ${problem}`
  return new Errors.InvalidInput({ message, issues: [{ path: limits.field, message: problem }] })
}

const code = (cause: unknown) => (cause as { code?: unknown }).code

const types: Readonly<Record<string, string>> = {
  txt: "text/plain", csv: "text/csv", html: "text/html", json: "application/json", pdf: "application/pdf",
  png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp", svg: "image/svg+xml",
  zip: "application/zip", md: "text/markdown", xml: "application/xml", mp4: "video/mp4", mp3: "audio/mpeg"
}
const typeOf = (name: string) => types[name.slice(name.lastIndexOf(".") + 1).toLowerCase()] ?? "application/octet-stream"

const fromPath = (policy: FilePolicy.Policy, path: string, name: string | undefined, contentType: string | undefined, limits: Limits) =>
  Effect.flatMap(Effect.mapError(LocalFiles.readable(policy, path), (problem) => invalid(limits, problem)), (real) =>
    Effect.tryPromise({
      try: async () => {
        const info = await stat(real)
        if (!info.isFile()) return invalid(limits, `${path} is not a regular file`)
        if (info.size > limits.maxBytes) return tooLarge(limits, info.size)
        const fileName = name ?? basename(path)
        const type = contentType ?? typeOf(fileName)
        const blob = await openAsBlob(real, { type })
        return { name: fileName, contentType: type, size: blob.size, blob }
      },
      catch: (cause) =>
        invalid(limits, code(cause) === "ENOENT" ? `no file at ${path}` : `cannot read ${path} (${String(code(cause) ?? cause)})`)
    }).pipe(Effect.flatMap((opened) => opened instanceof Errors.InvalidInput ? Effect.fail(opened) : Effect.succeed(opened))))

const base64Alphabet = /^[A-Za-z0-9+/_-]*={0,2}$/

const fromBase64 = (base64: string, name: string, contentType: string | undefined, limits: Limits) =>
  Effect.suspend(() => {
    const text = base64.replace(/\s+/g, "")
    // The decoded size, known from the length: a text far over the limit is never decoded.
    const padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0
    const size = Math.floor((text.length * 3) / 4) - padding
    if (size > limits.maxBytes) return Effect.fail(tooLarge(limits, size))
    if (!base64Alphabet.test(text) || text.length % 4 === 1) return Effect.fail(invalid(limits, "base64 is not valid base64"))
    const type = contentType ?? typeOf(name)
    const bytes = Buffer.from(text, text.includes("-") || text.includes("_") ? "base64url" : "base64")
    return Effect.succeed({ name, contentType: type, size: bytes.length, blob: new Blob([bytes], { type }) })
  })

const lastSegment = (url: string) => {
  const segment = basename(new URL(url).pathname)
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/** What a URL may show of itself in a message: its origin and path (its query may be a signature). */
const shown = (url: string) => {
  const parsed = new URL(url)
  return parsed.origin + parsed.pathname
}

const fromUrl = (
  client: ProviderClient.ProviderClient,
  policy: FilePolicy.Policy,
  url: string,
  name: string | undefined,
  contentType: string | undefined,
  limits: Limits
): Effect.Effect<ProviderRequest.FilePart, Errors.ConnectorError, Scope.Scope> =>
  Effect.gen(function*() {
    // Refused before anything is sent, naming the input (client.external checks it again, and
    // an HttpClient that connects on its own checks the address it connects to).
    const refusal = yield* FilePolicy.urlRefusal(policy, url)
    if (refusal !== undefined) return yield* Effect.fail(invalid(limits, `${shown(url)} is refused: ${refusal}`))
    const directory = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => mkdtemp(join(tmpdir(), "x-connectors-")),
        catch: (cause) => invalid(limits, `no temporary directory for the download (${String(code(cause) ?? cause)})`)
      }),
      (directory) => Effect.promise(() => rm(directory, { recursive: true, force: true }))
    )
    const read = ResponseReader.streaming(toFile({
      path: join(directory, "file"),
      overwrite: true,
      maxBytes: limits.maxBytes,
      tooLarge: (_, size) => tooLarge(limits, size),
      unwritable: (message) => invalid(limits, message)
    }))
    const written = yield* client.external.send({ method: "GET", path: url, headers: { accept: "*/*" }, timeout: limits.timeout }, read).pipe(
      Effect.catchIf(
        (error) => error._tag !== "InvalidInput" && error.status !== undefined,
        (error) => Effect.fail(invalid(limits, `${shown(url)} answered ${error.status}: ${error.message}`))
      ),
      // Refused at the connection (the policy, or a URL the request could not be built from).
      Effect.catchIf(
        (error) => error._tag === "InvalidInput" && error.request !== undefined && error.status === undefined,
        (error) => Effect.fail(invalid(limits, `${shown(url)}: ${error.message}`))
      )
    )
    const fileName = name ?? (lastSegment(url) || "file")
    const type = contentType ?? written.contentType ?? typeOf(fileName)
    const blob = yield* Effect.promise(() => openAsBlob(written.path, { type }))
    return { name: fileName, contentType: type, size: written.size, blob }
  })

/** @internal Opens a file input, checked against its limit and the file policy in context. */
export const open = (
  client: ProviderClient.ProviderClient,
  source: Source,
  limits: Limits
): Effect.Effect<ProviderRequest.FilePart, Errors.ConnectorError, Scope.Scope> =>
  "base64" in source
    ? fromBase64(source.base64, source.name, source.contentType, limits)
    : Effect.flatMap(FilePolicy.FilePolicy, (policy) =>
      "path" in source
        ? fromPath(policy, source.path, source.name, source.contentType, limits)
        : fromUrl(client, policy, source.url, source.name, source.contentType, limits))
