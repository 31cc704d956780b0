/**
 * The calls of the per-call table, each through every client that can make it: a step of
 * ours (the executor with parameter decoding, auth, rate limiter and retry policy in place),
 * the provider's official SDK, a bare `fetch` and a raw undici `Pool.request` of the same
 * request. Every client checks what it got, so a failing one cannot look fast.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import { boardtool } from "@x/boardtool"
import { browseragent } from "@x/browseragent"
import { Client as TypedClient, Component, Connections, Executor, type RateLimiter } from "@x/core"
import { UndiciHttpClient } from "@x/http-undici"
import { sitebuilder } from "@x/sitebuilder"
import { BrowserUse } from "browser-use-sdk/v3"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import { TrelloClient } from "trello.js"
import { setFlagsFromString } from "node:v8"
import { Pool } from "undici"
import { WebflowClient } from "webflow-api"
import { type Measurement, measureFibers, measurePromises } from "./measure.js"
import type { Providers } from "./simulators.js"

export const OURS = "@x/core step, fibers (runner)"
export const OURS_PROMISE = "@x/core step, runPromise per call"
export const TYPED_PROMISE = "typed client, Promise (Boardtool.client)"
export const FETCH = "bare fetch"
export const UNDICI = "raw undici Pool.request"

export interface Client {
  readonly name: string
  readonly run: (concurrency: number, seconds: number) => Promise<Measurement>
}

export interface CallBench {
  readonly title: string
  readonly clients: ReadonlyArray<Client>
}

// Sized so that it is consulted on every call without ever making one wait.
const unlimited: ReadonlyArray<RateLimiter.RateLimit> = [
  { scope: "token", limit: 50_000, interval: "1 second" },
  { scope: "key", limit: 50_000, interval: "1 second" }
]

const expect = (what: string, ok: boolean, got: unknown) => {
  if (!ok) throw new Error(`${what}: unexpected response ${JSON.stringify(got).slice(0, 300)}`)
  return got
}

/**
 * The V8 flag x-runner's bin sets where steps run (apps/runner/src/bin.ts), set for the bench's
 * whole process at its start: every client and part in it runs under it alike (a library user's
 * process keeps V8's default).
 */
export const RUNNER_V8_FLAG = "--no-allocation-site-pretenuring"
export const asTheRunnersProcess = () => setFlagsFromString(RUNNER_V8_FLAG)

/** The executor of the three components, each with the limits above. */
export const benchExecutor = () =>
  Executor.make([boardtool, sitebuilder, browseragent].map((c) => Component.withRateLimits(c, unlimited)))

/** The three components' connections to the simulators. */
export const connectionsOf = (p: Providers) => ({
  boardtool: { key: p.trello.key, token: p.trello.token, baseUrl: p.trello.baseUrl },
  sitebuilder: {
    clientId: p.webflow.clientId,
    clientSecret: p.webflow.clientSecret,
    accessToken: p.webflow.accessToken,
    baseUrl: p.webflow.baseUrl
  },
  browseragent: { value: p.browserUse.apiKey, baseUrl: p.browserUse.baseUrl }
})

/**
 * The runner's runtime: an HttpClient implementation, the opened connections over it, and no
 * tracer (nothing exports spans).
 */
export const runtimeOf = (p: Providers, http: Layer.Layer<HttpClient.HttpClient>) =>
  ManagedRuntime.make(Layer.merge(Connections.layer(connectionsOf(p)).pipe(Layer.provideMerge(http)), Layer.setTracerEnabled(false)))

/** The HttpClient in context alone: a GET of `url` and its JSON. */
export const httpAlone = (url: string, headers: Record<string, string>) =>
  Effect.flatMap(HttpClient.HttpClient, (http) => Effect.flatMap(http.get(url, { headers }), (response) => response.json))

