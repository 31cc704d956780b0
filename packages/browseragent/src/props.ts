/** The properties the actions share: a session. */
import { Property } from "@x/core"
import * as Options from "./options.js"

const uuid = Property.patterned(
  /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
  "must be a session id (a UUID)"
)

/** A session (its id is a UUID), chosen from the sessions. */
export const sessionId = <const R extends boolean = false>(config: { readonly title: string; readonly description?: string; readonly required?: R }) =>
  uuid({ ...config, dynamicOptions: Options.sessions })
