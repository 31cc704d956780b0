/**
 * Spawning the runner in tests: every child still running when its file's tests end (a test
 * that failed before it could stop it) is killed, so no server outlives the test run.
 */
import { afterAll } from "@effect/vitest"
import { type ChildProcessWithoutNullStreams, spawn as spawnProcess } from "node:child_process"

const running = new Set<ChildProcessWithoutNullStreams>()

afterAll(() => {
  for (const child of running) child.kill("SIGKILL")
})

export const spawn = (command: string, args: ReadonlyArray<string>): ChildProcessWithoutNullStreams => {
  const child = spawnProcess(command, args)
  running.add(child)
  child.once("exit", () => running.delete(child))
  return child
}
