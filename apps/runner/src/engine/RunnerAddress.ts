/**
 * Where this runner is reached by the other runners of its cluster (`--runner-address`).
 *
 * @since 0.3.0
 */
import * as Effect from "effect/Effect"
import { createServer } from "node:net"
import { InvalidArguments } from "../Errors.js"
import type * as Engine from "./Engine.js"

const freePort = (host: string) =>
  Effect.async<number, InvalidArguments>((resume) => {
    const server = createServer()
    server.once("error", (error) => resume(Effect.fail(new InvalidArguments({ message: `no free port on ${host}: ${error.message}` }))))
    server.listen(0, host, () => {
      const { port } = server.address() as { port: number }
      server.close(() => resume(Effect.succeed(port)))
    })
  })

/**
 * How the other runners of a cluster reach this one: `--runner-address host:port`, by default
 * 127.0.0.1 on a free port (runners on one machine).
 *
 * @since 0.3.0
 * @category constructors
 */
export const runnerAddress = (given: string | undefined): Effect.Effect<Engine.ClusterOptions, InvalidArguments> =>
  Effect.gen(function*() {
    const shardLockExpiration = "5 seconds"
    if (given === undefined) return { host: "127.0.0.1", port: yield* freePort("127.0.0.1"), shardLockExpiration }
    const match = /^(.+):(\d{1,5})$/.exec(given)
    const port = Number(match?.[2])
    if (match === null || !(port > 0 && port < 65536)) {
      return yield* new InvalidArguments({ message: `--runner-address ${given}: not host:port (e.g. 10.0.0.5:34431)` })
    }
    return { host: match[1]!.replace(/^\[|\]$/g, ""), port, shardLockExpiration }
  })
