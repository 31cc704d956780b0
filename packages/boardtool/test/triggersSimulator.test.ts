/**
 * Every webhook trigger end to end against the simulator: enabled through the executor (the
 * webhook created after Trello's HEAD check), the action performed through the executor, the
 * simulator's signed delivery received on 127.0.0.1 and handed to `executor.handleDelivery`,
 * the event out (keyed by the action's id, the record read back); the sample gives the same
 * event; disabled, the webhook is gone.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { UndiciHttpClient } from "@x/http-undici"
import * as Effect from "effect/Effect"
import * as Simulator from "../src/testing/simulator.js"
import { executor, kit, simulatorConnection } from "./support.js"
import { receiveDeliveries } from "../../../tooling/testing/deliveryReceiver.js"

const { seed } = Simulator
let sim: Simulator.Simulator
beforeAll(async () => {
  sim = await Simulator.start({ deliveryRetryDelayMs: 20 })
})
afterAll(() => sim.close())

const { provide, run } = kit.connected(() => simulatorConnection(sim), UndiciHttpClient.layer)
const trigger = (name: string, parameters: Record<string, unknown>) => ({ label: name, name, type: `boardtool/v1/${name}`, parameters })

/** A receiver on loopback that hands every request to the trigger, as the runner does; its events. */
const receive = (t: ReturnType<typeof trigger>, state: () => unknown) =>
  Effect.acquireRelease(
    Effect.promise(() =>
      receiveDeliveries<{ id: string; output: any }>(`/hooks/${t.name}`, (request) => Effect.runPromise(provide(executor.handleDelivery(t as never, state(), request))))
    ),
    (receiver) => Effect.promise(receiver.close)
  )

/** Enables the trigger, performs `act`, waits for the deliveries; checks the sample has the events, disables. */
const exercise = (name: string, parameters: Record<string, unknown>, act: Effect.Effect<unknown, unknown>) =>
  Effect.gen(function*() {
    let state: unknown
    const t = trigger(name, parameters)
    const hooks = yield* receive(t, () => state)
    state = yield* provide(executor.enableTrigger(t, hooks.url))
    const webhookId = (state as { webhookId: string }).webhookId
    expect(sim.webhooks.has(webhookId)).toBe(true)
    yield* act
    yield* Effect.promise(() => sim.idle())
    const events = [...hooks.events]
    // Each event is an action's: the same id and output in the sample as in the delivery.
    const sample = yield* provide(executor.sample(t))
    for (const event of events) expect(sample.find((s) => s.id === event.id)).toEqual(event)
    yield* provide(executor.disableTrigger(t, state))
    expect(sim.webhooks.has(webhookId)).toBe(false)
    return events
  }).pipe(Effect.scoped)

const lastActionId = (type: string) => [...sim.actions].reverse().find((a) => a.type === type)!.id

