/**
 * A write the provider accepted but whose answer cannot be read: the step fails as any step
 * does (exit 1), with its own tag and a message that says not to repeat it, and is sent once.
 */
import { describe, expect, it } from "@effect/vitest"
import { mkdtempSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runner } from "./bin.js"

const dir = mkdtempSync(join(tmpdir(), "x-runner-accepted-"))

describe("a write whose answer cannot be read", () => {
  it("fails the step with AcceptedUnreadable (exit 1), quoting the answer, sent once; the steps after it skipped", async () => {
    const answer = JSON.stringify({ name: "Launch", desc: "", idBoard: "5eed00000000000000000001", idList: "5eed00000000000000000003" })
    let posts = 0
    // Trello as far as this step goes: it creates the card, and answers without its id.
    const trello = createServer((request, response) => {
      if (request.method === "POST" && request.url?.startsWith("/1/cards")) posts++
      request.resume()
      request.on("end", () => response.writeHead(200, { "content-type": "application/json" }).end(answer))
    })
    await new Promise<void>((resolve) => trello.listen(0, "127.0.0.1", resolve))
    try {
      const file = join(dir, "create.json")
      writeFileSync(file, JSON.stringify({
        label: "Create",
        tasks: [
          { label: "card", name: "card", type: "boardtool/v1/createCard", parameters: { idList: "5eed00000000000000000003", name: "Launch" } },
          { label: "again", name: "again", type: "boardtool/v1/getCard", parameters: { id: "${card.id}" } }
        ]
      }))
      const env = {
        XRUNNER_BOARDTOOL_KEY: "accepted-key-0123456789",
        XRUNNER_BOARDTOOL_TOKEN: "accepted-token-0123456789abcdef",
        XRUNNER_BOARDTOOL_BASE_URL: `http://127.0.0.1:${(trello.address() as AddressInfo).port}/1`
      }
      const outcome = await runner(["run", file, "--output", "json"], env)
      expect(outcome.code).toBe(1)
      const result = JSON.parse(outcome.stdout)
      expect(result.status).toBe("failed")
      expect(result.steps[0]).toMatchObject({ name: "card", status: "failed", error: { tag: "AcceptedUnreadable" } })
      expect(result.steps[0].error.message).toBe(
        "the provider accepted POST /cards (HTTP 200), but its answer could not be read (id: is missing): what it asked was most " +
          `likely done, so do not repeat it blindly; check at the provider first. It answered: ${answer}`
      )
      expect(result.steps[1]).toMatchObject({ name: "again", status: "skipped" })
      expect(posts).toBe(1)
    } finally {
      await new Promise((resolve) => trello.close(resolve))
    }
  })
})
