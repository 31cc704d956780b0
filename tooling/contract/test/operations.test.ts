/**
 * `operationsSent` groups a recording by the action or trigger that sent each request (leaving
 * out options lists), and `compareOperations` holds it against the checked-in file, naming each
 * difference, or rewrites the file under UPDATE_OPERATIONS=1.
 */
import { describe, expect, it } from "@effect/vitest"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Contract from "../src/index.js"

const sent = (method: string, path: string, member?: Contract.Member): Contract.SentRequest => ({
  method,
  url: `http://127.0.0.1:9/api${path}`,
  body: { kind: "none" },
  ...(member === undefined ? {} : { sentBy: { label: `${member.kind} ${member.name}`, member } })
})
const operationOf = (request: Contract.SentRequest) => `${request.method} ${new URL(request.url).pathname.replace(/\/\d+/g, "/{id}").slice(4)}`

const recording = [
  sent("GET", "/boards", { kind: "action", name: "getWidget", via: "options" }),
  sent("GET", "/widgets/1", { kind: "action", name: "getWidget", via: "run" }),
  sent("GET", "/widgets/1/parts", { kind: "action", name: "getWidget", via: "run" }),
  sent("GET", "/widgets/2", { kind: "action", name: "getWidget", via: "run" }),
  sent("POST", "/widgets", { kind: "action", name: "addWidget", via: "run" }),
  sent("POST", "/hooks", { kind: "trigger", name: "widgetAdded", via: "enable" }),
  sent("DELETE", "/hooks/7", { kind: "trigger", name: "widgetAdded", via: "disable" }),
  sent("GET", "/unrelated")
]

describe("Contract.operationsSent", () => {
  it("gives each action's operations in the order first sent, each trigger's by phase, without options lists or unknown senders", () => {
    expect(Contract.operationsSent(recording, operationOf)).toEqual({
      actions: { addWidget: ["POST /widgets"], getWidget: ["GET /widgets/{id}", "GET /widgets/{id}/parts"] },
      triggers: { widgetAdded: { enable: ["POST /hooks"], disable: ["DELETE /hooks/{id}"] } }
    })
  })

  it("fails, naming the request, when no operation names it", () => {
    expect(() => Contract.operationsSent(recording, () => undefined)).toThrow("GET http://127.0.0.1:9/api/widgets/1, sent by action getWidget: no operation names it")
  })
})

describe("Contract.compareOperations", () => {
  it("names each difference from the file, and rewrites the file under UPDATE_OPERATIONS=1", () => {
    const dir = mkdtempSync(join(tmpdir(), "contract-operations-"))
    try {
      const path = join(dir, "operations.json")
      const now = Contract.operationsSent(recording, operationOf)
      expect(Contract.compareOperations(path, now, { UPDATE_OPERATIONS: "1" })).toEqual([])
      expect(JSON.parse(readFileSync(path, "utf8"))).toMatchObject(now)
      expect(Contract.compareOperations(path, now, {})).toEqual([])
      writeFileSync(path, JSON.stringify({ actions: { getWidget: ["GET /widgets/{id}"], removeWidget: ["DELETE /widgets/{id}"] }, triggers: { widgetAdded: { enable: ["POST /hooks"] } } }))
      expect(Contract.compareOperations(path, now, {})).toEqual([
        "action addWidget sent POST /widgets; operations.json says nothing",
        "action getWidget sent GET /widgets/{id}, GET /widgets/{id}/parts; operations.json says GET /widgets/{id}",
        "action removeWidget sent nothing; operations.json says DELETE /widgets/{id}",
        "trigger widgetAdded (disable) sent DELETE /hooks/{id}; operations.json says nothing",
        `if that is the change you meant: run the contract test with UPDATE_OPERATIONS=1 to rewrite ${path}, then pnpm reference`
      ])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
