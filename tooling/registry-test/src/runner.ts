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
 * then the runner's demo workflow on its sandbox (the simulators), both from the registry.
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
  return absent.length === 0
    ? problems
    : [...problems, `npx ${runnerBin} run --sandbox did not report ${absent.map((line) => `"${line}"`).join(", ")}:\n${ran.stdout}`]
}
