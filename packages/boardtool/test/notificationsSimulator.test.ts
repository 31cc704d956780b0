/**
 * Notifications and a list field's options end to end: each action and the newNotification
 * trigger through the executor against the simulator, another member (Alice, with her own token)
 * mentioning and assigning "me", and the simulator answering as Trello does (its plain-text
 * errors, its limits).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { UndiciHttpClient } from "@x/http-undici"
import * as Effect from "effect/Effect"
import * as Simulator from "../src/testing/simulator.js"
import { executor, kit, simulatorConnection } from "./support.js"

const { seed } = Simulator
let sim: Simulator.Simulator

beforeAll(async () => {
  sim = await Simulator.start({ rateLimits: false })
})
afterAll(() => sim.close())

const { provide, run } = kit.connected(() => simulatorConnection(sim), UndiciHttpClient.layer)
const failure = (action: string, parameters: Record<string, unknown>) =>
  Effect.map(Effect.flip(run(action, parameters)), (error) => [error._tag, error.message])
const trigger = (parameters: Record<string, unknown> = {}) => ({ label: "Mentioned", name: "mentioned", type: "boardtool/v1/newNotification", parameters })
const poll = (cursor: unknown, parameters: Record<string, unknown> = {}) => provide(executor.poll(trigger(parameters), cursor))

/** A request to the simulator as a member: "me" (the token's), or another by their token. */
const trello = (method: string, path: string, token = sim.token) =>
  Effect.promise(async () => {
    const response = await fetch(`${sim.baseUrl}${path}`, {
      method,
      headers: { authorization: `OAuth oauth_consumer_key="${sim.key}", oauth_token="${token}"` }
    })
    return { status: response.status, body: await response.text() }
  })
const alice = () => sim.memberTokens.get("alice")!
type Listed = { notifications: Array<{ id: string; type: string; unread: boolean; idMemberCreator: string; memberCreator: { username: string }; data: any }> }

