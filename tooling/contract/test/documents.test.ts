/**
 * A contract suite whose document is missing: under CI it fails naming the path (a suite that
 * silently did not run would let CI pass while checking nothing); locally it is skipped with a
 * warning naming the path.
 */
import { afterEach, describe, expect, it, vi } from "@effect/vitest"
import { fileURLToPath } from "node:url"
import * as Contract from "../src/index.js"

const present = fileURLToPath(new URL("./fixtures/trelloish.json", import.meta.url))
const missing = fileURLToPath(new URL("./fixtures/no-such-document.json", import.meta.url))

afterEach(() => {
  vi.restoreAllMocks()
})

describe("Contract.documentsPresent", () => {
  it("documents that are there: true, in CI or not, with no warning", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    expect(Contract.documentsPresent(present, { CI: "true" })).toBe(true)
    expect(Contract.documentsPresent([present, present], {})).toBe(true)
    expect(warn).not.toHaveBeenCalled()
  })

  it("under CI a missing document is a failure that names its path", () => {
    for (const CI of ["true", "1", "TRUE"]) {
      expect(() => Contract.documentsPresent([present, missing], { CI })).toThrow(Contract.MissingDocument)
      expect(() => Contract.documentsPresent([present, missing], { CI })).toThrow(`contract document missing: ${missing}.`)
    }
  })

  it("outside CI a missing document skips the suite, saying so on stderr with its path", () => {
    for (const env of [{}, { CI: "" }, { CI: "false" }, { CI: "0" }]) {
      const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
      expect(Contract.documentsPresent([present, missing], env)).toBe(false)
      expect(warn).toHaveBeenCalledOnce()
      expect(warn.mock.calls[0]![0]).toContain(`CONTRACT SUITE SKIPPED`)
      expect(warn.mock.calls[0]![0]).toContain(missing)
      expect(warn.mock.calls[0]![0]).not.toContain(present)
      vi.restoreAllMocks()
    }
  })
})
