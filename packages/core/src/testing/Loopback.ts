/**
 * Serving on loopback, for the providers' simulators: listen on 127.0.0.1 (a free port by
 * default) and close, connections included; and an endless upload, to test that a server
 * caps what it reads (bodies are read within a cap by `Webhook.readBody`).
 *
 * @since 0.1.0
 */
import { request, type Server } from "node:http"

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
 * it, and reports the answer: to test that a server caps what it reads and stops reading. A
 * server that answers and closes may close before this client has read the answer (a write
 * then fails with EPIPE or ECONNRESET, and Node drops the answer): the upload is tried again,
 * up to 3 times, before that error is the result.
 *
 * @since 0.2.0
 * @category utils
 */
export const uploadEndlessly = (
  url: string,
  options: UploadOptions = {},
  attempts = 3
): Promise<EndlessUpload> =>
  uploadOnce(url, options).catch((error: unknown) => {
    const code = (error as { code?: unknown }).code
    if (attempts > 1 && (code === "EPIPE" || code === "ECONNRESET")) return uploadEndlessly(url, options, attempts - 1)
    throw error
  })

const uploadOnce = (url: string, options: UploadOptions): Promise<EndlessUpload> =>
  new Promise<EndlessUpload>((resolve, reject) => {
    const totalBytes = options.totalBytes ?? 64 * 1024 * 1024
    const chunk = Buffer.alloc(64 * 1024, "a")
    let sent = 0
    let sentAll = false
    let answered = false
    const req = request(url, { method: options.method ?? "POST", headers: { ...options.headers } }, (res) => {
      answered = true
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => {
        const sentAtAnswer = sent
        const answeredBeforeAll = !sentAll
        setTimeout(() => {
          req.destroy()
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString("utf8"),
            sentAll: !answeredBeforeAll,
            sentAtAnswer,
            sentLater: sent
          })
        }, options.settleMillis ?? 300)
      })
    })
    // Once the answer has come, the server may close the connection it stopped reading.
    req.on("error", (error) => {
      if (!answered) reject(error)
    })
    const write = () => {
      while (sent < totalBytes) {
        sent += chunk.length
        if (!req.write(chunk)) return void req.once("drain", write)
      }
      sentAll = true
      req.end()
    }
    write()
  })