describe("notifications against the simulator", () => {
  it.effect("the seeded ones, newest first; filtered by type and read state", () =>
    Effect.gen(function*() {
      const all = (yield* run("listNotifications", {})) as Listed
      expect(all.notifications.map((n) => [n.id, n.type, n.unread])).toEqual([
        [seed.notifications.added, "addedToCard", true],
        [seed.notifications.mentioned, "mentionedOnCard", true],
        [seed.notifications.commented, "commentCard", false]
      ])
      expect(all.notifications[1]).toMatchObject({
        idMemberCreator: seed.members.alice,
        memberCreator: { username: "alice" },
        data: { card: { id: seed.cards.launchPost }, board: { id: seed.boards.roadmap }, text: "@simulated can you review the draft?" }
      })
      const unreadComments = (yield* run("listNotifications", { types: ["commentCard"], onlyUnread: true })) as Listed
      expect(unreadComments.notifications).toEqual([])
      expect(((yield* run("listNotifications", { limit: 2 })) as Listed).notifications).toHaveLength(2)
    }))

  it.effect("newNotification: Alice's mention and assignment of me fire once each; mine of her, and her comment elsewhere, do not", () =>
    Effect.gen(function*() {
      const baseline = yield* poll(undefined)
      expect(baseline.events).toEqual([])
      // As Alice (her own token): a comment mentioning me, then me added to a card.
      expect((yield* trello("POST", `/cards/${seed.cards.launchPost}/actions/comments?text=${encodeURIComponent("@simulated ready to ship?")}`, alice())).status).toBe(200)
      expect((yield* trello("POST", `/cards/${seed.cards.loginRedirect}/idMembers?value=${seed.member}`, alice())).status).toBe(200)
      // As me: mentioning Alice notifies her, not me.
      yield* run("addComment", { idCard: seed.cards.launchPost, text: "@alice yes, on Monday" })
      const fired = yield* poll(baseline.cursor)
      expect(fired.events.map((e) => (e.output as { type: string }).type)).toEqual(["mentionedOnCard", "addedToCard"])
      const mention = fired.events[0]!.output as { idAction: string; memberCreator: { username: string }; data: { text: string } }
      expect(mention.data.text).toBe("@simulated ready to ship?")
      expect(mention.memberCreator.username).toBe("alice")
      // The comment itself is Alice's action.
      expect(sim.actions.find((a) => a.id === mention.idAction)).toMatchObject({ type: "commentCard", idMemberCreator: seed.members.alice })
      expect((yield* poll(fired.cursor)).events).toEqual([])
      // A plain comment on my card: commentCard, not chosen by default; chosen, it fires.
      yield* trello("POST", `/cards/${seed.cards.loginRedirect}/actions/comments?text=Looks%20good`, alice())
      const quiet = yield* poll(fired.cursor)
      expect(quiet.events).toEqual([])
      const comments = yield* poll({ newest: (fired.cursor as { newest: string }).newest, seen: [] }, { types: ["commentCard"] })
      expect(comments.events.map((e) => (e.output as { data: { text: string } }).data.text)).toEqual(["Looks good"])
      // Alice's own list has my mention, with her token.
      const hers = JSON.parse((yield* trello("GET", "/members/me/notifications?filter=mentionedOnCard", alice())).body) as Array<{ data: { text: string } }>
      expect(hers.map((n) => n.data.text)).toContain("@alice yes, on Monday")
      // The trigger's sample: the newest of its types.
      const sample = yield* provide(executor.sample(trigger()))
      expect(sample.map((e) => (e.output as { type: string }).type)).toEqual(["addedToCard", "mentionedOnCard", "addedToCard", "mentionedOnCard"])
    }))

  it.effect("mark one read (and unread again), then all; another member's is Trello's 401; an unknown one 404", () =>
    Effect.gen(function*() {
      const read = yield* run("markNotificationRead", { idNotification: seed.notifications.mentioned })
      expect(read).toMatchObject({ id: seed.notifications.mentioned, unread: false, dateRead: expect.any(String) })
      expect(yield* run("markNotificationRead", { idNotification: seed.notifications.mentioned, read: false })).toMatchObject({ unread: true, dateRead: null })
      expect(((yield* run("listNotifications", { onlyUnread: true })) as Listed).notifications.length).toBeGreaterThan(1)
      expect(yield* run("markAllNotificationsRead", {})).toBeNull()
      expect(((yield* run("listNotifications", { onlyUnread: true })) as Listed).notifications).toEqual([])
      // Alice's are hers: still unread, and not mine to mark.
      const hers = JSON.parse((yield* trello("GET", "/members/me/notifications?read_filter=unread", alice())).body) as Array<{ id: string }>
      expect(hers.length).toBeGreaterThan(0)
      expect(yield* failure("markNotificationRead", { idNotification: hers[0]!.id })).toEqual(["PermissionDenied", "unauthorized permission requested"])
      expect(yield* failure("markNotificationRead", { idNotification: "5eed00000000000000000fff" })).toEqual(["NotFound", "The requested resource was not found."])
    }))

  it.effect("Trello's answers: another member's list 401, a bad filter or limit 400, a malformed id 400, a wrong token 401", () =>
    Effect.gen(function*() {
      expect(yield* trello("GET", `/members/${seed.members.alice}/notifications`)).toEqual({ status: 401, body: "unauthorized permission requested" })
      expect(yield* trello("GET", "/members/me/notifications?filter=poked")).toEqual({ status: 400, body: "invalid value for filter" })
      expect(yield* trello("GET", "/members/me/notifications?limit=1001")).toEqual({ status: 400, body: "invalid value for limit" })
      expect(yield* trello("GET", "/members/me/notifications?page=101")).toEqual({ status: 400, body: "invalid value for page" })
      expect(yield* trello("PUT", "/notifications/nope?unread=false")).toEqual({ status: 400, body: "invalid id" })
      expect(yield* trello("GET", "/members/me/notifications", "not-a-token")).toEqual({ status: 401, body: "invalid token" })
      // Paged as Trello pages them: `page` of `limit`, and `before` an id.
      const list = (query: string) => Effect.map(trello("GET", `/members/me/notifications?${query}`), (r) => (JSON.parse(r.body) as Array<{ id: string }>).map((n) => n.id))
      const [newest] = yield* list("limit=1")
      const second = yield* list("limit=1&page=1")
      expect(second).toEqual(yield* list(`before=${newest}&limit=1`))
      expect(second[0]! < newest!).toBe(true)
    }))
})

