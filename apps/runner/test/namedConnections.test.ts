/**
 * Named connections: several connections of one component in the connections file, each step
 * picking one with `connection` (examples/two-trello-accounts.json), checked before anything is
 * sent; `describe` and `options` take `--connection`.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as TrelloSimulator from "@x/boardtool/testing"
import * as WebflowSimulator from "@x/sitebuilder/testing"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { cli, freePort, runner, runStatuses, served, spawn, stallMs } from "./bin.js"

const example = fileURLToPath(new URL("../examples/two-trello-accounts.json", import.meta.url))

let sim: TrelloSimulator.Simulator
let dir: string

beforeAll(async () => {
  sim = await TrelloSimulator.start({ key: "named-key-0123456789", token: "named-token-personal-0123456789", rateLimits: false })
  dir = mkdtempSync(join(tmpdir(), "x-runner-named-"))
})
afterAll(() => sim.close())

const aliceToken = () => sim.memberTokens.get("alice")!
const connectionsFile = (name: string, values: Record<string, unknown>) => {
  const file = join(dir, `${name}.json`)
  writeFileSync(file, JSON.stringify(values))
  return file
}
const trello = (token: string) => ({ component: "boardtool", key: sim.key, token, baseUrl: sim.baseUrl })
const workflowWith = (name: string, change: (text: string) => string) => {
  const file = join(dir, `${name}.json`)
  writeFileSync(file, change(readFileSync(example, "utf8")).replace("../workflow.schema.json", "x.json"))
  return file
}

describe("named connections", () => {
  it("a workflow with two Trello connections writes a card with each: the simulator sees both credentials", async () => {
    const file = connectionsFile("two", { personal: trello(sim.token), work: trello(aliceToken()) })
    const before = sim.actions.length
    const outcome = await runner(["run", example, "--connections", file, "--output", "json"])
    expect(outcome.stderr).toBe("")
    expect(outcome.code).toBe(0)
    const steps = JSON.parse(outcome.stdout).steps as ReadonlyArray<{ name: string; output: { username?: string; id: string } }>
    expect(steps.map((step) => [step.name, step.output.username])).toEqual([
      ["personal", sim.member.username],
      ["work", "alice"],
      ["personalCard", undefined],
      ["workCard", undefined]
    ])
    // Who created each card is the member whose token the request carried.
    const created = sim.actions.slice(before).filter((action) => action.type === "createCard")
    expect(created.map((action) => [(action.data["card"] as { name: string }).name, action.idMemberCreator])).toEqual([
      [`From ${sim.member.username}`, sim.member.id],
      ["From alice", [...sim.members.values()].find((member) => member.username === "alice")!.id]
    ])
    // The tokens are in no output.
    expect(outcome.stdout).not.toContain(sim.token)
    expect(outcome.stdout).not.toContain(aliceToken())
  })

  it("on the sandbox, each named connection is another member of the simulator", async () => {
    const outcome = await runner(["run", example, "--sandbox"])
    expect(outcome.code).toBe(0)
    expect(outcome.stderr).toContain("sandbox: connection \"personal\" is Trello member alice")
    expect(outcome.stderr).toContain("sandbox: connection \"work\" is Trello member bob")
    expect(outcome.stdout).toContain("\"name\": \"From alice\"")
    expect(outcome.stdout).toContain("\"name\": \"From bob\"")
  })

  it("a connection that is not there, one of another component, or a file entry of an unknown component: exit 2 with the place, nothing sent", async () => {
    const requests = sim.stats.requests
    const onlyPersonal = connectionsFile("only-personal", {
      personal: trello(sim.token),
      site: { component: "sitebuilder", accessToken: "a-webflow-token" }
    })
    const missing = await runner(["run", example, "--connections", onlyPersonal])
    expect(missing.code).toBe(2)
    for (const place of ["tasks[1]", "tasks[3]"]) {
      expect(missing.stderr).toContain(
        `  ${place}.connection: there is no connection named "work": put {"work": {"component": "boardtool", "key": …, "token": …}} in the connections file`
      )
    }
    const ofAnother = await runner(["run", workflowWith("of-another", (text) => text.replaceAll("\"connection\": \"work\"", "\"connection\": \"site\"")), "--connections", onlyPersonal])
    expect(ofAnother.code).toBe(2)
    expect(ofAnother.stderr).toContain("  tasks[1].connection: the connection \"site\" is of sitebuilder, not boardtool\n  tasks[3].connection: the connection \"site\" is of sitebuilder, not boardtool")
    // With --output json, each is an issue at its path.
    const json = await runner(["run", example, "--connections", onlyPersonal, "--output", "json"])
    expect(json.code).toBe(2)
    expect(JSON.parse(json.stdout).issues.map((issue: { path: string }) => issue.path)).toEqual(["tasks[1].connection", "tasks[3].connection"])
    const unknown = connectionsFile("unknown", { personal: trello(sim.token), work: { ...trello(aliceToken()), component: "trelo" } })
    const unknownComponent = await runner(["run", example, "--connections", unknown])
    expect(unknownComponent.code).toBe(2)
    expect(unknownComponent.stderr).toContain(`the connections file ${unknown}: work.component: "trelo" is not a component`)
    const badName = await runner(["run", workflowWith("bad-name", (text) => text.replace("\"connection\": \"work\"", "\"connection\": \"my work\"")), "--sandbox"])
    expect(badName.code).toBe(2)
    expect(badName.stderr).toContain("tasks[1].connection: must be a connection's name")
    expect(sim.stats.requests).toBe(requests)
  })

  it("a trigger names its connection too: sample reads the provider with it", async () => {
    const file = connectionsFile("trigger", { boardtool: { key: sim.key, token: "not-a-token", baseUrl: sim.baseUrl }, work: trello(aliceToken()) })
    const dueSoon = fileURLToPath(new URL("../examples/card-due-soon.json", import.meta.url))
    const named = join(dir, "due-soon-work.json")
    const workflow = JSON.parse(readFileSync(dueSoon, "utf8"))
    workflow.triggers[0].connection = "work"
    writeFileSync(named, JSON.stringify(workflow))
    const sampled = await runner(["sample", named, "--connections", file])
    expect(sampled.stderr).toContain("sample event")
    expect(sampled.code).toBe(0)
    // The same trigger without a connection reads with the default, whose token the simulator refuses.
    const byDefault = await runner(["sample", dueSoon, "--connections", file])
    expect(byDefault.code).toBe(1)
    expect(byDefault.stderr).toContain("invalid token")
  })

  it("serve: a webhook trigger naming its connection registers, verifies and runs with it", async () => {
    // The default's token is refused: only the named connection can register the webhook.
    const file = connectionsFile("serve", {
      boardtool: { key: sim.key, token: "not-a-token", baseUrl: sim.baseUrl },
      work: { ...trello(aliceToken()), secret: sim.secret }
    })
    const workflow = join(dir, "new-card-work.json")
    writeFileSync(workflow, JSON.stringify({
      label: "Copy each new card, as the work account",
      triggers: [{
        label: "A card in To Do",
        name: "newCard",
        type: "boardtool/v1/newCard",
        connection: "work",
        parameters: { idBoard: "5eed00000000000000000002", idList: "5eed00000000000000000003" }
      }],
      tasks: [{
        label: "Copy it",
        name: "copy",
        type: "boardtool/v1/createCard",
        connection: "work",
        parameters: { idList: "5eed00000000000000000005", name: "copy of ${trigger.name}" }
      }]
    }))
    const port = await freePort()
    const dataDir = join(dir, "serve-data")
    const server = served(["serve", workflow, "--connections", file, "--public-url", `http://127.0.0.1:${port}/hooks/new-card`, "--port", String(port), "--data-dir", dataDir])
    try {
      await server.waitFor("● serving boardtool/v1/newCard")
      const created = await fetch(`${sim.baseUrl}/cards?idList=5eed00000000000000000003&name=served&key=${sim.key}&token=${sim.token}`, { method: "POST" })
      expect(created.status).toBe(200)
      const deadline = Date.now() + stallMs
      while (!runStatuses(dataDir).some((run) => run.status === "succeeded") && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
      expect(runStatuses(dataDir).map((run) => run.status)).toEqual(["succeeded"])
      const copy = sim.actions.find((action) => action.type === "createCard" && (action.data["card"] as { name: string }).name === "copy of served")
      expect(copy?.idMemberCreator).toBe([...sim.members.values()].find((member) => member.username === "alice")!.id)
    } finally {
      server.child.kill("SIGTERM")
      await server.exited
    }
  })

  it("options and describe take --connection: the named connection, not the default", async () => {
    // The default's token is refused by the simulator: only the named connection can load the boards.
    const file = connectionsFile("options", { boardtool: { key: sim.key, token: "not-a-token", baseUrl: sim.baseUrl }, work: trello(aliceToken()) })
    const named = await runner(["options", "boardtool/v1/createCard", "idBoard", "--connection", "work", "--connections", file])
    expect(named.code).toBe(0)
    expect(JSON.parse(named.stdout)).toContainEqual({ label: "Product Roadmap", value: expect.any(String) })
    const byDefault = await runner(["options", "boardtool/v1/createCard", "idBoard", "--connections", file])
    expect(byDefault.code).toBe(1)
    expect(byDefault.stderr).toContain("invalid token")
    const notThere = await runner(["options", "boardtool/v1/createCard", "idBoard", "--connection", "home", "--connections", file])
    expect(notThere.code).toBe(2)
    expect(notThere.stderr).toContain("there is no connection named \"home\"")

    const described = await runner(["describe", "--connection", "work", "--connections", file])
    expect(described.code).toBe(0)
    expect(JSON.parse(described.stdout)).toMatchObject({ type: "boardtool/v1" })
    expect(described.stderr).toContain(`connection "work": boardtool, at ${sim.baseUrl}`)
    expect(described.stderr).toContain("--connection work")
    const otherComponent = await runner(["describe", "sitebuilder/v1", "--connection", "work", "--connections", file])
    expect(otherComponent.code).toBe(2)
    expect(otherComponent.stderr).toContain("the connection \"work\" is of boardtool, not sitebuilder")
  })

  it("connect --connection writes the OAuth2 token under that name, with its component and the default's app; the default is left as it was", async () => {
    const webflow = await WebflowSimulator.start()
    try {
      const file = connectionsFile("oauth", {
        sitebuilder: {
          clientId: webflow.clientId,
          clientSecret: webflow.clientSecret,
          authorizeUrl: webflow.authorizeUrl,
          tokenUrl: webflow.tokenUrl,
          baseUrl: webflow.baseUrl,
          accessToken: "the-default-account-token"
        }
      })
      const port = await freePort()
      const child = spawn(process.execPath, [cli, "connect", "sitebuilder", "--connection", "staging", "--connections", file, "--app-url", `http://127.0.0.1:${port}`])
      const exited = new Promise<number | null>((resolve) => child.on("exit", resolve))
      let stderr = ""
      const url = await new Promise<string>((resolve) => {
        child.stderr.on("data", (c: Buffer) => {
          stderr += c.toString()
          const match = /(http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\S+)/.exec(stderr)
          if (match !== null) resolve(match[1]!)
        })
      })
      expect((await fetch(url)).status).toBe(200)
      expect(await exited).toBe(0)
      expect(stderr).toContain("Connected sitebuilder as \"staging\"")
      const stored = JSON.parse(readFileSync(file, "utf8"))
      expect(stored.sitebuilder.accessToken).toBe("the-default-account-token")
      expect(stored.staging).toMatchObject({ component: "sitebuilder", clientId: webflow.clientId, baseUrl: webflow.baseUrl })
      expect(stored.staging.accessToken).toMatch(/^[0-9a-f]{64}$/)
      // The named connection tests as configured.
      const tested = await runner(["connect", "sitebuilder", "--test", "--connection", "staging", "--connections", file])
      expect(tested.code).toBe(0)
      expect(tested.stdout).toContain("connection staging: the credentials work")
    } finally {
      await webflow.close()
    }
  })
})
