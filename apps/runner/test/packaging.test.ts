/**
 * How consumers get the packages: each component packed (`pnpm pack`) and installed with npm,
 * alone with @x/core, into an empty project outside the workspace, where a plain Node script
 * imports it and runs one action against that package's simulator.
 */
import { describe, expect, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const pnpm = join(root, "node_modules/.bin/pnpm")

const pack = (pkg: string, into: string) => {
  execFileSync(pnpm, ["pack", "--pack-destination", into], { cwd: join(root, "packages", pkg), stdio: "pipe" })
  return join(into, readdirSync(into).find((f) => f.startsWith(`x-${pkg}-`))!)
}

const scripts: Record<string, string> = {
  boardtool: `
import { boardtool } from "@x/boardtool"
import * as Simulator from "@x/boardtool/testing"
import { Connections, Executor } from "@x/core"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as Effect from "effect/Effect"
const sim = await Simulator.start()
const card = await Effect.runPromise(Executor.make([boardtool]).run(
  { label: "Card", name: "card", type: "boardtool/v1/getCard", parameters: { id: Simulator.seed.cards.launchPost } }
).pipe(Effect.provide(Connections.layer({ boardtool: { key: sim.key, token: sim.token, baseUrl: sim.baseUrl } })), Effect.provide(FetchHttpClient.layer)))
console.log(JSON.stringify(card))
await sim.close()
`,
  sitebuilder: `
import { sitebuilder } from "@x/sitebuilder"
import * as Simulator from "@x/sitebuilder/testing"
import { Connections, Executor } from "@x/core"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as Effect from "effect/Effect"
const sim = await Simulator.start()
const item = await Effect.runPromise(Executor.make([sitebuilder]).run(
  { label: "Item", name: "item", type: "sitebuilder/v1/getCollectionItem",
    parameters: { collectionId: Simulator.seed.collections.products, itemId: Simulator.seed.productItem(7) } }
).pipe(Effect.provide(Connections.layer({ sitebuilder: { clientId: sim.clientId, clientSecret: sim.clientSecret, accessToken: sim.issueToken(), baseUrl: sim.baseUrl } })), Effect.provide(FetchHttpClient.layer)))
console.log(JSON.stringify(item))
await sim.close()
`,
  browseragent: `
import { browseragent } from "@x/browseragent"
import * as Simulator from "@x/browseragent/testing"
import { Connections, Executor } from "@x/core"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as Effect from "effect/Effect"
const sim = await Simulator.start({ stepMs: 20 })
const session = await Effect.runPromise(Executor.make([browseragent]).run(
  { label: "Ask", name: "ask", type: "browseragent/v1/createSession",
    parameters: { task: "Say hello", model: "modelfamilyB-5.4-mini", outputSchema: { format: "TEXT" } } }
).pipe(Effect.provide(Connections.layer({ browseragent: { value: sim.apiKey, baseUrl: sim.baseUrl } })), Effect.provide(FetchHttpClient.layer)))
console.log(JSON.stringify(session))
await sim.close()
`
}

const expected: Record<string, (output: any) => void> = {
  boardtool: (card) => expect(card).toEqual({
    id: "5eed0000000000000000000a",
    name: "Write the launch post",
    desc: "Draft, review, publish.",
    idBoard: "5eed00000000000000000002",
    idList: "5eed00000000000000000003"
  }),
  sitebuilder: (item) => expect(item).toMatchObject({ id: "5eed00000000000000000107", fieldData: { name: "Product 7", slug: "product-7" } }),
  browseragent: (session) => expect(session).toMatchObject({ status: "created", model: "modelfamilyB-5.4-mini" })
}

describe("the packages as consumers get them", () => {
  for (const pkg of ["boardtool", "sitebuilder", "browseragent"]) {
    it(`@x/${pkg}: packed, installed with npm alone with @x/core, imported and run by a plain script`, () => {
      const dir = mkdtempSync(join(tmpdir(), `x-consumer-${pkg}-`))
      const tarballs = join(dir, "tarballs")
      mkdirSync(tarballs)
      const core = pack("core", tarballs)
      const component = pack(pkg, tarballs)
      const project = join(dir, "project")
      mkdirSync(project)
      writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }))
      execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", core, component], { cwd: project, stdio: "pipe" })
      writeFileSync(join(project, "main.mjs"), scripts[pkg]!)
      const output = execFileSync(process.execPath, ["main.mjs"], { cwd: project, encoding: "utf8" })
      expected[pkg]!(JSON.parse(output))
    }, 120_000)
  }
})
