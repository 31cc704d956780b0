import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { UndiciHttpClient } from "@x/http-undici"
import * as Effect from "effect/Effect"
import * as Simulator from "../src/testing/simulator.js"
import { newId } from "../src/testing/store.js"
import { kit, simulatorConnection } from "./support.js"

const { seed } = Simulator
let sim: Simulator.Simulator

beforeAll(async () => {
  sim = await Simulator.start({ rateLimits: false })
})
afterAll(() => sim.close())

const { run } = kit.connected(() => simulatorConnection(sim), UndiciHttpClient.layer)
const failure = (action: string, parameters: Record<string, unknown>) => Effect.flip(run(action, parameters))
/** The actions recorded after `from` (an index into sim.actions), as `type` and `data`. */
const recordedSince = (from: number) => sim.actions.slice(from).map((a) => ({ type: a.type, data: a.data }))
const label = (idBoard: string, name: string, color: string) => {
  const l = { id: newId(), idBoard, name, color }
  sim.labels.set(l.id, l)
  return l
}

describe("card actions against the simulator", () => {
  it.live("createCard with a position, dates, a member, a label and a link; getCard reads it back with its nested resources", () =>
    Effect.gen(function*() {
      const urgent = label(seed.boards.roadmap, "Urgent", "red")
      const created = yield* run("createCard", {
        idList: seed.lists.roadmapToDo, name: "Launch checklist", pos: "top", start: "2026-11-20T09:00:00Z", due: "2026-11-21T17:00:00Z",
        dueComplete: false, idMembers: [seed.member], idLabels: [urgent.id], urlSource: "https://example.com/spec"
      })
      const others = [...sim.cards.values()].filter((c) => c.idList === seed.lists.roadmapToDo && c.id !== created.id)
      expect(created.pos).toBeLessThan(Math.min(...others.map((c) => c.pos)))
      expect(created).toMatchObject({
        name: "Launch checklist", start: "2026-11-20T09:00:00.000Z", due: "2026-11-21T17:00:00.000Z", idMembers: [seed.member],
        idLabels: [urgent.id], labels: [{ id: urgent.id, name: "Urgent", color: "red" }]
      })
      const read = yield* run("getCard", { id: created.id, attachments: true, members: true, checklists: true, customFieldItems: true })
      expect(read).toMatchObject({
        id: created.id,
        attachments: [{ url: "https://example.com/spec", isUpload: false }],
        members: [{ id: seed.member, username: "simulated", fullName: "Simulated Member" }],
        checklists: [],
        customFieldItems: []
      })
      expect((yield* run("getCard", { id: created.id })).attachments).toBeUndefined()
    }))

  it.live("createCard refuses, with Trello's texts, a member who is not on the board and a label of another board", () =>
    Effect.gen(function*() {
      const stranger = { id: newId(), username: "stranger", fullName: "A Stranger", email: "s@example.com" }
      sim.members.set(stranger.id, stranger)
      const foreign = label(seed.boards.operations, "Ops", "blue")
      const before = sim.cards.size
      expect(yield* failure("createCard", { idList: seed.lists.roadmapToDo, idMembers: [stranger.id] }))
        .toMatchObject({ _tag: "InvalidInput", message: "invalid value for idMembers", status: 400 })
      expect(yield* failure("createCard", { idList: seed.lists.roadmapToDo, idLabels: [foreign.id] }))
        .toMatchObject({ _tag: "InvalidInput", message: "invalid value for idLabels" })
      expect(yield* failure("createCard", { idList: "61a0f0f0f0f0f0f0f0f0f0ff" })).toMatchObject({ _tag: "NotFound" })
      expect(sim.cards.size).toBe(before)
    }))

  it.live("updateCard changes what is given and records updateCard with the old values; members and labels as their own actions", () =>
    Effect.gen(function*() {
      const idea = label(seed.boards.roadmap, "Idea", "green")
      const card = yield* run("createCard", { idList: seed.lists.roadmapToDo, name: "Draft", due: "2026-12-01T00:00:00Z" })
      const from = sim.actions.length
      const updated = yield* run("updateCard", {
        id: card.id, name: "Final", desc: "Ready", removeDue: true, dueComplete: true, idMembers: [seed.member], idLabels: [idea.id],
        cover: { color: "sky", size: "full" }
      })
      expect(updated).toMatchObject({ name: "Final", desc: "Ready", due: null, dueComplete: true, idMembers: [seed.member], idLabels: [idea.id] })
      expect(sim.cards.get(card.id)!.cover).toEqual({ color: "sky", idAttachment: null, size: "full", brightness: "dark" })
      expect(recordedSince(from)).toEqual([
        {
          type: "updateCard",
          data: expect.objectContaining({
            card: expect.objectContaining({ id: card.id, name: "Final", desc: "Ready", due: null, dueComplete: true }),
            old: { name: "Draft", desc: "", due: "2026-12-01T00:00:00.000Z", dueComplete: false, cover: null },
            board: expect.objectContaining({ id: seed.boards.roadmap })
          })
        },
        { type: "addMemberToCard", data: expect.objectContaining({ idMember: seed.member, member: { id: seed.member, name: "Simulated Member" } }) },
        { type: "addLabelToCard", data: expect.objectContaining({ label: { id: idea.id, name: "Idea", color: "green" } }) }
      ])
      // [] removes them all.
      const cleared = yield* run("updateCard", { id: card.id, idLabels: [] })
      expect(cleared.idLabels).toEqual([])
      expect(sim.actions.at(-1)).toMatchObject({ type: "removeLabelFromCard" })
      expect(yield* failure("updateCard", { id: card.id, idList: seed.lists.operationsToDo }))
        .toMatchObject({ _tag: "InvalidInput", message: "invalid value for idList" })
    }))

  it.live("moveCard within a board records updateCard with listBefore/listAfter; to another board, the old board's labels and absent members go", () =>
    Effect.gen(function*() {
      const red = label(seed.boards.roadmap, "Red", "red")
      const card = yield* run("createCard", { idList: seed.lists.roadmapToDo, name: "Travelling", idLabels: [red.id], idMembers: [seed.member] })
      let from = sim.actions.length
      const moved = yield* run("moveCard", { id: card.id, toBoard: seed.boards.roadmap, toList: seed.lists.roadmapDone, pos: "top" })
      expect(moved).toMatchObject({ idList: seed.lists.roadmapDone, idLabels: [red.id] })
      expect(recordedSince(from)).toEqual([{
        type: "updateCard",
        data: expect.objectContaining({
          old: expect.objectContaining({ idList: seed.lists.roadmapToDo }),
          listBefore: { id: seed.lists.roadmapToDo, name: "To Do" },
          listAfter: { id: seed.lists.roadmapDone, name: "Done" }
        })
      }])
      from = sim.actions.length
      const away = yield* run("moveCard", { id: card.id, toBoard: seed.boards.operations, toList: seed.lists.operationsDoing })
      // The token's member is on both boards: kept; the Roadmap label is not on Operations: dropped.
      expect(away).toMatchObject({ idBoard: seed.boards.operations, idList: seed.lists.operationsDoing, idLabels: [], idMembers: [seed.member] })
      expect(recordedSince(from).map((a) => a.type)).toEqual(["moveCardFromBoard", "moveCardToBoard"])
      expect(sim.actions.at(-2)).toMatchObject({ idBoard: seed.boards.roadmap, data: { boardTarget: { id: seed.boards.operations } } })
      expect(sim.actions.at(-1)).toMatchObject({ idBoard: seed.boards.operations, data: { boardSource: { id: seed.boards.roadmap } } })
      // A list that is not on the board given: Trello's 400.
      expect(yield* failure("moveCard", { id: card.id, toBoard: seed.boards.roadmap, toList: seed.lists.operationsDone }))
        .toMatchObject({ _tag: "InvalidInput", message: "invalid value for idList" })
    }))

  it.live("archiveCard and unarchiveCard; listListCards and listBoardCards see open, archived or all cards", () =>
    Effect.gen(function*() {
      const card = yield* run("createCard", { idList: seed.lists.roadmapDoing, name: "Shelved" })
      const from = sim.actions.length
      expect(yield* run("archiveCard", { id: card.id })).toMatchObject({ closed: true })
      expect(recordedSince(from)).toEqual([{ type: "updateCard", data: expect.objectContaining({ card: expect.objectContaining({ closed: true }), old: { closed: false } }) }])
      const ids = (cards: ReadonlyArray<{ id: string }>) => cards.map((c) => c.id)
      expect(ids((yield* run("listListCards", { idList: seed.lists.roadmapDoing })).cards)).not.toContain(card.id)
      expect(ids((yield* run("listBoardCards", { idBoard: seed.boards.roadmap, filter: "closed" })).cards)).toContain(card.id)
      expect(ids((yield* run("listBoardCards", { idBoard: seed.boards.roadmap })).cards)).not.toContain(card.id)
      const all = (yield* run("listBoardCards", { idBoard: seed.boards.roadmap, filter: "all" })).cards
      expect(all.length).toBe([...sim.cards.values()].filter((c) => c.idBoard === seed.boards.roadmap).length)
      expect((yield* run("listBoardCards", { idBoard: seed.boards.roadmap, filter: "all", limit: 2 })).cards).toHaveLength(2)
      expect(yield* run("unarchiveCard", { id: card.id })).toMatchObject({ closed: false })
      const inList = (yield* run("listListCards", { idList: seed.lists.roadmapDoing })).cards
      expect(ids(inList)).toContain(card.id)
      // In their order.
      expect(inList.map((c: { pos: number }) => c.pos)).toEqual([...inList.map((c: { pos: number }) => c.pos)].sort((a, b) => a - b))
    }))

  it.live("copyCard keeps what is chosen and records copyCard; deleteCard removes it and records deleteCard", () =>
    Effect.gen(function*() {
      const source = yield* run("createCard", {
        idList: seed.lists.roadmapToDo, name: "Template", desc: "Steps", due: "2026-12-24T12:00:00Z", urlSource: "https://example.com/t"
      })
      let from = sim.actions.length
      const copy = yield* run("copyCard", { id: source.id, toBoard: seed.boards.operations, toList: seed.lists.operationsToDo, keep: ["attachments"] })
      expect(copy).toMatchObject({ name: "Template", desc: "Steps", due: null, idBoard: seed.boards.operations })
      expect([...sim.attachments.values()].filter((a) => a.idCard === copy.id).map((a) => a.url)).toEqual(["https://example.com/t"])
      expect(recordedSince(from)).toEqual([{
        type: "copyCard",
        data: expect.objectContaining({ card: expect.objectContaining({ id: copy.id }), cardSource: expect.objectContaining({ id: source.id }) })
      }])
      const whole = yield* run("copyCard", { id: source.id, toBoard: seed.boards.roadmap, toList: seed.lists.roadmapDone, name: "Second" })
      expect(whole).toMatchObject({ name: "Second", due: "2026-12-24T12:00:00.000Z" })
      from = sim.actions.length
      expect(yield* run("deleteCard", { id: copy.id })).toEqual({ id: copy.id, deleted: true })
      expect(sim.cards.has(copy.id)).toBe(false)
      expect(recordedSince(from)).toEqual([{ type: "deleteCard", data: expect.objectContaining({ card: expect.objectContaining({ id: copy.id }) }) }])
      expect(yield* failure("getCard", { id: copy.id })).toMatchObject({ _tag: "NotFound" })
    }))

  it.live("listCardActivity pages a busy card's 1200 actions by 50, newest first, up to the limit, and filters by type", () =>
    Effect.gen(function*() {
      const first = yield* run("listCardActivity", { id: seed.cards.rotateKeys, limit: 120 })
      expect(first.actions).toHaveLength(120)
      const dates = first.actions.map((a: { date: string }) => a.date)
      expect(dates).toEqual([...dates].sort().reverse())
      const all = yield* run("listCardActivity", { id: seed.cards.rotateKeys, limit: 5000 })
      // Trello reaches 20 pages of 50.
      expect(all.actions).toHaveLength(1000)
      const updates = yield* run("listCardActivity", { id: seed.cards.rotateKeys, filter: "updateCard", limit: 30 })
      expect(new Set(updates.actions.map((a: { type: string }) => a.type))).toEqual(new Set(["updateCard"]))
      expect(updates.actions).toHaveLength(30)
    }))
})

