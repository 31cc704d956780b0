/** The account (`GET /billing/account`, Browser Use v3): credits, plan, and its concurrency limit. */
import type { ProviderClient } from "@x/core"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { nullable } from "./shared.js"

const WireAccount = Schema.Struct({
  name: nullable(Schema.String),
  totalCreditsBalanceUsd: Schema.optional(Schema.Number),
  monthlyCreditsBalanceUsd: Schema.optional(Schema.Number),
  additionalCreditsBalanceUsd: Schema.optional(Schema.Number),
  rateLimit: Schema.optional(Schema.Number),
  planInfo: Schema.optionalWith(Schema.Struct({
    planName: Schema.optional(Schema.String),
    subscriptionStatus: nullable(Schema.String),
    subscriptionId: nullable(Schema.String),
    subscriptionCurrentPeriodEnd: nullable(Schema.String),
    subscriptionCanceledAt: nullable(Schema.String)
  }), { default: () => ({}) }),
  isFreeTier: Schema.optional(Schema.Boolean),
  projectId: Schema.String
})

/**
 * The account (AccountView): balances in USD, the plan, and how many sessions may run at once.
 * Left out, the name and the subscription's fields are null, `isFreeTier` false; the balances,
 * the rate limit and the plan's name are then absent (no number is guessed).
 */
export const Account = Schema.Struct({
  name: Schema.NullOr(Schema.String),
  projectId: Schema.String,
  totalCreditsBalanceUsd: Schema.optional(Schema.Number),
  monthlyCreditsBalanceUsd: Schema.optional(Schema.Number),
  additionalCreditsBalanceUsd: Schema.optional(Schema.Number),
  /** The account's rate limit: the sessions it may have active at once. */
  rateLimit: Schema.optional(Schema.Number),
  isFreeTier: Schema.Boolean,
  plan: Schema.Struct({
    name: Schema.optional(Schema.String),
    subscriptionStatus: Schema.NullOr(Schema.String),
    subscriptionId: Schema.NullOr(Schema.String),
    currentPeriodEnd: Schema.NullOr(Schema.String),
    canceledAt: Schema.NullOr(Schema.String)
  })
})
export type Account = typeof Account.Type

export const getAccount = (client: ProviderClient.ProviderClient) =>
  Effect.map(client.json({ method: "GET", path: "/billing/account" }, WireAccount), (wire): Account => ({
    name: wire.name ?? null,
    projectId: wire.projectId,
    totalCreditsBalanceUsd: wire.totalCreditsBalanceUsd,
    monthlyCreditsBalanceUsd: wire.monthlyCreditsBalanceUsd,
    additionalCreditsBalanceUsd: wire.additionalCreditsBalanceUsd,
    rateLimit: wire.rateLimit,
    isFreeTier: wire.isFreeTier ?? false,
    plan: {
      name: wire.planInfo.planName,
      subscriptionStatus: wire.planInfo.subscriptionStatus ?? null,
      subscriptionId: wire.planInfo.subscriptionId ?? null,
      currentPeriodEnd: wire.planInfo.subscriptionCurrentPeriodEnd ?? null,
      canceledAt: wire.planInfo.subscriptionCanceledAt ?? null
    }
  }))
