/** What every route module is built with: the store, and the simulator's settings it needs. */
import type { Store } from "../store.js"

export interface Context {
  readonly store: Store
  /** The one token the simulator accepts (its webhooks are listed under it). */
  readonly token: string
  /** The largest attachment it takes. */
  readonly attachmentMaxBytes: number
}
