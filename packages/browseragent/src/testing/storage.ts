/**
 * The object storage behind the simulated workspaces, as S3 serves it through presigned URLs:
 * the simulator hands out URLs under its own origin (`/storage/<key>?X-Amz-…`) signed with a
 * secret of its own, and answers them as S3 does. A PUT stores the bytes when the URL's
 * signature matches the method, path, query and signed headers (`content-type` and
 * `content-length` are signed, as with boto3's `ContentType`/`ContentLength`): a forged URL, a
 * different Content-Type or a Content-Length other than the size declared is 403
 * `SignatureDoesNotMatch`; an expired URL 403 `AccessDenied` "Request has expired"; no
 * Content-Length (chunked) 411 `MissingContentLength`; a missing object 404 `NoSuchKey`; each
 * with S3's XML error body. No API key is needed nor looked at: the signature is the credential.
 */
import { S3 } from "@x/core/testing"
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"

export interface StoredObject {
  readonly bytes: Buffer
  readonly contentType: string
  readonly lastModified: number
  readonly etag: string
}

/** One request made to a presigned URL: what came, and the answer's status. */
export interface StorageRequest {
  readonly method: string
  /** The object's key. */
  readonly key: string
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  readonly status: number
}

export interface Storage {
  /** The objects by key (`workspaces/<workspaceId>/<path>`). */
  readonly objects: Map<string, StoredObject>
  /** Every request made to a presigned URL, in order. */
  readonly requests: Array<StorageRequest>
  /** A URL to PUT exactly `size` bytes of `contentType` at `key`, valid for `expiresSeconds`. */
  readonly presignPut: (key: string, contentType: string, size: number, expiresSeconds: number) => string
  /** A URL to GET the object at `key`, valid for `expiresSeconds`. */
  readonly presignGet: (key: string, expiresSeconds: number) => string
  /** Answers a request under `/storage/`. */
  readonly handle: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>
}

const prefix = "/storage/"
const required = ["X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Date", "X-Amz-Expires", "X-Amz-SignedHeaders", "X-Amz-Signature"]

const header = (req: IncomingMessage, name: string): string => {
  const value = req.headers[name]
  return Array.isArray(value) ? value.join(",") : value ?? ""
}

const encodeKey = (key: string) => key.split("/").map(encodeURIComponent).join("/")

