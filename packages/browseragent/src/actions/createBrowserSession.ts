import { Action, Choice, Property } from "@x/core"
import * as Browsers from "../api/browsers.js"
import * as Props from "../props.js"

export const createBrowserSession = Action.make({
  name: "createBrowserSession",
  title: "Create Browser Session",
  impact: "write",
  idempotent: false,
  description: "Starts a cloud browser to drive over CDP (charged $0.02/hour upfront, unused time refunded when stopped).",
  props: {
    profileId: Props.profileId({ title: "Profile", description: "Start with this profile's cookies and logins." }),
    proxyCountryCode: Property.string({
      title: "Proxy Country",
      description: "Where the browser's proxy is (default: us); `none` for no proxy.",
      choices: [{ label: "No proxy", value: "none" }, ...Choice.of(Browsers.proxyCountryCodes)]
    }),
    timeoutMinutes: Property.integer({ title: "Timeout (minutes)", description: "Stopped after this long (default 60).", minimum: 1, maximum: 240 }),
    screenWidth: Props.screenWidth,
    screenHeight: Props.screenHeight,
    allowResizing: Property.boolean({ title: "Allow Resizing", description: "Let the browser be resized (less stealthy)." }),
    customProxy: Props.customProxy("A proxy of your own instead of Browser Use's (any active subscription)."),
    enableRecording: Property.boolean({ title: "Record", description: "Record the session; its recording URL comes once it has stopped." })
  },
  output: Browsers.BrowserSession,
  run: ({ proxyCountryCode, ...params }, { client }) =>
    Browsers.createBrowserSession(client, { ...params, proxyCountryCode: proxyCountryCode === "none" ? null : proxyCountryCode })
})
