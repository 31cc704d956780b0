/** The properties of browser sessions and profiles: their ids (UUIDs) chosen from a list, a download's path. */
import { Property } from "@x/core"
import * as BrowserOptions from "../options/browsers.js"
import * as ProfileOptions from "../options/profiles.js"

const uuidPattern = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/
const browserSessionUuid = Property.patterned(uuidPattern, "must be a browser session id (a UUID)")
const profileUuid = Property.patterned(uuidPattern, "must be a profile id (a UUID)")

interface Config<R extends boolean> {
  readonly title: string
  readonly description?: string
  readonly required?: R
}

/** A browser session (its id is a UUID), chosen from the browser sessions. */
export const browserSessionId = <const R extends boolean = false>(config: Config<R>) =>
  browserSessionUuid({ ...config, dynamicOptions: BrowserOptions.browserSessions })

/** A file the chosen browser session (`sessionId`) downloaded, chosen from its downloads. */
export const browserDownloadPath = <const R extends boolean = false>(config: Config<R>) =>
  Property.string({ ...config, minLength: 1, dynamicOptions: BrowserOptions.browserDownloads })

/** A profile (its id is a UUID), chosen from the profiles: for createSession and createBrowserSession. */
export const profileId = <const R extends boolean = false>(config: Config<R>) =>
  profileUuid({ ...config, dynamicOptions: ProfileOptions.profiles })
