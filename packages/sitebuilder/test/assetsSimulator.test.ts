/** The assets actions end to end through the executor against the simulator, and its S3 bucket's checks. */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { createHash } from "node:crypto"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Simulator from "../src/testing/simulator.js"
import { simulated } from "./support.js"

const { seed } = Simulator
const simulation = simulated()
const { run } = simulation

const api = (method: string, path: string, body?: object) =>
  fetch(`${simulation.sim.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${simulation.values["accessToken"]}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  }).then((r) => r.json() as Promise<Record<string, any>>)
const post = (url: string, fields: ReadonlyArray<[string, string]>, file?: Blob, name = "f.bin") => {
  const form = new FormData()
  for (const [field, value] of fields) form.append(field, value)
  if (file !== undefined) form.append("file", file, name)
  return fetch(url, { method: "POST", body: form })
}
const codeOf = async (response: Response) => /<Code>([^<]+)<\/Code>/.exec(await response.text())?.[1]

type Asset = { id: string; siteId: string; originalFileName: string; contentType: string; size: number; hostedUrl: string }

describe("sitebuilder assets against the simulator", () => {
  it.live("uploadAsset from a path: declared with its MD5, sent to the bucket, read back; its hostedUrl serves the bytes; then get, list, delete", () =>
    Effect.gen(function*() {
      const bytes = Buffer.alloc(3 * 1024 * 1024 + 5)
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) & 0xff
      const path = join(mkdtempSync(join(tmpdir(), "assets-")), "photo.jpg")
      writeFileSync(path, bytes)
      const asset = (yield* run("uploadAsset", { siteId: seed.sites.store, file: { path } })) as Asset
      expect(asset).toMatchObject({ siteId: seed.sites.store, originalFileName: "photo.jpg", contentType: "image/jpeg", size: bytes.length })
      expect(simulation.sim.assets.get(asset.id)?.fileHash).toBe(createHash("md5").update(bytes).digest("hex"))
      const hosted = yield* Effect.promise(() => fetch(asset.hostedUrl))
      expect(hosted.headers.get("content-type")).toBe("image/jpeg")
      expect(Buffer.from(yield* Effect.promise(() => hosted.arrayBuffer())).equals(bytes)).toBe(true)

      expect(yield* run("getAsset", { assetId: asset.id })).toEqual(asset)
      const listed = (yield* run("listAssets", { siteId: seed.sites.store })) as { assets: ReadonlyArray<Asset> }
      expect(listed.assets.map((a) => a.id)).toEqual([seed.assets.logo, seed.assets.brochure, asset.id])
      yield* run("deleteAsset", { siteId: seed.sites.store, assetId: asset.id })
      expect((yield* Effect.flip(run("getAsset", { assetId: asset.id })))._tag).toBe("NotFound")
      expect((yield* Effect.promise(() => fetch(asset.hostedUrl))).status).toBe(404)
    }))

  it.live("a seeded asset reads back as it was seeded; an image over 4 MB is refused before any request", () =>
    Effect.gen(function*() {
      const logo = (yield* run("getAsset", { siteId: seed.sites.store, assetId: seed.assets.logo })) as Asset
      expect(logo).toMatchObject({ originalFileName: "logo.png", contentType: "image/png", size: 70 })
      const served = Buffer.from(yield* Effect.promise(() => fetch(logo.hostedUrl).then((r) => r.arrayBuffer())))
      expect(served.subarray(1, 4).toString()).toBe("PNG")
      const before = simulation.sim.stats.requests
      const error = yield* Effect.flip(run("uploadAsset", { siteId: seed.sites.store, file: { base64: Buffer.alloc(4 * 1024 * 1024 + 1).toString("base64"), name: "huge.png" } }))
      expect(error._tag).toBe("InvalidInput")
      expect(simulation.sim.stats.requests).toBe(before)
    }))

  it("the bucket checks the form as S3 does: the policy's fields, its signature, the file's MD5 and size; the upload is served once, byte for byte", async () => {
    const bytes = Buffer.from("hello, bucket")
    const fileHash = createHash("md5").update(bytes).digest("hex")
    const ticket = await api("POST", `/sites/${seed.sites.store}/assets`, { fileName: "hello.txt", fileHash })
    const fields = Object.entries(ticket["uploadDetails"] as Record<string, string>)
    const url = ticket["uploadUrl"] as string
    // Not listed nor found until its file is uploaded.
    expect((await api("GET", `/assets/${ticket["id"]}`))["code"]).toBe("resource_not_found")
    const without = (name: string) => fields.filter(([field]) => field !== name)
    const altered = fields.map(([field, value]): [string, string] =>
      field === "Policy" ? [field, Buffer.from(Buffer.from(value, "base64").toString().replace("10485760", "99999999")).toString("base64")] : [field, value])

    const missing = await post(url, without("acl"), new Blob([bytes]))
    expect([missing.status, await codeOf(missing)]).toEqual([403, "AccessDenied"])
    const forged = await post(url, altered, new Blob([bytes]))
    expect([forged.status, await codeOf(forged)]).toEqual([403, "SignatureDoesNotMatch"])
    const changed = await post(url, [...without("key"), ["key", `${seed.sites.store}/other.txt`]], new Blob([bytes]))
    expect([changed.status, await codeOf(changed)]).toEqual([403, "AccessDenied"])
    const other = await post(url, fields, new Blob([Buffer.from("other bytes!!")]))
    expect([other.status, await codeOf(other)]).toEqual([400, "BadDigest"])
    const noFile = await post(url, fields)
    expect([noFile.status, await codeOf(noFile)]).toEqual([400, "InvalidArgument"])
    expect((await fetch(`${url}/${fields.find(([f]) => f === "key")![1]}`)).status).toBe(404)

    const ok = await post(url, fields, new Blob([bytes], { type: "text/plain" }), "hello.txt")
    expect(ok.status).toBe(201)
    expect(await ok.text()).toContain("<PostResponse>")
    const asset = await api("GET", `/assets/${ticket["id"]}`)
    expect(asset).toMatchObject({ originalFileName: "hello.txt", contentType: "text/plain", size: bytes.length, hostedUrl: ticket["hostedUrl"] })
    expect(Buffer.from(await (await fetch(asset["hostedUrl"])).arrayBuffer()).equals(bytes)).toBe(true)
  })

  it("the bucket refuses a file over its size range (an image over 4 MB) with EntityTooLarge", async () => {
    const big = Buffer.alloc(4 * 1024 * 1024 + 1, 3)
    const ticket = await api("POST", `/sites/${seed.sites.store}/assets`, { fileName: "big.png", fileHash: createHash("md5").update(big).digest("hex") })
    const response = await post(ticket["uploadUrl"], Object.entries(ticket["uploadDetails"]), new Blob([big]), "big.png")
    expect([response.status, await codeOf(response)]).toEqual([400, "EntityTooLarge"])
    const bad = await api("POST", `/sites/${seed.sites.store}/assets`, { fileName: `${"x".repeat(100)}.png`, fileHash: "nothex" })
    expect(bad).toMatchObject({ code: "validation_error", details: [{ param: "fileName" }, { param: "fileHash" }] })
  })
})
