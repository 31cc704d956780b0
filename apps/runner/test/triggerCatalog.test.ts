/**
 * Every webhook trigger of boardtool/v1 end to end through the runner, from the built bundle:
 * `run <run workflow> --sandbox --serve <trigger workflow>` for each, the run workflow's steps
 * performing what fires the trigger (what must not fire it first), the simulator's signed
 * delivery verified by the served trigger, and its workflow run once on the event. The trigger
 * workflow's step writes the event's fields into a card's description (an updateCard: it fires
 * none of these triggers, where a comment would fire commentAdded again), which the test checks
 * against what the run made. A dynamic-webhook trigger added to the component without a case
 * here fails; `cardDueSoon` is polling, covered by servePolling.test.ts.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { boardtool } from "@x/boardtool"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runServing } from "./bin.js"

const dir = mkdtempSync(join(tmpdir(), "x-runner-trigger-catalog-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// The simulator's seeded records (`Simulator.seed`).
const roadmap = "5eed00000000000000000002"
const toDo = "5eed00000000000000000003"
const doing = "5eed00000000000000000004"
const done = "5eed00000000000000000005"
const launchPost = "5eed0000000000000000000a"
const yellow = "5eed00000000000000000102"
const red = "5eed00000000000000000104"
const alice = "5eed00000000000000000a01"
const mainWorkspace = "5eed0000000000000000a001"
const marketing = "5eed0000000000000000a002"

interface Case {
  readonly parameters: Record<string, unknown>
  /** The card the trigger's step writes on: the event's, or a seeded one when the event has none. */
  readonly card: string
  /** What the step writes: the event's fields, as `${trigger...}` references. */
  readonly says: string
  /** The run's steps: what does not fire the trigger first, then what does. */
  readonly tasks: ReadonlyArray<{ readonly name: string; readonly type: string; readonly parameters: Record<string, unknown> }>
  /** The description expected, from the run's outputs and the event's id. */
  readonly expected: (output: (name: string) => any, event: string) => string
}

const task = (name: string, type: string, parameters: Record<string, unknown>) => ({ label: name, name, type: `boardtool/v1/${type}`, parameters })
const newCard = task("card", "createCard", { idList: toDo, name: "Watched card" })

