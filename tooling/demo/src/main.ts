/**
 * The demo: a few workflow steps run through the @x/core executor against a loopback notes
 * service. It shows outputs, and the typed errors bad input gets before anything is sent.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Executor } from "@x/core"
import * as Effect from "effect/Effect"
import { notes } from "./notes.js"
import { API_KEY, startNotesServer } from "./server.js"

const { server, baseUrl } = await startNotesServer()
const executor = Executor.make([notes])
const connection = { apiKey: API_KEY, baseUrl }

const steps = [
  { label: "Create a note", name: "create", type: "notes/v1/createNote", parameters: { title: "Hello", body: "from the demo" } },
  { label: "Read it back", name: "read", type: "notes/v1/getNote", parameters: { id: "n1" } },
  { label: "Custom call", name: "custom", type: "notes/v1/customAction", parameters: { method: "GET", path: "/notes/n1" } },
  { label: "Bad parameters", name: "bad", type: "notes/v1/createNote", parameters: { title: "", colour: "red" } },
  { label: "Missing note", name: "missing", type: "notes/v1/getNote", parameters: { id: "n99" } },
  { label: "Leaving the base URL", name: "escape", type: "notes/v1/customAction", parameters: { method: "GET", path: "https://elsewhere.example/" } },
  { label: "Unknown action", name: "unknown", type: "notes/v1/deleteNote", parameters: {} }
]

const program = Effect.forEach(steps, (step) =>
  executor.run(step, connection).pipe(
    Effect.match({
      onSuccess: (output) => `✔ ${step.label} (${step.type})\n  ${JSON.stringify(output)}`,
      onFailure: (error) => `✘ ${step.label} (${step.type})\n  ${error._tag}: ${error.message}`
    }),
    Effect.tap((line) => Effect.sync(() => console.log(line)))
  ))

await Effect.runPromise(program.pipe(Effect.provide(NodeHttpClient.layerUndici)))
server.close()
