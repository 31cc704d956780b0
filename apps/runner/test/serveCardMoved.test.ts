/**
 * `serve` of one of boardtool's factory triggers (card moved to a list) on the sandbox: a card
 * moved on the sandbox's Trello simulator fires it, and the workflow comments on the card.
 */
import { describe, expect, it } from "@effect/vitest"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort, served } from "./bin.js"

const board = "5eed00000000000000000002"
const [toDo, doing, done] = ["5eed00000000000000000003", "5eed00000000000000000004", "5eed00000000000000000005"]
const authorization = "OAuth oauth_consumer_key=\"sandbox-trello-key\", oauth_token=\"sandbox-trello-token\""

describe("x-runner serve, cardMoved", () => {
  it("a card moved to Done fires it (not a move to Doing), and the workflow comments on the card", async () => {
    const dir = mkdtempSync(join(tmpdir(), "x-runner-moved-"))
    const workflow = join(dir, "card-moved.json")
    writeFileSync(workflow, JSON.stringify({
      label: "Comment on every card moved to Done",
      triggers: [{ label: "A card moved to Done", name: "moved", type: "boardtool/v1/cardMoved", parameters: { idBoard: board, toList: done } }],
      tasks: [{
        label: "Say where it came from",
        name: "comment",
        type: "boardtool/v1/addComment",
        parameters: { idBoard: board, idCard: "${trigger.card.id}", text: "Moved from ${trigger.listBefore.name} to ${trigger.listAfter.name}" }
      }]
    }))
    const port = await freePort()
    const publicUrl = `http://127.0.0.1:${port}/hooks/moved`
    const server = served(["serve", workflow, "--sandbox", "--public-url", publicUrl, "--port", String(port), "--data-dir", join(dir, "data")])
    await server.waitFor("● serving boardtool/v1/cardMoved")
    const trello = /Trello simulator at (\S+) /.exec(server.log())![1]!
    const call = (method: string, path: string) => fetch(`${trello}${path}`, { method, headers: { authorization } })
    const card = await (await call("POST", `/cards?idList=${toDo}&name=Ship%20it`)).json() as { id: string }
    expect((await call("PUT", `/cards/${card.id}?idList=${doing}`)).status).toBe(200)
    expect((await call("PUT", `/cards/${card.id}?idList=${done}`)).status).toBe(200)
    await server.waitFor(/■ event [0-9a-f]{24} succeeded/)
    const comments = await (await call("GET", `/cards/${card.id}/actions?filter=commentCard`)).json() as Array<{ data: { text: string } }>
    expect(comments.map((c) => c.data.text)).toEqual(["Moved from Doing to Done"])
    // One event: the move to Doing was not this trigger's.
    expect(server.log().match(/■ event [0-9a-f]{24} succeeded/g)).toHaveLength(1)
    server.child.kill("SIGTERM")
    await server.waitFor("■ trigger disabled")
    await server.exited
  })
})
