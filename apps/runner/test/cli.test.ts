/**
 * End-to-end: the built CLI, spawned as a user would run it.
 */
import { describe, expect, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { boardtool } from "@x/boardtool"
import * as TrelloSimulator from "@x/boardtool/testing"
import { runner } from "./bin.js"

const demo = fileURLToPath(new URL("../examples/demo.json", import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "x-runner-test-"))


const workflowFile = (name: string, content: unknown) => {
  const file = join(dir, name)
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content, null, 2))
  return file
}

const step = (name: string, type: string, parameters: Record<string, unknown>) => ({ label: name, name, type, parameters })

/** A workflow of `count` reads of one seeded card. */
const readsOfOneCard = (file: string, count: number) =>
  workflowFile(file, {
    label: `${count} reads`,
    tasks: Array.from({ length: count }, (_, i) => step(`read${i}`, "boardtool/v1/getCard", { id: "5eed0000000000000000000a" }))
  })

/** A Trello simulator on this machine whose limits are too high to refuse any read. */
const unrefusingTrello = () => {
  const unrefused = { limit: 1_000_000, intervalMs: 10_000 }
  return TrelloSimulator.start({ rateLimits: { perToken: unrefused, perKey: unrefused } })
}

const trelloEnv = (sim: { readonly key: string; readonly token: string; readonly baseUrl: string }) => ({
  XRUNNER_BOARDTOOL_KEY: sim.key, XRUNNER_BOARDTOOL_TOKEN: sim.token, XRUNNER_BOARDTOOL_BASE_URL: sim.baseUrl
})

