/**
 * The webhook triggers on the wire (nock): the factory's behaviour (webhook reuse, disable,
 * signatures, other action types, read-back, the action id as the event id), and for each
 * trigger its enable and sample requests and a delivery as Trello sends it, handled.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import nock from "nock"
import { createHmac } from "node:crypto"
import { API, AUTHORIZATION, BOARD, CARD, connection, executor, LIST, SECRET, TOKEN, trelloBoard, trelloCard, withFetch } from "./support.js"

const trello = () => nock(API, { reqheaders: { authorization: AUTHORIZATION } })
const DONE = "61a0f0f0f0f0f0f0f0f0f012"
const MEMBER = "61a0f0f0f0f0f0f0f0f0f0d1"
const LABEL = "61a0f0f0f0f0f0f0f0f0f0e7"
const ATTACHMENT = "61a0f0f0f0f0f0f0f0f0f0f1"
const CHECKLIST = "61a0f0f0f0f0f0f0f0f0f0f2"
const CHECK_ITEM = "61a0f0f0f0f0f0f0f0f0f0f3"
const WORKSPACE = "61a0f0f0f0f0f0f0f0f0f000"
const ACTION = "61a0f0f0f0f0f0f0f0f0f0a2"
const state = { webhookId: "61a0f0f0f0f0f0f0f0f0f0e1" }
const tokenWebhooks = `/1/tokens/${TOKEN}/webhooks`

const boardRef = { id: BOARD, name: "Launch", shortLink: "AbCdEfGh" }
const cardRef = { id: CARD, name: "Write the launch post", idShort: 7, shortLink: "AbCdEfGh" }
const memberCreator = { id: MEMBER, activityBlocked: false, avatarHash: null, avatarUrl: null, fullName: "Alice Example", initials: "AE", username: "alice" }
/** An action as Trello delivers it (and lists it). */
const trelloAction = (type: string, data: Record<string, unknown>, id = ACTION) => ({
  id, idMemberCreator: MEMBER, type, date: "2026-11-21T10:00:00.000Z", data, appCreator: null, limits: {}, memberCreator
})
const activity = { id: ACTION, date: "2026-11-21T10:00:00.000Z", idMemberCreator: MEMBER, memberCreator: { id: MEMBER, username: "alice", fullName: "Alice Example" } }
const trelloList = { id: DONE, name: "Done", closed: false, idBoard: BOARD, pos: 49152, subscribed: false, softLimit: null }
const trelloAttachment = {
  id: ATTACHMENT, bytes: null, date: "2026-11-21T10:00:00.000Z", edgeColor: null, idMember: MEMBER, isUpload: false, mimeType: "",
  name: "Spec", previews: [], url: "https://example.com/spec.pdf", pos: 16384
}

const callbackUrl = "https://hooks.example.com/trello/hook"
const sign = (body: string, url = callbackUrl) => createHmac("sha1", SECRET).update(body + url, "utf8").digest("base64")
const delivery = (action: object, options: { signature?: string | undefined; url?: string } = {}) => {
  const body = JSON.stringify({ action, model: { id: BOARD, name: "Launch" } })
  const signature = "signature" in options ? options.signature : sign(body)
  return {
    method: "POST",
    url: options.url ?? callbackUrl,
    headers: signature === undefined ? {} : { "x-trello-webhook": signature },
    body: new TextEncoder().encode(body)
  }
}
const step = (name: string, parameters: Record<string, unknown>) => ({ label: name, name, type: `boardtool/v1/${name}`, parameters })

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => nock.enableNetConnect())

const moved = trelloAction("updateCard", {
  card: { ...cardRef, idList: DONE }, old: { idList: LIST }, listBefore: { id: LIST, name: "To Do" }, listAfter: { id: DONE, name: "Done" }, board: boardRef
})

