/**
 * A server handler that proves a download is streamed to disk, not held whole: it sends half
 * of a body of `size` bytes, then waits until a temporary `.part` file in `dir` holds at least
 * a quarter of it, and only then sends the rest. A client that buffered the whole body before
 * writing would write nothing until the end: the handler gives up after `waitMs` and cuts
 * the response, and the download fails. Deterministic, unlike sampling memory on a loaded machine.
 */
import { readdirSync, statSync } from "node:fs"
import type { IncomingMessage, ServerResponse } from "node:http"
import { join } from "node:path"

const writtenSoFar = (dir: string) =>
  readdirSync(dir).filter((name) => name.endsWith(".part")).reduce((total, name) => {
    try {
      return total + statSync(join(dir, name)).size
    } catch {
      return total
    }
  }, 0)

export const sentOnlyAsWritten = (options: {
  readonly size: number
  readonly dir: string
  readonly contentType: string
  readonly waitMs?: number
}) =>
(_: IncomingMessage, res: ServerResponse) => {
  const { dir, size } = options
  const chunk = Buffer.alloc(64 * 1024, 7)
  res.writeHead(200, { "content-type": options.contentType, "content-length": String(size) })
  let sent = 0
  const send = (upTo: number, then: () => void) => {
    while (sent < upTo) {
      sent += chunk.length
      if (!res.write(chunk)) return void res.once("drain", () => send(upTo, then))
    }
    then()
  }
  // A stall bound: the client writing its first quarter takes seconds alone, more on a busy machine.
  const deadline = Date.now() + (options.waitMs ?? 150_000)
  const whenWritten = () => {
    if (writtenSoFar(dir) >= size / 4) return send(size, () => res.end())
    if (Date.now() > deadline) return void res.destroy()
    setTimeout(whenWritten, 20)
  }
  send(size / 2, whenWritten)
}

/** A body of `size` bytes, written in 64 KiB chunks as the connection drains (never held whole by the server). */
export const generated = (size: number, contentType: string) => (_: IncomingMessage, res: ServerResponse) => {
  const chunk = Buffer.alloc(64 * 1024, 7)
  res.writeHead(200, { "content-type": contentType, "content-length": String(size) })
  let sent = 0
  const more = () => {
    while (sent < size) {
      sent += chunk.length
      if (!res.write(chunk)) return void res.once("drain", more)
    }
    res.end()
  }
  more()
}