export const make = (origin: () => string, now: () => number): Storage => {
  const secret = randomBytes(32)
  const objects = new Map<string, StoredObject>()
  const requests: Array<StorageRequest> = []

  /** What the signature covers: the method, path, query (but the signature) and signed headers' values. */
  const sign = (method: string, url: URL, headers: (name: string) => string): string => {
    const query = [...url.searchParams.entries()]
      .filter(([name]) => name !== "X-Amz-Signature")
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
      .join("&")
    const signed = (url.searchParams.get("X-Amz-SignedHeaders") ?? "").split(";").map((name) => `${name}:${headers(name).trim()}`)
    return createHmac("sha256", secret).update([method, url.pathname, query, ...signed].join("\n")).digest("hex")
  }

  const presign = (method: string, key: string, expiresSeconds: number, signedHeaders: Record<string, string>) => {
    const at = now()
    const url = new URL(`${prefix}${encodeKey(key)}`, origin())
    url.searchParams.set("X-Amz-Algorithm", "AWS4-HMAC-SHA256")
    url.searchParams.set("X-Amz-Credential", `ASIASIMULATOR/${S3.amzDate(at).slice(0, 8)}/us-east-1/s3/aws4_request`)
    url.searchParams.set("X-Amz-Date", S3.amzDate(at))
    url.searchParams.set("X-Amz-Expires", String(expiresSeconds))
    url.searchParams.set("X-Amz-SignedHeaders", Object.keys(signedHeaders).sort().join(";"))
    url.searchParams.set("X-Amz-Signature", sign(method, url, (name) => signedHeaders[name] ?? ""))
    return url.href
  }

  const handle = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const method = req.method ?? "GET"
    const key = url.pathname.slice(prefix.length).split("/").map(decodeURIComponent).join("/")
    const answer = (status: number, headers: Record<string, string | number>, body?: Buffer | string) => {
      requests.push({ method, key, headers: { ...req.headers }, status })
      if (res.headersSent || res.destroyed) return
      res.writeHead(status, { "x-amz-request-id": randomBytes(8).toString("hex").toUpperCase(), ...headers })
      res.end(method === "HEAD" ? undefined : body)
    }
    const refuse = async (status: number, code: string, message: string, details: Record<string, string> = {}) => {
      const body = S3.errorXml({ code, message, details })
      // A small body is read first, so the client sees the answer rather than a reset; past
      // 1 MiB it is not, and the connection closes after the answer, as S3's does.
      if (method === "PUT" && !req.readableEnded && Number(req.headers["content-length"] ?? Infinity) <= 1 << 20) {
        for await (const _ of req as AsyncIterable<Buffer>) void _
      } else if (method === "PUT" && !req.readableEnded) {
        res.setHeader("connection", "close")
      }
      answer(status, { "content-type": "application/xml" }, body)
    }

    if (required.some((name) => !url.searchParams.has(name))) {
      return refuse(403, "AccessDenied", `Query-string authentication version 4 requires the ${required.slice(0, 5).join(", ")}, and X-Amz-Expires parameters.`)
    }
    const signedAt = S3.fromAmzDate(url.searchParams.get("X-Amz-Date")!)
    const expires = Number(url.searchParams.get("X-Amz-Expires"))
    if (Number.isNaN(signedAt) || !Number.isInteger(expires) || expires < 1 || expires > 604_800) {
      return refuse(403, "AuthorizationQueryParametersError", "X-Amz-Date and X-Amz-Expires must be a valid date and a number of seconds between 1 and 604800.")
    }
    const current = now()
    if (current > signedAt + expires * 1000) {
      return refuse(403, "AccessDenied", "Request has expired", {
        "X-Amz-Expires": String(expires),
        Expires: new Date(signedAt + expires * 1000).toISOString(),
        ServerTime: new Date(current).toISOString()
      })
    }
    if (method === "PUT" && req.headers["content-length"] === undefined) {
      return refuse(411, "MissingContentLength", "You must provide the Content-Length HTTP header.")
    }
    const provided = Buffer.from(url.searchParams.get("X-Amz-Signature")!, "utf8")
    const expected = Buffer.from(sign(method, url, (name) => (name === "host" ? url.host : header(req, name))), "utf8")
    if (provided.length !== expected.length || !timingSafeEqual(provided, expected)) {
      return refuse(403, "SignatureDoesNotMatch", "The request signature we calculated does not match the signature you provided. Check your key and signing method.", {
        SignatureProvided: url.searchParams.get("X-Amz-Signature")!
      })
    }

    if (method === "PUT") {
      // The signed Content-Length is the declared size: node's parser stops the body there.
      const declared = Number(req.headers["content-length"])
      const chunks: Array<Buffer> = []
      let received = 0
      for await (const chunk of req as AsyncIterable<Buffer>) {
        received += chunk.length
        chunks.push(chunk)
      }
      if (received !== declared) return refuse(400, "IncompleteBody", "You did not provide the number of bytes specified by the Content-Length HTTP header.")
      const bytes = Buffer.concat(chunks)
      const etag = `"${createHash("md5").update(bytes).digest("hex")}"`
      objects.set(key, { bytes, contentType: header(req, "content-type") || "binary/octet-stream", lastModified: current, etag })
      return answer(200, { etag, "content-length": 0 })
    }
    if (method === "GET" || method === "HEAD") {
      const object = objects.get(key)
      if (object === undefined) return refuse(404, "NoSuchKey", "The specified key does not exist.", { Key: key })
      return answer(200, {
        "content-type": object.contentType,
        "content-length": object.bytes.length,
        etag: object.etag,
        "last-modified": new Date(object.lastModified).toUTCString(),
        "accept-ranges": "bytes"
      }, object.bytes)
    }
    return refuse(405, "MethodNotAllowed", "The specified method is not allowed against this resource.")
  }

  return {
    objects,
    requests,
    presignPut: (key, contentType, size, expiresSeconds) =>
      presign("PUT", key, expiresSeconds, { "content-length": String(size), "content-type": contentType, host: new URL(origin()).host }),
    presignGet: (key, expiresSeconds) => presign("GET", key, expiresSeconds, { host: new URL(origin()).host }),
    handle
  }
}
