/**
 * Every request boardtool can send (each action, options list and trigger, run against the
 * simulator) checked against Trello's published OpenAPI document (../shared/specs): method,
 * path, parameters. A new action or trigger without a case here fails the test.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Contract from "@x/contract"
import * as Effect from "effect/Effect"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { boardtool } from "../src/index.js"
import * as Simulator from "../src/testing/simulator.js"
import { Component, Executor } from "@x/core"
import { connectedTo } from "./support.js"
import * as TrelloDocument from "./trelloDocument.js"

const { seed } = Simulator
const operationsPath = fileURLToPath(new URL("operations.json", import.meta.url))

let sim: Simulator.Simulator
/** The id of the simulator's latest action of this type. */
const lastOf = (type: string) => [...sim.actions].reverse().find((a) => a.type === type)!.id
// Trello checks a webhook's callback URL with a HEAD before it registers it.
let receiver: Server
const dir = mkdtempSync(join(tmpdir(), "boardtool-contract-"))
const upload = join(dir, "notes.txt")
beforeAll(async () => {
  writeFileSync(upload, "contract\n")
  sim = await Simulator.start({ rateLimits: false })
  receiver = createServer((_, response) => response.writeHead(200).end())
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
})
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve))
  await sim.close()
  rmSync(dir, { recursive: true, force: true })
})

const executor = Executor.make([Component.withRateLimits(boardtool, [])])

