/**
 * A tiny example component, "notes", declared the way every connector is: a connection, one
 * file's worth of actions, and nothing about HTTP, retries or auth beyond what it declares.
 */
import { Action, Component, Connection, Property, ProviderRequest } from "@x/core"
import * as Schema from "effect/Schema"

export const Note = Schema.Struct({ id: Schema.String, title: Schema.String, body: Schema.String })

const createNote = Action.make({
  name: "createNote",
  title: "Create Note",
  description: "Creates a note.",
  impact: "write",
  idempotent: false,
  props: {
    title: Property.string({ title: "Title", required: true, minLength: 1, maxLength: 100 }),
    body: Property.string({ title: "Body", defaultValue: "" })
  },
  output: Note,
  run: (params, { client }) =>
    client.json({
      method: "POST",
      path: "/notes",
      body: ProviderRequest.jsonBody({ title: params.title, body: params.body })
    }, Note)
})

const getNote = Action.make({
  name: "getNote",
  title: "Get Note",
  description: "Reads a note by its id.",
  impact: "read",
  props: { id: Property.string({ title: "Note", required: true, pattern: /^n\d+$/, patternMessage: "must be a note id like n1" }) },
  output: Note,
  run: (params, { client }) => client.json({ method: "GET", path: ProviderRequest.path`/notes/${params.id}` }, Note)
})

export const notes = Component.make({
  name: "notes",
  version: 1,
  title: "Notes",
  description: "An example notes service.",
  category: "Examples",
  connection: Connection.apiKey({
    title: "Notes API key",
    header: "X-Api-Key",
    client: { defaultBaseUrl: "https://notes.example/v1" },
    rateLimits: [{ scope: "key", limit: 50, interval: "1 second" }]
  }),
  actions: [createNote, getNote],
  customAction: true
})
