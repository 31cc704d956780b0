/**
 * The board demo (`pnpm demo`'s second workflow): a card through a team's flow on the sandbox's
 * Product Roadmap, with a trigger workflow served in the same process (`run --serve`): the
 * card's move to Doing is delivered by the simulator, signed; the delivery is verified and the
 * `cardMoved` workflow runs once.
 */
import { describe, expect, it } from "@effect/vitest"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { runner, type RunDocument } from "./bin.js"

const example = (name: string) => fileURLToPath(new URL(`../examples/${name}`, import.meta.url))
const doing = "5eed00000000000000000004"
const alice = "5eed00000000000000000a01"

describe("x-runner run --serve (the board demo)", () => {
  it("runs the card's flow; the move fires the trigger and its workflow runs once, then the trigger is disabled", async () => {
    const { code, stderr, stdout } = await runner([
      "run", example("board.json"), "--sandbox", "--serve", example("card-moved.json"), "--output", "json"
    ])
    expect(code, stderr).toBe(0)
    const document = JSON.parse(stdout) as RunDocument
    expect(document.status).toBe("succeeded")
    expect(document.steps.map((step) => [step.name, step.status])).toEqual(
      ["card", "label", "checklist", "draft", "review", "drafted", "assign", "move", "comment", "result"].map((name) => [name, "succeeded"])
    )
    const output = (name: string) => document.steps.find((step) => step.name === name)!.output
    const card = output("card")
    // Read back: in Doing, labelled, assigned, its checklist's first item complete, the second not.
    const result = output("result")
    expect(result.id).toBe(card.id)
    expect(result.idList).toBe(doing)
    expect(result.due).toBe("2026-12-18T16:00:00.000Z")
    expect(result.labels).toEqual([expect.objectContaining({ name: "Release", color: "purple" })])
    expect(result.members.map((m: { id: string }) => m.id)).toEqual([alice])
    expect(result.checklists).toHaveLength(1)
    expect(result.checklists[0].checkItems.map((i: { name: string; state: string }) => [i.name, i.state])).toEqual([
      ["Draft the notes", "complete"],
      ["Have them reviewed", "incomplete"]
    ])
    expect(output("comment").data.text).toBe("Started: \"Draft the notes\" is done, \"Have them reviewed\" is next.")

    // The trigger: one event, the move (the simulator's Trello action, whose id is the event's),
    // its run commenting on that card with the lists the delivery named.
    const trigger = document.trigger!
    expect(trigger.type).toBe("boardtool/v1/cardMoved")
    expect(trigger.status).toBe("succeeded")
    expect(trigger.event).toMatch(/^[0-9a-f]{24}$/)
    expect(trigger.steps.map((step) => [step.name, step.status])).toEqual([["started", "succeeded"]])
    expect(trigger.steps[0]!.output.data.card.id).toBe(card.id)
    expect(trigger.steps[0]!.output.data.text).toBe(
      `Moved from To Do to Doing (action ${trigger.event}); Publish the v2 release notes is under way.`
    )
    expect(stderr.split("[trigger] ▶ event ").length - 1).toBe(1)
    expect(stderr).toContain(`[trigger] ■ event ${trigger.event} succeeded`)
    expect(stderr).toMatch(/\[trigger\] ● serving boardtool\/v1\/cardMoved at http:\/\/127\.0\.0\.1:\d+\/hooks\/cardMoved/)
    expect(stderr).toContain("[trigger] ■ trigger disabled")
    expect(stderr + stdout).not.toContain("sandbox-trello-secret")
  })

  it("a trigger that never fires fails the run (exit 1) after its wait, saying so", async () => {
    // Watches the Operations board, which the board demo does not touch.
    const dir = mkdtempSync(join(tmpdir(), "x-runner-board-"))
    const quiet = join(dir, "quiet.json")
    writeFileSync(quiet, JSON.stringify({
      label: "Cards on Operations",
      triggers: [{ label: "New card", name: "newCard", type: "boardtool/v1/newCard", parameters: { idBoard: "5eed00000000000000000006" } }],
      tasks: [{ label: "Read it", name: "read", type: "boardtool/v1/getCard", parameters: { id: "${trigger.id}" } }]
    }))
    // The trigger is enabled before the tasks run and the wait starts only after they end; the
    // demo never touches Operations, so no event exists to arrive, however slow the machine: a
    // second's wait (not the default 15 s) is enough to see the run fail for it, say so and
    // disable the trigger. (A wrong event delivered later than the wait would go unseen here; the
    // first test's trigger, which does fire, shows deliveries come within the default wait.)
    const { code, stderr, stdout } = await runner(["run", example("board.json"), "--sandbox", "--serve", quiet, "--serve-wait", "1 second"])
    expect(code, stderr).toBe(1)
    expect(stdout).toContain("Cards on Operations: boardtool/v1/newCard fired no event within 1s")
    expect(stderr).toContain("[trigger] ■ trigger disabled")
    // A wait that is not a positive duration, or without --serve, is refused before anything runs.
    const [zero, alone] = await Promise.all([
      runner(["run", example("board.json"), "--sandbox", "--serve", quiet, "--serve-wait", "0 seconds"]),
      runner(["run", example("board.json"), "--sandbox", "--serve-wait", "1 second"])
    ])
    expect(zero.code).toBe(2)
    expect(zero.stderr).toContain("--serve-wait 0 seconds: not a positive duration such as \"15 seconds\"")
    expect(alone.code).toBe(2)
    expect(alone.stderr).toContain("--serve-wait needs --serve")
    expect(zero.stderr + alone.stderr).not.toContain("▶ Board demo")
  })

  it("--serve is refused without --sandbox, and for a trigger the runner does not register (exit 2, nothing run)", async () => {
    const outside = await runner(["run", example("board.json"), "--serve", example("card-moved.json")])
    expect(outside.code).toBe(2)
    expect(outside.stderr).toContain("--serve needs --sandbox")
    const polling = await runner(["run", example("board.json"), "--sandbox", "--serve", example("card-due-soon.json")])
    expect(polling.code).toBe(2)
    expect(polling.stderr).toContain("boardtool/v1/cardDueSoon is not a webhook the runner registers")
    expect(polling.stderr).not.toContain("▶ Board demo")
  })
})