describe("the webhook triggers against the simulator", () => {
  it.live("cardMoved: a move to the chosen list fires (from the chosen list), one to another list does not; from another board fires too", () =>
    Effect.gen(function*() {
      const card = (yield* run("createCard", { idList: seed.lists.roadmapToDo, name: "Move me" })) as { id: string }
      const events = yield* exercise("cardMoved", { idBoard: seed.boards.roadmap, toList: seed.lists.roadmapDone }, Effect.gen(function*() {
        yield* run("updateCard", { idBoard: seed.boards.roadmap, id: card.id, idList: seed.lists.roadmapDoing })
        yield* run("moveCard", { idBoard: seed.boards.roadmap, id: card.id, toBoard: seed.boards.roadmap, toList: seed.lists.roadmapDone })
      }))
      expect(events).toHaveLength(1)
      expect(events[0]).toMatchObject({
        id: lastActionId("updateCard"),
        output: {
          action: { type: "updateCard", memberCreator: { username: "simulated" } },
          card: { id: card.id, name: "Move me", idList: seed.lists.roadmapDone },
          listBefore: { id: seed.lists.roadmapDoing, name: "Doing" },
          listAfter: { id: seed.lists.roadmapDone, name: "Done" },
          boardSource: null
        }
      })
      const fromElsewhere = yield* exercise("cardMoved", { idBoard: seed.boards.operations, toList: seed.lists.operationsDoing }, run("moveCard", {
        idBoard: seed.boards.roadmap, id: card.id, toBoard: seed.boards.operations, toList: seed.lists.operationsDoing
      }))
      expect(fromElsewhere.map((e) => e.output)).toMatchObject([{
        action: { type: "moveCardToBoard" }, card: { id: card.id, idBoard: seed.boards.operations }, listBefore: null,
        listAfter: { id: seed.lists.operationsDoing }, boardSource: { id: seed.boards.roadmap }
      }])
    }))

  it.live("cardUpdated: only the chosen fields' changes fire, with the old values; cardArchived: archiving fires, unarchiving not", () =>
    Effect.gen(function*() {
      const card = (yield* run("createCard", { idList: seed.lists.roadmapToDo, name: "Update me" })) as { id: string }
      const events = yield* exercise("cardUpdated", { idBoard: seed.boards.roadmap, fields: ["due"] }, Effect.gen(function*() {
        yield* run("updateCard", { idBoard: seed.boards.roadmap, id: card.id, name: "Renamed" })
        yield* run("updateCard", { idBoard: seed.boards.roadmap, id: card.id, due: "2026-12-01T10:00:00.000Z" })
      }))
      expect(events.map((e) => e.output)).toMatchObject([{ changed: ["due"], old: { due: null }, card: { name: "Renamed", due: "2026-12-01T10:00:00.000Z" } }])
      const archived = yield* exercise("cardArchived", { idBoard: seed.boards.roadmap }, Effect.gen(function*() {
        yield* run("archiveCard", { idBoard: seed.boards.roadmap, id: card.id })
        yield* run("unarchiveCard", { idBoard: seed.boards.roadmap, id: card.id })
      }))
      expect(archived.map((e) => e.output)).toMatchObject([{ action: { type: "updateCard" }, card: { id: card.id } }])
    }))

  it.live("commentAdded, labelAddedToCard (the chosen label only), memberAddedToCard", () =>
    Effect.gen(function*() {
      const card = (yield* run("createCard", { idList: seed.lists.roadmapToDo, name: "Talk about me" })) as { id: string }
      const comments = yield* exercise("commentAdded", { idBoard: seed.boards.roadmap, idCard: card.id }, run("addComment", {
        idBoard: seed.boards.roadmap, idCard: card.id, text: "Looks **good**"
      }))
      expect(comments.map((e) => e.output)).toMatchObject([{ action: { type: "commentCard" }, text: "Looks **good**", card: { id: card.id } }])
      const labels = yield* exercise("labelAddedToCard", { idBoard: seed.boards.roadmap, idLabel: seed.labels.roadmap.red }, Effect.gen(function*() {
        yield* run("addLabelToCard", { idCard: card.id, idLabel: seed.labels.roadmap.yellow })
        yield* run("addLabelToCard", { idCard: card.id, idLabel: seed.labels.roadmap.red })
      }))
      expect(labels.map((e) => e.output)).toMatchObject([{ label: { id: seed.labels.roadmap.red, color: "red" }, card: { id: card.id, idLabels: [seed.labels.roadmap.yellow, seed.labels.roadmap.red] } }])
      const members = yield* exercise("memberAddedToCard", { idBoard: seed.boards.roadmap }, run("addCardMember", {
        idBoard: seed.boards.roadmap, idCard: card.id, idMember: seed.members.alice
      }))
      expect(members.map((e) => e.output)).toMatchObject([{ member: { id: seed.members.alice }, card: { idMembers: [seed.members.alice] } }])
    }))

  it.live("attachmentAdded (the attachment read back) and checklistItemCompleted (ticking fires, adding an item does not)", () =>
    Effect.gen(function*() {
      const card = (yield* run("createCard", { idList: seed.lists.roadmapDoing, name: "Attach to me" })) as { id: string }
      const attached = yield* exercise("attachmentAdded", { idBoard: seed.boards.roadmap, idList: seed.lists.roadmapDoing }, run("addAttachment", {
        idBoard: seed.boards.roadmap, idCard: card.id, url: "https://example.com/spec.pdf", name: "Spec"
      }))
      expect(attached.map((e) => e.output)).toMatchObject([{ attachment: { name: "Spec", url: "https://example.com/spec.pdf", isUpload: false }, card: { id: card.id } }])
      const checklist = (yield* run("createChecklist", { idBoard: seed.boards.roadmap, idCard: card.id, name: "Release" })) as { id: string }
      const ticked = yield* exercise("checklistItemCompleted", { idBoard: seed.boards.roadmap, idCard: card.id }, Effect.gen(function*() {
        const item = (yield* run("addChecklistItem", { idCard: card.id, idChecklist: checklist.id, name: "Tag the build" })) as { id: string }
        yield* run("updateChecklistItem", { idCard: card.id, idCheckItem: item.id, state: "complete" })
      }))
      expect(ticked.map((e) => e.output)).toMatchObject([{
        action: { type: "updateCheckItemStateOnCard" }, checkItem: { name: "Tag the build", state: "complete" }, checklist: { id: checklist.id, name: "Release" }
      }])
    }))

  it.live("newList, newLabel, newBoardInWorkspace (a webhook on the workspace), boardActivity (the chosen types, the action itself)", () =>
    Effect.gen(function*() {
      const lists = yield* exercise("newList", { idBoard: seed.boards.operations }, run("createList", { idBoard: seed.boards.operations, name: "Blocked" }))
      expect(lists.map((e) => e.output)).toMatchObject([{ action: { type: "createList" }, list: { name: "Blocked", idBoard: seed.boards.operations, closed: false } }])
      const labels = yield* exercise("newLabel", { idBoard: seed.boards.operations }, run("createLabel", { idBoard: seed.boards.operations, name: "Urgent", color: "red" }))
      expect(labels.map((e) => e.output)).toMatchObject([{ label: { name: "Urgent", color: "red", idBoard: seed.boards.operations } }])
      const boards = yield* exercise("newBoardInWorkspace", { idOrganization: seed.workspaces.marketing }, Effect.gen(function*() {
        yield* run("createBoard", { name: "Elsewhere", idOrganization: seed.workspaces.main })
        yield* run("createBoard", { name: "Campaigns", desc: "Q1", idOrganization: seed.workspaces.marketing })
      }))
      expect(boards.map((e) => e.output)).toMatchObject([{ action: { type: "createBoard" }, board: { name: "Campaigns", desc: "Q1", idOrganization: seed.workspaces.marketing } }])
      const card = (yield* run("createCard", { idList: seed.lists.operationsToDo, name: "Watched" })) as { id: string }
      const activity = yield* exercise("boardActivity", { idBoard: seed.boards.operations, idCard: card.id, types: ["commentCard", "voteOnCard"] }, Effect.gen(function*() {
        yield* run("updateCard", { idBoard: seed.boards.operations, id: card.id, name: "Watched closely" })
        yield* run("addComment", { idBoard: seed.boards.operations, idCard: card.id, text: "Hello" })
      }))
      expect(activity.map((e) => e.output)).toMatchObject([{ type: "commentCard", data: { text: "Hello", card: { id: card.id } }, memberCreator: { username: "simulated" } }])
    }))
})
