/**
 * The simulator's assets and the S3 bucket behind them. Creating an asset (`POST
 * /sites/{id}/assets`) records it and answers with a presigned POST form for the bucket, which
 * the simulator serves itself under `/s3/<bucket>` (outside `/v2`, no Webflow token: the signed
 * policy is the credential), checked as S3 checks it (`@x/core/testing`'s `S3`): an expired or
 * altered policy, a field missing or changed, a file over the size range are refused with S3's
 * XML error. Past S3's checks, the file's MD5 must be the `fileHash` declared at creation (400
 * `BadDigest` otherwise: the simulator's stand-in for Webflow refusing a file that is not the
 * one declared). Then the bytes are stored and served at the asset's `hostedUrl` (a public-read
 * object of the bucket); until then the asset is not listed nor found.
 */
import { readBody } from "@x/core/Webhook"
import { S3 } from "@x/core/testing"
import { createHash, randomBytes } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"

export interface Asset {
  id: string
  siteId: string
  fileName: string
  /** The MD5 (hex) declared when it was created. */
  fileHash: string
  contentType: string
  parentFolder: string | null
  createdOn: string
  lastUpdated: string
  /** Its object's key in the bucket: `<siteId>/<id>_<fileName>`. */
  key: string
  /** The uploaded bytes; undefined until the upload. */
  bytes: Buffer | undefined
}

export const bucket = "webflow-assets"
const prefix = `/s3/${bucket}`
const MiB = 1024 * 1024

/** Webflow's limits: 4 MB for an image, 10 MB for any other file (as `../api/assets.ts`). */
export const maxBytesOf = (contentType: string) => contentType.startsWith("image/") ? 4 * MiB : 10 * MiB

const types: Readonly<Record<string, string>> = {
  png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp", svg: "image/svg+xml",
  pdf: "application/pdf", txt: "text/plain", csv: "text/csv", json: "application/json", mp4: "video/mp4", zip: "application/zip"
}
/** Webflow types an asset by its file name's extension. */
export const contentTypeOf = (fileName: string) =>
  types[fileName.slice(fileName.lastIndexOf(".") + 1).toLowerCase()] ?? "application/octet-stream"

export const make = () => {
  const assets = new Map<string, Asset>()
  const signer = S3.postSigner()
  /** The simulator's origin, known once it listens. */
  const host = { origin: "" }
  const encodeKey = (key: string) => key.split("/").map(encodeURIComponent).join("/")
  const hostedUrl = (a: Asset) => `${host.origin}${prefix}/${encodeKey(a.key)}`

  /** The presigned POST form of an asset's upload, valid for 10 minutes. */
  const uploadForm = (a: Asset) => ({
    uploadUrl: `${host.origin}${prefix}`,
    uploadDetails: signer.sign({
      bucket,
      key: a.key,
      fields: {
        acl: "public-read",
        success_action_status: "201",
        "content-type": a.contentType,
        "Cache-Control": "max-age=31536000, must-revalidate"
      },
      maxBytes: maxBytesOf(a.contentType),
      expiresAt: Date.now() + 10 * 60_000
    }, Date.now())
  })

  const byKey = (key: string) => [...assets.values()].find((a) => a.key === key)

  /** Answers a request under `/s3/`: the upload (POST to the bucket) and the hosted files (GET). */
  const handle = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const reply = (status: number, headers: Record<string, string | number>, body?: Buffer | string) => {
      res.writeHead(status, { "x-amz-request-id": randomBytes(8).toString("hex").toUpperCase(), ...headers })
      res.end(req.method === "HEAD" ? undefined : body)
    }
    const refuse = (refusal: S3.Refusal, headers: Record<string, string> = {}) =>
      reply(refusal.status, { "content-type": "application/xml", ...headers }, S3.errorXml(refusal))
    const key = url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length + 1).split("/").map(decodeURIComponent).join("/") : ""

    if (req.method === "POST" && key === "") {
      // The form's overhead on top of the largest file.
      const body = await readBody(req, 10 * MiB + 64 * 1024)
      if (body._tag === "TooLarge") {
        return refuse({ status: 400, code: "EntityTooLarge", message: "Your proposed upload exceeds the maximum allowed size" }, { connection: "close" })
      }
      let form: FormData
      try {
        form = await new Request("http://s3/", { method: "POST", headers: { "content-type": req.headers["content-type"] ?? "" }, body: new Uint8Array(body.bytes) }).formData()
      } catch {
        return refuse({ status: 400, code: "MalformedPOSTRequest", message: "The body of your POST request is not well-formed multipart/form-data." })
      }
      // S3 reads the fields up to the file, and ignores any after it.
      const fields = new Map<string, string>()
      let file: File | undefined
      for (const [name, value] of form) {
        if (typeof value !== "string") {
          if (name === "file") file = value
          break
        }
        fields.set(name, value)
      }
      const refusal = signer.check(fields, file?.size, Date.now())
      if (refusal !== undefined) return refuse(refusal)
      const asset = byKey(fields.get("key") ?? fields.get("Key") ?? "")
      if (asset === undefined) return refuse({ status: 403, code: "AccessDenied", message: "Access Denied" })
      const bytes = Buffer.from(await file!.arrayBuffer())
      const digest = createHash("md5").update(bytes).digest("hex")
      if (digest !== asset.fileHash) {
        return refuse({
          status: 400,
          code: "BadDigest",
          message: "The Content-MD5 you specified did not match what we received.",
          details: { ExpectedDigest: asset.fileHash, CalculatedDigest: digest }
        })
      }
      asset.bytes = bytes
      asset.lastUpdated = new Date().toISOString()
      const etag = `"${digest}"`
      return reply(201, { "content-type": "application/xml", etag, location: hostedUrl(asset) },
        `<?xml version="1.0" encoding="UTF-8"?>\n<PostResponse><Location>${hostedUrl(asset)}</Location><Bucket>${bucket}</Bucket><Key>${asset.key}</Key><ETag>${etag}</ETag></PostResponse>`)
    }
    if ((req.method === "GET" || req.method === "HEAD") && key !== "") {
      const asset = byKey(key)
      if (asset?.bytes === undefined) return refuse({ status: 404, code: "NoSuchKey", message: "The specified key does not exist.", details: { Key: key } })
      return reply(200, {
        "content-type": asset.contentType,
        "content-length": asset.bytes.length,
        etag: `"${asset.fileHash}"`,
        "cache-control": "max-age=31536000, must-revalidate"
      }, asset.bytes)
    }
    return refuse({ status: 405, code: "MethodNotAllowed", message: "The specified method is not allowed against this resource." })
  }

  return { assets, host, hostedUrl, uploadForm, handle }
}

export type Assets = ReturnType<typeof make>