/** Each trigger: its params, its webhook's model, its sample's request, a delivery, what it reads back, and its output. */
const cases: ReadonlyArray<{
  name: string
  params: Record<string, unknown>
  model: string
  description: string
  sample: { path: string; query: Record<string, string> }
  action: ReturnType<typeof trelloAction>
  readBack: (scope: nock.Scope) => nock.Scope
  output: object
}> = [
  {
    name: "cardMoved",
    params: { idBoard: BOARD, toList: DONE, fromList: LIST },
    model: BOARD,
    description: `Cards moved on board ${BOARD}`,
    sample: { path: `/1/boards/${BOARD}/actions`, query: { filter: "updateCard,moveCardToBoard", limit: "50" } },
    action: moved,
    readBack: (s) => s.get(`/1/cards/${CARD}`).reply(200, { ...trelloCard, idList: DONE }),
    output: { action: { ...activity, type: "updateCard" }, card: { id: CARD, idList: DONE }, listBefore: { id: LIST, name: "To Do" }, listAfter: { id: DONE, name: "Done" }, boardSource: null }
  },
  {
    name: "cardUpdated",
    params: { idBoard: BOARD, fields: ["desc", "due"] },
    model: BOARD,
    description: `Card updates on board ${BOARD}`,
    sample: { path: `/1/boards/${BOARD}/actions`, query: { filter: "updateCard", limit: "50" } },
    action: trelloAction("updateCard", { card: { ...cardRef, desc: "Draft, review, publish." }, old: { desc: "Draft." }, list: { id: LIST, name: "To Do" }, board: boardRef }),
    readBack: (s) => s.get(`/1/cards/${CARD}`).reply(200, trelloCard),
    output: { card: { id: CARD, desc: "Draft, review, publish." }, changed: ["desc"], old: { desc: "Draft." } }
  },
  {
    name: "cardArchived",
    params: { idBoard: BOARD, idList: LIST },
    model: BOARD,
    description: `Archived cards on board ${BOARD}`,
    sample: { path: `/1/boards/${BOARD}/actions`, query: { filter: "updateCard", limit: "50" } },
    action: trelloAction("updateCard", { card: { ...cardRef, closed: true }, old: { closed: false }, list: { id: LIST, name: "To Do" }, board: boardRef }),
    readBack: (s) => s.get(`/1/cards/${CARD}`).reply(200, { ...trelloCard, closed: true }),
    output: { action: { type: "updateCard" }, card: { id: CARD, closed: true } }
  },
  {
    name: "commentAdded",
    params: { idBoard: BOARD, idCard: CARD },
    model: BOARD,
    description: `Comments on board ${BOARD}`,
    sample: { path: `/1/boards/${BOARD}/actions`, query: { filter: "commentCard", limit: "50" } },
    action: trelloAction("commentCard", { text: "Ship it **today**", textData: { emoji: {} }, card: cardRef, list: { id: LIST, name: "To Do" }, board: boardRef }),
    readBack: (s) => s.get(`/1/cards/${CARD}`).reply(200, trelloCard),
    output: { action: { type: "commentCard" }, text: "Ship it **today**", card: { id: CARD } }
  },
  {
    name: "labelAddedToCard",
    params: { idBoard: BOARD, idLabel: LABEL },
    model: BOARD,
    description: `Labels added to cards on board ${BOARD}`,
    sample: { path: `/1/boards/${BOARD}/actions`, query: { filter: "addLabelToCard", limit: "50" } },
    action: trelloAction("addLabelToCard", { label: { id: LABEL, name: "Urgent", color: "red" }, card: cardRef, list: { id: LIST, name: "To Do" }, board: boardRef }),
    readBack: (s) => s.get(`/1/cards/${CARD}`).reply(200, { ...trelloCard, idLabels: [LABEL], labels: [{ id: LABEL, idBoard: BOARD, name: "Urgent", color: "red" }] }),
    output: { label: { id: LABEL, name: "Urgent", color: "red" }, card: { idLabels: [LABEL] } }
  },
  {
    name: "memberAddedToCard",
    params: { idBoard: BOARD, idMember: MEMBER },
    model: BOARD,
    description: `Members added to cards on board ${BOARD}`,
    sample: { path: `/1/boards/${BOARD}/actions`, query: { filter: "addMemberToCard", limit: "50" } },
    action: trelloAction("addMemberToCard", { idMember: MEMBER, member: { id: MEMBER, name: "Alice Example" }, card: cardRef, list: { id: LIST, name: "To Do" }, board: boardRef }),
    readBack: (s) => s.get(`/1/cards/${CARD}`).reply(200, { ...trelloCard, idMembers: [MEMBER] }),
    output: { member: { id: MEMBER, name: "Alice Example" }, card: { idMembers: [MEMBER] } }
  },
  {
    name: "attachmentAdded",
    params: { idBoard: BOARD },
    model: BOARD,
    description: `Attachments on board ${BOARD}`,
    sample: { path: `/1/boards/${BOARD}/actions`, query: { filter: "addAttachmentToCard", limit: "50" } },
    action: trelloAction("addAttachmentToCard", {
      attachment: { id: ATTACHMENT, name: "Spec", url: "https://example.com/spec.pdf" }, card: cardRef, list: { id: LIST, name: "To Do" }, board: boardRef
    }),
    readBack: (s) => s.get(`/1/cards/${CARD}/attachments/${ATTACHMENT}`).reply(200, trelloAttachment).get(`/1/cards/${CARD}`).reply(200, trelloCard),
    output: { attachment: { id: ATTACHMENT, name: "Spec", isUpload: false, date: "2026-11-21T10:00:00.000Z" }, card: { id: CARD } }
  },
  {
    name: "checklistItemCompleted",
    params: { idBoard: BOARD, idCard: CARD },
    model: BOARD,
    description: `Completed checklist items on board ${BOARD}`,
    sample: { path: `/1/boards/${BOARD}/actions`, query: { filter: "updateCheckItemStateOnCard", limit: "50" } },
    action: trelloAction("updateCheckItemStateOnCard", {
      checkItem: { id: CHECK_ITEM, name: "Tag the build", state: "complete", textData: { emoji: {} } },
      checklist: { id: CHECKLIST, name: "Release" }, card: cardRef, board: boardRef
    }),
    readBack: (s) => s.get(`/1/cards/${CARD}`).reply(200, trelloCard),
    output: { checkItem: { id: CHECK_ITEM, name: "Tag the build", state: "complete" }, checklist: { id: CHECKLIST, name: "Release" } }
  },
  {
    name: "newList",
    params: { idBoard: BOARD },
    model: BOARD,
    description: `New lists on board ${BOARD}`,
    sample: { path: `/1/boards/${BOARD}/actions`, query: { filter: "createList", limit: "50" } },
    action: trelloAction("createList", { list: { id: DONE, name: "Done" }, board: boardRef }),
    readBack: (s) => s.get(`/1/lists/${DONE}`).reply(200, trelloList),
    output: { action: { type: "createList" }, list: { id: DONE, name: "Done", closed: false, idBoard: BOARD, pos: 49152 } }
  },
  {
    name: "newLabel",
    params: { idBoard: BOARD },
    model: BOARD,
    description: `New labels on board ${BOARD}`,
    sample: { path: `/1/boards/${BOARD}/actions`, query: { filter: "createLabel", limit: "50" } },
    action: trelloAction("createLabel", { label: { id: LABEL, name: "Urgent", color: "red" }, board: boardRef }),
    readBack: (s) => s,
    output: { label: { id: LABEL, idBoard: BOARD, name: "Urgent", color: "red" } }
  },
  {
    name: "newBoardInWorkspace",
    params: { idOrganization: WORKSPACE },
    model: WORKSPACE,
    description: `New boards on organization ${WORKSPACE}`,
    sample: { path: `/1/organizations/${WORKSPACE}/actions`, query: { filter: "createBoard,addToOrganizationBoard", limit: "50" } },
    action: trelloAction("createBoard", { board: boardRef, organization: { id: WORKSPACE, name: "Acme" } }),
    readBack: (s) => s.get(`/1/boards/${BOARD}`).reply(200, trelloBoard),
    output: { action: { type: "createBoard" }, board: { id: BOARD, name: "Launch", idOrganization: WORKSPACE, prefs: { permissionLevel: "private" } } }
  },
  {
    name: "boardActivity",
    params: { idBoard: BOARD, idList: LIST, types: ["commentCard", "updateCard"] },
    model: LIST,
    description: `Activity on list ${LIST}`,
    sample: { path: `/1/lists/${LIST}/actions`, query: { filter: "commentCard,updateCard" } },
    action: moved,
    readBack: (s) => s,
    output: { ...activity, type: "updateCard", data: { listAfter: { id: DONE, name: "Done" }, old: { idList: LIST } } }
  }
]

