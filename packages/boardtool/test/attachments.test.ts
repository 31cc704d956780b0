import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import { FilePolicy } from "@x/core"
import * as Effect from "effect/Effect"
import nock from "nock"
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Simulator from "../src/testing/simulator.js"
import { API, AUTHORIZATION, CARD, connectedTo, executor, run, step, TOKEN } from "./support.js"

const ATTACHMENT = "61a0f0f0f0f0f0f0f0f0f0a1"
const trello = () => nock(API, { reqheaders: { authorization: AUTHORIZATION } })
const dir = mkdtempSync(join(tmpdir(), "boardtool-attachments-"))
const attachmentJson = {
  id: ATTACHMENT, bytes: 14, date: "2026-11-21T10:00:00.000Z", edgeColor: null, idMember: "61a0f0f0f0f0f0f0f0f0f0m1",
  isUpload: true, mimeType: "text/plain", name: "Report", previews: [], pos: 16384, fileName: "report.txt",
  url: `https://trello.com/1/cards/${CARD}/attachments/${ATTACHMENT}/download/report.txt`
}
const attachment = {
  id: ATTACHMENT, name: "Report", url: attachmentJson.url, isUpload: true, mimeType: "text/plain", bytes: 14,
  fileName: "report.txt", date: attachmentJson.date
}

beforeAll(() => nock.disableNetConnect())
afterEach(() => nock.cleanAll())
afterAll(() => nock.enableNetConnect())

