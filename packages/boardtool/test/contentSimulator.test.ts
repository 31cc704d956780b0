/** Comments, checklists and labels end to end: each action through the executor against the simulator, and what Trello records for it. */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Simulator from "../src/testing/simulator.js"
import { kit, simulatorConnection } from "./support.js"

const { seed } = Simulator
let sim: Simulator.Simulator
beforeAll(async () => {
  sim = await Simulator.start({ rateLimits: false })
})
afterAll(() => sim.close())

const { options, run } = kit.connected(() => simulatorConnection(sim))
/** The types of the actions recorded since `from` (an index in `sim.actions`). */
/** The latest action of this type. */
const lastAction = (type: string) => [...sim.actions].reverse().find((a) => a.type === type)!
const recordedSince = (from: number) => sim.actions.slice(from).map((a) => a.type)
// The card as Trello answers it (the actions output five of its fields).
const cardJson = (id: string) => Effect.promise(() => fetch(`${sim.baseUrl}/cards/${id}?key=${sim.key}&token=${sim.token}`).then((r) => r.json()))

describe("comments against the simulator", () => {
  it.live("add, list (paged), update, react, delete: each recorded, the card's comment count kept", () =>
    Effect.gen(function*() {
      const card = seed.cards.launchPost
      const from = sim.actions.length
      const added = yield* run("addComment", { idCard: card, text: "Draft is ready for review" })
      expect(added).toMatchObject({ type: "commentCard", idMemberCreator: seed.member, data: { text: "Draft is ready for review", card: { id: card, name: "Write the launch post" } } })
      expect((yield* cardJson(card)).badges.comments).toBe(1)
      for (let n = 1; n <= 60; n++) yield* run("addComment", { idCard: card, text: `note ${n}` })
      // Trello's pages are 50: the 61 comments take two, newest first.
      const listed = yield* run("listComments", { idCard: card, limit: 100 })
      expect(listed.comments).toHaveLength(61)
      expect(listed.comments[0].data.text).toBe("note 60")
      expect(listed.comments[60].id).toBe(added.id)
      expect((yield* run("listComments", { idCard: card, limit: 3 })).comments.map((c: any) => c.data.text)).toEqual(["note 60", "note 59", "note 58"])
      expect((yield* options("updateComment", "idAction", { idCard: card }))[0]).toEqual({ label: "note 60", value: listed.comments[0].id })

      const updated = yield* run("updateComment", { idCard: card, idAction: added.id, text: "Draft reviewed" })
      expect(updated).toMatchObject({ id: added.id, data: { text: "Draft reviewed" } })
      const reaction = yield* run("addReaction", { idCard: card, idAction: added.id, shortName: "thumbsup" })
      expect(reaction).toMatchObject({ idMember: seed.member, idModel: added.id, emoji: { unified: "1F44D", shortName: "+1" } })
      expect(yield* run("addReaction", { idAction: added.id, unified: "1f389" })).toMatchObject({ emoji: { shortName: "tada" } })
      expect(yield* run("deleteComment", { idCard: card, idAction: added.id })).toBeNull()
      expect((yield* cardJson(card)).badges.comments).toBe(60)
      expect(sim.reactions.size).toBe(0)

      const types = recordedSince(from)
      expect(types.filter((t) => t === "commentCard")).toHaveLength(60)
      expect(types.slice(-2)).toEqual(["updateComment", "deleteComment"])
      expect(lastAction("updateComment").data).toMatchObject({
        action: { id: added.id, text: "Draft reviewed" }, old: { text: "Draft is ready for review" }, card: { id: card }, board: { id: seed.boards.roadmap }
      })
    }))

  it.live("errors: a comment on another card is not found, an unknown emoji and an empty text are refused", () =>
    Effect.gen(function*() {
      const added = yield* run("addComment", { idCard: seed.cards.loginRedirect, text: "Reproduced" })
      expect(yield* Effect.flip(run("updateComment", { idCard: seed.cards.launchPost, idAction: added.id, text: "x" }))).toMatchObject({ _tag: "NotFound" })
      expect(yield* Effect.flip(run("addReaction", { idAction: added.id, shortName: "no_such_emoji" }))).toMatchObject({ _tag: "InvalidInput", message: "invalid emoji" })
      const before = sim.stats.requests
      expect(yield* Effect.flip(run("addComment", { idCard: seed.cards.loginRedirect, text: "" }))).toMatchObject({ _tag: "InvalidInput" })
      expect(yield* Effect.flip(run("addReaction", { idAction: added.id }))).toMatchObject({ _tag: "InvalidInput" })
      expect(sim.stats.requests).toBe(before)
    }))
})

