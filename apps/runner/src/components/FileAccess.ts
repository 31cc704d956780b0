/**
 * The file policy of `run` and `serve` (core's `FilePolicy`), from their flags: `--files-dir`
 * (`run`: the current directory by default; `serve`: none, so every path input and download is
 * refused until one is given) and `--allow-private-networks`. The origins of the connections'
 * base URLs stay reachable whatever the flag says: the sandbox's simulators, whose presigned
 * URLs point at them, or a provider the operator pointed a connection at (its client reaches
 * that origin with credentials already); nothing else on a private network is.
 *
 * @since 0.3.0
 */
import * as FileSystem from "@effect/platform/FileSystem"
import type { FilePolicy } from "@x/core"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { resolve } from "node:path"
import type { ConnectionValues } from "./ConnectionValues.js"
import { InvalidArguments } from "../Errors.js"

/**
 * The flags, as parsed.
 *
 * @since 0.3.0
 * @category models
 */
export interface Flags {
  readonly filesDir: Option.Option<string>
  readonly allowPrivateNetworks: boolean
}

/**
 * The policy of a command: its files directory (checked to be one, made absolute: the engine's
 * thread gets it as data), private networks as the flag says, the connections' origins allowed.
 *
 * @since 0.3.0
 * @category constructors
 */
export const policy = (
  command: "run" | "serve",
  flags: Flags,
  connections: ConnectionValues
): Effect.Effect<FilePolicy.Policy, InvalidArguments, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const given = Option.getOrUndefined(flags.filesDir)
    const directory = given ?? (command === "run" ? process.cwd() : undefined)
    if (given !== undefined) {
      const fs = yield* FileSystem.FileSystem
      const info = yield* Effect.option(fs.stat(given))
      if (Option.isNone(info) || info.value.type !== "Directory") {
        return yield* new InvalidArguments({ message: `--files-dir ${given}: not a directory` })
      }
    }
    return {
      files: directory === undefined ? "nowhere" as const : { directory: resolve(directory) },
      privateNetworks: flags.allowPrivateNetworks,
      allowedOrigins: originsOf(connections)
    }
  })

/** The origins of the connections' base URLs (the sandbox's: its simulators, and the storage they serve under them). */
const originsOf = (connections: ConnectionValues): ReadonlyArray<string> =>
  [...connections.values()].flatMap((values) => {
    try {
      return typeof values["baseUrl"] === "string" ? [new URL(values["baseUrl"]).origin] : []
    } catch {
      return []
    }
  })