describe("each webhook trigger on the wire", () => {
  for (const c of cases) {
    it.effect(`${c.name}: enable POSTs a webhook on its model; sample reads its actions; a delivery as Trello sends it is its event`, () =>
      Effect.gen(function*() {
        const trigger = step(c.name, c.params)
        const enable = trello().get(tokenWebhooks).reply(200, [])
          .post("/1/webhooks").query({ callbackURL: callbackUrl, idModel: c.model, description: c.description })
          .reply(200, { id: state.webhookId, idModel: c.model, callbackURL: callbackUrl, active: true, consecutiveFailures: 0 })
        expect(yield* withFetch(executor.enableTrigger(trigger, callbackUrl))).toEqual(state)
        expect(enable.isDone()).toBe(true)

        const handled = c.readBack(trello())
        const result = yield* withFetch(executor.handleDelivery(trigger, state, delivery(c.action)))
        expect(result.response.status).toBe(200)
        expect(result.events).toHaveLength(1)
        expect(result.events[0]).toMatchObject({ id: ACTION, output: c.output })
        expect(handled.isDone()).toBe(true)

        // The sample: the same action listed (an older action of another type first is skipped by the filter at Trello).
        const sample = c.readBack(trello().get(c.sample.path).query(c.sample.query).reply(200, [c.action]))
        const sampled = yield* withFetch(executor.sample(trigger))
        expect(sampled).toEqual(result.events)
        expect(sample.isDone()).toBe(true)
      }))
  }
})

