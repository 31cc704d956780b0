import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { fileURLToPath } from "node:url"
import * as Contract from "../src/index.js"

const contract = Contract.load(fileURLToPath(new URL("./fixtures/trelloish.json", import.meta.url)))
const BASE = "http://127.0.0.1:9999/1"
const ID = "61a0f0f0f0f0f0f0f0f0f011"
const none = { kind: "none" } as const
const form = (fields: Record<string, ReadonlyArray<string>>) => ({ kind: "form", fields }) as const

describe("Contract.check", () => {
  it("a conforming request has no problems; its operation is the most literal template that matches", () => {
    expect(contract.check({ method: "GET", url: `${BASE}/boards/${ID}/lists?filter=open&key=k`, body: none }, BASE)).toEqual([])
    expect(contract.operationOf({ method: "GET", url: `${BASE}/boards/${ID}/lists`, body: none }, BASE)).toBe("GET /boards/{id}/lists")
    expect(contract.operationOf({ method: "GET", url: `${BASE}/boards/${ID}/name`, body: none }, BASE)).toBe("GET /boards/{id}/{field}")
  })

  it("an unknown operation, an unknown parameter, a bad value, a missing required parameter are each named", () => {
    expect(contract.check({ method: "DELETE", url: `${BASE}/boards/${ID}/lists`, body: none }, BASE)).toEqual([
      "DELETE /boards/" + ID + "/lists: no such operation in the document"
    ])
    expect(contract.check({ method: "GET", url: `${BASE}/boards/${ID}/lists?filter=mine&fields=name`, body: none }, BASE)).toEqual([
      expect.stringMatching(/^GET \/boards\/\{id\}\/lists: query parameter filter="mine": .*allowed values/),
      "GET /boards/{id}/lists: query parameter fields is not in the document"
    ])
    expect(contract.check({ method: "GET", url: `${BASE}/boards/42/lists`, body: none }, BASE)).toEqual([
      expect.stringMatching(/path parameter id="42": .*pattern/)
    ])
    expect(contract.check({ method: "POST", url: `${BASE}/cards?name=x`, body: none }, BASE)).toEqual([
      "POST /cards: the required query parameter idList is missing"
    ])
  })

  it("a form or JSON body stands for the parameters where the document declares no body; numbers and arrays coerced", () => {
    expect(contract.check({ method: "POST", url: `${BASE}/cards`, body: form({ idList: [ID], pos: ["16384"], idMembers: [`${ID},${ID}`] }) }, BASE)).toEqual([])
    expect(contract.check({ method: "POST", url: `${BASE}/cards`, body: form({ idList: [ID], pos: ["middle"] }) }, BASE)).toEqual([
      expect.stringMatching(/query parameter pos="middle"/)
    ])
    expect(contract.check({ method: "POST", url: `${BASE}/cards`, body: { kind: "json", value: { idList: ID, idMembers: ["nope"] } } }, BASE)).toEqual([
      expect.stringMatching(/query parameter idMembers="nope"/)
    ])
  })

  it("a declared body is validated against its schema, nullable included; a missing required body is named", () => {
    expect(contract.check({ method: "POST", url: `${BASE}/items`, body: { kind: "json", value: { name: "a", note: null } } }, BASE)).toEqual([])
    expect(contract.check({ method: "POST", url: `${BASE}/items`, body: { kind: "json", value: { title: "a" } } }, BASE)).toEqual([
      expect.stringMatching(/^POST \/items: body: .*required property 'name'.*additional properties/)
    ])
    expect(contract.check({ method: "POST", url: `${BASE}/items`, body: none }, BASE)).toEqual(["POST /items: the document requires a body; none was sent"])
    expect(contract.check({ method: "POST", url: `${BASE}/items`, body: form({ name: ["a"] }) }, BASE)).toEqual([
      "POST /items: a application/x-www-form-urlencoded body, but the document takes application/json"
    ])
  })

  it("an amendment's body replaces the document's JSON body schema, and is checked as strictly", () => {
    const amended = Contract.load(fileURLToPath(new URL("./fixtures/trelloish.json", import.meta.url)), [{
      operation: "POST /items",
      parameters: [],
      body: { type: "object", required: ["name"], additionalProperties: false, properties: { name: { type: "string" }, tags: { type: "array", items: { type: "string" } } } },
      reason: "the provider takes tags"
    }])
    const withTags = { method: "POST", url: `${BASE}/items`, body: { kind: "json", value: { name: "a", tags: ["x"] } } } as const
    expect(contract.check(withTags, BASE)).toEqual([expect.stringMatching(/additional properties/)])
    expect(amended.check(withTags, BASE)).toEqual([])
    expect(amended.check({ method: "POST", url: `${BASE}/items`, body: { kind: "json", value: { name: "a", tags: "x" } } }, BASE)).toEqual([
      expect.stringMatching(/^POST \/items: body: .*tags must be array/)
    ])
  })

  it.effect("recording: every request sent through the layer, with its query and its decoded body", () =>
    Effect.gen(function*() {
      const answer = Layer.succeed(
        HttpClient.HttpClient,
        HttpClient.make((request) => Effect.succeed(HttpClientResponse.fromWeb(request, new Response("{}"))))
      )
      const recorder = Contract.recording(answer)
      yield* Effect.gen(function*() {
        const client = yield* HttpClient.HttpClient
        yield* client.execute(HttpClientRequest.post(`${BASE}/cards`).pipe(HttpClientRequest.setUrlParam("key", "k"), HttpClientRequest.bodyUrlParams({ idList: ID })))
        yield* client.execute(HttpClientRequest.post(`${BASE}/items`).pipe(HttpClientRequest.bodyUnsafeJson({ name: "a" })))
        const formData = new FormData()
        formData.append("name", "x")
        formData.append("file", new Blob(["bytes"]), "a.txt")
        yield* client.execute(HttpClientRequest.post(`${BASE}/cards`).pipe(HttpClientRequest.bodyFormData(formData)))
      }).pipe(Effect.provide(recorder.layer))
      expect(recorder.requests).toEqual([
        { method: "POST", url: `${BASE}/cards?key=k`, body: { kind: "form", fields: { idList: [ID] } } },
        { method: "POST", url: `${BASE}/items`, body: { kind: "json", value: { name: "a" } } },
        { method: "POST", url: `${BASE}/cards`, body: { kind: "multipart", fields: { name: ["x"], file: [Contract.FILE] } } }
      ])
      expect(recorder.requests.flatMap((request) => contract.check(request, BASE))).toEqual([
        "POST /cards: the required query parameter idList is missing",
        "POST /cards: query parameter file is not in the document"
      ])
    }))
})