const cases: Record<string, Case> = {
  newCard: {
    parameters: { idBoard: roadmap },
    card: "${trigger.id}",
    says: "new ${trigger.name} in ${trigger.idList} on ${trigger.idBoard}",
    tasks: [task("other", "updateCard", { id: launchPost, name: "Launch post" }), newCard],
    expected: () => `new Watched card in ${toDo} on ${roadmap}`
  },
  cardMoved: {
    parameters: { idBoard: roadmap, toList: done },
    card: "${trigger.card.id}",
    says: "${trigger.action.id} ${trigger.action.type} ${trigger.card.id} ${trigger.listBefore.name} -> ${trigger.listAfter.name} (${trigger.card.idList})",
    tasks: [newCard, task("toDoing", "updateCard", { id: "${card.id}", idList: doing }), task("toDone", "moveCard", { id: "${card.id}", toBoard: roadmap, toList: done })],
    expected: (output, event) => `${event} updateCard ${output("card").id} Doing -> Done (${done})`
  },
  cardUpdated: {
    parameters: { idBoard: roadmap, fields: ["due"] },
    card: "${trigger.card.id}",
    says: "${trigger.action.id} ${trigger.card.id} ${trigger.card.name} due ${trigger.card.due}",
    tasks: [newCard, task("rename", "updateCard", { id: "${card.id}", name: "Renamed" }), task("due", "updateCard", { id: "${card.id}", due: "2026-12-01T10:00:00.000Z" })],
    expected: (output, event) => `${event} ${output("card").id} Renamed due 2026-12-01T10:00:00.000Z`
  },
  cardArchived: {
    parameters: { idBoard: roadmap },
    card: "${trigger.card.id}",
    says: "${trigger.action.id} ${trigger.card.id} closed ${trigger.card.closed}",
    tasks: [newCard, task("rename", "updateCard", { id: "${card.id}", name: "Renamed" }), task("archive", "archiveCard", { id: "${card.id}" })],
    expected: (output, event) => `${event} ${output("card").id} closed true`
  },
  commentAdded: {
    parameters: { idBoard: roadmap },
    card: "${trigger.card.id}",
    says: "${trigger.action.id} ${trigger.action.type} ${trigger.card.id}: ${trigger.text}",
    tasks: [newCard, task("comment", "addComment", { idCard: "${card.id}", text: "Looks good" })],
    expected: (output, event) => `${event} commentCard ${output("card").id}: Looks good`
  },
  labelAddedToCard: {
    parameters: { idBoard: roadmap, idLabel: red },
    card: "${trigger.card.id}",
    says: "${trigger.action.id} ${trigger.card.id} ${trigger.label.id} ${trigger.label.color}",
    tasks: [newCard, task("yellow", "addLabelToCard", { idCard: "${card.id}", idLabel: yellow }), task("red", "addLabelToCard", { idCard: "${card.id}", idLabel: red })],
    expected: (output, event) => `${event} ${output("card").id} ${red} red`
  },
  memberAddedToCard: {
    parameters: { idBoard: roadmap, idMember: alice },
    card: "${trigger.card.id}",
    says: "${trigger.action.id} ${trigger.card.id} ${trigger.member.id}",
    tasks: [newCard, task("assign", "addCardMember", { idCard: "${card.id}", idMember: alice })],
    expected: (output, event) => `${event} ${output("card").id} ${alice}`
  },
  attachmentAdded: {
    parameters: { idBoard: roadmap },
    card: "${trigger.card.id}",
    says: "${trigger.action.id} ${trigger.card.id} ${trigger.attachment.id} ${trigger.attachment.name} ${trigger.attachment.url}",
    tasks: [newCard, task("attach", "addAttachment", { idCard: "${card.id}", url: "https://example.com/spec.pdf", name: "Spec" })],
    expected: (output, event) => `${event} ${output("card").id} ${output("attach").id} Spec https://example.com/spec.pdf`
  },
  checklistItemCompleted: {
    parameters: { idBoard: roadmap },
    card: "${trigger.card.id}",
    says: "${trigger.action.id} ${trigger.card.id} ${trigger.checklist.id} ${trigger.checkItem.id} ${trigger.checkItem.name} ${trigger.checkItem.state}",
    tasks: [
      newCard,
      task("checklist", "createChecklist", { idCard: "${card.id}", name: "Release" }),
      task("item", "addChecklistItem", { idChecklist: "${checklist.id}", name: "Tag the build" }),
      task("tick", "updateChecklistItem", { idCard: "${card.id}", idCheckItem: "${item.id}", state: "complete" })
    ],
    expected: (output, event) => `${event} ${output("card").id} ${output("checklist").id} ${output("item").id} Tag the build complete`
  },
  newList: {
    parameters: { idBoard: roadmap },
    card: launchPost,
    says: "${trigger.action.id} ${trigger.list.id} ${trigger.list.name} on ${trigger.list.idBoard}",
    tasks: [task("list", "createList", { idBoard: roadmap, name: "Blocked" })],
    expected: (output, event) => `${event} ${output("list").id} Blocked on ${roadmap}`
  },
  newLabel: {
    parameters: { idBoard: roadmap },
    card: launchPost,
    says: "${trigger.action.id} ${trigger.label.id} ${trigger.label.name} ${trigger.label.color} on ${trigger.label.idBoard}",
    tasks: [task("label", "createLabel", { idBoard: roadmap, name: "Urgent", color: "red" })],
    expected: (output, event) => `${event} ${output("label").id} Urgent red on ${roadmap}`
  },
  newBoardInWorkspace: {
    parameters: { idOrganization: marketing },
    card: launchPost,
    says: "${trigger.action.id} ${trigger.action.type} ${trigger.board.id} ${trigger.board.name} (${trigger.board.desc}) in ${trigger.board.idOrganization}",
    tasks: [
      task("elsewhere", "createBoard", { name: "Elsewhere", idOrganization: mainWorkspace }),
      task("board", "createBoard", { name: "Campaigns", desc: "Q1", idOrganization: marketing })
    ],
    expected: (output, event) => `${event} createBoard ${output("board").id} Campaigns (Q1) in ${marketing}`
  },
  boardActivity: {
    parameters: { idBoard: roadmap, types: ["commentCard"] },
    card: "${trigger.data.card.id}",
    says: "${trigger.id} ${trigger.type} ${trigger.data.card.id}: ${trigger.data.text}",
    tasks: [newCard, task("rename", "updateCard", { id: "${card.id}", name: "Renamed" }), task("comment", "addComment", { idCard: "${card.id}", text: "Hello" })],
    expected: (output, event) => `${event} commentCard ${output("card").id}: Hello`
  }
}

const exercise = async (name: string, c: Case) => {
  const { output, stderr, stdout, trigger } = await runServing(dir, name, {
    type: `boardtool/v1/${name}`,
    parameters: c.parameters,
    reads: task("say", "updateCard", { id: c.card, desc: c.says })
  }, c.tasks)
  // The event's id is the Trello action's (a 24-hex id).
  expect(trigger.event, name).toMatch(/^[0-9a-f]{24}$/)
  expect(trigger.steps[0]!.output.desc, name).toBe(c.expected(output, trigger.event!))
  expect(stderr + stdout).not.toContain("sandbox-trello-secret")
}

describe("x-runner run --sandbox --serve: every webhook trigger of boardtool/v1", () => {
  it("has a case for each dynamic-webhook trigger (the polling ones: cardDueSoon in servePolling.test.ts, newNotification in boardNotifications.test.ts)", () => {
    const triggers = Object.values(boardtool.triggers)
    const webhooks = triggers.filter((t) => t.kind === "DYNAMIC_WEBHOOK").map((t) => t.name)
    expect(triggers.filter((t) => t.kind !== "DYNAMIC_WEBHOOK").map((t) => [t.name, t.kind])).toEqual([["cardDueSoon", "POLLING"], ["newNotification", "POLLING"]])
    expect(new Set(Object.keys(cases))).toEqual(new Set(webhooks))
  })

  it("fires each on what the run does, once, with the event's records, and runs its workflow", async () => {
    // A few at a time: each case is a runner process with its own simulator.
    const queue = Object.entries(cases)
    const failures: Array<unknown> = []
    await Promise.all(Array.from({ length: 4 }, async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        await exercise(...next).catch((error) => failures.push(error))
      }
    }))
    if (failures.length > 0) throw new Error(failures.map(String).join("\n\n"))
  })
})
