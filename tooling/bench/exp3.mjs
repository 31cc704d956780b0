import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClient from "@effect/platform/HttpClient"
import { Executor, ProviderClient, Auth, RateLimiter } from "@x/core"
import { UndiciHttpClient } from "@x/http-undici"
import * as Effect from "effect/Effect"
import * as Duration from "effect/Duration"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Schema from "effect/Schema"
import { fork } from "node:child_process"
import { benchComponent } from "./dist/component.js"
const child = fork("./dist/server.js", { stdio: "inherit" })
const port = await new Promise((resolve) => child.once("message", (m) => resolve(m.port)))
const origin = `http://127.0.0.1:${port}`
const cardId = "5f1e0c0d2b3a4c5d6e7f8091"
const runtime = ManagedRuntime.make(Layer.merge(UndiciHttpClient.layer, Layer.setTracerEnabled(false)))
const http = await runtime.runPromise(HttpClient.HttpClient)
const executor = Executor.make([benchComponent])
const connection = { key: "k".repeat(30), token: "t".repeat(60), baseUrl: `${origin}/1` }
const step = { label: "Get card", name: "card", type: "benchboard/v1/getCard", parameters: { id: cardId } }
const Card = Schema.Struct({ id: Schema.String, name: Schema.String, desc: Schema.String, idBoard: Schema.String, idList: Schema.String })
const loopEffect = (eff, seconds, c = 32) => Effect.gen(function* () {
  let n = 0; const deadline = Date.now() + seconds * 1000
  const worker = Effect.whileLoop({ while: () => Date.now() < deadline, body: () => eff, step: () => { n++ } })
  const t = Date.now()
  yield* Effect.all(Array.from({ length: c }, () => worker), { concurrency: "unbounded", discard: true })
  return Math.round(n / ((Date.now() - t) / 1000))
})
const loopPromise = async (f, seconds) => { let n = 0; const deadline = Date.now() + seconds * 1000; const t = Date.now()
  await Promise.all(Array.from({ length: 32 }, async () => { while (Date.now() < deadline) { await f(); n++ } })); return Math.round(n / ((Date.now() - t) / 1000)) }
const pc = ProviderClient.makeWith(http, RateLimiter.make(), { baseUrl: `${origin}/1`, credentials: Auth.headers({ authorization: "OAuth x" }) })
const pcNoTimeout = ProviderClient.makeWith(http, RateLimiter.make(), { baseUrl: `${origin}/1`, credentials: Auth.headers({ authorization: "OAuth x" }), timeout: Duration.infinity })
const pcNoAuth = ProviderClient.makeWith(http, RateLimiter.make(), { baseUrl: `${origin}/1`, credentials: Auth.none, timeout: Duration.infinity })
const rawReq = HttpClientRequest.get(`${origin}/1/cards/${cardId}`, { headers: { authorization: "OAuth x" } })
const effects = {
  raw: Effect.flatMap(http.execute(rawReq), (r) => r.json),
  sendNoTimeout: pcNoTimeout.send({ method: "GET", path: `/cards/${cardId}` }, ProviderClient.json(Card)),
  sendNoTimeoutNoAuth: pcNoAuth.send({ method: "GET", path: `/cards/${cardId}`, headers: { authorization: "OAuth x" } }, ProviderClient.json(Card)),
  sendTextOnly: pcNoAuth.send({ method: "GET", path: `/cards/${cardId}`, headers: { authorization: "OAuth x" } }, ProviderClient.text),
  send: pc.send({ method: "GET", path: `/cards/${cardId}` }, ProviderClient.json(Card)),
  executor: executor.run(step, connection),
}
for (const [name, eff] of Object.entries(effects)) {
  if (process.argv[2] && !name.includes(process.argv[2])) continue
  await runtime.runPromise(loopEffect(eff, 1))
  const a = await runtime.runPromise(loopEffect(eff, 3))
  await loopPromise(() => runtime.runPromise(eff), 1)
  const b = await loopPromise(() => runtime.runPromise(eff), 3)
  console.log(name.padEnd(12), "effect-loop", a, "runPromise", b)
}

const { Property, Effect: _e } = await import("@x/core").then(m => ({ Property: m.Property }))
const props = { id: Property.string({ title: "Card", required: true, pattern: /^[0-9a-fA-F]{24}$/ }) }
const dec = Property.decoder(props, "getCard")
const enc = Schema.encodeUnknownEither(Card)
const readJson = ProviderClient.json(Card)
const req = { method: "GET", path: `/cards/${cardId}` }
const parts = {
  "send+decode": Effect.suspend(() => { dec({ id: cardId }); return pc.send(req, readJson) }),
  "send+provide": Effect.provideService(Effect.flatMap(ProviderClient.ProviderClient, (c) => c.send(req, readJson)), ProviderClient.ProviderClient, pc),
  "send+encode": Effect.map(pc.send(req, readJson), (o) => enc(o)),
  "send+context": Effect.flatMap(Effect.context(), () => pc.send(req, readJson)),
}
for (const [name, eff] of Object.entries(parts)) {
  await runtime.runPromise(loopEffect(eff, 1))
  console.log(name.padEnd(14), "effect-loop", await runtime.runPromise(loopEffect(eff, 3)))
}
await runtime.dispose(); child.disconnect()
