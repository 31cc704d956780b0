/**
 * The simulated `GET /billing/account` of Browser Use v3 (AccountView): the account's balances
 * and plan, as a test sets them on `Simulator.account`, and its rate limit: the simulator's
 * `maxConcurrentSessions`, the limit past which new sessions are refused with 429. With
 * `insufficientCredits` switched on, the balances read 0, as they would for an account whose
 * tasks are refused with 402.
 */
import { Detail } from "./fastapi.js"

export interface SimulatedAccount {
  name: string | null
  readonly projectId: string
  monthlyCreditsBalanceUsd: number
  additionalCreditsBalanceUsd: number
  planName: string
  isFreeTier: boolean
  subscriptionStatus: string | null
  subscriptionId: string | null
  subscriptionCurrentPeriodEnd: string | null
}

export interface Billing {
  readonly account: SimulatedAccount
  /** Answers `GET /billing/account`; undefined for any other path. */
  readonly route: (method: string, path: string) => unknown
}

export const make = (limits: () => { readonly maxConcurrentSessions: number; readonly insufficientCredits: boolean }): Billing => {
  const account: SimulatedAccount = {
    name: "Simulated account",
    projectId: "3f6b2c1d-8e4a-4b7c-9d2e-1a5f0c3b7e9d",
    monthlyCreditsBalanceUsd: 25,
    additionalCreditsBalanceUsd: 10.5,
    planName: "Starter",
    isFreeTier: false,
    subscriptionStatus: "active",
    subscriptionId: "sub_1SimulatedStarter",
    subscriptionCurrentPeriodEnd: "2099-01-01T00:00:00Z"
  }
  const route = (method: string, path: string): unknown => {
    if (path !== "/billing/account") return undefined
    if (method !== "GET") throw new Detail(405, "Method Not Allowed")
    const { maxConcurrentSessions, insufficientCredits } = limits()
    const monthly = insufficientCredits ? 0 : account.monthlyCreditsBalanceUsd
    const additional = insufficientCredits ? 0 : account.additionalCreditsBalanceUsd
    return {
      name: account.name,
      totalCreditsBalanceUsd: monthly + additional,
      monthlyCreditsBalanceUsd: monthly,
      additionalCreditsBalanceUsd: additional,
      rateLimit: maxConcurrentSessions,
      planInfo: {
        planName: account.planName,
        subscriptionStatus: account.subscriptionStatus,
        subscriptionId: account.subscriptionId,
        subscriptionCurrentPeriodEnd: account.subscriptionCurrentPeriodEnd,
        subscriptionCanceledAt: null
      },
      isFreeTier: account.isFreeTier,
      projectId: account.projectId
    }
  }
  return { account, route }
}
