/** The properties the actions share: ids (UUIDs) chosen from their lists, a workspace's file, a browser's download. */
import { Files, Property } from "@x/core"
import * as BrowserOptions from "./options/browsers.js"
import * as ProfileOptions from "./options/profiles.js"
import * as RunOptions from "./options/runs.js"
import * as SessionOptions from "./options/sessions.js"
import * as WorkspaceOptions from "./options/workspaces.js"

const uuidPattern = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/
const uuid = Property.patterned(uuidPattern, "must be a session id (a UUID)")
const workspaceUuid = Property.patterned(uuidPattern, "must be a workspace id (a UUID)")
const browserSessionUuid = Property.patterned(uuidPattern, "must be a browser session id (a UUID)")
const profileUuid = Property.patterned(uuidPattern, "must be a profile id (a UUID)")
const runUuid = Property.patterned(uuidPattern, "must be a run id (a UUID)")
const runSessionUuid = Property.patterned(uuidPattern, "must be a V4 session id (a UUID)")

interface Config<R extends boolean> {
  readonly title: string
  readonly description?: string
  readonly required?: R
}

/** A session (its id is a UUID), chosen from the sessions. */
export const sessionId = <const R extends boolean = false>(config: Config<R>) =>
  uuid({ ...config, dynamicOptions: SessionOptions.sessions })

/** A workspace (its id is a UUID), chosen from the workspaces. */
export const workspaceId = <const R extends boolean = false>(config: Config<R>) =>
  workspaceUuid({ ...config, dynamicOptions: WorkspaceOptions.workspaces })

/** A file's path in the chosen workspace (`workspaceId`), chosen from its files. */
export const workspaceFilePath = <const R extends boolean = false>(config: Config<R>) =>
  Property.string({ ...config, minLength: 1, dynamicOptions: WorkspaceOptions.workspaceFiles })

/** A browser session (its id is a UUID), chosen from the browser sessions. */
export const browserSessionId = <const R extends boolean = false>(config: Config<R>) =>
  browserSessionUuid({ ...config, dynamicOptions: BrowserOptions.browserSessions })

/** A file the chosen browser session (`sessionId`) downloaded, chosen from its downloads. */
export const browserDownloadPath = <const R extends boolean = false>(config: Config<R>) =>
  Property.string({ ...config, minLength: 1, dynamicOptions: BrowserOptions.browserDownloads })

/** Where a download is written, and whether it may replace a file: core's download inputs. */
export const download = {
  to: Files.downloadInputs.saveTo,
  overwrite: Files.downloadInputs.overwrite,
  maxBytes: Files.downloadInputs.maxBytes
}

/** A profile (its id is a UUID), chosen from the profiles: for createSession and createBrowserSession. */
export const profileId = <const R extends boolean = false>(config: Config<R>) =>
  profileUuid({ ...config, dynamicOptions: ProfileOptions.profiles })

/** A V4 run (its id is a UUID), chosen from the runs. */
export const runId = <const R extends boolean = false>(config: Config<R>) =>
  runUuid({ ...config, dynamicOptions: RunOptions.runs })

/** A V4 session (its id is a UUID), chosen from the V4 sessions. */
export const runSessionId = <const R extends boolean = false>(config: Config<R>) =>
  runSessionUuid({ ...config, dynamicOptions: RunOptions.runSessions })

/** A proxy of the user's own instead of Browser Use's (any active subscription); its password a secret. */
export const customProxy = (description: string) =>
  Property.object({
    title: "Custom Proxy",
    description,
    properties: {
      host: Property.string({ title: "Host", required: true, minLength: 1, maxLength: 255 }),
      port: Property.integer({ title: "Port", required: true, minimum: 1, maximum: 65_535 }),
      username: Property.string({ title: "Username", minLength: 1, maxLength: 255 }),
      password: Property.secret({ title: "Password", minLength: 1, maxLength: 255 }),
      ignoreCertErrors: Property.boolean({ title: "Ignore Certificate Errors" })
    }
  })

/** The browser's screen, in pixels, within the sizes Browser Use takes. */
export const screenWidth = Property.integer({ title: "Screen Width (px)", minimum: 320, maximum: 6144 })
export const screenHeight = Property.integer({ title: "Screen Height (px)", minimum: 320, maximum: 3456 })
