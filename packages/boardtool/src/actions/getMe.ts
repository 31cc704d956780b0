import { Action } from "@x/core"
import * as Members from "../api/members.js"

export const getMe = Action.make({
  name: "getMe",
  title: "Get Me",
  impact: "read",
  description: "Reads the member the token belongs to (with their email).",
  props: {},
  output: Members.Me,
  run: (_, { client }) => Members.me(client)
})