// ../shared sits beside the repository in CI and on the developers' machines.
describe.runIf(TrelloDocument.hasSpec)("every request boardtool sends, against trello-openapi.json", () => {
  it.effect("each action, options list and trigger sends only operations and parameters the document has", () =>
    Effect.gen(function*() {
      const contract = TrelloDocument.load()
      const recorder = Contract.recording(FetchHttpClient.layer)
      const callback = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`
      // Unpaced: this test checks what is sent, and sends a few hundred requests.
      const attachmentOf = (idCard: string) => [...sim.attachments.values()].filter((a) => a.idCard === idCard).at(-1)!.id
      const { missing } = yield* Contract.exercise(executor, boardtool, {
        actions: {
          createBoard: { name: "Contract board", desc: "Checked against the document" },
          createCard: {
            idBoard: seed.boards.roadmap, idList: seed.lists.roadmapToDo, name: "Contract", desc: "Checked", pos: "top",
            start: "2026-11-20T09:00:00Z", due: "2026-11-21T17:00:00Z", dueComplete: false, idMembers: [seed.member],
            urlSource: "https://example.com/spec", idCardSource: seed.cards.launchPost, keepFromSource: ["due", "labels"]
          },
          getCard: { idBoard: seed.boards.roadmap, id: seed.cards.launchPost, attachments: true, checklists: true, customFieldItems: true, members: true },
          listBoardActions: { idBoard: seed.boards.roadmap, filter: "createCard", since: "2020-01-01T00:00:00Z", limit: 20 },
          archiveAllCards: { idBoard: seed.boards.roadmap, idList: seed.lists.roadmapToDo },
          addAttachment: { idBoard: seed.boards.roadmap, idCard: seed.cards.launchPost, file: { path: upload }, name: "Notes", setCover: false },
          downloadAttachment: () => ({
            idBoard: seed.boards.roadmap,
            idCard: seed.cards.launchPost,
            idAttachment: [...sim.attachments.keys()].at(-1),
            path: join(dir, "downloaded.txt")
          }),
          customAction: { method: "GET", path: "/members/me/boards", query: { filter: "open", fields: "name" } },
          // cards
          updateCard: () => ({
            idBoard: seed.boards.roadmap,
            id: seed.cards.launchPost,
            name: "Launch post v2",
            desc: "Updated",
            start: "2026-11-20T09:00:00Z",
            removeDue: true,
            dueComplete: false,
            idList: seed.lists.roadmapDoing,
            pos: "top",
            idMembers: [sim.member.id],
            idLabels: [],
            closed: false
          }),
          moveCard: { idBoard: seed.boards.roadmap, id: seed.cards.loginRedirect, toBoard: seed.boards.roadmap, toList: seed.lists.roadmapDone, pos: "bottom" },
          archiveCard: { idBoard: seed.boards.roadmap, id: seed.cards.loginRedirect },
          unarchiveCard: { idBoard: seed.boards.roadmap, id: seed.cards.loginRedirect },
          copyCard: { idBoard: seed.boards.roadmap, id: seed.cards.launchPost, toBoard: seed.boards.operations, toList: seed.lists.operationsDoing, keep: ["due", "attachments"], pos: "5" },
          listListCards: { idBoard: seed.boards.roadmap, idList: seed.lists.roadmapDoing, limit: 10 },
          listBoardCards: { idBoard: seed.boards.roadmap, filter: "all", limit: 100 },
          listCardActivity: { idBoard: seed.boards.roadmap, id: seed.cards.launchPost, filter: "updateCard:idList,commentCard", limit: 120 },
          voteOnCard: { idBoard: seed.boards.roadmap, idCard: seed.cards.launchPost, idMember: sim.member.id },
          listVoters: { idBoard: seed.boards.roadmap, idCard: seed.cards.launchPost },
          removeVote: { idBoard: seed.boards.roadmap, idCard: seed.cards.launchPost, idMember: sim.member.id },
          deleteCard: () => ({ idBoard: seed.boards.roadmap, id: [...sim.cards.values()].find((c) => c.name === "Contract")!.id }),
          // comments, checklists, labels
          addComment: { idBoard: seed.boards.operations, idCard: seed.cards.rotateKeys, text: "Rotated the **staging** keys" },
          listComments: { idBoard: seed.boards.operations, idCard: seed.cards.rotateKeys, limit: 120 },
          updateComment: () => ({ idCard: seed.cards.rotateKeys, idAction: lastOf("commentCard"), text: "Rotated staging and production" }),
          addReaction: () => ({ idCard: seed.cards.rotateKeys, idAction: lastOf("commentCard"), shortName: "thumbsup" }),
          deleteComment: () => ({ idCard: seed.cards.rotateKeys, idAction: lastOf("commentCard") }),
          createChecklist: { idBoard: seed.boards.roadmap, idCard: seed.cards.loginRedirect, name: "Release", pos: "top" },
          addChecklistItem: () => ({ idChecklist: [...sim.checklists.keys()].at(-1), name: "Tag the build", pos: "bottom", checked: false, due: "2026-12-01T10:00:00Z", idMember: seed.member }),
          updateChecklistItem: () => ({ idCard: seed.cards.loginRedirect, idCheckItem: [...sim.checkItems.keys()].at(-1), state: "complete", name: "Tag the release build", pos: "top", due: "2026-12-02T10:00:00Z", idMember: seed.member }),
          listCardChecklists: { idCard: seed.cards.loginRedirect },
          updateChecklist: () => ({ id: [...sim.checklists.keys()].at(-1), name: "Release steps", pos: "bottom" }),
          deleteChecklistItem: () => ({ idChecklist: [...sim.checklists.keys()].at(-1), idCheckItem: [...sim.checkItems.keys()].at(-1) }),
          deleteChecklist: () => ({ id: [...sim.checklists.keys()].at(-1) }),
          listBoardLabels: { idBoard: seed.boards.roadmap, limit: 100 },
          createLabel: { idBoard: seed.boards.roadmap, name: "Blocked", color: "black" },
          updateLabel: { id: seed.labels.roadmap.green, name: "Ready", color: "none" },
          addLabelToCard: { idCard: seed.cards.launchPost, name: "Urgent", color: "red" },
          removeLabelFromCard: () => ({ idCard: seed.cards.launchPost, idLabel: sim.cards.get(seed.cards.launchPost)!.idLabels.at(-1) }),
          deleteLabel: { id: seed.labels.roadmap.purple },
          // lists, boards, search
          createList: { idBoard: seed.boards.roadmap, name: "Contract list", pos: "top", idListSource: seed.lists.roadmapDoing },
          getList: { idBoard: seed.boards.roadmap, idList: seed.lists.roadmapToDo },
          updateList: { idList: seed.lists.roadmapDone, name: "Shipped", pos: "bottom", subscribed: false },
          archiveList: { idList: seed.lists.operationsDone },
          unarchiveList: { idList: seed.lists.operationsDone },
          moveListToBoard: { idList: seed.lists.operationsDone, toBoard: seed.boards.roadmap, pos: "bottom" },
          listBoardLists: { idBoard: seed.boards.roadmap, filter: "all" },
          findListByName: { idBoard: seed.boards.roadmap, name: "doing", includeArchived: true },
          moveAllCards: { idList: seed.lists.roadmapDoing, toBoard: seed.boards.operations, toList: seed.lists.operationsToDo },
          getBoard: { idBoard: seed.boards.roadmap },
          updateBoard: { idBoard: seed.boards.roadmap, name: "Roadmap", desc: "Updated", permissionLevel: "org", idOrganization: seed.workspaces.main },
          closeBoard: { idBoard: seed.boards.operations },
          reopenBoard: { idBoard: seed.boards.operations },
          deleteBoard: () => ({ idBoard: [...sim.boards.values()].find((b) => b.name === "Contract board")!.id }),
          listMyBoards: { filter: "closed" },
          listWorkspaceBoards: { idOrganization: seed.workspaces.main, filter: "open" },
          searchBoards: { query: "roadmap", idOrganization: seed.workspaces.main, partial: true, limit: 5 },
          searchCards: { query: "launch", idBoard: seed.boards.roadmap, idList: seed.lists.roadmapToDo, partial: true, limit: 5 },
          // members, attachments, custom fields
          getMe: {},
          getMember: { idMember: "alice" },
          searchMembers: { query: "ali", idBoard: seed.boards.roadmap, limit: 5 },
          listBoardMembers: { idBoard: seed.boards.roadmap },
          addBoardMember: { idBoard: seed.boards.roadmap, email: "dana@example.com", fullName: "Dana Invited", type: "observer" },
          removeBoardMember: () => ({
            idBoard: seed.boards.roadmap,
            idMember: [...sim.members.values()].find((m) => m.email === "dana@example.com")!.id
          }),
          listCardMembers: { idBoard: seed.boards.roadmap, idCard: seed.cards.launchPost },
          // (The launch post is on Operations by now: the lists cases moved the Doing list's cards there.)
          addCardMember: { idBoard: seed.boards.roadmap, idCard: seed.cards.loginRedirect, idMember: seed.members.alice },
          removeCardMember: { idBoard: seed.boards.roadmap, idCard: seed.cards.loginRedirect, idMember: seed.members.alice },
          // notifications
          listNotifications: { types: ["mentionedOnCard", "addedToCard"], onlyUnread: true, limit: 20 },
          markNotificationRead: { idNotification: seed.notifications.mentioned, read: true },
          markAllNotificationsRead: {},
          listAttachments: { idBoard: seed.boards.roadmap, idCard: seed.cards.launchPost },
          getAttachment: () => ({ idBoard: seed.boards.roadmap, idCard: seed.cards.launchPost, idAttachment: attachmentOf(seed.cards.launchPost) }),
          deleteAttachment: () => ({ idBoard: seed.boards.roadmap, idCard: seed.cards.launchPost, idAttachment: attachmentOf(seed.cards.launchPost) }),
          listCustomFields: { idBoard: seed.boards.roadmap },
          createCustomField: { idBoard: seed.boards.roadmap, name: "Team", type: "list", options: ["Web", "Mobile"], cardFront: false },
          listCustomFieldOptions: { idBoard: seed.boards.roadmap, idCustomField: seed.customFields.priority },
          addCustomFieldOption: { idBoard: seed.boards.roadmap, idCustomField: seed.customFields.priority, text: "Critical", color: "purple", pos: "top" },
          deleteCustomField: () => ({
            idBoard: seed.boards.roadmap,
            idCustomField: [...sim.customFields.values()].find((f) => f.name === "Team")!.id
          }),
          getCardCustomFieldValues: { idBoard: seed.boards.roadmap, idCard: seed.cards.loginRedirect },
          setCardCustomFieldValue: {
            idBoard: seed.boards.roadmap,
            idCard: seed.cards.loginRedirect,
            idCustomField: seed.customFields.estimate,
            value: { number: 3.5 }
          }
        },
        triggers: {
          newCard: { idBoard: seed.boards.roadmap, idList: seed.lists.roadmapToDo },
          cardDueSoon: { idBoard: seed.boards.roadmap, hours: 24 },
          // the webhook triggers on the factory
          cardMoved: { idBoard: seed.boards.roadmap, toList: seed.lists.roadmapDone, fromList: seed.lists.roadmapDoing },
          cardUpdated: { idBoard: seed.boards.roadmap, fields: ["name", "idList"] },
          cardArchived: { idBoard: seed.boards.roadmap, idList: seed.lists.roadmapToDo },
          commentAdded: { idBoard: seed.boards.operations, idCard: seed.cards.rotateKeys },
          labelAddedToCard: { idBoard: seed.boards.roadmap, idLabel: seed.labels.roadmap.green },
          memberAddedToCard: { idBoard: seed.boards.roadmap, idMember: seed.members.alice },
          attachmentAdded: { idBoard: seed.boards.roadmap },
          checklistItemCompleted: { idBoard: seed.boards.roadmap, idCard: seed.cards.loginRedirect },
          newList: { idBoard: seed.boards.roadmap },
          newLabel: { idBoard: seed.boards.roadmap },
          newBoardInWorkspace: { idOrganization: seed.workspaces.main },
          boardActivity: { idBoard: seed.boards.roadmap, idList: seed.lists.roadmapToDo, types: ["createCard", "updateCard"] },
          // polled
          newNotification: { types: ["mentionedOnCard", "commentCard"], onlyUnread: true, idBoard: seed.boards.roadmap }
        }
      }, callback).pipe(Effect.provide(connectedTo({ key: sim.key, token: sim.token, secret: sim.secret, baseUrl: sim.baseUrl }, recorder.layer)))
      expect(missing).toEqual([])
      expect(recorder.requests.length).toBeGreaterThan(10)
      expect(recorder.requests.flatMap((request) => contract.check(request, sim.baseUrl))).toEqual([])
      // What was sent, by operation: each one the document has.
      expect(new Set(recorder.requests.map((request) => contract.operationOf(request, sim.baseUrl))).has(undefined)).toBe(false)
      // Which operations each action and trigger sent, as operations.json has them (REFERENCE.md shows them).
      const sent = Contract.operationsSent(recorder.requests, (request) => contract.operationOf(request, sim.baseUrl))
      expect(Contract.compareOperations(operationsPath, sent)).toEqual([])
    }))
})
