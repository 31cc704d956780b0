/**
 * `--sandbox-fault "<component> <METHOD> <path> <status> x<times>"`: the sandbox's simulator fails
 * those requests on purpose, before they have any effect, and says on stderr how often each
 * fault fired. What reaches a step is what the HTTP client's own retries leave: core's
 * RetryPolicy retries a POST (4 times at most, from 250 ms, doubling) only when the provider
 * provably did not process it (429, 503), never after a 500, 502 or 504.
 */
import { describe, expect, it } from "@effect/vitest"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type RunDocument, runner } from "./bin.js"

const dir = mkdtempSync(join(tmpdir(), "x-runner-sandbox-fault-"))
const workflow = join(dir, "card.json")
writeFileSync(
  workflow,
  JSON.stringify({
    label: "One card",
    tasks: [{ label: "Create a card", name: "card", type: "boardtool/v1/createCard", parameters: { idList: "5eed00000000000000000003", name: "Retried" } }]
  })
)
const run = (...faults: ReadonlyArray<string>) =>
  runner(["run", workflow, "--sandbox", "--output", "json", ...faults.flatMap((fault) => ["--sandbox-fault", fault])])

describe("--sandbox-fault", () => {
  it("two 503s of POST /1/cards are absorbed by the client's retries; five (its 1 + 4 attempts) reach the step", async () => {
    const absorbed = await run("boardtool POST /1/cards 503 x2")
    expect(absorbed.stderr).toContain("sandbox: boardtool POST /1/cards 503 x2 fired 2 times")
    expect(absorbed.code).toBe(0)
    expect((JSON.parse(absorbed.stdout) as RunDocument).steps[0]).toMatchObject({ name: "card", status: "succeeded", output: { name: "Retried" } })

    const exhausted = await run("boardtool POST /1/cards 503 x5")
    expect(exhausted.stderr).toContain("sandbox: boardtool POST /1/cards 503 x5 fired 5 times")
    expect(exhausted.code).toBe(1)
    expect((JSON.parse(exhausted.stdout) as RunDocument).steps[0]).toMatchObject({
      name: "card",
      status: "failed",
      error: { tag: "UpstreamUnavailable", message: "Service Unavailable" }
    })
  })

  it("a 502 of a POST reaches the step at once (the client does not retry a write the provider may have done); other requests are not met", async () => {
    const failed = await run("boardtool POST /1/cards 502 x1", "boardtool POST /1/lists 500 x1", "sitebuilder GET /v2/sites 500 x1")
    expect(failed.code).toBe(1)
    expect((JSON.parse(failed.stdout) as RunDocument).steps[0]).toMatchObject({ status: "failed", error: { tag: "UpstreamUnavailable", message: "Bad Gateway" } })
    expect(failed.stderr).toContain("sandbox: boardtool POST /1/cards 502 x1 fired 1 time\n")
    expect(failed.stderr).toContain("sandbox: boardtool POST /1/lists 500 x1 fired 0 times")
    expect(failed.stderr).toContain("sandbox: sitebuilder GET /v2/sites 500 x1 fired 0 times")
  })

  it("refuses, exit 2 and nothing run, a fault it cannot read, of a component the sandbox lacks, or without --sandbox", async () => {
    const refusals: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
      [["--sandbox", "--sandbox-fault", "boardtool POST /1/cards 503"], `--sandbox-fault "boardtool POST /1/cards 503": expected "<component> <METHOD> <path> <status> x<times>"`],
      [["--sandbox", "--sandbox-fault", "boardtool POST /1/cards 404 x2"], `--sandbox-fault "boardtool POST /1/cards 404 x2": the status is one of 429, 500, 502, 503, 504`],
      [["--sandbox", "--sandbox-fault", "trello POST /1/cards 503 x2"], `the sandbox has no component trello`],
      [["--sandbox-fault", "boardtool POST /1/cards 503 x2"], "--sandbox-fault needs --sandbox"]
    ]
    const refused = await Promise.all(refusals.map(([args]) => runner(["run", workflow, ...args])))
    refusals.forEach(([, message], i) => {
      expect(refused[i]!.code).toBe(2)
      expect(refused[i]!.stderr).toContain(message)
      expect(refused[i]!.stderr).not.toContain("card succeeded")
    })
  })
})