describe("attachments: the wire", () => {
  it.effect("addAttachment: POST /1/cards/{id}/attachments as multipart: name, mimeType, setCover, then the file", () =>
    Effect.gen(function*() {
      const path = join(dir, "report.txt")
      writeFileSync(path, "line 1\nline 2\n")
      let body = ""
      let contentType = ""
      const scope = trello().post(`/1/cards/${CARD}/attachments`, (b) => {
        body = typeof b === "string" ? b : Buffer.from(b as never).toString()
        return true
      }).reply(function() {
        contentType = String(this.req.headers["content-type"])
        return [200, attachmentJson]
      })
      const output = yield* run("addAttachment", { idCard: CARD, file: { path }, name: "Report", setCover: true })
      expect(output).toEqual(attachment)
      expect(scope.isDone()).toBe(true)
      const boundary = /boundary=(.+)$/.exec(contentType)![1]
      expect(body).toBe(
        `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nReport\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="mimeType"\r\n\r\ntext/plain\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="setCover"\r\n\r\ntrue\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="report.txt"\r\nContent-Type: text/plain\r\n\r\n` +
          `line 1\nline 2\n\r\n--${boundary}--\r\n`
      )
    }))

  it.effect("addAttachment: a link is a form body with url; a file over 10 MB (free) is refused before any request", () =>
    Effect.gen(function*() {
      const scope = trello().post(`/1/cards/${CARD}/attachments`, "url=https%3A%2F%2Fexample.test%2Fspec")
        .matchHeader("content-type", "application/x-www-form-urlencoded")
        .reply(200, { ...attachmentJson, isUpload: false, bytes: null, fileName: null, mimeType: "", url: "https://example.test/spec" })
      const link = yield* run("addAttachment", { idCard: CARD, url: "https://example.test/spec" })
      expect(link).toMatchObject({ isUpload: false, bytes: null, url: "https://example.test/spec" })
      expect(scope.isDone()).toBe(true)
      const big = join(dir, "big.bin")
      writeFileSync(big, Buffer.alloc(10 * 1024 * 1024 + 1))
      const none = trello().post(`/1/cards/${CARD}/attachments`).reply(200, attachmentJson)
      const error = yield* Effect.flip(run("addAttachment", { idCard: CARD, file: { path: big } }))
      expect(error._tag).toBe("InvalidInput")
      expect(error.message).toBe("file is 10 MiB (10485761 bytes), over its limit of 10 MiB (10485760 bytes)")
      expect(none.isDone()).toBe(false)
      // Neither or both of file and url: refused before anything is sent.
      expect((yield* Effect.flip(run("addAttachment", { idCard: CARD })))._tag).toBe("InvalidInput")
    }))

  it.effect("downloadAttachment: GET the attachment, then its download path with the OAuth header, streamed to 0600", () =>
    Effect.gen(function*() {
      const scope = trello()
        .get(`/1/cards/${CARD}/attachments/${ATTACHMENT}`).reply(200, attachmentJson)
        .get(`/1/cards/${CARD}/attachments/${ATTACHMENT}/download/report.txt`)
        .reply(200, "line 1\nline 2\n", { "content-type": "text/plain" })
      const to = join(dir, "copy.txt")
      const output = yield* run("downloadAttachment", { idCard: CARD, idAttachment: ATTACHMENT, path: to })
      expect(output).toEqual({ path: to, size: 14, contentType: "text/plain", name: "Report", fileName: "report.txt" })
      expect(readFileSync(to, "utf8")).toBe("line 1\nline 2\n")
      expect(statSync(to).mode & 0o777).toBe(0o600)
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("downloadAttachment under a files directory: a ../ path (a card's name) is refused before any request; an existing file is kept unless overwrite", () =>
    Effect.gen(function*() {
      const files = mkdtempSync(join(tmpdir(), "boardtool-files-"))
      const inFiles = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        Effect.provide(effect, FilePolicy.layer({ files: { directory: files }, privateNetworks: false, allowedOrigins: [] }))
      const scope = trello()
        .get(`/1/cards/${CARD}/attachments/${ATTACHMENT}`).reply(200, attachmentJson)
        .get(`/1/cards/${CARD}/attachments/${ATTACHMENT}/download/report.txt`)
        .reply(200, "line 1\nline 2\n", { "content-type": "text/plain" })
      const escape = yield* Effect.flip(inFiles(run("downloadAttachment", { idCard: CARD, idAttachment: ATTACHMENT, path: "downloads/../../victim" })))
      expect(escape).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "path" }] })
      expect(escape.message).toMatch(/^path: downloads\/\.\.\/\.\.\/victim holds a "\.\." segment/)
      writeFileSync(join(files, "kept.txt"), "mine\n")
      const taken = yield* Effect.flip(inFiles(run("downloadAttachment", { idCard: CARD, idAttachment: ATTACHMENT, path: "kept.txt" })))
      expect(taken.message).toBe("path: kept.txt already exists, and overwriting it is off")
      expect(scope.pendingMocks()).toHaveLength(2)
      const replaced = yield* inFiles(run("downloadAttachment", { idCard: CARD, idAttachment: ATTACHMENT, path: "kept.txt", overwrite: true }))
      expect(replaced).toMatchObject({ path: join(files, "kept.txt"), size: 14 })
      expect(readFileSync(join(files, "kept.txt"), "utf8")).toBe("line 1\nline 2\n")
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("downloadAttachment: Trello's 401 unauthorized card permission requested is PermissionDenied, without the token, and leaves no file", () =>
    Effect.gen(function*() {
      trello()
        .get(`/1/cards/${CARD}/attachments/${ATTACHMENT}`).reply(200, attachmentJson)
        .get(`/1/cards/${CARD}/attachments/${ATTACHMENT}/download/report.txt`)
        .reply(401, "unauthorized card permission requested", { "content-type": "text/plain" })
      const to = join(dir, "denied.txt")
      const error = yield* Effect.flip(run("downloadAttachment", { idCard: CARD, idAttachment: ATTACHMENT, path: to }))
      expect(error._tag).toBe("PermissionDenied")
      expect(JSON.stringify(error) + error.message).not.toContain(TOKEN)
      expect(readdirSync(dir).filter((name) => name.includes("denied"))).toEqual([])
    }))
})

describe("attachments: against the simulator", () => {
  it.live("upload, then download: the same bytes; the download wants the OAuth header", () =>
    Effect.gen(function*() {
      nock.enableNetConnect("127.0.0.1")
      const sim = yield* Effect.acquireRelease(Effect.promise(() => Simulator.start()), (sim) => Effect.promise(() => sim.close()))
      const values = { key: sim.key, token: sim.token, baseUrl: sim.baseUrl }
      const content = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251))
      const path = join(dir, "data.bin")
      writeFileSync(path, content)
      const idCard = Simulator.seed.cards.launchPost
      const layer = connectedTo(values, FetchHttpClient.layer)
      const simRun = (action: string, parameters: Record<string, unknown>) =>
        executor.run(step(action, parameters)).pipe(Effect.provide(layer))
      const added = (yield* simRun("addAttachment", { idCard, file: { path, contentType: "application/octet-stream" } })) as { id: string; bytes: number }
      expect(added.bytes).toBe(content.length)
      const to = join(dir, "data.copy")
      yield* simRun("downloadAttachment", { idCard, idAttachment: added.id, path: to })
      expect(readFileSync(to).equals(content)).toBe(true)
      // A link; a file over the simulator's 10 MB limit answers 413; no file nor url, 400.
      const link = (yield* simRun("addAttachment", { idCard, url: "https://example.test/a" })) as { isUpload: boolean }
      expect(link.isUpload).toBe(false)
      const base64 = Buffer.alloc(10 * 1024 * 1024 + 1).toString("base64")
      const over = yield* Effect.flip(simRun("addAttachment", { idCard, file: { base64, name: "x.bin" }, paidWorkspace: true }))
      expect([over._tag, over.message]).toEqual(["UnexpectedResponse", "request entity too large"])
      const response = yield* Effect.promise(() =>
        fetch(`${sim.baseUrl}/cards/${idCard}/attachments/${added.id}/download/data.bin?key=${sim.key}&token=${sim.token}`))
      expect([response.status, yield* Effect.promise(() => response.text())]).toEqual([401, "unauthorized card permission requested"])
    }).pipe(Effect.scoped))
})