export const makeCalls = (p: Providers) => {
  const executor = benchExecutor()
  const connections = connectionsOf(p)
  const lean = runtimeOf(p, UndiciHttpClient.layer)
  const platform = runtimeOf(p, NodeHttpClient.layerUndici)
  const step = (type: string, parameters: Record<string, unknown>, check: (out: any) => boolean) =>
    Effect.map(executor.run({ label: type, name: "step", type, parameters }), (out) => expect(type, check(out), out))

  const pools = new Map<string, Pool>()
  const poolFor = (origin: string) => {
    if (!pools.has(origin)) pools.set(origin, new Pool(origin, { connections: 64, pipelining: 1 }))
    return pools.get(origin)!
  }
  /** The same request through bare fetch and raw undici. */
  const plain = (
    url: string,
    init: { method: "GET" | "POST"; headers: Record<string, string>; body?: string },
    check: (body: any) => boolean
  ): ReadonlyArray<Client> => {
    const { origin, pathname, search } = new URL(url)
    const pool = poolFor(origin)
    const viaFetch = async () => {
      const response = await fetch(url, init)
      const body = await response.json()
      return expect(FETCH, response.ok && check(body), body)
    }
    const viaUndici = async () => {
      const { body, statusCode } = await pool.request({ ...init, path: pathname + search })
      const json = await body.json()
      return expect(UNDICI, statusCode < 300 && check(json), json)
    }
    return [
      { name: FETCH, run: (c, s) => measurePromises(viaFetch, c, s) },
      { name: UNDICI, run: (c, s) => measurePromises(viaUndici, c, s) }
    ]
  }
  const fibers = <E>(call: Effect.Effect<unknown, E, HttpClient.HttpClient | Connections.Connections>): Client => ({
    name: OURS,
    run: (c, s) => measureFibers(lean, call, c, s)
  })
  const sdk = (name: string, call: () => Promise<unknown>): Client => ({ name, run: (c, s) => measurePromises(call, c, s) })

  // --- Trello -------------------------------------------------------------------------------
  const trelloAuth = `OAuth oauth_consumer_key="${p.trello.key}", oauth_token="${p.trello.token}"`
  const trelloJs = new TrelloClient({ key: p.trello.key, token: p.trello.token })
  // trello.js fixes its base URL to api.trello.com; its axios instance is the one place to change it.
  ;(trelloJs as unknown as { instance: { defaults: { baseURL: string } } }).instance.defaults.baseURL = p.trello.baseUrl
  const isCard = (card: any) => card?.id === p.trello.cardId
  const isNewCard = (card: any) => card?.idList === p.trello.listId && card?.name === "Load"
  const getCard = step("boardtool/v1/getCard", { id: p.trello.cardId }, isCard)
  // What a consumer writes: the typed Promise client, on its default HttpClient (@x/http-undici here).
  const trello = TypedClient.make(Component.withRateLimits(boardtool, unlimited)).client(connections.boardtool)
  const typedGetCard = async () => {
    const card = await trello.getCard({ id: p.trello.cardId })
    return expect(TYPED_PROMISE, isCard(card), card)
  }

  // --- Webflow ------------------------------------------------------------------------------
  const webflow = new WebflowClient({ accessToken: p.webflow.accessToken, baseUrl: p.webflow.baseUrl })
  const isItem = (item: any) => item?.id === p.webflow.itemId
  const itemUrl = `${p.webflow.baseUrl}/collections/${p.webflow.collectionId}/items/${p.webflow.itemId}`

  // --- Browser Use --------------------------------------------------------------------------
  const browserUse = new BrowserUse({ apiKey: p.browserUse.apiKey, baseUrl: p.browserUse.baseUrl })
  const isSession = (session: any) => session?.id === p.browserUse.sessionId

  const calls: ReadonlyArray<CallBench> = [
    {
      title: "boardtool getCard: GET /1/cards/{id}",
      clients: [
        fibers(getCard),
        { name: OURS_PROMISE, run: (c, s) => measurePromises(() => lean.runPromise(getCard), c, s) },
        { name: TYPED_PROMISE, run: (c, s) => measurePromises(typedGetCard, c, s) },
        { name: "@x/core step, fibers, platform-node layerUndici", run: (c, s) => measureFibers(platform, getCard, c, s) },
        { name: "HttpClient alone (@x/http-undici)", run: (c, s) => measureFibers(lean, httpAlone(`${p.trello.baseUrl}/cards/${p.trello.cardId}`, { authorization: trelloAuth }), c, s) },
        sdk("trello.js (official SDK)", async () => {
          const card = await trelloJs.cards.getCard({ id: p.trello.cardId })
          return expect("trello.js", isCard(card), card)
        }),
        ...plain(`${p.trello.baseUrl}/cards/${p.trello.cardId}`, { method: "GET", headers: { authorization: trelloAuth, accept: "application/json" } }, isCard)
      ]
    },
    {
      title: "boardtool createCard: POST /1/cards (form body)",
      clients: [
        fibers(step("boardtool/v1/createCard", { idList: p.trello.listId, name: "Load" }, isNewCard)),
        sdk("trello.js (official SDK)", async () => {
          const card = await trelloJs.cards.createCard({ idList: p.trello.listId, name: "Load" })
          return expect("trello.js", isNewCard(card), card)
        }),
        ...plain(`${p.trello.baseUrl}/cards`, {
          method: "POST",
          headers: { authorization: trelloAuth, accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ idList: p.trello.listId, name: "Load" }).toString()
        }, isNewCard)
      ]
    },
    {
      title: "sitebuilder getCollectionItem: GET /v2/collections/{id}/items/{id}",
      clients: [
        fibers(step("sitebuilder/v1/getCollectionItem", { collectionId: p.webflow.collectionId, itemId: p.webflow.itemId }, isItem)),
        { name: "HttpClient alone (@x/http-undici)", run: (c, s) => measureFibers(lean, httpAlone(itemUrl, { authorization: `Bearer ${p.webflow.accessToken}`, accept: "application/json" }), c, s) },
        sdk("webflow-api (official SDK)", async () => {
          const item = await webflow.collections.items.getItem(p.webflow.collectionId, p.webflow.itemId)
          return expect("webflow-api", isItem(item), item)
        }),
        ...plain(itemUrl, { method: "GET", headers: { authorization: `Bearer ${p.webflow.accessToken}`, accept: "application/json" } }, isItem)
      ]
    },
    {
      title: "browseragent getSession: GET /api/v3/sessions/{id}",
      clients: [
        fibers(step("browseragent/v1/getSession", { sessionId: p.browserUse.sessionId }, isSession)),
        sdk("browser-use-sdk (official SDK)", async () => {
          const session = await browserUse.sessions.get(p.browserUse.sessionId)
          return expect("browser-use-sdk", isSession(session), session)
        }),
        ...plain(`${p.browserUse.baseUrl}/sessions/${p.browserUse.sessionId}`, {
          method: "GET",
          headers: { "x-browser-use-api-key": p.browserUse.apiKey, accept: "application/json" }
        }, isSession)
      ]
    }
  ]
  const close = async () => {
    await trello.close()
    await lean.dispose()
    await platform.dispose()
    await Promise.all([...pools.values()].map((pool) => pool.close()))
  }
  return { calls, close }
}
