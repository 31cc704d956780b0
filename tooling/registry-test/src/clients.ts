import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { run, type Ran } from "./exec.js"
import type { Registry } from "./registry.js"
import { tools } from "./workspace.js"

export type PackageManager = "npm" | "pnpm"

export interface Clients {
  readonly registryUrl: string
  /** pnpm's store for `pnpm add --store-dir` (a pnpm setting npm would warn about in .npmrc). */
  readonly pnpmStore: string
  /** The environment every child process gets: the registry, and caches inside the temp dir. */
  readonly env: NodeJS.ProcessEnv
  /** A project's `.npmrc`: the local registry and nothing else. */
  readonly projectNpmrc: string
  readonly npm: (args: ReadonlyArray<string>, cwd: string, timeoutMs: number) => Promise<Ran>
  readonly pnpm: (args: ReadonlyArray<string>, cwd: string, timeoutMs: number) => Promise<Ran>
  readonly npx: (args: ReadonlyArray<string>, cwd: string, timeoutMs: number) => Promise<Ran>
}

/**
 * npm and pnpm set up to use the local registry exclusively: a fresh HOME (so no ~/.npmrc or
 * global pnpm config applies), the registry in the user config, the environment and every
 * project's .npmrc, and their caches and pnpm's store inside `dir`, so nothing leaks in from
 * the machine or out to it.
 */
export const makeClients = (registry: Pick<Registry, "url">, dir: string, extraEnv: Readonly<Record<string, string>> = {}): Clients => {
  const home = join(dir, "home")
  mkdirSync(home, { recursive: true })
  const projectNpmrc = `registry=${registry.url}\n`
  writeFileSync(join(home, ".npmrc"), projectNpmrc)
  writeFileSync(join(dir, "npmrc-global"), "")

  const env: NodeJS.ProcessEnv = {
    // The parent's npm and pnpm settings (pnpm passes its own to scripts) must not apply.
    ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm|pnpm)_/i.test(key))),
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    npm_config_userconfig: join(home, ".npmrc"),
    npm_config_globalconfig: join(dir, "npmrc-global"),
    npm_config_registry: registry.url,
    npm_config_cache: join(dir, "npm-cache"),
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
    npm_config_loglevel: "warn",
    // Where native addons' prebuilt binaries are downloaded from (binaryMirror.ts).
    ...extraEnv
  }
  const options = (cwd: string, timeoutMs: number) => ({ cwd, env, timeoutMs })
  return {
    registryUrl: registry.url,
    pnpmStore: join(dir, "pnpm-store"),
    env,
    projectNpmrc,
    npm: (args, cwd, timeoutMs) => run("npm", args, options(cwd, timeoutMs)),
    pnpm: (args, cwd, timeoutMs) => run(process.execPath, [tools.pnpm, ...args], options(cwd, timeoutMs)),
    npx: (args, cwd, timeoutMs) => run("npx", args, options(cwd, timeoutMs))
  }
}
