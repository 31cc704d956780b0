/**
 * Trello's published OpenAPI document (../shared/specs), with what Trello takes and the
 * document leaves out.
 */
import * as Contract from "@x/contract"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"

export const specPath = fileURLToPath(new URL("../../../../shared/specs/trello/trello-openapi.json", import.meta.url))
export const hasSpec = existsSync(specPath)

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
  }
]

// --- cards ---

/** Ids separated by commas, or nothing (which clears the list). */
const idList = { type: "string", pattern: "^([0-9a-fA-F]{24}(,[0-9a-fA-F]{24})*)?$" } as const

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

export const load = () => Contract.load(specPath, [...amendments, ...cardAmendments])
