/** The assets actions on the wire (nock): each request as Webflow's document has it, its answer decoded. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import nock from "nock"
import { createHash } from "node:crypto"
import { ACCESS_TOKEN, API, run, SITE, webflowError } from "./support.js"

const ASSET = "63e5889e7fe4eafa7384cea4"
const BUCKET = "https://s3.amazonaws.com"

/** An asset as `GET /assets/{id}` answers it (the document's example). */
const webflowAsset = {
  id: ASSET,
  originalFileName: "logo.png",
  displayName: `${ASSET}_logo.png`,
  contentType: "image/png",
  size: 5,
  siteId: SITE,
  createdOn: "2026-11-20T09:58:22.294Z",
  lastUpdated: "2026-11-20T09:58:22.294Z",
  hostedUrl: `https://cdn.prod.website-files.com/${SITE}/${ASSET}_logo.png`,
  variants: [{
    hostedUrl: `https://cdn.prod.website-files.com/${SITE}/${ASSET}_logo-p-500.png`,
    originalFileName: "logo-p-500.png",
    displayName: `${ASSET}_logo-p-500.png`,
    format: "png",
    width: 500,
    height: null,
    quality: 100,
    error: null
  }],
  altText: null
}

const webflow = () => nock(API, { reqheaders: { authorization: `Bearer ${ACCESS_TOKEN}`, accept: "application/json" } })

beforeAll(() => nock.disableNetConnect())
afterEach(() => nock.cleanAll())
afterAll(() => nock.enableNetConnect())