describe("checklists against the simulator", () => {
  it.live("create, copy, add items, tick one, move, rename, delete: the card's badges and Trello's actions follow", () =>
    Effect.gen(function*() {
      const card = seed.cards.loginRedirect
      const from = sim.actions.length
      const list = yield* run("createChecklist", { idCard: card, name: "Release" })
      expect(list).toMatchObject({ name: "Release", idCard: card, idBoard: seed.boards.roadmap, checkItems: [] })
      const tag = yield* run("addChecklistItem", { idChecklist: list.id, name: "Tag the build", due: "2026-12-01T10:00:00Z", idMember: seed.member })
      expect(tag).toMatchObject({ idChecklist: list.id, name: "Tag the build", state: "incomplete", due: "2026-12-01T10:00:00.000Z", idMember: seed.member })
      const notes = yield* run("addChecklistItem", { idChecklist: list.id, name: "Write the notes", pos: "top", checked: true })
      expect(notes.state).toBe("complete")
      expect((yield* run("listCardChecklists", { idCard: card })).checklists[0].checkItems.map((i: any) => i.name)).toEqual(["Write the notes", "Tag the build"])
      expect(yield* options("updateChecklistItem", "idCheckItem", { idChecklist: list.id })).toEqual([
        { label: "Write the notes", value: notes.id }, { label: "Tag the build", value: tag.id }
      ])

      const done = yield* run("updateChecklistItem", { idCard: card, idCheckItem: tag.id, state: "complete" })
      expect(done.state).toBe("complete")
      const moved = yield* run("updateChecklistItem", { idCard: card, idCheckItem: tag.id, name: "Tag the release", pos: "top", state: "incomplete" })
      expect(moved).toMatchObject({ name: "Tag the release", state: "incomplete" })
      expect(moved.pos).toBeLessThan(notes.pos)
      const copy = yield* run("createChecklist", { idCard: seed.cards.launchPost, idChecklistSource: list.id })
      expect(copy).toMatchObject({ name: "Release", idCard: seed.cards.launchPost })
      expect(copy.checkItems.map((i: any) => [i.name, i.state])).toEqual([["Tag the release", "incomplete"], ["Write the notes", "complete"]])
      const json = yield* cardJson(card)
      expect(json.idChecklists).toEqual([list.id])
      expect(json.badges).toMatchObject({ checkItems: 2, checkItemsChecked: 1 })

      expect(yield* run("updateChecklist", { id: list.id, name: "Release steps" })).toMatchObject({ name: "Release steps" })
      expect(yield* run("deleteChecklistItem", { idChecklist: list.id, idCheckItem: notes.id })).toBeNull()
      expect(yield* run("deleteChecklist", { id: list.id })).toBeNull()
      expect((yield* cardJson(card)).badges).toMatchObject({ checkItems: 0, checkItemsChecked: 0 })
      expect(sim.checkItems.has(tag.id)).toBe(false)

      expect(recordedSince(from)).toEqual([
        "addChecklistToCard", "createCheckItem", "createCheckItem", "updateCheckItemStateOnCard", "updateCheckItem",
        "updateCheckItemStateOnCard", "addChecklistToCard", "updateChecklist", "deleteCheckItem", "removeChecklistFromCard"
      ])
      expect(lastAction("updateCheckItem").data).toMatchObject({
        checkItem: { id: tag.id, name: "Tag the release" }, checklist: { id: list.id }, card: { id: card }, old: { name: "Tag the build" }
      })
    }))

  it.live("errors: an item of another card, a member not on the board, an unknown checklist", () =>
    Effect.gen(function*() {
      const list = yield* run("createChecklist", { idCard: seed.cards.rotateKeys, name: "Keys" })
      const item = yield* run("addChecklistItem", { idChecklist: list.id, name: "Staging" })
      expect(yield* Effect.flip(run("updateChecklistItem", { idCard: seed.cards.launchPost, idCheckItem: item.id, state: "complete" }))).toMatchObject({ _tag: "NotFound" })
      expect(yield* Effect.flip(run("addChecklistItem", { idChecklist: list.id, name: "x", idMember: "5eed00000000000000000fff" }))).toMatchObject({ _tag: "InvalidInput", message: "invalid value for idMember" })
      expect(yield* Effect.flip(run("deleteChecklist", { id: "5eed00000000000000000ffe" }))).toMatchObject({ _tag: "NotFound" })
      expect(yield* Effect.flip(run("updateChecklistItem", { idCard: seed.cards.rotateKeys, idCheckItem: item.id }))).toMatchObject({ _tag: "InvalidInput" })
    }))
})

