/**
 * The benchmark's provider: a minimal card API on 127.0.0.1, in its own process so that the
 * client side is measured alone. It checks the Authorization header like Trello's API would.
 */
import { createServer } from "node:http"

const card = JSON.stringify({
  id: "5f1e0c0d2b3a4c5d6e7f8091",
  name: "Benchmark card",
  desc: "A card served by the benchmark server.",
  idBoard: "5f1e0c0d2b3a4c5d6e7f8000",
  idList: "5f1e0c0d2b3a4c5d6e7f8001",
  closed: false,
  pos: 16384,
  shortUrl: "https://trello.com/c/abc123"
})
const cardLength = Buffer.byteLength(card)

const server = createServer((req, res) => {
  // Trello takes the credentials in the Authorization header or in the query (as trello.js sends them).
  if (req.headers.authorization === undefined && !/[?&]token=/.test(req.url ?? "")) {
    res.writeHead(401, { "content-type": "text/plain" })
    res.end("invalid token")
    return
  }
  if (req.method === "GET" && req.url?.startsWith("/1/cards/")) {
    res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": cardLength })
    res.end(card)
    return
  }
  res.writeHead(404, { "content-type": "text/plain" })
  res.end("The requested resource was not found.")
})
server.keepAliveTimeout = 60_000
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as { port: number }
  process.send?.({ port })
})
process.on("disconnect", () => process.exit(0))
