/**
 * The CLI as a user meets it: `--help` and each command's help complete, `--version`, and no
 * ANSI escapes when the output is piped (as it is here).
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { runner } from "./bin.js"

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }


const commands: Record<string, { readonly summary: string; readonly example: string; readonly describes: ReadonlyArray<string> }> = {
  run: {
    summary: "Run a workflow's tasks in order, stopping at the first failed step",
    example: "$ x-runner run examples/demo.json --sandbox",
    describes: ["<workflow.json>", "The workflow file", "--connections", "A JSON file of connections", "--sandbox", "embedded simulators", "--sandbox-fault \"COMPONENT METHOD PATH STATUS xTIMES\"", "make a simulator fail on purpose", "--without-rate-limits", "load tests", "--input", "an input the workflow declares", "--output", "one document {status, steps}", "--serve TRIGGER-WORKFLOW.json", "serve this workflow's trigger in the same process", "--serve-wait DURATION", "how long the run waits, after its tasks", "--files-dir DIR", "default: the current directory", "--allow-private-networks", "loopback, private, link-local"]
  },
  serve: {
    summary: "Enable the triggers of a workflow (or of a directory's workflows) and run their tasks once per event on the durable engine",
    example: "$ x-runner serve examples/new-card.json --sandbox --public-url",
    describes: [
      "<workflow.json|directory>", "--public-url URL", "the URL the provider sends deliveries to", "--poll-interval DURATION", "how often to poll",
      "--port", "The port to listen on", "--host", "behind a load balancer", "--data-dir", "embedded database", "--database postgres://…",
      "--concurrency", "--runner-address HOST:PORT", "--input", "--sandbox-fault \"COMPONENT METHOD PATH STATUS xTIMES\"", "--files-dir DIR", "none: path inputs and downloads are refused", "--allow-private-networks"
    ]
  },
  sample: {
    summary: "Print sample events of the workflow's trigger",
    example: "$ x-runner sample examples/card-due-soon.json --sandbox",
    describes: ["<workflow.json>", "The workflow file", "--connections", "--sandbox", "--input"]
  },
  describe: {
    summary: "Print the components' definitions",
    example: "$ x-runner describe boardtool/v1",
    describes: ["<type>", "A component's type or name"]
  },
  options: {
    summary: "Load the dynamic option list of a property",
    example: "$ x-runner options boardtool/v1/createCard idList --param",
    describes: ["<type>", "The step type of an action or trigger", "<property>", "The property whose options to load", "a property group whose fields to load", "--param", "a property the list or the fields depend on"]
  },
  runs: {
    summary: "List the runs serve keeps",
    example: "$ x-runner runs --status failed",
    describes: ["--status", "--workflow", "--limit", "newest first", "--data-dir", "--database postgres://…", "--output"]
  },
  connect: {
    summary: "Connect an OAuth2 component",
    example: "$ x-runner connect sitebuilder",
    describes: ["<component>", "The component to connect with OAuth2", "--connections", "the token is written into it", "--app-url URL", "redirect URI"]
  },
  schema: {
    summary: "Print the JSON Schema (2020-12) of workflow files",
    example: "$ x-runner schema --output workflow.schema.json",
    describes: ["--output FILE", "Write the schema to this file instead of stdout", "names it in \"$schema\""]
  }
}

// What @effect/cli says of every value of a kind, which its usage says already.
const fillers = ["A user-defined piece of text", "A true or false value.", "An integer.", "A file.", "A directory.", "One of the following:"]

describe("x-runner help", () => {
  it("--help lists every command with its one line and an example, without escapes when piped", async () => {
    const { code, stderr, stdout } = await runner(["--help"])
    expect(code).toBe(0)
    expect(stderr).toBe("")
    expect(stdout).not.toContain("\x1b[")
    expect(stdout).toContain("Exit codes: 0 ok, 1 a step failed, 2 invalid workflow or arguments")
    // One title line, with the version of the runner's package.json; the usage names the program.
    const lines = stdout.split("\n")
    expect(lines[0]).toBe(`x-runner ${version}`)
    expect(lines.filter((line) => line.startsWith("x-runner"))).toHaveLength(1)
    expect(stdout).toContain("\n$ x-runner <command> ")
    for (const filler of fillers) expect(stdout, filler).not.toContain(filler)
    // The HTTP trigger's example: an HTTP-started workflow on the sandbox.
    expect(stdout).toContain("$ x-runner serve examples/http-request.json --sandbox --public-url http://127.0.0.1:8787/hooks/http-request")
    // A workflow calling another, run without being recorded.
    expect(stdout).toContain("$ x-runner run examples/call-a-workflow.json --sandbox --no-history")
    const listed = stdout.slice(stdout.indexOf("COMMANDS"), stdout.indexOf("EXAMPLES"))
    for (const [name, { example, summary }] of Object.entries(commands)) {
      expect(listed).toMatch(new RegExp(`- ${name} .*${summary.replace(/[()']/g, ".")}`))
      expect(stdout.slice(stdout.indexOf("EXAMPLES"))).toContain(example)
    }
  })

  it("each command's --help describes every argument and option, its own example only, with no filler and no escapes", async () => {
    for (const [name, { describes, example }] of Object.entries(commands)) {
      const { code, stdout } = await runner([name, "--help"])
      expect(code, name).toBe(0)
      expect(stdout, name).not.toContain("\x1b[")
      for (const filler of fillers) expect(stdout, `${name}: ${filler}`).not.toContain(filler)
      for (const text of describes) expect(stdout, `${name}: ${text}`).toContain(text)
      expect(stdout.split("\n")[0], name).toBe(`x-runner ${version}`)
      expect(stdout, name).toContain(`\n$ x-runner ${name} `)
      expect(stdout.slice(stdout.indexOf("EXAMPLES")), name).toContain(example)
      for (const [other, { example }] of Object.entries(commands)) {
        if (other !== name) expect(stdout, `${name} shows the example of ${other}`).not.toContain(example)
      }
    }
  })

  it("NO_COLOR and a piped stderr: an argument error has no escapes either; --version prints the version", async () => {
    const wrong = await runner(["run", "--output", "yaml", "x.json"], { NO_COLOR: "1" })
    expect(wrong.code).toBe(2)
    expect(wrong.stderr + wrong.stdout).not.toContain("\x1b[")
    expect(wrong.stderr).toContain("Expected one of the following cases: pretty, json")
    const shown = await runner(["--version"])
    expect(shown).toMatchObject({ code: 0, stdout: `${version}\n` })
  })
})
