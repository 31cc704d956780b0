/**
 * Whether a contract suite's provider documents are there. They live beside the repository
 * (../shared/specs), so a checkout without them cannot run the contract suites. Under CI that
 * is a failure naming the missing path: a suite that silently did not run would pass CI while
 * checking nothing. Elsewhere the suite is skipped, with a warning that says so.
 */
import { existsSync } from "node:fs"

/** Thrown under CI when a contract suite's document is missing: the suite fails instead of skipping. */
export class MissingDocument extends Error {
  override readonly name = "MissingDocument"
  constructor(readonly paths: ReadonlyArray<string>) {
    super(
      `contract document missing: ${paths.join(", ")}. Under CI every contract suite must run: ` +
        "put the providers' documents in ../shared/specs beside the repository."
    )
  }
}

/** `CI` as CI services and .ci/run set it ("true", "1"); unset, empty, "false" or "0" is not CI. */
export const isCi = (env: Readonly<Record<string, string | undefined>> = process.env): boolean => {
  const value = env["CI"]?.trim().toLowerCase()
  return value !== undefined && value !== "" && value !== "false" && value !== "0"
}

/**
 * Whether every document is there: what a contract suite's `describe.runIf` asks. A missing one
 * throws `MissingDocument` under CI (the test file fails, naming the path); elsewhere it is
 * `false` after a warning on stderr naming the path, so a local run without ../shared says
 * what it did not check.
 */
export const documentsPresent = (
  paths: string | ReadonlyArray<string>,
  env: Readonly<Record<string, string | undefined>> = process.env
): boolean => {
  const missing = (typeof paths === "string" ? [paths] : paths).filter((path) => !existsSync(path))
  if (missing.length === 0) return true
  if (isCi(env)) throw new MissingDocument(missing)
  console.warn(`\n⚠ CONTRACT SUITE SKIPPED (not run, checks nothing): missing ${missing.join(", ")}\n` +
    "  Put the providers' documents in ../shared/specs to run it; under CI=true this is a failure.\n")
  return false
}
