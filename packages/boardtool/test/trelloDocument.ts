/**
 * Trello's published OpenAPI document (../shared/specs), with what Trello takes and the
 * document leaves out.
 */
import * as Contract from "@x/contract"
import { fileURLToPath } from "node:url"

export const specPath = fileURLToPath(new URL("../../../../shared/specs/trello/trello-openapi.json", import.meta.url))
export const hasSpec = Contract.documentsPresent(specPath)

const cardFields = {
  in: "query",
  name: "fields",
  schema: { type: "string", pattern: "^(all|[a-zA-Z]+(,[a-zA-Z]+)*)$" }
} as const

export const amendments: ReadonlyArray<Contract.Amendment> = [
  {
    operation: "GET /members/{id}/boards",
    // The parameter's own description: "The ID or username of the member"; `me` is the token's member.
    parameters: [{ in: "path", name: "id", schema: { anyOf: [{ $ref: "#/components/schemas/TrelloID" }, { type: "string", pattern: "^(me|[a-z0-9_]{3,})$" }] } }],
    reason: "the document describes the id as \"the ID or username\" but types it as an id only"
  },
  {
    operation: "GET /boards/{id}/cards",
    parameters: [cardFields],
    reason: "a nested resource takes its model's fields (Trello's Nested Resources guide, which the operation links)"
  },
  {
    operation: "GET /lists/{id}/cards",
    parameters: [cardFields],
    reason: "a nested resource takes its model's fields (Trello's Nested Resources guide)"
  },
  {
    operation: "GET /cards/{id}/attachments/{idAttachment}/download/{fileName}",
    adds: true,
    parameters: [
      { in: "path", name: "id", schema: { $ref: "#/components/schemas/TrelloID" } },
      { in: "path", name: "idAttachment", schema: { $ref: "#/components/schemas/TrelloID" } },
      { in: "path", name: "fileName", schema: { type: "string", minLength: 1 } }
    ],
    reason: "an uploaded attachment's bytes: its `url` (which the document's Attachment has) points here, and it takes the OAuth header only"
  },
  // lists, boards, search
  {
    operation: "GET /members/{id}/organizations",
    parameters: [{ in: "path", name: "id", schema: { anyOf: [{ $ref: "#/components/schemas/TrelloID" }, { type: "string", pattern: "^(me|[a-z0-9_]{3,})$" }] } }],
    reason: "as for a member's boards: the parameter is \"the ID or username of the member\", and `me` is the token's member"
  },
  // --- members, custom fields ---
  {
    operation: "GET /members/{id}",
    parameters: [
      { in: "path", name: "id", schema: { anyOf: [{ $ref: "#/components/schemas/TrelloID" }, { type: "string", pattern: "^(me|[a-z0-9_]{3,})$" }] } },
      { in: "query", name: "fields", schema: { type: "string", pattern: "^(all|[a-zA-Z]+(,[a-zA-Z]+)*)$" } }
    ],
    reason: "the id is \"the ID or username\" (a oneOf that an id matches twice), and fields is \"`all` or a comma-separated list of member fields\" (its MemberFields enum lists only `id`)"
  },
  {
    operation: "POST /customFields",
    parameters: [],
    body: {
      type: "object",
      additionalProperties: false,
      required: ["idModel", "modelType", "name", "type", "pos"],
      properties: {
        idModel: { $ref: "#/components/schemas/TrelloID" },
        modelType: { enum: ["board"] },
        name: { type: "string", minLength: 1 },
        type: { enum: ["checkbox", "list", "number", "text", "date"] },
        pos: { $ref: "#/components/schemas/posStringOrNumber" },
        display_cardFront: { type: "boolean" },
        options: {
          type: "array",
          items: {
            type: "object",
            additionalProperties: false,
            required: ["value"],
            properties: {
              value: { type: "object", additionalProperties: false, required: ["text"], properties: { text: { type: "string" } } },
              color: { type: "string" },
              pos: { type: "number" }
            }
          }
        }
      }
    },
    reason: "a list field's options are objects ({value: {text}, color, pos}), as Trello's Custom Fields guide creates them; the document types them as a string"
  },
  {
    operation: "PUT /cards/{idCard}/customField/{idCustomField}/item",
    parameters: [],
    body: {
      oneOf: [
        {
          type: "object",
          additionalProperties: false,
          required: ["value"],
          properties: {
            value: {
              anyOf: [
                { const: "" },
                {
                  type: "object",
                  additionalProperties: false,
                  minProperties: 1,
                  maxProperties: 1,
                  properties: {
                    text: { type: "string" },
                    number: { type: "string", pattern: "^-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?$" },
                    date: { type: "string", format: "date-time" },
                    checked: { enum: ["true", "false"] }
                  }
                }
              ]
            }
          }
        },
        {
          type: "object",
          additionalProperties: false,
          required: ["idValue"],
          properties: { idValue: { anyOf: [{ $ref: "#/components/schemas/TrelloID" }, { const: "" }] } }
        }
      ]
    },
    reason: "Trello's Custom Fields guide sends every value as text ({\"number\": \"42\"}, {\"checked\": \"true\"}) and a list option as idValue; the document's oneOf of two objects without required keys matches most bodies twice"
  },
  // --- notifications, a list field's options ---
  {
    operation: "GET /members/{id}/notifications",
    parameters: [{ in: "path", name: "id", schema: { anyOf: [{ $ref: "#/components/schemas/TrelloID" }, { type: "string", pattern: "^(me|[a-z0-9_]{3,})$" }] } }],
    reason: "as for a member's boards: the parameter is \"the ID or username of the member\", and `me` is the token's member (only whose notifications a token reads)"
  },
  {
    operation: "POST /customFields/{id}/options",
    parameters: [],
    body: {
      type: "object",
      additionalProperties: false,
      required: ["value"],
      properties: {
        value: { type: "object", additionalProperties: false, required: ["text"], properties: { text: { type: "string", minLength: 1 } } },
        color: { enum: ["none", "green", "yellow", "orange", "red", "purple", "blue", "sky", "lime", "pink", "black"] },
        pos: { $ref: "#/components/schemas/posStringOrNumber" }
      }
    },
    reason: "the document gives the operation no body at all; an option is {value: {text}, color, pos}, as the options of POST /customFields (Trello's Custom Fields guide), its colour one of the document's Color or none"
  }
]

