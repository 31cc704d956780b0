/**
 * A webhook receiver on loopback for trigger tests, as the runner receives deliveries: each
 * request handed whole to `handle` (the executor's `handleDelivery`, usually), its answer sent
 * back, its events kept; the first `failing` requests are answered 503 unhandled, to see the
 * provider retry. (No Effect here: a package's tests wrap it in their own effect's scope.)
 */
import { createServer, type Server } from "node:http"

export interface Delivered {
  readonly method: string
  readonly url: string
  readonly headers: Readonly<Record<string, string | undefined>>
  readonly body: Uint8Array
}

export interface Handled<E> {
  readonly response: { readonly status: number; readonly body?: string | undefined }
  readonly events: ReadonlyArray<E>
}

export const receiveDeliveries = <E>(
  path: string,
  handle: (request: Delivered) => Promise<Handled<E>>,
  failing = 0
) => {
  const events: Array<E> = []
  const answers: Array<number> = []
  let url = ""
  let refused = 0
  const server: Server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      if (refused++ < failing) {
        answers.push(503)
        return res.writeHead(503).end()
      }
      const request = {
        method: req.method ?? "POST",
        url,
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : v])),
        body: new Uint8Array(Buffer.concat(chunks))
      }
      handle(request).then(
        (result) => {
          events.push(...result.events)
          answers.push(result.response.status)
          res.writeHead(result.response.status).end(result.response.body)
        },
        () => res.writeHead(500).end()
      )
    })
  })
  return new Promise<{ events: typeof events; answers: typeof answers; url: string; close: () => Promise<void> }>((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      url = `http://127.0.0.1:${(server.address() as { port: number }).port}${path}`
      resolve({ events, answers, url, close: () => new Promise((closed) => server.close(() => closed())) })
    })
  )
}
