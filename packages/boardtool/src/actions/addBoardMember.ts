import { Action, Choice, Property } from "@x/core"
import * as Members from "../api/members.js"
import * as BoardOptions from "../options/boards.js"
import * as Props from "../props/shared.js"

export const addBoardMember = Action.make({
  name: "addBoardMember",
  title: "Add Member to Board",
  impact: "write", idempotent: false,
  description: "Adds a Trello member to a board (or changes their role), or invites someone by email.",
  props: {
    idBoard: Props.trelloId({ title: "Board", required: true, dynamicOptions: BoardOptions.boards }),
    idMember: Props.trelloId({ title: "Member", description: "A Trello member's id (or give an email)." }),
    email: Property.string({
      title: "Email",
      description: "Invites this address instead (Trello makes an unconfirmed member when it has none).",
      pattern: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
      patternMessage: "must be an email address"
    }),
    fullName: Property.string({ title: "Full name", description: "The invitee's name (with an email).", minLength: 1, maxLength: 16384 }),
    type: Property.string({ title: "Role", choices: Choice.of(Members.roles), defaultValue: "normal" })
  },
  validate: ({ email, fullName, idMember }) => [
    ...((idMember === undefined) === (email === undefined) ? [{ path: "idMember", message: "give either a member id or an email" }] : []),
    ...(fullName !== undefined && email === undefined ? [{ path: "fullName", message: "a full name goes with an email invitation" }] : [])
  ],
  output: Members.BoardMembers,
  run: ({ email, fullName, idBoard, idMember, type }, { client }) =>
    email === undefined
      ? Members.addBoardMember(client, idBoard, idMember!, type ?? "normal")
      : Members.inviteBoardMember(client, idBoard, { email, type: type ?? "normal", fullName })
})
