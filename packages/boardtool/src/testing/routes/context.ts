/** What every route module is built with: the store, and the simulator's settings it needs. */
import type { Member, Store } from "../store.js"

export interface Context {
  readonly store: Store
  /** The token of "me" (the simulator's own member). */
  readonly token: string
  /** The member a token acts as: "me"'s token, or another member's (`memberTokens`). */
  readonly memberOf: (token: string) => Member | undefined
  /** The largest attachment it takes. */
  readonly attachmentMaxBytes: number
}