// The connection paces requests within Trello's 100 per 10 s per token: the comments above use most of a window.
describe("labels against the simulator", () => {
  it.live("seeded boards have Trello's six labels; create, update, put on a card by id or by name, remove, delete", () =>
    Effect.gen(function*() {
      const listed = yield* run("listBoardLabels", { idBoard: seed.boards.operations })
      expect(listed.labels.map((l: any) => [l.id, l.name, l.color])).toEqual(
        Object.entries(seed.labels.operations).map(([color, id]) => [id, "", color])
      )
      const from = sim.actions.length
      const card = seed.cards.rotateKeys
      const blocked = yield* run("createLabel", { idBoard: seed.boards.operations, name: "Blocked", color: "black" })
      expect(blocked).toMatchObject({ idBoard: seed.boards.operations, name: "Blocked", color: "black" })
      expect(yield* run("updateLabel", { id: blocked.id, color: "none" })).toMatchObject({ name: "Blocked", color: null })
      expect(yield* run("addLabelToCard", { idCard: card, idLabel: seed.labels.operations.red })).toMatchObject({ id: seed.labels.operations.red, color: "red" })
      // By name: the board's label is found (whatever its colour when none is given), or created.
      expect(yield* run("addLabelToCard", { idCard: card, name: "Blocked" })).toMatchObject({ id: blocked.id })
      const urgent = yield* run("addLabelToCard", { idCard: card, name: "Urgent", color: "orange" })
      expect(urgent).toMatchObject({ name: "Urgent", color: "orange", idBoard: seed.boards.operations })
      expect((yield* cardJson(card)).labels.map((l: any) => l.name)).toEqual(["", "Blocked", "Urgent"])
      expect(yield* run("removeLabelFromCard", { idCard: card, idLabel: seed.labels.operations.red })).toBeNull()
      expect(yield* run("deleteLabel", { id: blocked.id })).toBeNull()
      expect(sim.cards.get(card)!.idLabels).toEqual([urgent.id])
      expect(recordedSince(from)).toEqual([
        "createLabel", "updateLabel", "addLabelToCard", "addLabelToCard", "createLabel", "addLabelToCard", "removeLabelFromCard", "deleteLabel"
      ])
      expect(lastAction("updateLabel").data).toMatchObject({ label: { id: blocked.id, color: null }, old: { color: "black" } })
      expect(yield* options("removeLabelFromCard", "idLabel", { idBoard: seed.boards.operations })).toContainEqual({ label: "Urgent (orange)", value: urgent.id })
    }))

  it.live("errors: a label of another board, a label already on the card, an unknown label, a bad colour", () =>
    Effect.gen(function*() {
      const card = seed.cards.launchPost
      expect(yield* Effect.flip(run("addLabelToCard", { idCard: card, idLabel: seed.labels.operations.blue }))).toMatchObject({ _tag: "InvalidInput", message: "invalid value for value" })
      yield* run("addLabelToCard", { idCard: card, idLabel: seed.labels.roadmap.blue })
      expect(yield* Effect.flip(run("addLabelToCard", { idCard: card, idLabel: seed.labels.roadmap.blue }))).toMatchObject({ _tag: "InvalidInput", message: "that label is already on the card" })
      expect(yield* Effect.flip(run("addLabelToCard", { idCard: card, idLabel: "5eed00000000000000000ffd" }))).toMatchObject({ _tag: "NotFound" })
      expect(yield* Effect.flip(run("removeLabelFromCard", { idCard: card, idLabel: seed.labels.roadmap.yellow }))).toMatchObject({ _tag: "NotFound" })
      const before = sim.stats.requests
      expect(yield* Effect.flip(run("createLabel", { idBoard: seed.boards.roadmap, name: "x", color: "mauve" }))).toMatchObject({ _tag: "InvalidInput" })
      expect(yield* Effect.flip(run("addLabelToCard", { idCard: card }))).toMatchObject({ _tag: "InvalidInput" })
      expect(sim.stats.requests).toBe(before)
    }))
})