describe("x-runner run", () => {
  it("runs the demo workflow on the sandbox: the JSON contract, exit 0", async () => {
    const { code, stdout } = await runner(["run", demo, "--sandbox", "--output", "json"])
    expect(code).toBe(0)
    const result = JSON.parse(stdout)
    expect(result.status).toBe("succeeded")
    expect(result.steps.map((s: { name: string; status: string }) => `${s.name}:${s.status}`)).toEqual([
      "board:succeeded", "card:succeeded", "cardAgain:succeeded", "research:succeeded", "session:succeeded", "fulfil:succeeded", "item:succeeded"
    ])
    expect(result.steps[2].output).toEqual(result.steps[1].output)
    expect(result.steps[3].output).toMatchObject({ status: "stopped", output: { product: expect.any(String), price: expect.any(Number) } })
    expect(result.steps[5].output).toMatchObject({ orderId: "a1b-2c3", status: "fulfilled", customerInfo: { fullName: "Ada Lovelace" } })
    expect(Object.keys(result.steps[0]).sort()).toEqual(["name", "output", "status", "type"])
  })

  it("pretty output: progress on stderr, the outputs on stdout", async () => {
    const { code, stderr, stdout } = await runner(["run", demo, "--sandbox"])
    expect(code).toBe(0)
    expect(stderr).toContain("✔ fulfil succeeded in")
    expect(stdout).toContain("Demo: every action of the three components: succeeded")
  })

  it("a failing step: exit 1, its tag and message, the rest skipped; inputs from --input", async () => {
    const file = workflowFile("failing.json", {
      label: "Failing",
      inputs: { id: "5eed0000000000000000000a" },
      tasks: [
        step("first", "boardtool/v1/getCard", { id: "${inputs.id}" }),
        step("missing", "boardtool/v1/getCard", { id: "000000000000000000000000" }),
        step("never", "boardtool/v1/getCard", { id: "${first.id}" })
      ]
    })
    const { code, stdout } = await runner(["run", file, "--sandbox", "--output", "json", "--input", "id=5eed0000000000000000000b"])
    expect(code).toBe(1)
    const result = JSON.parse(stdout)
    expect(result.status).toBe("failed")
    expect(result.steps).toEqual([
      { name: "first", type: "boardtool/v1/getCard", status: "succeeded", output: expect.objectContaining({ id: "5eed0000000000000000000b", name: "Fix the login redirect" }) },
      { name: "missing", type: "boardtool/v1/getCard", status: "failed", error: { tag: "NotFound", message: "The requested resource was not found." } },
      { name: "never", type: "boardtool/v1/getCard", status: "skipped" }
    ])
  })

  it("invalid workflows of every kind: exit 2, every problem with its path, nothing run", async () => {
    const syntax = await runner(["run", workflowFile("syntax.json", "{\n  \"label\": \"x\",\n  \"tasks\": [,]\n}"), "--sandbox"])
    expect(syntax.code).toBe(2)
    expect(syntax.stderr).toMatch(/not valid JSON at line 3, column \d+/)
    const bad = await runner(["run", workflowFile("bad.json", {
      label: "Bad",
      tasks: [
        step("a", "boardtool/v1/getCard", { id: "not-hex" }),
        step("a", "boardtool/v1/teleportCard", {}),
        step("c", "nope/v1/x", {}),
        step("d", "boardtool/v1/createCard", { idList: "${later.id}", name: 5 }),
        step("later", "boardtool/v1/getCard", { id: "${inputs.missing}" }),
        step("nothing", "boardtool/v1/deleteLabel", { id: "5eed00000000000000000101" }),
        step("afterNothing", "boardtool/v1/getCard", { id: "${nothing.id}" }),
        { label: "no type", name: "e", parameters: {} }
      ]
    }), "--sandbox", "--output", "json"])
    expect(bad.code).toBe(2)
    const issues = JSON.parse(bad.stdout).issues.map((i: { path: string; message: string }) => `${i.path}: ${i.message}`)
    expect(issues).toEqual([
      "tasks[0].parameters.id: must be a Trello id (24 hexadecimal digits)",
      "tasks[1].name: \"a\" is the name of an earlier step",
      `tasks[1].type: boardtool/v1 has no action "teleportCard"; available: ${Object.keys(boardtool.actions).join(", ")}`,
      "tasks[2].type: unknown component \"nope\"; available: sitebuilder/v1, boardtool/v1, browseragent/v1, schedule/v1, http/v1",
      "tasks[3].parameters.idList: ${later.id}: \"later\" is not an earlier step",
      "tasks[3].parameters.name: must be a string",
      "tasks[4].parameters.id: ${inputs.missing}: no input \"missing\" is declared",
      "tasks[6].parameters.id: ${nothing.id}: \"nothing\" has no output",
      "tasks[7].type: is required"
    ])
    expect(bad.stderr).toContain("nothing was run")
    const shape = await runner(["run", workflowFile("shape.json", { tasks: [], extra: 1 }), "--sandbox"])
    expect(shape.code).toBe(2)
    expect(shape.stderr).toContain("label: is required")
    expect(shape.stderr).toContain("tasks: must have at least one step")
    expect(shape.stderr).toContain("extra: is not a known parameter")
  })

  it("bad arguments and missing connections: exit 2, saying what to do", async () => {
    const connections = workflowFile("connections.json", { boardtool: { key: "k-0123456789" } })
    const secretTypo = workflowFile("typo-connections.json", "{\"boardtool\": {\"token\": ATTAsecretLEAK}}")
    // Each refusal is its own process: run together, checked one by one.
    const [noWorkflow, yaml, nowhere, noConnection, partial, unknownInput, jsonRefusal, badInput, typo] = await Promise.all([
      runner(["run"]),
      runner(["run", demo, "--output", "yaml"]),
      runner(["run", join(dir, "does-not-exist.json")]),
      runner(["run", demo]),
      runner(["run", demo, "--connections", connections]),
      runner(["run", demo, "--sandbox", "--input", "colour=red"]),
      // With --output json, a refusal is one JSON document too.
      runner(["run", demo, "--output", "json"]),
      // Inputs are known before the run: a bad one is caught with the parameters.
      runner(["run", demo, "--sandbox", "--output", "json", "--input", "listId=not-an-id"]),
      runner(["run", demo, "--connections", secretTypo])
    ])
    expect(noWorkflow.code).toBe(2)
    expect(yaml.code).toBe(2)
    expect(nowhere).toMatchObject({ code: 2 })
    expect(nowhere.stderr).toContain("cannot be read")
    expect(noConnection.code).toBe(2)
    expect(noConnection.stderr).toContain("no connection for boardtool")
    expect(noConnection.stderr).toContain("XRUNNER_BOARDTOOL_KEY and XRUNNER_BOARDTOOL_TOKEN")
    expect(partial.stderr).toContain("connection boardtool: token: is required (set it under \"boardtool\" in the connections file, or in XRUNNER_BOARDTOOL_TOKEN)")
    expect(unknownInput.code).toBe(2)
    expect(unknownInput.stderr).toContain("the workflow declares no input \"colour\"")
    expect(jsonRefusal.code).toBe(2)
    expect(JSON.parse(jsonRefusal.stdout).status).toBe("invalid")
    expect(badInput.code).toBe(2)
    expect(JSON.parse(badInput.stdout).issues).toContainEqual({
      path: "tasks[1].parameters.idList",
      message: "must be a Trello id (24 hexadecimal digits) (its value comes from input \"listId\")"
    })
    expect(typo.stderr).toContain("is not valid JSON at line 1, column")
    expect(typo.stderr).not.toContain("ATTAsecret")
  })

  it("--without-rate-limits: only with --sandbox or simulators on this machine; there, more calls than Trello allows in 10 s run without waiting", async () => {
    // Real providers (their default base URLs): their rate limits are their own.
    const refused = await runner(["run", demo, "--without-rate-limits"], {
      XRUNNER_BOARDTOOL_KEY: "k", XRUNNER_BOARDTOOL_TOKEN: "t", XRUNNER_BROWSERAGENT_VALUE: "bu_x",
      XRUNNER_SITEBUILDER_CLIENT_ID: "id", XRUNNER_SITEBUILDER_CLIENT_SECRET: "secret", XRUNNER_SITEBUILDER_ACCESS_TOKEN: "token"
    })
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain("--without-rate-limits needs --sandbox or simulators on this machine")
    expect(refused.stderr).toContain("are real providers, whose rate limits are its own")
    // 120 reads of one card: over the token's 100 per 10 s, so with the limits on the 101st
    // would wait for the window, and its step would say so (`rateLimitWaitMs`, the limiter's
    // own count of its waits, whatever the machine's speed).
    const reads = readsOfOneCard("many-reads.json", 120)
    const sim = await unrefusingTrello()
    try {
      const unlimited = await runner(["run", reads, "--without-rate-limits", "--output", "json"], trelloEnv(sim))
      expect(unlimited.stderr).toBe("")
      expect(unlimited.code).toBe(0)
      const steps = JSON.parse(unlimited.stdout).steps as Array<{ status: string; output: { id: string }; rateLimitWaitMs?: number }>
      expect(steps).toHaveLength(120)
      expect(steps.every((s) => s.status === "succeeded" && s.output.id === "5eed0000000000000000000a")).toBe(true)
      expect(steps.filter((s) => s.rateLimitWaitMs !== undefined)).toEqual([])
    } finally {
      await sim.close()
    }
  })

  it("with the limits on, a step past the token's 100 reads per 10 s says how long it waited for the rate limit", async () => {
    // 101 reads of one card: the 101st waits for the first read's token, back 10 s after its answer.
    const reads = readsOfOneCard("over-the-limit.json", 101)
    const sim = await unrefusingTrello()
    try {
      const env = trelloEnv(sim)
      // Two processes, each with a limiter of its own: both wait the same window, side by side.
      const [json, pretty] = await Promise.all([runner(["run", reads, "--output", "json"], env), runner(["run", reads], env)])
      expect(json.code).toBe(0)
      const steps = JSON.parse(json.stdout).steps as Array<{ name: string; status: string; rateLimitWaitMs?: number }>
      expect(steps.every((s) => s.status === "succeeded")).toBe(true)
      expect(steps.slice(0, 100).filter((s) => s.rateLimitWaitMs !== undefined)).toEqual([])
      expect(steps[100]!.rateLimitWaitMs).toBeGreaterThan(0)
      expect(pretty.code).toBe(0)
      expect(pretty.stderr).toMatch(/✔ read100 succeeded in \d+ ms \(waited \d+\.\d s for boardtool's rate limit\)/)
      expect(pretty.stderr.split("\n").filter((line) => line.includes("waited"))).toHaveLength(1)
    } finally {
      await sim.close()
    }
  })

  it("connections from the environment; no secret in any output", async () => {
    const token = "ATTA-secret-token-that-must-not-appear-0123456789"
    const file = workflowFile("one.json", { label: "One", tasks: [step("card", "boardtool/v1/getCard", { id: "5eed0000000000000000000a" })] })
    // Nothing listens at this base URL: the step fails, and its error must not carry the credentials.
    const outcome = await runner(["run", file, "--output", "json"], {
      XRUNNER_BOARDTOOL_KEY: "key-that-must-not-appear-0123",
      XRUNNER_BOARDTOOL_TOKEN: token,
      XRUNNER_BOARDTOOL_BASE_URL: "http://127.0.0.1:9/1"
    })
    expect(outcome.code).toBe(1)
    expect(JSON.parse(outcome.stdout).steps[0].error.tag).toBe("UpstreamUnavailable")
    expect(outcome.stdout + outcome.stderr).not.toContain(token)
    expect(outcome.stdout + outcome.stderr).not.toContain("key-that-must-not-appear")
  })
})

describe("x-runner describe and options", () => {
  it("describe prints every component, or one", async () => {
    const all = await runner(["describe"])
    expect(all.code).toBe(0)
    expect(JSON.parse(all.stdout).map((c: { type: string }) => c.type)).toEqual(["sitebuilder/v1", "boardtool/v1", "browseragent/v1", "schedule/v1", "http/v1"])
    const one = JSON.parse((await runner(["describe", "boardtool/v1"])).stdout)
    expect(one.triggers.find((t: { name: string }) => t.name === "newCard")).toMatchObject({ kind: "DYNAMIC_WEBHOOK" })
    expect((await runner(["describe", "nope/v1"])).code).toBe(2)
  })

  it("options loads a dynamic list (the lists of a seeded board), and refuses a bad dependency", async () => {
    const lists = await runner(["options", "boardtool/v1/createCard", "idList", "--param", "idBoard=5eed00000000000000000002", "--sandbox"])
    expect(lists.code).toBe(0)
    expect(JSON.parse(lists.stdout)).toEqual([
      { label: "To Do", value: "5eed00000000000000000003" },
      { label: "Doing", value: "5eed00000000000000000004" },
      { label: "Done", value: "5eed00000000000000000005" }
    ])
    const bad = await runner(["options", "boardtool/v1/createCard", "idList", "--param", "idBoard=nope", "--sandbox"])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain("idBoard: must be a Trello id")
  })
})

describe("the bundled bin", () => {
  it("describes exactly what the unbundled build describes", async () => {
    const unbundled = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [fileURLToPath(new URL("../dist/main.js", import.meta.url)), "describe"], (error, stdout) =>
        error === null ? resolve(stdout) : reject(error))
    )
    const { code, stdout } = await runner(["describe"])
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toEqual(JSON.parse(unbundled))
    expect(JSON.parse(stdout).map((c: { type: string }) => c.type).sort()).toEqual(["boardtool/v1", "browseragent/v1", "http/v1", "schedule/v1", "sitebuilder/v1"])
  })
})
