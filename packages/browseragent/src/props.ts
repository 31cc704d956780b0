/** The properties the actions share: a session, a workspace, a workspace's file, a profile. */
import { Property } from "@x/core"
import * as Options from "./options.js"

const uuidPattern = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/
const uuid = Property.patterned(uuidPattern, "must be a session id (a UUID)")
const workspaceUuid = Property.patterned(uuidPattern, "must be a workspace id (a UUID)")

interface Config<R extends boolean> {
  readonly title: string
  readonly description?: string
  readonly required?: R
}

/** A session (its id is a UUID), chosen from the sessions. */
export const sessionId = <const R extends boolean = false>(config: Config<R>) =>
  uuid({ ...config, dynamicOptions: Options.sessions })

/** A workspace (its id is a UUID), chosen from the workspaces. */
export const workspaceId = <const R extends boolean = false>(config: Config<R>) =>
  workspaceUuid({ ...config, dynamicOptions: Options.workspaces })

/** A file's path in the chosen workspace (`workspaceId`), chosen from its files. */
export const workspaceFilePath = <const R extends boolean = false>(config: Config<R>) =>
  Property.string({ ...config, minLength: 1, dynamicOptions: Options.workspaceFiles })

/** A browser profile (its id is a UUID), chosen from the profiles: one definition, with the profiles' own. */
export { profileId } from "./props/browsers.js"