describe("the factory", () => {
  const onBoard = step("cardMoved", { idBoard: BOARD, toList: DONE })
  const noSecret = { key: connection.key, token: connection.token }

  it.effect("enable reuses the token's webhook on the model and URL (no POST), reactivating it when off", () =>
    Effect.gen(function*() {
      const hook = { id: state.webhookId, idModel: BOARD.toUpperCase(), callbackURL: callbackUrl, active: true, description: "", consecutiveFailures: 0 }
      trello().get(tokenWebhooks).reply(200, [hook])
      expect(yield* withFetch(executor.enableTrigger(onBoard, callbackUrl))).toEqual(state)
      const reactivate = trello().get(tokenWebhooks).reply(200, [{ ...hook, active: false }])
        .put(`/1/webhooks/${state.webhookId}`).query({ active: "true" }).reply(200, hook)
      expect(yield* withFetch(executor.enableTrigger(onBoard, callbackUrl))).toEqual(state)
      expect(reactivate.isDone()).toBe(true)
      expect(nock.pendingMocks()).toEqual([])
    }))

  it.effect("disable deletes the webhook; one already gone (404) is fine", () =>
    Effect.gen(function*() {
      const scope = trello().delete(`/1/webhooks/${state.webhookId}`).reply(200, { _value: null })
        .delete(`/1/webhooks/${state.webhookId}`).reply(404, "The requested resource was not found.")
      yield* withFetch(executor.disableTrigger(onBoard, state))
      yield* withFetch(executor.disableTrigger(onBoard, state))
      expect(scope.isDone()).toBe(true)
    }))

  it.effect("a missing, wrong or other-URL signature is 401 and sends nothing", () =>
    Effect.gen(function*() {
      const sent: Array<string> = []
      nock(/.*/).persist().get(/.*/).reply(200, trelloCard).on("request", (req: { path: string }) => sent.push(req.path))
      for (const request of [
        delivery(moved, { signature: undefined }),
        delivery(moved, { signature: sign("{}") }),
        { ...delivery(moved), url: `${callbackUrl}?again=1` }
      ]) {
        const result = yield* withFetch(executor.handleDelivery(onBoard, state, request))
        expect(result).toMatchObject({ response: { status: 401 }, events: [] })
      }
      expect(sent).toEqual([])
    }))

  it.effect("other action types, and its own type not matching its params, are answered 200 with no event and no request", () =>
    Effect.gen(function*() {
      // nock refuses every request: a read-back would fail the delivery.
      for (const action of [
        trelloAction("commentCard", { text: "hi", card: cardRef, list: { id: DONE, name: "Done" }, board: boardRef }),
        trelloAction("updateCard", { card: cardRef, old: { name: "Old" }, list: { id: LIST, name: "To Do" }, board: boardRef }),
        trelloAction("updateCard", { ...moved.data, listAfter: { id: LIST, name: "To Do" } })
      ]) {
        expect(yield* withFetch(executor.handleDelivery(onBoard, state, delivery(action), { allowUnsigned: true }), noSecret)).toEqual({ response: { status: 200 }, events: [] })
      }
      const notTrello = { ...delivery(moved), body: new TextEncoder().encode("not json") }
      expect((yield* withFetch(executor.handleDelivery(onBoard, state, notTrello, { allowUnsigned: true }), noSecret)).response.status).toBe(400)
    }))

  it.effect("the record is read back; one deleted since is no event (200: Trello does not retry)", () =>
    Effect.gen(function*() {
      trello().get(`/1/cards/${CARD}`).reply(404, "The requested resource was not found.")
      expect(yield* withFetch(executor.handleDelivery(onBoard, state, delivery(moved)))).toEqual({ response: { status: 200 }, events: [] })
    }))

  it.effect("a redelivery of an action is the same event (its id Trello's action id), so it is run once", () =>
    Effect.gen(function*() {
      trello().get(`/1/cards/${CARD}`).times(2).reply(200, { ...trelloCard, idList: DONE })
      const first = yield* withFetch(executor.handleDelivery(onBoard, state, delivery(moved)))
      const again = yield* withFetch(executor.handleDelivery(onBoard, state, delivery(moved)))
      expect(first.events.map((e) => e.id)).toEqual([ACTION])
      expect(again.events).toEqual(first.events)
    }))
})