describe("a list field's options against the simulator", () => {
  const priority = seed.customFields.priority
  type Options = { options: Array<{ id: string; value: { text: string }; color: string; pos: number }> }

  it.effect("list the Priority options; add one at the top and one at the bottom, in order; the field lists them too", () =>
    Effect.gen(function*() {
      const before = (yield* run("listCustomFieldOptions", { idBoard: seed.boards.roadmap, idCustomField: priority })) as Options
      expect(before.options.map((o) => [o.id, o.value.text, o.color])).toEqual([
        [seed.priorityOptions.high, "High", "red"], [seed.priorityOptions.medium, "Medium", "yellow"], [seed.priorityOptions.low, "Low", "green"]
      ])
      const critical = yield* run("addCustomFieldOption", { idBoard: seed.boards.roadmap, idCustomField: priority, text: "Critical", color: "purple", pos: "top" })
      expect(critical).toMatchObject({ idCustomField: priority, value: { text: "Critical" }, color: "purple" })
      yield* run("addCustomFieldOption", { idCustomField: priority, text: "Someday" })
      const after = (yield* run("listCustomFieldOptions", { idCustomField: priority })) as Options
      expect(after.options.map((o) => [o.value.text, o.color])).toEqual([["Critical", "purple"], ["High", "red"], ["Medium", "yellow"], ["Low", "green"], ["Someday", "none"]])
      const fields = (yield* run("listCustomFields", { idBoard: seed.boards.roadmap })) as { customFields: Array<{ id: string; options: Array<{ value: { text: string } }> }> }
      expect(fields.customFields.find((f) => f.id === priority)!.options.map((o) => o.value.text)).toEqual(["Critical", "High", "Medium", "Low", "Someday"])
      // The new option is a value a card can take.
      yield* run("setCardCustomFieldValue", { idBoard: seed.boards.roadmap, idCard: seed.cards.launchPost, idCustomField: priority, value: { idValue: (critical as { id: string }).id } })
    }))

  it.effect("a field of another kind is refused before anything is written; Trello's own answers to what gets through", () =>
    Effect.gen(function*() {
      expect(yield* failure("addCustomFieldOption", { idCustomField: seed.customFields.estimate, text: "Big" })).toEqual([
        "InvalidInput", "\"Estimate (days)\" is a number field: only a list (dropdown) field has options"
      ])
      expect(sim.customFields.get(seed.customFields.estimate)!.options).toEqual([])
      expect(yield* run("listCustomFieldOptions", { idCustomField: seed.customFields.estimate })).toEqual({ options: [] })
      const post = (id: string, body: unknown) =>
        Effect.promise(async () => {
          const response = await fetch(`${sim.baseUrl}/customFields/${id}/options`, {
            method: "POST",
            headers: { authorization: `OAuth oauth_consumer_key="${sim.key}", oauth_token="${sim.token}"`, "content-type": "application/json" },
            body: JSON.stringify(body)
          })
          return [response.status, await response.text()]
        })
      expect(yield* post(seed.customFields.estimate, { value: { text: "Big" } })).toEqual([400, "custom field is not a list"])
      expect(yield* post(priority, { value: { text: "Teal" }, color: "teal" })).toEqual([400, "invalid value for color"])
      expect(yield* post(priority, { value: { text: "" } })).toEqual([400, "invalid value for value"])
      expect(yield* post("nope", { value: { text: "X" } })).toEqual([400, "invalid id"])
      expect(yield* failure("listCustomFieldOptions", { idCustomField: "5eed00000000000000000fff" })).toEqual(["NotFound", "The requested resource was not found."])
    }))
})
