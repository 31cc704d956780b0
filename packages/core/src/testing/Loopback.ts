/**
 * Serving on loopback, for the providers' simulators: listen on 127.0.0.1 (a free port by
 * default) and close, connections included; and an endless upload, to test that a server
 * caps what it reads (bodies are read within a cap by `Webhook.readBody`).
 *
 * @since 0.1.0
 */
import type { Server } from "node:http"
import { connect } from "node:net"

/**
 * Listens on 127.0.0.1; resolves with the origin (`http://127.0.0.1:<port>`), rejects if the port is taken.
 *
 * @since 0.1.0
 * @category constructors
 */
export const listen = (server: Server, port = 0): Promise<string> =>
  new Promise<string>((resolve, reject) => {
    server.keepAliveTimeout = 60_000
    server.once("error", reject)
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject)
      resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)
    })
  })

/**
 * Closes the server and its open connections.
 *
 * @since 0.1.0
 * @category utils
 */
export const close = (server: Server): Promise<void> =>
  new Promise<void>((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })

/**
 * What the server answered to an upload that never ends, and how much the client had sent.
 *
 * @since 0.2.0
 * @category models
 */
export interface EndlessUpload {
  readonly status: number
  readonly body: string
  /** Whether the whole upload was sent before the answer came (a server that reads it all). */
  readonly sentAll: boolean
  /** Bytes sent when the answer had arrived, and `settleMillis` later. */
  readonly sentAtAnswer: number
  readonly sentLater: number
}

/**
 * How `uploadEndlessly` sends: the method (POST), headers, how much at most (64 MiB), and how
 * long it keeps sending after the answer, to see whether the server still reads (300 ms).
 *
 * @since 0.2.0
 * @category models
 */
export interface UploadOptions {
  readonly method?: string
  readonly headers?: Readonly<Record<string, string>>
  readonly totalBytes?: number
  readonly settleMillis?: number
}

/**
 * Sends a chunked body (no `Content-Length`) of up to `totalBytes`, as fast as the server takes
 * it, and reports the answer: to test that a server caps what it reads and stops reading. It
 * writes HTTP/1.1 on a raw socket, not through `http.request`: a process where nock was loaded
 * has Node's http client patched by its interceptor for good, and that client buffers the whole
 * body in memory, so every write "succeeds" and the upload looks fully sent. A server that
 * answers and closes may reset the connection before this client has read the answer: the upload
 * is tried again, up to 3 times, before that error is the result.
 *
 * @since 0.2.0
 * @category utils
 */
export const uploadEndlessly = (
  url: string,
  options: UploadOptions = {},
  attempts = 3
): Promise<EndlessUpload> =>
  uploadOnce(new URL(url), options).catch((error: unknown) => {
    const code = (error as { code?: unknown }).code
    if (attempts > 1 && (code === "EPIPE" || code === "ECONNRESET")) return uploadEndlessly(url, options, attempts - 1)
    throw error
  })

const uploadOnce = (url: URL, options: UploadOptions): Promise<EndlessUpload> =>
  new Promise<EndlessUpload>((resolve, reject) => {
    const totalBytes = options.totalBytes ?? 64 * 1024 * 1024
    const data = Buffer.alloc(64 * 1024, "a")
    const chunk = Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from("\r\n")])
    let sent = 0
    let sentAll = false
    let received = Buffer.alloc(0)
    let answer: { readonly status: number; readonly headers: string; readonly bodyStart: number } | undefined
    const socket = connect(Number(url.port), url.hostname)
    socket.on("data", (bytes: Buffer) => {
      received = Buffer.concat([received, bytes])
      if (answer !== undefined) return
      const headEnd = received.indexOf("\r\n\r\n")
      if (headEnd < 0) return
      const head = received.subarray(0, headEnd).toString("latin1")
      answer = { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0), headers: head.toLowerCase(), bodyStart: headEnd + 4 }
      const sentAtAnswer = sent
      const answeredBeforeAll = !sentAll
      // Keep sending for a while, to see whether the server still reads.
      setTimeout(() => {
        socket.destroy()
        const { bodyStart, headers, status } = answer!
        resolve({
          status,
          body: bodyOf(received.subarray(bodyStart), headers).toString("utf8"),
          sentAll: !answeredBeforeAll,
          sentAtAnswer,
          sentLater: sent
        })
      }, options.settleMillis ?? 300)
    })
    // Once the answer has come, the server may close the connection it stopped reading.
    socket.on("error", (error) => {
      if (answer === undefined) reject(error)
    })
    const write = () => {
      while (sent < totalBytes && !socket.destroyed) {
        sent += data.length
        if (!socket.write(chunk)) return void socket.once("drain", write)
      }
      if (socket.destroyed) return
      sentAll = true
      socket.end("0\r\n\r\n")
    }
    socket.once("connect", () => {
      const headers = Object.entries({ ...options.headers }).map(([name, value]) => `${name}: ${value}\r\n`).join("")
      socket.write(`${options.method ?? "POST"} ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n${headers}transfer-encoding: chunked\r\n\r\n`)
      write()
    })
  })

/** An answer's body from the bytes after its head: by its `Content-Length`, chunked, or up to the close. */
const bodyOf = (bytes: Buffer, headers: string): Buffer => {
  const length = /\r\ncontent-length: *(\d+)/.exec(headers)
  if (length !== null) return bytes.subarray(0, Number(length[1]))
  if (!/\r\ntransfer-encoding: *chunked/.test(headers)) return bytes
  const parts: Array<Buffer> = []
  let at = 0
  for (;;) {
    const lineEnd = bytes.indexOf("\r\n", at)
    const size = lineEnd < 0 ? 0 : parseInt(bytes.subarray(at, lineEnd).toString("latin1"), 16)
    if (!(size > 0)) return Buffer.concat(parts)
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size))
    at = lineEnd + 2 + size + 2
  }
}
