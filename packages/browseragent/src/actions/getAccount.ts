import { Action } from "@x/core"
import * as Billing from "../api/billing.js"

export const getAccount = Action.make({
  name: "getAccount",
  title: "Get Account",
  impact: "read",
  description: "Reads the account: credit balances, plan, and how many sessions may run at once.",
  props: {},
  output: Billing.Account,
  run: (_, { client }) => Billing.getAccount(client)
})
