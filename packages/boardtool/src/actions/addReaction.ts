import { Action, Property } from "@x/core"
import * as Comments from "../api/comments.js"
import * as Props from "../props/shared.js"
import * as Content from "../props/content.js"

export const addReaction = Action.make({
  name: "addReaction",
  title: "Add Reaction to Comment",
  impact: "write", idempotent: false,
  description: "Reacts to a comment with an emoji, given by its short name (thumbsup) or its unified code (1F44D).",
  props: {
    idBoard: Props.idBoard,
    idCard: Content.cardToChooseFrom,
    idAction: Content.idComment,
    shortName: Property.string({ title: "Emoji short name", description: "e.g. thumbsup, heart, tada.", pattern: /^[a-z0-9_+-]+$/, patternMessage: "must be an emoji short name, e.g. thumbsup" }),
    unified: Property.string({ title: "Emoji code", description: "The emoji's unified code, e.g. 1F44D.", pattern: /^[0-9A-Fa-f]{4,6}(-[0-9A-Fa-f]{4,6})*$/, patternMessage: "must be a unified emoji code, e.g. 1F44D" })
  },
  validate: ({ shortName, unified }) =>
    (shortName === undefined) === (unified === undefined) ? [{ path: "shortName", message: "give either a short name or a unified code" }] : [],
  output: Comments.Reaction,
  run: ({ idAction, shortName, unified }, { client }) => Comments.addReaction(client, idAction, { shortName, unified })
})
