import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { run, runOk, type Ran } from "./exec.js"
import type { Registry } from "./registry.js"
import { tools } from "./workspace.js"

export type PackageManager = "npm" | "pnpm"

export interface Clients {
  readonly registryUrl: string
  /** The environment every child process gets: the registry, and caches inside the temp dir. */
  readonly env: NodeJS.ProcessEnv
  /** A project's `.npmrc`: the local registry and nothing else. */
  readonly projectNpmrc: string
  readonly npm: (args: ReadonlyArray<string>, cwd: string, timeoutMs: number) => Promise<Ran>
  readonly pnpm: (args: ReadonlyArray<string>, cwd: string, timeoutMs: number) => Promise<Ran>
  readonly npx: (args: ReadonlyArray<string>, cwd: string, timeoutMs: number) => Promise<Ran>
  /** Publishes a tarball with the registry's token (kept in a private .npmrc, never in argv). */
  readonly publish: (tarball: string) => Promise<Ran>
}

/**
 * npm and pnpm set up to use the local registry exclusively: a fresh HOME (so no ~/.npmrc or
 * global pnpm config applies), the registry in the user config, the environment and every
 * project's .npmrc, and their caches and pnpm's store inside `dir`, so nothing leaks in from
 * the machine or out to it.
 */
export const makeClients = (registry: Registry, dir: string): Clients => {
  const home = join(dir, "home")
  const publishDir = join(dir, "publish")
  for (const path of [home, publishDir]) mkdirSync(path, { recursive: true })
  const projectNpmrc = `registry=${registry.url}\n`
  writeFileSync(join(home, ".npmrc"), projectNpmrc)
  writeFileSync(join(dir, "npmrc-global"), "")
  const authLine = `//${new URL(registry.url).host}/:_authToken=${registry.token}\n`
  writeFileSync(join(publishDir, ".npmrc"), projectNpmrc + authLine, { mode: 0o600 })

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
    npm_config_store_dir: join(dir, "pnpm-store"),
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
    npm_config_loglevel: "warn"
  }
  const options = (cwd: string, timeoutMs: number) => ({ cwd, env, timeoutMs })
  return {
    registryUrl: registry.url,
    env,
    projectNpmrc,
    npm: (args, cwd, timeoutMs) => run("npm", args, options(cwd, timeoutMs)),
    pnpm: (args, cwd, timeoutMs) => run(process.execPath, [tools.pnpm, ...args], options(cwd, timeoutMs)),
    npx: (args, cwd, timeoutMs) => run("npx", args, options(cwd, timeoutMs)),
    publish: (tarball) =>
      runOk("npm", ["publish", tarball, "--ignore-scripts", "--registry", registry.url], options(publishDir, 120_000))
  }
}