describe("vote actions against the simulator", () => {
  it.live("vote, list voters, a second vote refused, remove the vote; each recorded as voteOnCard", () =>
    Effect.gen(function*() {
      const from = sim.actions.length
      const params = { idCard: seed.cards.launchPost, idMember: seed.member }
      expect(yield* run("voteOnCard", params)).toEqual({ ...params, voted: true })
      expect(yield* run("listVoters", { idCard: seed.cards.launchPost })).toEqual({
        voters: [{ id: seed.member, username: "simulated", fullName: "Simulated Member" }]
      })
      expect(yield* failure("voteOnCard", params)).toMatchObject({ _tag: "InvalidInput", message: "member has already voted on the card" })
      expect(yield* run("removeVote", params)).toEqual({ ...params, voted: false })
      expect(yield* failure("removeVote", params)).toMatchObject({ _tag: "InvalidInput", message: "member has not voted on the card" })
      expect((yield* run("listVoters", { idCard: seed.cards.launchPost })).voters).toEqual([])
      expect(recordedSince(from)).toEqual([
        { type: "voteOnCard", data: expect.objectContaining({ voted: true, card: expect.objectContaining({ id: seed.cards.launchPost }) }) },
        { type: "voteOnCard", data: expect.objectContaining({ voted: false }) }
      ])
    }))
})
