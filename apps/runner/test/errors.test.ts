/** The runner's errors: every class `Errors.ts` exports is one `main` recognizes and maps to an exit code. */
import { describe, expect, it } from "@effect/vitest"
import * as Errors from "../src/Errors.js"

// Every error class the module exports, found by what it is rather than listed again here.
const exported = Object.entries(Errors).filter(([, value]) => typeof value === "function" && value.prototype instanceof Error) as
  ReadonlyArray<[string, new(args: any) => unknown]>

describe("Errors", () => {
  it("every exported error class is a RunnerError: recognized, with an exit code and a message", () => {
    expect(exported.map(([name]) => name)).toEqual(expect.arrayContaining(["InvalidArguments", "StepFailed", "DamagedData"]))
    for (const [name, Class] of exported) {
      const error = new Class({ message: `${name} happened`, file: "w.json", issues: [{ path: "", message: "bad" }] })
      expect(Errors.isRunnerError(error), name).toBe(true)
      if (!Errors.isRunnerError(error)) continue
      expect([1, 2], name).toContain(Errors.exitCode(error))
      expect(Errors.messageOf(error), name).not.toBe("")
    }
    expect(Errors.classes).toHaveLength(exported.length)
  })

  it("anything else is not (an @effect/cli ValidationError, a plain Error, a look-alike tag)", () => {
    expect(Errors.isRunnerError(new Error("x"))).toBe(false)
    expect(Errors.isRunnerError({ _tag: "StepFailed", message: "forged" })).toBe(false)
    expect(Errors.isRunnerError(undefined)).toBe(false)
  })
})
