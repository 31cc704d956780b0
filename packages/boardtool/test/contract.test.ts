/**
 * The simulator checked against Trello's published OpenAPI document (../shared/specs): every
 * record it returns must validate against the spec's schema for that endpoint's response.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Contract from "@x/contract"
import { Ajv } from "ajv"
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import { fileURLToPath } from "node:url"
import * as Simulator from "../src/testing/simulator.js"

const specPath = fileURLToPath(new URL("../../../../shared/specs/trello/trello-openapi.json", import.meta.url))
/**
 * OpenAPI 3.0 to JSON Schema: a nullable `$ref` (whose siblings JSON Schema ignores) becomes
 * "the ref or null"; a `nullable` without a `type` (the spec has a few) is dropped.
 */
const normalize = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(normalize)
  if (typeof value !== "object" || value === null) return value
  const record = value as Record<string, unknown>
  if (typeof record["$ref"] === "string" && record["nullable"] === true) {
    return { anyOf: [{ $ref: record["$ref"] }, { type: "null" }] }
  }
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    if (key === "nullable" && !("type" in value)) continue
    out[key] = normalize(item)
  }
  return out
}
const spec = Contract.documentsPresent(specPath) ? normalize(JSON.parse(readFileSync(specPath, "utf8"))) as any : undefined
// lists, boards, search: the document's board Prefs list "org" and "board" as visibilities, but its
// own POST /boards takes (and defaults to) "private", and "public": what Trello answers too.
if (spec !== undefined) spec.components.schemas.Prefs.properties.permissionLevel.enum = ["private", "org", "public", "enterprise"]

let sim: Simulator.Simulator
beforeAll(async () => {
  sim = await Simulator.start({ rateLimits: false })
})
afterAll(() => sim.close())

// ../shared sits beside the repository in CI and on the developers' machines.
describe.runIf(spec !== undefined)("the simulator against trello-openapi.json", () => {
  // Formats ("url", "color"…) are not checked; the spec is loaded once, when a test needs it.
  let ajv: Ajv | undefined
  const compiler = () => {
    if (ajv === undefined) {
      ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false })
      ajv.addSchema(spec, "trello")
    }
    return ajv
  }
  const responseSchema = (path: string, method: string) => {
    const schema = spec.paths[path][method].responses["200"].content["application/json"].schema
    return compiler().compile(schema.$ref ? { $ref: `trello${schema.$ref}` } : { ...schema, items: { $ref: `trello${schema.items.$ref}` } })
  }
  const call = async (method: string, path: string, query: Record<string, string> = {}) => {
    const params = new URLSearchParams({ ...query, key: sim.key, token: sim.token })
    const response = await fetch(`${sim.baseUrl}${path}?${params}`, { method })
    expect(response.status).toBe(200)
    return response.json()
  }
  const check = (validate: ReturnType<typeof responseSchema>, value: unknown) => {
    const valid = validate(value)
    expect(validate.errors ?? []).toEqual([])
    expect(valid).toBe(true)
  }

  it("boards, lists, cards and webhooks validate against the spec's schemas", async () => {
    const boards = await call("GET", "/members/me/boards")
    check(responseSchema("/members/{id}/boards", "get"), boards)
    const board = boards[0]
    check(responseSchema("/boards/{id}/lists", "get"), await call("GET", `/boards/${board.id}/lists`))
    const list = (await call("GET", `/boards/${board.id}/lists`))[0]
    const card = await call("POST", "/cards", { idList: list.id, name: "Contract", desc: "Checked" })
    check(responseSchema("/cards/{id}", "get"), card)
    check(responseSchema("/cards/{id}", "get"), await call("GET", `/cards/${card.id}`))
    const created = await call("POST", "/boards/", { name: "Contract board" })
    check(responseSchema("/boards/{id}", "get"), created)
    const receiver = createServer((_, res) => res.writeHead(200).end())
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
    const callbackURL = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`
    const webhook = await call("POST", "/webhooks/", { callbackURL, idModel: list.id, description: "contract" })
    check(responseSchema("/webhooks/", "post"), webhook)
    check(responseSchema("/webhooks/{id}", "get"), await call("GET", `/webhooks/${webhook.id}`))
    await new Promise((resolve) => receiver.close(resolve))
  })

  it("a board's actions validate against the spec's Action (its endpoint declares no response schema)", async () => {
    const validate = compiler().compile({ type: "array", items: { $ref: "trello#/components/schemas/Action" } })
    const actions = await call("GET", `/boards/${Simulator.seed.boards.operations}/actions`, { limit: "1000" })
    expect(actions).toHaveLength(1000)
    check(validate, actions)
    check(validate, await call("GET", `/boards/${Simulator.seed.boards.roadmap}/actions`))
  })
})
