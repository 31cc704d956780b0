import { spawn } from "node:child_process"
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { Clients } from "./clients.js"
import { describeRun } from "./exec.js"
import type { WorkspacePackage } from "./workspace.js"

export const runnerBin = "x-runner"

/** The workspace package that ships the `x-runner` bin, whatever it is named. */
export const findRunner = (packages: ReadonlyArray<WorkspacePackage>): WorkspacePackage | undefined =>
  packages.find((pkg) => typeof pkg.manifest.bin === "object" && runnerBin in pkg.manifest.bin)

interface Workflow {
  readonly label: string
  readonly tasks: ReadonlyArray<{ readonly name: string; readonly type: string }>
}

/**
 * What a user does first with the runner: in an empty directory, `npx --yes x-runner --help`,
 * then the runner's demo workflow on its sandbox (the simulators), then `serve` of a polling
 * workflow on its embedded database and `runs`, all from the registry.
 * Resolves with the problems found ([] = it works).
 */
export const proveRunner = async (runner: WorkspacePackage, dir: string, clients: Clients): Promise<ReadonlyArray<string>> => {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, ".npmrc"), clients.projectNpmrc)
  const demo = join(runner.dir, "examples", "demo.json")
  copyFileSync(demo, join(dir, "workflow.json"))
  const workflow = JSON.parse(readFileSync(demo, "utf8")) as Workflow

  const help = await clients.npx(["--yes", runnerBin, "--help"], dir, 240_000)
  if (help.exitCode !== 0) return [`npx ${runnerBin} --help failed:\n${describeRun(help)}`]
  const problems = help.stdout.includes("USAGE") && help.stdout.includes(`$ ${runnerBin}`)
    ? []
    : [`npx ${runnerBin} --help printed no usage:\n${help.stdout}`]

  const ran = await clients.npx(["--yes", runnerBin, "run", "workflow.json", "--sandbox"], dir, 120_000)
  if (ran.exitCode !== 0) return [...problems, `npx ${runnerBin} run workflow.json --sandbox failed:\n${describeRun(ran)}`]
  // The run's report: the workflow's verdict, then each task's, in the order they ran.
  const expected = [
    `${workflow.label}: succeeded`,
    ...workflow.tasks.map((task) => `${task.name} (${task.type}): succeeded`)
  ]
  const absent = expected.filter((line) => !ran.stdout.includes(line))
  if (absent.length > 0) {
    problems.push(`npx ${runnerBin} run --sandbox did not report ${absent.map((line) => `"${line}"`).join(", ")}:\n${ran.stdout}`)
  }

  // serve's embedded database (better-sqlite3, the one dependency, its prebuilt binary installed):
  // a polling workflow served until its first poll, stopped, then its history read.
  copyFileSync(join(runner.dir, "examples", "card-due-soon.json"), join(dir, "card-due-soon.json"))
  const served = await serveUntil(
    ["--yes", runnerBin, "serve", "card-due-soon.json", "--sandbox", "--data-dir", "data"],
    "○ baseline set",
    dir,
    clients,
    120_000
  )
  if (!served.reached) return [...problems, `npx ${runnerBin} serve never reached its baseline:\n${served.log}`]
  const runs = await clients.npx(["--yes", runnerBin, "runs", "--data-dir", "data", "--output", "json"], dir, 60_000)
  if (runs.exitCode !== 0 || runs.stdout.trim() !== "[]") problems.push(`npx ${runnerBin} runs did not list the (no) runs:\n${describeRun(runs)}`)
  return problems
}

/** Spawns npx until its output holds `text` (then SIGTERM) or the time is up: whether it did, and its output. */
const serveUntil = (args: ReadonlyArray<string>, text: string, cwd: string, clients: Clients, timeoutMs: number) =>
  new Promise<{ readonly reached: boolean; readonly log: string }>((resolve) => {
    // In a process group of its own: npx does not pass a signal on to the bin it runs.
    const child = spawn("npx", args, { cwd, env: clients.env, stdio: ["ignore", "pipe", "pipe"], detached: true })
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, name)
      } catch {
        // Already gone.
      }
    }
    let log = ""
    let reached = false
    const timer = setTimeout(() => signal("SIGKILL"), timeoutMs)
    const take = (chunk: Buffer) => {
      log += chunk.toString()
      if (!reached && log.includes(text)) {
        reached = true
        signal("SIGTERM")
      }
    }
    child.stdout.on("data", take)
    child.stderr.on("data", take)
    child.on("close", () => {
      clearTimeout(timer)
      resolve({ reached, log })
    })
  })