describe("sitebuilder assets: the wire", () => {
  it.effect("listAssets: GET /v2/sites/{siteId}/assets, paged by offset/limit up to the limit", () =>
    Effect.gen(function*() {
      const assets = (from: number, count: number) =>
        Array.from({ length: count }, (_, i) => ({ ...webflowAsset, id: `${ASSET.slice(0, 20)}${String(from + i).padStart(4, "0")}` }))
      const scope = webflow()
        .get(`/v2/sites/${SITE}/assets`).query({ offset: 0, limit: 100 }).reply(200, { assets: assets(0, 100), pagination: { limit: 100, offset: 0, total: 130 } })
        .get(`/v2/sites/${SITE}/assets`).query({ offset: 100, limit: 20 }).reply(200, { assets: assets(100, 20), pagination: { limit: 20, offset: 100, total: 130 } })
      const output = (yield* run("listAssets", { siteId: SITE, limit: 120 })) as { assets: ReadonlyArray<typeof webflowAsset> }
      expect(output.assets).toHaveLength(120)
      expect(output.assets[0]).toEqual({ ...webflowAsset, id: `${ASSET.slice(0, 20)}0000` })
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("getAsset: GET /v2/assets/{assetId}; deleteAsset: DELETE /v2/assets/{assetId} (204)", () =>
    Effect.gen(function*() {
      const scope = webflow().get(`/v2/assets/${ASSET}`).reply(200, webflowAsset).delete(`/v2/assets/${ASSET}`).reply(204)
      expect(yield* run("getAsset", { assetId: ASSET })).toEqual(webflowAsset)
      yield* run("deleteAsset", { siteId: SITE, assetId: ASSET })
      expect(scope.isDone()).toBe(true)
      webflow().get(`/v2/assets/${ASSET}`).reply(404, webflowError("resource_not_found", "Requested resource not found: Asset not found"))
      const error = yield* Effect.flip(run("getAsset", { assetId: ASSET }))
      expect(error).toMatchObject({ _tag: "NotFound", message: expect.stringContaining("Asset not found") })
    }))

  it.effect("uploadAsset: POST /v2/sites/{siteId}/assets {fileName, fileHash: MD5 hex, parentFolder}, the form POSTed to uploadUrl without the token, then GET /v2/assets/{id}", () =>
    Effect.gen(function*() {
      // Text bytes: nock hands a request body over as a string.
      const bytes = Buffer.from("PNG bytes")
      const fileHash = createHash("md5").update(bytes).digest("hex")
      const folder = "6436b1ce5281cace05b65aea"
      const uploadDetails = {
        acl: "public-read",
        bucket: "webflow-prod-assets",
        "X-Amz-Algorithm": "AWS4-HMAC-SHA256",
        "X-Amz-Credential": "AKIA/20261120/us-east-1/s3/aws4_request",
        "X-Amz-Date": "20261120T095822Z",
        key: `${SITE}/${ASSET}_logo.png`,
        Policy: "eyJleHBpcmF0aW9uIjoiMjAyNi0xMS0yMFQxMDowODoyMloifQ==",
        "X-Amz-Signature": "0123456789abcdef",
        success_action_status: "201",
        "content-type": "image/png",
        "Cache-Control": "max-age=31536000, must-revalidate"
      }
      const api = webflow()
        .post(`/v2/sites/${SITE}/assets`, { fileName: "logo.png", fileHash, parentFolder: folder })
        .reply(200, {
          uploadDetails, contentType: "image/png", id: ASSET, parentFolder: folder, uploadUrl: `${BUCKET}/webflow-prod-assets`,
          assetUrl: webflowAsset.hostedUrl, hostedUrl: webflowAsset.hostedUrl, originalFileName: "logo.png",
          createdOn: webflowAsset.createdOn, lastUpdated: webflowAsset.lastUpdated
        })
        .get(`/v2/assets/${ASSET}`).reply(200, webflowAsset)
      let raw = ""
      let contentType = ""
      const s3 = nock(BUCKET, { badheaders: ["authorization"] })
        .post("/webflow-prod-assets")
        .reply(201, function(_uri, body) {
          raw = body as string
          contentType = this.req.headers["content-type"] as string
          return "<PostResponse/>"
        }, { "content-type": "application/xml" })
      const output = yield* run("uploadAsset", { siteId: SITE, file: { base64: bytes.toString("base64"), name: "logo.png" }, parentFolder: folder })
      expect(output).toEqual(webflowAsset)
      expect(api.isDone() && s3.isDone()).toBe(true)
      const form = yield* Effect.promise(() => new Response(raw, { headers: { "content-type": contentType } }).formData())
      // Every field Webflow gave, in its order, then the file, last.
      expect([...form.keys()]).toEqual([...Object.keys(uploadDetails), "file"])
      expect(Object.fromEntries([...form].filter(([name]) => name !== "file"))).toEqual(uploadDetails)
      const file = form.get("file") as File
      expect([file.name, file.type, Buffer.from(yield* Effect.promise(() => file.arrayBuffer()))]).toEqual(["logo.png", "image/png", bytes])
    }))

  it.effect("uploadAsset: an image over 4 MB, a file over 10 MB, a name of 100 characters: InvalidInput before anything is sent", () =>
    Effect.gen(function*() {
      const upload = (name: string, size: number) =>
        Effect.flip(run("uploadAsset", { siteId: SITE, file: { base64: Buffer.alloc(size, 1).toString("base64"), name } }))
      const image = yield* upload("big.png", 4 * 1024 * 1024 + 1)
      expect(image).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "file" }] })
      expect(image.message).toContain("over Webflow's limit of 4194304 bytes (4 MB) for images")
      const document = yield* upload("big.pdf", 10 * 1024 * 1024 + 1)
      expect(document).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "file" }] })
      expect(document.message).toContain("over its limit of 10 MiB")
      const named = yield* upload(`${"n".repeat(96)}.txt`, 3)
      expect(named.message).toContain("fewer than 100 characters")
      // A 4 MB document is not an image: it goes (to a 404 here).
      webflow().post(`/v2/sites/${SITE}/assets`).reply(404, webflowError("resource_not_found", "Requested resource not found: Site not found"))
      expect((yield* upload("big.pdf", 4 * 1024 * 1024 + 1))._tag).toBe("NotFound")
    }))
})
