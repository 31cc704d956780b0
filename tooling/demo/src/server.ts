/** An in-memory notes service on 127.0.0.1, for the demo. */
import { createServer, type Server } from "node:http"

export const API_KEY = "demo-key-not-a-secret-0001"

export const startNotesServer = (): Promise<{ server: Server; baseUrl: string }> => {
  const notes = new Map<string, { id: string; title: string; body: string }>()
  const server = createServer((req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" })
      res.end(JSON.stringify(body))
    }
    if (req.headers["x-api-key"] !== API_KEY) return reply(401, { message: "invalid API key" })
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://localhost")
      if (req.method === "POST" && url.pathname === "/v1/notes") {
        const input = JSON.parse(Buffer.concat(chunks).toString("utf8"))
        const note = { id: `n${notes.size + 1}`, title: String(input.title), body: String(input.body ?? "") }
        notes.set(note.id, note)
        return reply(200, note)
      }
      const match = /^\/v1\/notes\/([^/]+)$/.exec(url.pathname)
      if (req.method === "GET" && match !== null) {
        const note = notes.get(decodeURIComponent(match[1]!))
        return note === undefined ? reply(404, { message: "note not found" }) : reply(200, note)
      }
      reply(404, { message: `no route ${req.method} ${url.pathname}` })
    })
  })
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      resolve({ server, baseUrl: `http://127.0.0.1:${port}/v1` })
    })
  )
}