// --- cards ---

/** Ids separated by commas, or nothing (which clears the list). */
const idList = { type: "string", pattern: "^([0-9a-fA-F]{24}(,[0-9a-fA-F]{24})*)?$" } as const

// --- triggers ---
export const triggerAmendments: ReadonlyArray<Contract.Amendment> = [
  {
    operation: "GET /organizations/{id}/actions",
    parameters: [
      { in: "query", name: "filter", schema: { type: "string", pattern: "^(all|[a-zA-Z]+(,[a-zA-Z]+)*)$" } },
      { in: "query", name: "limit", schema: { type: "integer", minimum: 0, maximum: 1000 } }
    ],
    reason: "a workspace's actions are a nested action list like a board's (Trello's Nested Resources guide): the same filter (action types) and limit; the document lists only the id"
  }
]

export const cardAmendments: ReadonlyArray<Contract.Amendment> = [
  {
    operation: "POST /cards",
    parameters: [{
      in: "query",
      name: "keepFromSource",
      schema: { type: "string", pattern: "^(all|(attachments|checklists|comments|customFields|due|start|labels|members|stickers)(,(attachments|checklists|comments|customFields|due|start|labels|members|stickers))*)$" }
    }],
    reason: "the parameter's own description: \"`all` or comma-separated list of: attachments,checklists,…\", but its schema is a single enum value"
  },
  {
    operation: "GET /cards/{id}",
    parameters: [{ in: "query", name: "attachments", schema: { type: "string", enum: ["true", "false", "cover"] } }],
    reason: "the document types it as a string that must also be one of the enum [cover] or a boolean (no value passes both); its description: \"`true`, `false`, or `cover`\""
  },
  {
    operation: "PUT /cards/{id}",
    parameters: [{ in: "query", name: "idMembers", schema: idList }, { in: "query", name: "idLabels", schema: idList }],
    reason: "described as \"Comma-separated list of member (label) IDs\" but typed as one id; an empty list removes them all"
  }
]

export const load = () => Contract.load(specPath, [...amendments, ...cardAmendments, ...triggerAmendments])
