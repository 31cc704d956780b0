/** Members, attachments and custom fields end to end: each action through the executor against the simulator, its change and the Trello action it records. */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { UndiciHttpClient } from "@x/http-undici"
import * as Effect from "effect/Effect"
import * as Simulator from "../src/testing/simulator.js"
import { kit, simulatorConnection } from "./support.js"

const { seed } = Simulator
let sim: Simulator.Simulator

beforeAll(async () => {
  sim = await Simulator.start({ rateLimits: false })
})
afterAll(() => sim.close())

const { run } = kit.connected(() => simulatorConnection(sim), UndiciHttpClient.layer)
const failure = (action: string, parameters: Record<string, unknown>) =>
  Effect.map(Effect.flip(run(action, parameters)), (error) => [error._tag, error.message])
/** The last action of this type the simulator recorded. */
const lastAction = (type: string) => sim.actions.filter((a) => a.type === type).at(-1)
const roadmap = seed.boards.roadmap
const card = seed.cards.launchPost

describe("members against the simulator", () => {
  it.effect("getMe, getMember by username and id, searchMembers ranks the board's members first", () =>
    Effect.gen(function*() {
      expect(yield* run("getMe", {})).toMatchObject({ id: seed.member, username: "simulated", email: "simulated@example.com" })
      expect(yield* run("getMember", { idMember: "carol" })).toMatchObject({ id: seed.members.carol, fullName: "Carol Diaz", initials: "CD" })
      expect(yield* run("getMember", { idMember: seed.members.bob })).toMatchObject({ username: "bob" })
      expect(yield* failure("getMember", { idMember: "nobody" })).toEqual(["NotFound", "The requested resource was not found."])
      const found = (yield* run("searchMembers", { query: "example.com", idBoard: roadmap, limit: 3 })) as { members: Array<{ id: string }> }
      expect(found.members.length).toBe(3)
      expect(found.members.slice(0, 2).map((m) => m.id).sort()).toEqual([seed.member, seed.members.alice].sort())
    }))

  it.effect("a board's members: add by id with a role (then change it), invite by email, remove; each recorded", () =>
    Effect.gen(function*() {
      const before = (yield* run("listBoardMembers", { idBoard: roadmap })) as { members: Array<{ username: string }> }
      expect(before.members.map((m) => m.username).sort()).toEqual(["alice", "simulated"])

      const added = (yield* run("addBoardMember", { idBoard: roadmap, idMember: seed.members.carol, type: "observer" })) as {
        memberships: Array<{ idMember: string; memberType: string }>
      }
      expect(added.memberships).toContainEqual(expect.objectContaining({ idMember: seed.members.carol, memberType: "observer" }))
      expect(lastAction("addMemberToBoard")).toMatchObject({
        idBoard: roadmap,
        data: { idMember: seed.members.carol, member: { id: seed.members.carol, name: "Carol Diaz" }, board: { id: roadmap } }
      })
      yield* run("addBoardMember", { idBoard: roadmap, idMember: seed.members.carol, type: "admin" })
      expect(lastAction("makeAdminOfBoard")).toMatchObject({ data: { idMember: seed.members.carol, memberType: "admin" } })

      const invited = (yield* run("addBoardMember", { idBoard: roadmap, email: "erin@example.com", fullName: "Erin New" })) as {
        members: Array<{ id: string; fullName: string }>
        memberships: Array<{ idMember: string; unconfirmed: boolean }>
      }
      const erin = invited.members.find((m) => m.fullName === "Erin New")!
      expect(invited.memberships).toContainEqual(expect.objectContaining({ idMember: erin.id, unconfirmed: true }))

      yield* run("removeBoardMember", { idBoard: roadmap, idMember: erin.id })
      expect(lastAction("removeMemberFromBoard")).toMatchObject({ data: { idMember: erin.id, member: { name: "Erin New" } } })
      expect(yield* failure("removeBoardMember", { idBoard: roadmap, idMember: erin.id })).toEqual(["InvalidInput", "member not on board"])
      expect(yield* failure("addBoardMember", { idBoard: roadmap, idMember: "5eed00000000000000000fff", type: "normal" })).toEqual([
        "NotFound",
        "The requested resource was not found."
      ])
      yield* run("removeBoardMember", { idBoard: roadmap, idMember: seed.members.carol })
    }))

  it.effect("a card's members: add a board's member, refuse one who is not on the board, list, remove; each recorded", () =>
    Effect.gen(function*() {
      const added = (yield* run("addCardMember", { idBoard: roadmap, idCard: card, idMember: seed.members.alice })) as { members: Array<{ id: string }> }
      expect(added.members.map((m) => m.id)).toEqual([seed.members.alice])
      expect(lastAction("addMemberToCard")).toMatchObject({
        data: { idMember: seed.members.alice, member: { name: "Alice Martin" }, card: { id: card }, list: { id: seed.lists.roadmapToDo }, board: { id: roadmap } }
      })
      // Bob observes Operations, not the Roadmap; Carol is on no board.
      expect(yield* failure("addCardMember", { idCard: card, idMember: seed.members.bob })).toEqual(["InvalidInput", "member not on board"])
      expect(yield* failure("addCardMember", { idCard: card, idMember: seed.members.carol })).toEqual(["InvalidInput", "member not on board"])
      expect(yield* run("listCardMembers", { idCard: card })).toMatchObject({ members: [{ id: seed.members.alice, username: "alice" }] })

      yield* run("removeCardMember", { idCard: card, idMember: seed.members.alice })
      expect(lastAction("removeMemberFromCard")).toMatchObject({ data: { idMember: seed.members.alice, card: { id: card } } })
      expect(yield* run("listCardMembers", { idCard: card })).toEqual({ members: [] })
      expect(yield* failure("removeCardMember", { idCard: card, idMember: seed.members.alice })).toEqual(["InvalidInput", "member is not on the card"])
    }))
})

