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
import { boardtool } from "../src/index.js"
import * as Simulator from "../src/testing/simulator.js"
import { connectedTo, executor } from "./support.js"
import * as TrelloDocument from "./trelloDocument.js"

const { seed } = Simulator

let sim: Simulator.Simulator
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

// ../shared sits beside the repository in CI and on the developers' machines.
describe.runIf(TrelloDocument.hasSpec)("every request boardtool sends, against trello-openapi.json", () => {
  it.effect("each action, options list and trigger sends only operations and parameters the document has", () =>
    Effect.gen(function*() {
      const contract = TrelloDocument.load()
      const recorder = Contract.recording(FetchHttpClient.layer)
      const callback = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`
      const { missing } = yield* Contract.exercise(executor, boardtool, {
        actions: {
          createBoard: { name: "Contract board", desc: "Checked against the document" },
          createCard: { idBoard: seed.boards.roadmap, idList: seed.lists.roadmapToDo, name: "Contract", desc: "Checked" },
          getCard: { idBoard: seed.boards.roadmap, id: seed.cards.launchPost },
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
          addCardMember: { idBoard: seed.boards.roadmap, idCard: seed.cards.launchPost, idMember: seed.members.alice },
          removeCardMember: { idBoard: seed.boards.roadmap, idCard: seed.cards.launchPost, idMember: seed.members.alice },
          listAttachments: { idBoard: seed.boards.roadmap, idCard: seed.cards.launchPost },
          getAttachment: () => ({ idBoard: seed.boards.roadmap, idCard: seed.cards.launchPost, idAttachment: [...sim.attachments.keys()].at(-1) }),
          deleteAttachment: () => ({ idBoard: seed.boards.roadmap, idCard: seed.cards.launchPost, idAttachment: [...sim.attachments.keys()].at(-1) }),
          listCustomFields: { idBoard: seed.boards.roadmap },
          createCustomField: { idBoard: seed.boards.roadmap, name: "Team", type: "list", options: ["Web", "Mobile"], cardFront: false },
          deleteCustomField: () => ({
            idBoard: seed.boards.roadmap,
            idCustomField: [...sim.customFields.values()].find((f) => f.name === "Team")!.id
          }),
          getCardCustomFieldValues: { idBoard: seed.boards.roadmap, idCard: seed.cards.launchPost },
          setCardCustomFieldValue: {
            idBoard: seed.boards.roadmap,
            idCard: seed.cards.launchPost,
            idCustomField: seed.customFields.estimate,
            value: { number: 3.5 }
          }
        },
        triggers: {
          newCard: { idBoard: seed.boards.roadmap, idList: seed.lists.roadmapToDo },
          cardDueSoon: { idBoard: seed.boards.roadmap, hours: 24 }
        }
      }, callback).pipe(Effect.provide(connectedTo({ key: sim.key, token: sim.token, secret: sim.secret, baseUrl: sim.baseUrl }, recorder.layer)))
      expect(missing).toEqual([])
      expect(recorder.requests.length).toBeGreaterThan(10)
      expect(recorder.requests.flatMap((request) => contract.check(request, sim.baseUrl))).toEqual([])
      // What was sent, by operation: each one the document has.
      expect(new Set(recorder.requests.map((request) => contract.operationOf(request, sim.baseUrl))).has(undefined)).toBe(false)
    }))
})
