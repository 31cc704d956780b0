/**
 * Serving on loopback, for the providers' simulators: listen on 127.0.0.1 (a free port by
 * default) and close, connections included.
 */
import type { Server } from "node:http"

/** Listens on 127.0.0.1; resolves with the origin (`http://127.0.0.1:<port>`), rejects if the port is taken. */
export const listen = (server: Server, port = 0): Promise<string> =>
  new Promise<string>((resolve, reject) => {
    server.keepAliveTimeout = 60_000
    server.once("error", reject)
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject)
      resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)
    })
  })

/** Closes the server and its open connections. */
export const close = (server: Server): Promise<void> =>
  new Promise<void>((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })
