/**
 * The demo: a few workflow steps run through the @x/core executor against a loopback notes
 * service. It shows outputs, and the typed errors bad input gets before anything is sent.
 */
import { Executor } from "@x/core"
import { UndiciHttpClient } from "@x/http-undici"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
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
      onFailure: (error) =>
        `✘ ${step.label} (${step.type})\n  ${error._tag}: ${error.message}${
          "request" in error && error.request !== undefined ? ` [${error.request.method} ${error.request.path}]` : ""
        }`
    }),
    Effect.tap((line) => Effect.sync(() => console.log(line)))
  ))

// What the runner provides: the undici HttpClient, and no tracer (nothing exports spans).
await Effect.runPromise(program.pipe(Effect.provide(Layer.merge(UndiciHttpClient.layer, Layer.setTracerEnabled(false)))))
server.close()
