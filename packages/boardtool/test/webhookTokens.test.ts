/**
 * The simulator's webhooks are each their creating token's, as Trello's: a member's token
 * registers its own webhook on a model and callback "me" already has, and each token lists only
 * its own (what a workflow with two Trello connections serving a trigger needs).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import * as Simulator from "../src/testing/simulator.js"

let sim: Simulator.Simulator
let callback: Server
let callbackURL: string

beforeAll(async () => {
  sim = await Simulator.start({ key: "tokens-key-0123456789", token: "tokens-token-me-0123456789", rateLimits: false })
  callback = createServer((_, res) => res.end())
  await new Promise<void>((resolve) => callback.listen(0, "127.0.0.1", resolve))
  callbackURL = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/hook`
})
afterAll(async () => {
  await sim.close()
  await new Promise((resolve) => callback.close(resolve))
})

const auth = (token: string) => `key=${sim.key}&token=${token}`
const create = (token: string) =>
  fetch(`${sim.baseUrl}/webhooks?${auth(token)}&idModel=${sim.member.id}&callbackURL=${encodeURIComponent(callbackURL)}`, { method: "POST" })
const listed = async (token: string) =>
  (await (await fetch(`${sim.baseUrl}/tokens/${token}/webhooks?${auth(token)}`)).json() as Array<{ id: string }>).map((w) => w.id)

describe("the simulator's webhooks, per token", () => {
  it("each token registers and lists its own; a second one of a token on the same model and callback is refused", async () => {
    const alice = sim.memberTokens.get("alice")!
    const mine = await create(sim.token)
    expect(mine.status).toBe(200)
    const hers = await create(alice)
    expect(hers.status).toBe(200)
    const mineId = (await mine.json() as { id: string }).id
    const hersId = (await hers.json() as { id: string }).id
    expect(await listed(sim.token)).toEqual([mineId])
    expect(await listed(alice)).toEqual([hersId])
    const again = await create(alice)
    expect(again.status).toBe(400)
    expect(await again.text()).toContain("A webhook with that callback, model, and token already exists")
    const unknown = await fetch(`${sim.baseUrl}/tokens/${"f".repeat(64)}/webhooks?${auth(sim.token)}`)
    expect(unknown.status).toBe(401)
  })
})
