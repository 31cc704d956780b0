import { Action, Property } from "@x/core"
import * as Members from "../api/members.js"

export const getMember = Action.make({
  name: "getMember",
  title: "Get Member",
  impact: "read",
  description: "Reads a member by id or username.",
  props: {
    idMember: Property.string({
      title: "Member",
      description: "The member's id, or their username.",
      required: true,
      pattern: /^(?:[0-9a-fA-F]{24}|[a-z0-9_]{3,100})$/,
      patternMessage: "must be a Trello id (24 hexadecimal digits) or a username (lowercase letters, digits, underscores)"
    })
  },
  output: Members.Member,
  run: ({ idMember }, { client }) => Members.member(client, idMember)
})
