import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { Auth, FileInput, Files, ProviderClient, ProviderRequest, RateLimiter } from "@x/core"
import { Loopback } from "@x/core/testing"
import { mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Agent } from "undici"
import { UndiciHttpClient } from "../src/index.js"
import { sampleMemory } from "../../../tooling/testing/peakMemory.js"
import { generated, sentOnlyAsWritten } from "../../../tooling/testing/streamedBody.js"


const MiB = 1024 * 1024
/** Moving 72-80 MiB takes up to ~30 s alone: a stall bound five times that, not a speed expectation. */
const largeTransferMs = 300_000
const size = 72 * MiB
let server: Server
let origin = ""
const uploads: Array<{ length: string | undefined; chunked: boolean; received: number }> = []
const agent = new Agent()
const dir = mkdtempSync(join(tmpdir(), "undici-files-"))

beforeAll(async () => {
  server = createServer((req, res) => {
    // The second half is sent only once the first is on disk: a body held whole would never be.
    if (req.url === "/streamed") return sentOnlyAsWritten({ size, dir, contentType: "application/octet-stream" })(req, res)
    // A generated body, larger than the client's 64 MiB buffer cap.
    if (req.method === "GET") return generated(size, "application/octet-stream")(req, res)
    let received = 0
    req.on("data", (c: Buffer) => received += c.length)
    req.on("end", () => {
      uploads.push({ length: req.headers["content-length"], chunked: req.headers["transfer-encoding"] === "chunked", received })
      res.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  origin = await Loopback.listen(server)
})
afterAll(async () => {
  await Loopback.close(server)
  await agent.close()
})

const client = () =>
  ProviderClient.makeWith(UndiciHttpClient.make(agent), RateLimiter.make(), {
    baseUrl: origin,
    credentials: Auth.bearer(Redacted.make("t0ken")),
    retry: { maxRetries: 0 },
    // These tests are about streaming, not time limits: 80 MiB through loopback on a machine
    // busy with another suite took over the default 30 s. This only stops a hung transfer.
    timeout: "5 minutes"
  })


describe("files through the undici client", () => {
  it.live("a download larger than the 64 MiB buffer cap is streamed to disk, never buffered", () =>
    Effect.gen(function*() {
      const to = join(dir, "download.bin")
      const downloaded = yield* Files.download(client(), { method: "GET", path: "/streamed" }, { to })
      expect(downloaded).toEqual({ path: to, size, contentType: "application/octet-stream" })
      expect(statSync(to).size).toBe(size)
      // Without streaming, the same body is over the client's cap: the request is aborted.
      const buffered = yield* Effect.flip(client().send({ method: "GET", path: "/export" }, () => Effect.void))
      expect(buffered._tag).toBe("UpstreamUnavailable")
    }), largeTransferMs)

  it.live("a download refused for its declared length ends at once and releases its connection", () =>
    Effect.gen(function*() {
      const to = join(dir, "refused.bin")
      const refused = yield* Effect.flip(Files.download(client(), { method: "GET", path: "/export" }, { to, maxBytes: 1000 }).pipe(Effect.timeout("5 seconds")))
      expect(refused).toMatchObject({ _tag: "UnexpectedResponse", message: expect.stringMatching(/^the file is 72 MiB .* over the limit of 1000 bytes$/) })
      expect(readdirSync(dir).filter((name) => name.includes("refused"))).toEqual([])
      // The server sees the request end: the refused body was not left paused on its connection.
      const connections = () => new Promise<number>((resolve) => server.getConnections((_, count) => resolve(count)))
      yield* Effect.promise(async () => {
        while ((await connections()) > 0) await new Promise((resolve) => setTimeout(resolve, 20))
      })
    }))

  it.live("a multipart upload of a large file is streamed with its Content-Length", () =>
    Effect.gen(function*() {
      const path = join(dir, "upload.bin")
      writeFileSync(path, Buffer.alloc(80 * MiB, 2))
      const memory = sampleMemory()
      yield* Effect.ensuring(
        Effect.scoped(Effect.flatMap(
          FileInput.open(client(), { path }, { field: "file", maxBytes: 100 * MiB }),
          (file) => client().void({ method: "POST", path: "/upload", body: ProviderRequest.multipartBody({ fields: { name: "big" }, files: { file } }) })
        )),
        Effect.sync(memory.stop)
      )
      const upload = uploads.at(-1)!
      expect(upload.chunked).toBe(false)
      expect(Number(upload.length)).toBe(upload.received)
      expect(upload.received).toBeGreaterThan(80 * MiB)
      // Read whole, the file alone would add 80 MiB.
      expect(memory.peak()).toBeLessThan(40 * MiB)
      expect(readdirSync(dir)).toEqual(["download.bin", "upload.bin"])
    }), largeTransferMs)
})
