import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { createServer, request, type Server } from "node:http"
import { connect } from "node:net"
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

/**
 * An endless chunked upload written by hand on a raw socket, as a client that never stops would
 * send it. Not through `http.request`: in this shared process a file that used nock leaves
 * Node's http client patched by its interceptor (`nock.restore()` does not undo it for modules
 * already loaded), and that client buffers the whole body in memory, so every write "succeeds"
 * and the upload looks fully sent. A server that closes while this client still writes may reset
 * the connection before the answer is read: then it is tried again, up to 3 times.
 */
const uploadEndlessly = (attempts = 3): Promise<{ status: number; sentAll: boolean; sentAtAnswer: number; sentLater: number }> =>
  new Promise<{ status: number; sentAll: boolean; sentAtAnswer: number; sentLater: number }>((resolve, reject) => {
    const { hostname, port } = new URL(origin)
    const totalBytes = 64 * 1024 * 1024
    const chunk = Buffer.concat([Buffer.from("10000\r\n"), Buffer.alloc(64 * 1024, "a"), Buffer.from("\r\n")])
    let sent = 0
    let sentAll = false
    let head = ""
    let status = 0
    const socket = connect(Number(port), hostname)
    socket.on("data", (data: Buffer) => {
      if (status !== 0) return
      head += data.toString("latin1")
      const match = /^HTTP\/1\.1 (\d{3}) /.exec(head)
      if (match === null || !head.includes("\r\n\r\n")) return
      status = Number(match[1])
      const sentAtAnswer = sent
      const answeredBeforeAll = !sentAll
      // Keep sending for a while, to see whether the server still reads.
      setTimeout(() => {
        socket.destroy()
        resolve({ status, sentAll: !answeredBeforeAll, sentAtAnswer, sentLater: sent })
      }, 300)
    })
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (status !== 0) return
      if (attempts > 1 && (error.code === "EPIPE" || error.code === "ECONNRESET")) {
        return void uploadEndlessly(attempts - 1).then(resolve, reject)
      }
      reject(error)
    })
    const write = () => {
      while (sent < totalBytes && !socket.destroyed) {
        sent += 64 * 1024
        if (!socket.write(chunk)) return void socket.once("drain", write)
      }
      if (socket.destroyed) return
      sentAll = true
      socket.end("0\r\n\r\n")
    }
    socket.once("connect", () => {
      socket.write(`POST / HTTP/1.1\r\nhost: ${hostname}:${port}\r\ntransfer-encoding: chunked\r\n\r\n`)
      write()
    })
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
    const upload = await uploadEndlessly()
    expect(upload.status).toBe(413)
    expect(upload.sentAll).toBe(false)
    // What the client could still push after the answer is what the socket buffers hold.
    expect(upload.sentLater - upload.sentAtAnswer).toBeLessThan(16 * 1024 * 1024)
  })
})
