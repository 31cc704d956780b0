import { spawn } from "node:child_process"

export interface Ran {
  readonly command: string
  readonly exitCode: number | null
  readonly stdout: string
  readonly stderr: string
  readonly timedOut: boolean
}

export interface RunOptions {
  readonly cwd: string
  readonly env: NodeJS.ProcessEnv
  readonly timeoutMs: number
}

/**
 * Runs a program without a shell and resolves with its exit code and output, never rejecting on
 * a non-zero exit: the tests assert on it. Asynchronous on purpose, since the registry these
 * programs talk to serves from this same process.
 */
export const run = (file: string, args: ReadonlyArray<string>, options: RunOptions): Promise<Ran> =>
  new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    let timedOut = false
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    const timer = setTimeout(() => {
      timedOut = true
      child.kill("SIGKILL")
    }, options.timeoutMs)
    child.on("error", (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.on("close", (exitCode) => {
      clearTimeout(timer)
      resolve({ command: [file, ...args].join(" "), exitCode, stdout, stderr, timedOut })
    })
  })

/** A failure message with everything needed to see why a program failed. */
export const describeRun = (ran: Ran, cwd?: string): string =>
  [
    `${ran.command}${cwd === undefined ? "" : ` (in ${cwd})`} ${
      ran.timedOut ? "timed out" : `exited with ${ran.exitCode}`
    }`,
    ran.stdout.trim() === "" ? "" : `stdout:\n${ran.stdout.trimEnd()}`,
    ran.stderr.trim() === "" ? "" : `stderr:\n${ran.stderr.trimEnd()}`
  ].filter((line) => line !== "").join("\n")

/** Runs a program and rejects with its output unless it exits 0. */
export const runOk = async (file: string, args: ReadonlyArray<string>, options: RunOptions): Promise<Ran> => {
  const ran = await run(file, args, options)
  if (ran.exitCode !== 0) throw new Error(describeRun(ran, options.cwd))
  return ran
}
