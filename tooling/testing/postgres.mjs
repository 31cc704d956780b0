/**
 * A PostgreSQL of a test's own: PostgreSQL (Debian's, 15 here) initialised in a fresh temporary
 * directory and started on 127.0.0.1 at a free port (its socket in that directory too), with
 * trust authentication on loopback and a database created; `stop()` stops it and removes the
 * directory (so does the process's exit). PostgreSQL refuses to run as root, and tests run as
 * root here and in CI: then its commands run as the `postgres` user (`runuser`), in a directory
 * given to it. `.ci/run` installs PostgreSQL where it is missing.
 */
import { execFile, execFileSync, spawnSync } from "node:child_process"
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** The directory of PostgreSQL's programs: the newest Debian version's, else what PATH finds. */
const binDir = () => {
  const debian = "/usr/lib/postgresql"
  if (existsSync(debian)) {
    const versions = readdirSync(debian).filter((v) => existsSync(join(debian, v, "bin", "initdb"))).sort((a, b) => Number(b) - Number(a))
    if (versions.length > 0) return join(debian, versions[0], "bin")
  }
  const found = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" }).stdout.trim()
  if (found === "") throw new Error("PostgreSQL is not installed (no initdb): apt-get install postgresql (.ci/run does)")
  return found.replace(/\/initdb$/, "")
}

/** A free port below Linux's ephemeral range, which the tests' other servers (on port 0) take theirs from. */
const freePort = async () => {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000)
    const free = await new Promise((resolve) => {
      const server = createServer()
      server.once("error", () => resolve(false))
      server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)))
    })
    if (free) return port
  }
  throw new Error("no free port below the ephemeral range")
}

const asRoot = process.getuid?.() === 0

/** Runs a PostgreSQL program, as the postgres user when this process is root. */
const run = (program, args) => {
  const [command, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", program, ...args]] : [program, args]
  execFileSync(command, argv, { stdio: "pipe" })
}

/** As `run`, without blocking the process meanwhile (a test's load goes on). */
const runAsync = (program, args) => {
  const [command, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", program, ...args]] : [program, args]
  return new Promise((resolve, reject) => execFile(command, argv, (error) => error === null ? resolve() : reject(error)))
}

const running = new Set()
process.once("exit", () => {
  for (const stop of running) stop()
})

/**
 * Starts one (a few seconds); several may run at once.
 */
export const startPostgres = async (database = "xrunner") => {
  const bin = binDir()
  const dir = mkdtempSync(join(tmpdir(), "x-pg-"))
  const data = join(dir, "data")
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim())
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim())
    chownSync(dir, uid, gid)
  }
  chmodSync(dir, 0o700)
  run(join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"])
  const port = await freePort()
  // fsync off: a test's database need not survive a power cut, and its commits are then fast.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`
  // A stall bound (a few seconds alone), generous for two test runs on two cores.
  const startArgs = ["-D", data, "-l", join(dir, "log"), "-o", options, "-w", "-t", "180", "start"]
  run(join(bin, "pg_ctl"), startArgs)
  const stopNow = () => {
    try {
      run(join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"])
    } catch {
      // Already stopped.
    }
    rmSync(dir, { recursive: true, force: true })
  }
  running.add(stopNow)
  run(join(bin, "createdb"), ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", database])
  return {
    url: `postgres://postgres@127.0.0.1:${port}/${database}`,
    port,
    // Stopped as an administrator stops it (its sessions ended, what they had not committed
    // rolled back), then started again on the same data directory and port.
    restart: async () => {
      await runAsync(join(bin, "pg_ctl"), ["-D", data, "-m", "fast", "-w", "-t", "180", "stop"])
      await runAsync(join(bin, "pg_ctl"), startArgs)
    },
    stop: async () => {
      running.delete(stopNow)
      stopNow()
    }
  }
}