describe("attachments against the simulator", () => {
  it.effect("list, get, delete (recorded as deleteAttachmentFromCard); the deleted one is gone", () =>
    Effect.gen(function*() {
      const link = (yield* run("addAttachment", { idCard: card, url: "https://example.test/spec", name: "Spec" })) as { id: string }
      const listed = (yield* run("listAttachments", { idCard: card })) as { attachments: Array<{ id: string }> }
      expect(listed.attachments.map((a) => a.id)).toContain(link.id)
      expect(yield* run("getAttachment", { idCard: card, idAttachment: link.id })).toMatchObject({ id: link.id, name: "Spec", isUpload: false })
      expect(yield* run("deleteAttachment", { idCard: card, idAttachment: link.id })).toBeNull()
      expect(lastAction("deleteAttachmentFromCard")).toMatchObject({ data: { attachment: { id: link.id, name: "Spec" }, card: { id: card } } })
      expect(yield* failure("getAttachment", { idCard: card, idAttachment: link.id })).toEqual(["NotFound", "The requested resource was not found."])
      // Another card's attachment is not this card's.
      const other = (yield* run("addAttachment", { idCard: seed.cards.rotateKeys, url: "https://example.test/keys" })) as { id: string }
      expect(yield* failure("deleteAttachment", { idCard: card, idAttachment: other.id })).toEqual(["NotFound", "The requested resource was not found."])
    }))
})

describe("custom fields against the simulator", () => {
  it.effect("the Roadmap's seeded fields; create a list field with options, delete it; both recorded", () =>
    Effect.gen(function*() {
      const listed = (yield* run("listCustomFields", { idBoard: roadmap })) as { customFields: Array<{ name: string; type: string }> }
      expect(listed.customFields.map((f) => `${f.name}:${f.type}`)).toEqual([
        "Priority:list", "Estimate (days):number", "Release date:date", "Reviewed:checkbox", "Notes:text"
      ])
      const created = (yield* run("createCustomField", { idBoard: roadmap, name: "Team", type: "list", options: ["Web", "Mobile"] })) as {
        id: string
        options: Array<{ value: { text: string } }>
      }
      expect(created.options.map((o) => o.value.text)).toEqual(["Web", "Mobile"])
      expect(lastAction("createCustomField")).toMatchObject({ data: { customField: { id: created.id, name: "Team", type: "list" }, board: { id: roadmap } } })
      yield* run("deleteCustomField", { idCustomField: created.id })
      expect(lastAction("deleteCustomField")).toMatchObject({ data: { customField: { id: created.id } } })
      expect(sim.customFields.has(created.id)).toBe(false)
      expect(yield* failure("deleteCustomField", { idCustomField: created.id })).toEqual(["NotFound", "The requested resource was not found."])
    }))

  it.effect("set a card's values of each kind (typed by the field), read them back; updateCustomFieldItem records the old value", () =>
    Effect.gen(function*() {
      const { customFields: f, priorityOptions } = seed
      const set = (idCustomField: string, value: object, idCard: string = card) =>
        run("setCardCustomFieldValue", { idBoard: roadmap, idCard, idCustomField, value })
      yield* set(f.priority, { idValue: priorityOptions.high })
      yield* set(f.estimate, { number: 2 })
      yield* set(f.releaseDate, { date: "2026-12-01T09:00:00Z" })
      yield* set(f.reviewed, { checked: true })
      yield* set(f.notes, { text: "Needs legal review" })
      const changed = (yield* set(f.estimate, { number: 3.5 })) as { value: unknown }
      expect(changed.value).toEqual({ number: "3.5" })
      expect(lastAction("updateCustomFieldItem")).toMatchObject({
        data: { customField: { id: f.estimate, type: "number" }, customFieldItem: { value: { number: "3.5" } }, old: { value: { number: "2" } }, card: { id: card } }
      })
      const values = (yield* run("getCardCustomFieldValues", { idCard: card })) as { items: Array<{ idCustomField: string; value: unknown; idValue: unknown }> }
      expect(Object.fromEntries(values.items.map((i) => [i.idCustomField, i.idValue ?? i.value]))).toEqual({
        [f.priority]: priorityOptions.high,
        [f.estimate]: { number: "3.5" },
        [f.releaseDate]: { date: "2026-12-01T09:00:00.000Z" },
        [f.reviewed]: { checked: "true" },
        [f.notes]: { text: "Needs legal review" }
      })
      // Typed before anything is sent: a value of the wrong kind, an option that is not the field's.
      const requests = sim.stats.requests
      expect((yield* Effect.flip(set(f.estimate, { checked: true })))._tag).toBe("InvalidInput")
      expect((yield* Effect.flip(set(f.priority, { idValue: seed.priorityOptions.low.replace("a23", "a99") })))._tag).toBe("InvalidInput")
      // Only the board's fields were read for those.
      expect(sim.stats.requests - requests).toBe(2)
      // A card on another board: Trello's 400 with its message.
      expect(yield* Effect.map(Effect.flip(set(f.notes, { text: "x" }, seed.cards.rotateKeys)), (e) => [e._tag, e.message])).toEqual([
        "InvalidInput",
        "custom field is not on the card's board"
      ])
    }))
})
