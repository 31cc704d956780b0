import { mkdirSync } from "node:fs"
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { runServer } from "verdaccio"
import { setup as setupLogger } from "verdaccio/build/lib/logger/index.js"

export interface Registry {
  /** http://127.0.0.1:<port>/ */
  readonly url: string
  /** The publishing user's token (the registry and the token live only as long as the test). */
  readonly token: string
  readonly stop: () => Promise<void>
}

/**
 * A real npm registry (verdaccio 5, in this process) on 127.0.0.1 and a free port, storing in
 * `dir`. It has no uplinks, so whatever a client installs must have been published to it: a
 * package missing from the seed fails the install instead of coming from the public registry.
 */
export const startRegistry = async (dir: string): Promise<Registry> => {
  const storage = join(dir, "storage")
  mkdirSync(storage, { recursive: true })
  const config = {
    self_path: dir,
    storage,
    uplinks: {},
    packages: {
      "**": { access: "$all", publish: "$authenticated", unpublish: "$authenticated" }
    },
    auth: { htpasswd: { file: join(dir, "htpasswd"), max_users: 1 } },
    // effect and @effect/platform are about 5 MB packed; npm's publish body is base64 of that.
    max_body_size: "100mb",
    web: { enable: false },
    log: { type: "stdout", format: "pretty", level: "error" }
  }
  // runServer leaves the logger to the CLI, which would otherwise log every request at "http".
  setupLogger(config.log)
  const server = (await runServer(config as never)) as Server
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}/`
  const stop = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections()
      server.close((error) => (error ? reject(error) : resolve()))
    })
  try {
    return { url, token: await addUser(url), stop }
  } catch (error) {
    await stop()
    throw error
  }
}

/** Creates the one publishing user, as `npm adduser` does, and returns its token. */
const addUser = async (url: string): Promise<string> => {
  const name = "registry-test"
  const response = await fetch(new URL(`-/user/org.couchdb.user:${name}`, url), {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name, password: crypto.randomUUID(), type: "user", roles: [] })
  })
  const body = (await response.json()) as { readonly token?: string }
  if (!response.ok || body.token === undefined) {
    throw new Error(`verdaccio refused to create the publishing user: HTTP ${response.status}`)
  }
  return body.token
}
