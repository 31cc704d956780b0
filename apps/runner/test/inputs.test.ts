/**
 * `--input name=value`: the value is taken as written (never read as a `${…}` reference, its
 * spaces and `=` kept), and `name=` is the empty string, refused only where the parameter it
 * fills refuses one, naming the input.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as NameValues from "../src/cli/internal/nameValues.js"
import { type RunDocument, runner } from "./bin.js"

const dir = mkdtempSync(join(tmpdir(), "x-runner-inputs-"))

// A card named and described by inputs, then updated by a step that also refers to the card's
// output: the first step's parameters are known at the check, the second's when it runs.
const workflow = join(dir, "inputs.json")
writeFileSync(
  workflow,
  JSON.stringify({
    label: "Inputs",
    inputs: { name: "A card", note: "a note" },
    tasks: [
      {
        label: "card",
        name: "card",
        type: "boardtool/v1/createCard",
        parameters: { idList: "5eed00000000000000000003", name: "${inputs.name}", desc: "note: ${inputs.note}" }
      },
      {
        label: "again",
        name: "again",
        type: "boardtool/v1/updateCard",
        parameters: { id: "${card.id}", name: "${inputs.name}", desc: "${inputs.note} (${card.idShort})" }
      }
    ]
  })
)

describe("--input", () => {
  it("reads name=value as written: everything after the first =, spaces kept; name= is the empty string", () => {
    expect(NameValues.parse("input", ["a=1", "b= x=y ", "c=", "a=2"])).toEqual(Either.right(new Map([["a", "2"], ["b", " x=y "], ["c", ""]])))
    expect(NameValues.parse("input", ["nothing"])).toEqual(Either.left("--input nothing: expected name=value (an empty value is written name=)"))
    expect(NameValues.parse("param", ["=x"])).toEqual(Either.left("--param =x: expected name=value (an empty value is written name=)"))
  })

  it("a value that looks like ${…} is a literal string, in a step known at the check and in one resolved when it runs", async () => {
    const { code, stderr, stdout } = await runner(["run", workflow, "--sandbox", "--output", "json", "--input", "name=${card.id}", "--input", "note=${x.y} ${inputs.name}"])
    expect(code, stderr).toBe(0)
    const document = JSON.parse(stdout) as RunDocument
    const [card, again] = document.steps
    expect(card!.output).toMatchObject({ name: "${card.id}", desc: "note: ${x.y} ${inputs.name}" })
    expect(again!.output).toMatchObject({ name: "${card.id}", desc: `\${x.y} \${inputs.name} (${card!.output.idShort})` })
  })

  it("name= is the empty string; refused, naming the input, only where the parameter refuses an empty value", async () => {
    const empty = await runner(["run", workflow, "--sandbox", "--output", "json", "--input", "note="])
    expect(empty.code, empty.stderr).toBe(0)
    const [card, again] = (JSON.parse(empty.stdout) as RunDocument).steps
    expect(card!.output.desc).toBe("note: ")
    expect(again!.output.desc).toBe(` (${card!.output.idShort})`)

    const refused = await runner(["run", workflow, "--sandbox", "--input", "name="])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain(`tasks[1].parameters.name: must not be empty (its value comes from input "name")`)
    expect(refused.stderr).not.toContain("default value")

    const malformed = await runner(["run", workflow, "--sandbox", "--input", "name"])
    expect(malformed.code).toBe(2)
    expect(malformed.stderr).toContain("--input name: expected name=value (an empty value is written name=)")
  })
})
