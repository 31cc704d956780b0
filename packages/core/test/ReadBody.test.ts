import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { createServer, request, type Server } from "node:http"
import { Webhook } from "../src/index.js"
import { Loopback } from "../src/testing.js"

const cap = 1000
let server: Server
let origin = ""
beforeAll(async () => {
  server = createServer((req, res) => {
    Webhook.readBody(req, cap).then((body) => {
      if (body._tag === "TooLarge") {
        res.writeHead(413, { connection: "close" }).end(`over ${body.maxBytes}`)
      } else {
        res.writeHead(200).end(`read ${body.bytes.length}`)
      }
    }, () => res.destroy())
  })
  origin = await Loopback.listen(server)
})
afterAll(() => Loopback.close(server))

/** Posts `chunks` (chunked unless a Content-Length is given) and reads the answer. */
const post = (chunks: ReadonlyArray<string>, contentLength?: number) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(`${origin}/`, {
      method: "POST",
      headers: contentLength === undefined ? {} : { "content-length": String(contentLength) }
    }, (res) => {
      let body = ""
      res.on("data", (c: Buffer) => body += c.toString("utf8"))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on("error", reject)
    if (contentLength !== undefined && contentLength > cap) return req.flushHeaders() // answered from the header alone
    for (const chunk of chunks) req.write(chunk)
    req.end()
  })

describe("Webhook.readBody", () => {
  it("reads a body up to the cap, with or without Content-Length", async () => {
    expect(await post(["a".repeat(600), "b".repeat(400)])).toEqual({ status: 200, body: "read 1000" })
    expect(await post(["a".repeat(1000)], 1000)).toEqual({ status: 200, body: "read 1000" })
    expect(await post([])).toEqual({ status: 200, body: "read 0" })
  })

  it("refuses a body past the cap: chunked as it is read, or from its Content-Length before reading", async () => {
    expect(await post(["a".repeat(600), "b".repeat(401)])).toEqual({ status: 413, body: "over 1000" })
    expect(await post([], 1001)).toEqual({ status: 413, body: "over 1000" })
  })

  it("stops reading an endless chunked upload: the answer comes before the client has sent it all", async () => {
    const upload = await Loopback.uploadEndlessly(`${origin}/`)
    expect(upload).toMatchObject({ status: 413, body: "over 1000", sentAll: false })
    // What the client could still push after the answer is what the socket buffers hold.
    expect(upload.sentLater - upload.sentAtAnswer).toBeLessThan(16 * 1024 * 1024)
  })
})
